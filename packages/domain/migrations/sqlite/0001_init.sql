create table `issue_link_types` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null, `outward_name` text not null, `inward_name` text not null, `directed` integer not null default false, `aggregation` integer not null default false);
create unique index `issue_link_types_name_key_unique` on `issue_link_types` (`name_key`);

create table `permissions` (`key` text not null primary key, `description` text not null);

create table `roles` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null, `description` text not null default '');
create unique index `roles_name_key_unique` on `roles` (`name_key`);

create table `role_permissions` (`role_id` integer not null, `permission_key` text not null, primary key (`role_id`, `permission_key`), constraint `role_permissions_role_id_foreign` foreign key (`role_id`) references `roles` (`id`) on update cascade on delete cascade, constraint `role_permissions_permission_key_foreign` foreign key (`permission_key`) references `permissions` (`key`) on update cascade on delete cascade);
create index `role_permissions_role_id_index` on `role_permissions` (`role_id`);
create index `role_permissions_permission_key_index` on `role_permissions` (`permission_key`);

create table `users` (`id` integer not null primary key autoincrement, `login` text not null, `login_key` text not null, `full_name` text not null, `email` text null, `email_key` text null, `password_hash` text null, `type` text check (`type` in ('user', 'root', 'guest', 'system', 'workflow', 'service')) not null default 'user', `context_folder` text null, `created_at` datetime not null);
create unique index `users_login_key_unique` on `users` (`login_key`);
create index `users_email_key_index` on `users` (`email_key`);

create table `sessions` (`id_hash` text not null primary key, `user_id` integer not null, `created_at` datetime not null, `expires_at` datetime not null, constraint `sessions_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `sessions_user_id_index` on `sessions` (`user_id`);
create index `sessions_expires_at_index` on `sessions` (`expires_at`);

create table `projects` (`id` integer not null primary key autoincrement, `short_name` text not null, `short_name_key` text not null, `name` text not null, `name_key` text not null, `description` text not null default '', `lead_id` integer not null, `starting_number` integer not null default 1, `next_number` integer not null default 1, `created_at` datetime not null, constraint `projects_lead_id_foreign` foreign key (`lead_id`) references `users` (`id`));
create unique index `projects_short_name_key_unique` on `projects` (`short_name_key`);
create unique index `projects_name_key_unique` on `projects` (`name_key`);
create index `projects_lead_id_index` on `projects` (`lead_id`);

create table `role_grants` (`id` integer not null primary key autoincrement, `user_id` integer not null, `role_id` integer not null, `project_id` integer null, `scope_key` text not null, constraint `role_grants_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade, constraint `role_grants_role_id_foreign` foreign key (`role_id`) references `roles` (`id`) on delete cascade, constraint `role_grants_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade);
create index `role_grants_user_id_index` on `role_grants` (`user_id`);
create index `role_grants_role_id_index` on `role_grants` (`role_id`);
create index `role_grants_project_id_index` on `role_grants` (`project_id`);
create unique index `role_grants_user_id_role_id_scope_key_unique` on `role_grants` (`user_id`, `role_id`, `scope_key`);

create table `permanent_tokens` (`id` integer not null primary key autoincrement, `user_id` integer not null, `name` text not null, `secret_hash` text not null, `created_at` datetime not null, `last_used_at` datetime null, constraint `permanent_tokens_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `permanent_tokens_user_id_index` on `permanent_tokens` (`user_id`);
create unique index `permanent_tokens_user_id_name_unique` on `permanent_tokens` (`user_id`, `name`);

create table `issues` (`id` integer not null primary key autoincrement, `project_id` integer not null, `number_in_project` integer not null, `summary` text not null, `description` text not null default '', `reporter_id` integer not null, `created_at` datetime not null, `updated_at` datetime not null, constraint `issues_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade, constraint `issues_reporter_id_foreign` foreign key (`reporter_id`) references `users` (`id`));
create index `issues_project_id_index` on `issues` (`project_id`);
create index `issues_reporter_id_index` on `issues` (`reporter_id`);
create unique index `issues_project_id_number_in_project_unique` on `issues` (`project_id`, `number_in_project`);

create table `issue_links` (`id` integer not null primary key autoincrement, `type_id` integer not null, `source_id` integer not null, `target_id` integer not null, `created_at` datetime not null, constraint `issue_links_type_id_foreign` foreign key (`type_id`) references `issue_link_types` (`id`) on delete cascade, constraint `issue_links_source_id_foreign` foreign key (`source_id`) references `issues` (`id`) on delete cascade, constraint `issue_links_target_id_foreign` foreign key (`target_id`) references `issues` (`id`) on delete cascade);
create index `issue_links_type_id_index` on `issue_links` (`type_id`);
create index `issue_links_source_id_index` on `issue_links` (`source_id`);
create index `issue_links_target_id_index` on `issue_links` (`target_id`);
create unique index `issue_links_type_id_source_id_target_id_unique` on `issue_links` (`type_id`, `source_id`, `target_id`);
