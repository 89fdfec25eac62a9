create table `user_groups` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null, `description` text not null default '', `auto_join` integer not null default false, `created_at` datetime not null);
create unique index `user_groups_name_key_unique` on `user_groups` (`name_key`);

create table `group_role_grants` (`id` integer not null primary key autoincrement, `group_id` integer not null, `role_id` integer not null, `project_id` integer null, `scope_key` text not null, constraint `group_role_grants_group_id_foreign` foreign key (`group_id`) references `user_groups` (`id`) on delete cascade, constraint `group_role_grants_role_id_foreign` foreign key (`role_id`) references `roles` (`id`) on delete cascade, constraint `group_role_grants_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade);
create index `group_role_grants_group_id_index` on `group_role_grants` (`group_id`);
create index `group_role_grants_role_id_index` on `group_role_grants` (`role_id`);
create index `group_role_grants_project_id_index` on `group_role_grants` (`project_id`);
create unique index `group_role_grants_group_id_role_id_scope_key_unique` on `group_role_grants` (`group_id`, `role_id`, `scope_key`);

create table `group_members` (`id` integer not null primary key autoincrement, `group_id` integer not null, `user_id` integer not null, constraint `group_members_group_id_foreign` foreign key (`group_id`) references `user_groups` (`id`) on delete cascade, constraint `group_members_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `group_members_group_id_index` on `group_members` (`group_id`);
create index `group_members_user_id_index` on `group_members` (`user_id`);
create unique index `group_members_user_id_group_id_unique` on `group_members` (`user_id`, `group_id`);
