-- Issue 11: attachments (bytes in the attachment store, by content hash), work items, work types, time tracking settings.
create table `time_tracking_settings` (`id` integer not null primary key autoincrement, `hours_per_day` integer not null default 8, `days_per_week` integer not null default 5);
create table `project_time_tracking` (`id` integer not null primary key autoincrement, `project_id` integer not null, `enabled` integer not null default false, `estimate_field` text null, `time_spent_field` text null, constraint `project_time_tracking_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade);
create index `project_time_tracking_project_id_index` on `project_time_tracking` (`project_id`);
create unique index `project_time_tracking_project_id_unique` on `project_time_tracking` (`project_id`);
create table `issue_attachments` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `name` text not null, `content_hash` text not null, `size` integer not null, `content_type` text not null, `author_id` integer not null, `group_name` text null, `created_at` datetime not null, constraint `issue_attachments_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_attachments_author_id_foreign` foreign key (`author_id`) references `users` (`id`) on delete cascade);
create index `issue_attachments_issue_id_index` on `issue_attachments` (`issue_id`);
create index `issue_attachments_content_hash_index` on `issue_attachments` (`content_hash`);
create index `issue_attachments_author_id_index` on `issue_attachments` (`author_id`);
create table `work_types` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null);
create unique index `work_types_name_key_unique` on `work_types` (`name_key`);
create table `work_items` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `author_id` integer not null, `date` datetime not null, `duration` integer not null, `description` text not null default '', `work_type_id` integer null, `created_at` datetime not null, constraint `work_items_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `work_items_author_id_foreign` foreign key (`author_id`) references `users` (`id`) on delete cascade, constraint `work_items_work_type_id_foreign` foreign key (`work_type_id`) references `work_types` (`id`) on delete set null);
create index `work_items_issue_id_index` on `work_items` (`issue_id`);
create index `work_items_author_id_index` on `work_items` (`author_id`);
create index `work_items_work_type_id_index` on `work_items` (`work_type_id`);
