-- Notifications (issue 39): the outbox of changes, messages and their deliveries, webhooks,
-- users' channels and subscriptions; banned users, a project's notification group, and the
-- user fields whose users are told as assignees (the seeded Assignee is one).
create table `installation_keys` (`name` text not null primary key, `value` text not null);

create table `notification_events` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `project_id` integer not null, `author_id` integer not null, `kinds` text not null, `payload` text not null, `quiet` integer not null default false, `created_at` bigint not null, `status` text check (`status` in ('pending', 'processing', 'done')) not null default 'pending', `lease_until` bigint null, `claim_token` text null, `attempts` integer not null default 0);
create index `notification_events_claimable_index` on `notification_events` (`id`) where status in ('pending', 'processing');

create table `notification_subscriptions` (`id` integer not null primary key autoincrement, `user_id` integer not null, `saved_search_id` integer null, `tag_id` integer null, constraint `notification_subscriptions_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade, constraint `notification_subscriptions_saved_search_id_foreign` foreign key (`saved_search_id`) references `saved_searches` (`id`) on delete cascade, constraint `notification_subscriptions_tag_id_foreign` foreign key (`tag_id`) references `tags` (`id`) on delete cascade);
create index `notification_subscriptions_saved_search_id_index` on `notification_subscriptions` (`saved_search_id`);
create index `notification_subscriptions_tag_id_index` on `notification_subscriptions` (`tag_id`);
create unique index `notification_subscriptions_user_id_saved_search_id_unique` on `notification_subscriptions` (`user_id`, `saved_search_id`);
create unique index `notification_subscriptions_user_id_tag_id_unique` on `notification_subscriptions` (`user_id`, `tag_id`);

create table `notification_settings` (`id` integer not null primary key autoincrement, `user_id` integer not null, `email_mode` text check (`email_mode` in ('off', 'each', 'digest')) not null default 'each', `email_digest_minutes` integer not null default 60, `inapp_mode` text check (`inapp_mode` in ('off', 'each', 'digest')) not null default 'each', `inapp_digest_minutes` integer not null default 60, `own_changes` integer not null default false, constraint `notification_settings_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `notification_settings_user_id_index` on `notification_settings` (`user_id`);
create unique index `notification_settings_user_id_unique` on `notification_settings` (`user_id`);

create table `notification_messages` (`id` integer not null primary key autoincrement, `user_id` integer not null, `channel` text check (`channel` in ('email', 'inapp')) not null, `digest` integer not null default false, `issue_id` integer null, `system` text null, `status` text check (`status` in ('pending', 'sending', 'sent', 'skipped', 'failed')) not null default 'pending', `lease_until` bigint null, `claim_token` text null, `attempts` integer not null default 0, `created_at` bigint not null, `sent_at` bigint null, `read_at` bigint null, `error` text null, constraint `notification_messages_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `notification_messages_user_id_channel_id_index` on `notification_messages` (`user_id`, `channel`, `id`);
create index `notification_messages_claimable_index` on `notification_messages` (`id`) where status in ('pending', 'sending');

create table `notification_deliveries` (`id` integer not null primary key autoincrement, `event_id` integer not null, `user_id` integer not null, `channel` text check (`channel` in ('email', 'inapp')) not null, `group_key` text not null, `issue_id` integer not null, `digest` integer not null default false, `due_at` bigint not null, `message_id` integer null, constraint `notification_deliveries_event_id_foreign` foreign key (`event_id`) references `notification_events` (`id`) on delete cascade, constraint `notification_deliveries_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade, constraint `notification_deliveries_message_id_foreign` foreign key (`message_id`) references `notification_messages` (`id`) on delete cascade);
create index `notification_deliveries_user_id_index` on `notification_deliveries` (`user_id`);
create index `notification_deliveries_message_id_index` on `notification_deliveries` (`message_id`);
create index `notification_deliveries_waiting_index` on `notification_deliveries` (`group_key`, `due_at`) where message_id is null;
create unique index `notification_deliveries_event_id_user_id_channel_unique` on `notification_deliveries` (`event_id`, `user_id`, `channel`);

create table `webhooks` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null, `url` text not null, `secret` text not null, `kinds` text not null, `owner_id` integer not null, `enabled` integer not null default true, `disabled_reason` text null, `created_at` bigint not null, constraint `webhooks_owner_id_foreign` foreign key (`owner_id`) references `users` (`id`) on delete cascade);
create unique index `webhooks_name_key_unique` on `webhooks` (`name_key`);
create index `webhooks_owner_id_index` on `webhooks` (`owner_id`);

create table `webhook_deliveries` (`id` integer not null primary key autoincrement, `webhook_id` integer not null, `event_id` integer not null, `status` text check (`status` in ('pending', 'sending', 'delivered', 'failed', 'skipped')) not null default 'pending', `lease_until` bigint not null default '0', `claim_token` text null, `attempts` integer not null default 0, `payload` text null, `created_at` bigint not null, `first_attempt_at` bigint null, `delivered_at` bigint null, `last_status` integer null, `last_error` text null, constraint `webhook_deliveries_webhook_id_foreign` foreign key (`webhook_id`) references `webhooks` (`id`) on delete cascade, constraint `webhook_deliveries_event_id_foreign` foreign key (`event_id`) references `notification_events` (`id`) on delete cascade);
create index `webhook_deliveries_event_id_index` on `webhook_deliveries` (`event_id`);
create index `webhook_deliveries_claimable_index` on `webhook_deliveries` (`lease_until`) where status in ('pending', 'sending');
create unique index `webhook_deliveries_webhook_id_event_id_unique` on `webhook_deliveries` (`webhook_id`, `event_id`);

create table `webhook_attempts` (`id` integer not null primary key autoincrement, `delivery_id` integer not null, `at` bigint not null, `status_code` integer null, `error` text null, `duration_ms` integer not null, `redelivery` integer not null default false, constraint `webhook_attempts_delivery_id_foreign` foreign key (`delivery_id`) references `webhook_deliveries` (`id`) on delete cascade);
create index `webhook_attempts_delivery_id_index` on `webhook_attempts` (`delivery_id`);

create table `webhook_projects` (`id` integer not null primary key autoincrement, `webhook_id` integer not null, `project_id` integer not null, constraint `webhook_projects_webhook_id_foreign` foreign key (`webhook_id`) references `webhooks` (`id`) on delete cascade, constraint `webhook_projects_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade);
create index `webhook_projects_project_id_index` on `webhook_projects` (`project_id`);
create unique index `webhook_projects_webhook_id_project_id_unique` on `webhook_projects` (`webhook_id`, `project_id`);

alter table `custom_fields` add column `is_assignee` integer not null default false;

alter table `users` add column `banned` integer not null default false;

alter table `projects` add column `notification_group_id` integer null constraint `projects_notification_group_id_foreign` references `user_groups` (`id`) on delete set null;
create index `projects_notification_group_id_index` on `projects` (`notification_group_id`);

update `custom_fields` set `is_assignee` = true where `name_key` = 'assignee' and `kind` = 'user';
