create table `tags` (`id` integer not null primary key autoincrement, `owner_id` integer not null, `name` text not null, `name_key` text not null, `shared` integer not null default false, `created_at` datetime not null, constraint `tags_owner_id_foreign` foreign key (`owner_id`) references `users` (`id`) on delete cascade);
create index `tags_owner_id_index` on `tags` (`owner_id`);
create index `tags_name_key_index` on `tags` (`name_key`);
create unique index `tags_owner_id_name_key_unique` on `tags` (`owner_id`, `name_key`);

create table `saved_searches` (`id` integer not null primary key autoincrement, `owner_id` integer not null, `name` text not null, `name_key` text not null, `query` text not null, `shared` integer not null default false, `created_at` datetime not null, constraint `saved_searches_owner_id_foreign` foreign key (`owner_id`) references `users` (`id`) on delete cascade);
create index `saved_searches_owner_id_index` on `saved_searches` (`owner_id`);
create index `saved_searches_name_key_index` on `saved_searches` (`name_key`);
create unique index `saved_searches_owner_id_name_key_unique` on `saved_searches` (`owner_id`, `name_key`);

create table `project_fields` (`id` integer not null primary key autoincrement, `project_id` integer not null, `name` text not null, `name_key` text not null, `kind` text check (`kind` in ('enum', 'state', 'user', 'version')) not null, `multi` integer not null default false, `can_be_empty` integer not null default true, `empty_text` text null, `default_value` text null, `ordinal` integer not null default 0, constraint `project_fields_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade);
create index `project_fields_project_id_index` on `project_fields` (`project_id`);
create unique index `project_fields_project_id_name_key_unique` on `project_fields` (`project_id`, `name_key`);

create table `field_values` (`id` integer not null primary key autoincrement, `field_id` integer not null, `name` text not null, `name_key` text not null, `description` text not null default '', `ordinal` integer not null default 0, `resolved` integer not null default false, constraint `field_values_field_id_foreign` foreign key (`field_id`) references `project_fields` (`id`) on delete cascade);
create index `field_values_field_id_index` on `field_values` (`field_id`);
create index `field_values_name_key_index` on `field_values` (`name_key`);
create unique index `field_values_field_id_name_key_unique` on `field_values` (`field_id`, `name_key`);

create table `project_assignees` (`id` integer not null primary key autoincrement, `project_id` integer not null, `user_id` integer not null, constraint `project_assignees_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade, constraint `project_assignees_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `project_assignees_project_id_index` on `project_assignees` (`project_id`);
create index `project_assignees_user_id_index` on `project_assignees` (`user_id`);
create unique index `project_assignees_project_id_user_id_unique` on `project_assignees` (`project_id`, `user_id`);

create table `issue_votes` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `user_id` integer not null, constraint `issue_votes_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_votes_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `issue_votes_issue_id_index` on `issue_votes` (`issue_id`);
create index `issue_votes_user_id_index` on `issue_votes` (`user_id`);
create unique index `issue_votes_issue_id_user_id_unique` on `issue_votes` (`issue_id`, `user_id`);

create table `issue_tags` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `tag_id` integer not null, constraint `issue_tags_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_tags_tag_id_foreign` foreign key (`tag_id`) references `tags` (`id`) on delete cascade);
create index `issue_tags_issue_id_index` on `issue_tags` (`issue_id`);
create index `issue_tags_tag_id_index` on `issue_tags` (`tag_id`);
create unique index `issue_tags_issue_id_tag_id_unique` on `issue_tags` (`issue_id`, `tag_id`);

create table `issue_stars` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `user_id` integer not null, constraint `issue_stars_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_stars_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `issue_stars_issue_id_index` on `issue_stars` (`issue_id`);
create index `issue_stars_user_id_index` on `issue_stars` (`user_id`);
create unique index `issue_stars_issue_id_user_id_unique` on `issue_stars` (`issue_id`, `user_id`);

create table `issue_field_values` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `field_id` integer not null, `slot` integer not null, `value_id` integer null, `user_id` integer null, constraint `issue_field_values_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_field_values_field_id_foreign` foreign key (`field_id`) references `project_fields` (`id`) on delete cascade, constraint `issue_field_values_value_id_foreign` foreign key (`value_id`) references `field_values` (`id`) on delete cascade, constraint `issue_field_values_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `issue_field_values_issue_id_index` on `issue_field_values` (`issue_id`);
create index `issue_field_values_field_id_index` on `issue_field_values` (`field_id`);
create index `issue_field_values_value_id_index` on `issue_field_values` (`value_id`);
create index `issue_field_values_user_id_index` on `issue_field_values` (`user_id`);
create unique index `issue_field_values_issue_id_field_id_slot_unique` on `issue_field_values` (`issue_id`, `field_id`, `slot`);

create table `issue_comments` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `author_id` integer not null, `text` text not null, `created_at` datetime not null, `updated_at` datetime not null, constraint `issue_comments_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_comments_author_id_foreign` foreign key (`author_id`) references `users` (`id`) on delete cascade);
create index `issue_comments_issue_id_index` on `issue_comments` (`issue_id`);
create index `issue_comments_author_id_index` on `issue_comments` (`author_id`);

alter table `issues` add column `resolved_at` datetime null;
