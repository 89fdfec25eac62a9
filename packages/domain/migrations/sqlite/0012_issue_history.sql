create table `issue_changes` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `updater_id` integer not null, `updated_at` datetime not null, `fields` text not null, constraint `issue_changes_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_changes_updater_id_foreign` foreign key (`updater_id`) references `users` (`id`));
create index `issue_changes_issue_id_index` on `issue_changes` (`issue_id`);
create index `issue_changes_updater_id_index` on `issue_changes` (`updater_id`);
