create table `vcs_integrations` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null, `host` text check (`host` in ('github', 'gitlab', 'bitbucket')) not null, `repository` text not null, `api_key_hash` text not null, `secret` text null, `branches` text not null default '', `committers_role_id` integer null, `service_user_id` integer not null, `created_at` datetime not null, constraint `vcs_integrations_committers_role_id_foreign` foreign key (`committers_role_id`) references `roles` (`id`) on delete set null, constraint `vcs_integrations_service_user_id_foreign` foreign key (`service_user_id`) references `users` (`id`));
create unique index `vcs_integrations_name_key_unique` on `vcs_integrations` (`name_key`);
create unique index `vcs_integrations_api_key_hash_unique` on `vcs_integrations` (`api_key_hash`);
create index `vcs_integrations_committers_role_id_index` on `vcs_integrations` (`committers_role_id`);
create index `vcs_integrations_service_user_id_index` on `vcs_integrations` (`service_user_id`);

create table `vcs_deliveries` (`id` integer not null primary key autoincrement, `integration_id` integer not null, `delivery_key` text not null, `event` text not null, `received_at` bigint not null, `status` text check (`status` in ('pending', 'processing', 'done', 'failed')) not null default 'pending', `lease_until` bigint null, `claim_token` text null, `attempts` integer not null default 0, `commit_count` integer not null, `payload` text not null, `error` text null, `finished_at` bigint null, constraint `vcs_deliveries_integration_id_foreign` foreign key (`integration_id`) references `vcs_integrations` (`id`) on delete cascade);
create index `vcs_deliveries_integration_id_index` on `vcs_deliveries` (`integration_id`);
create index `vcs_deliveries_status_lease_until_index` on `vcs_deliveries` (`status`, `lease_until`);
create unique index `vcs_deliveries_integration_id_delivery_key_unique` on `vcs_deliveries` (`integration_id`, `delivery_key`);

create table `vcs_effects` (`id` integer not null primary key autoincrement, `integration_id` integer not null, `commit_sha` text not null, `issue_id` integer not null, `command_key` text not null, `command` text not null, `status` text check (`status` in ('applied', 'skipped', 'failed')) not null, `reason` text null, `actor_id` integer null, `delivery_id` integer null, `created_at` bigint not null, constraint `vcs_effects_integration_id_foreign` foreign key (`integration_id`) references `vcs_integrations` (`id`) on delete cascade, constraint `vcs_effects_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `vcs_effects_actor_id_foreign` foreign key (`actor_id`) references `users` (`id`) on delete set null, constraint `vcs_effects_delivery_id_foreign` foreign key (`delivery_id`) references `vcs_deliveries` (`id`) on delete set null);
create index `vcs_effects_integration_id_index` on `vcs_effects` (`integration_id`);
create index `vcs_effects_issue_id_index` on `vcs_effects` (`issue_id`);
create index `vcs_effects_actor_id_index` on `vcs_effects` (`actor_id`);
create index `vcs_effects_delivery_id_index` on `vcs_effects` (`delivery_id`);
create unique index `vcs_effects_integration_id_commit_sha_issue_id_command_key_unique` on `vcs_effects` (`integration_id`, `commit_sha`, `issue_id`, `command_key`);

create table `vcs_changes` (`id` integer not null primary key autoincrement, `integration_id` integer null, `issue_id` integer not null, `commit_sha` text not null, `url` text not null, `author_name` text not null, `author_email` text null, `message` text not null, `committed_at` text not null, `branch` text not null, `delivery_id` integer null, `committer_id` integer null, `comment_author_id` integer null, `note` text null, `created_at` bigint not null, constraint `vcs_changes_integration_id_foreign` foreign key (`integration_id`) references `vcs_integrations` (`id`) on delete set null, constraint `vcs_changes_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `vcs_changes_delivery_id_foreign` foreign key (`delivery_id`) references `vcs_deliveries` (`id`) on delete set null, constraint `vcs_changes_committer_id_foreign` foreign key (`committer_id`) references `users` (`id`) on delete set null, constraint `vcs_changes_comment_author_id_foreign` foreign key (`comment_author_id`) references `users` (`id`) on delete set null);
create index `vcs_changes_integration_id_index` on `vcs_changes` (`integration_id`);
create index `vcs_changes_issue_id_index` on `vcs_changes` (`issue_id`);
create index `vcs_changes_delivery_id_index` on `vcs_changes` (`delivery_id`);
create index `vcs_changes_committer_id_index` on `vcs_changes` (`committer_id`);
create index `vcs_changes_comment_author_id_index` on `vcs_changes` (`comment_author_id`);
create unique index `vcs_changes_integration_id_commit_sha_issue_id_unique` on `vcs_changes` (`integration_id`, `commit_sha`, `issue_id`);

create table `vcs_integration_projects` (`id` integer not null primary key autoincrement, `integration_id` integer not null, `project_id` integer not null, constraint `vcs_integration_projects_integration_id_foreign` foreign key (`integration_id`) references `vcs_integrations` (`id`) on delete cascade, constraint `vcs_integration_projects_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade);
create index `vcs_integration_projects_integration_id_index` on `vcs_integration_projects` (`integration_id`);
create index `vcs_integration_projects_project_id_index` on `vcs_integration_projects` (`project_id`);
create unique index `vcs_integration_projects_integration_id_project_id_unique` on `vcs_integration_projects` (`integration_id`, `project_id`);
