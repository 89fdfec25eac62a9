-- Groups in user bundles: the members of a bundle's groups are values of the user fields using it (after 0008_groups).
create table `bundle_groups` (`id` integer not null primary key autoincrement, `bundle_id` integer not null, `group_id` integer not null, constraint `bundle_groups_bundle_id_foreign` foreign key (`bundle_id`) references `bundles` (`id`) on delete cascade, constraint `bundle_groups_group_id_foreign` foreign key (`group_id`) references `user_groups` (`id`) on delete cascade);
create index `bundle_groups_bundle_id_index` on `bundle_groups` (`bundle_id`);
create index `bundle_groups_group_id_index` on `bundle_groups` (`group_id`);
create unique index `bundle_groups_bundle_id_group_id_unique` on `bundle_groups` (`bundle_id`, `group_id`);
