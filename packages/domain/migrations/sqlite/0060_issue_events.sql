-- Links and tags added or removed by commands: the console's issue activity (model/issue-event.entity.ts).
create table `issue_events` (`id` integer not null primary key autoincrement, `issue_id` integer not null, `actor_id` integer not null, `at` datetime not null, `kind` text check (`kind` in ('link-added', 'link-removed', 'tag-added', 'tag-removed')) not null, `other_issue_id` integer null, `phrase` text null, `tag_id` integer null, constraint `issue_events_issue_id_foreign` foreign key (`issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_events_actor_id_foreign` foreign key (`actor_id`) references `users` (`id`), constraint `issue_events_other_issue_id_foreign` foreign key (`other_issue_id`) references `issues` (`id`) on delete cascade, constraint `issue_events_tag_id_foreign` foreign key (`tag_id`) references `tags` (`id`) on delete cascade);
create index `issue_events_issue_id_index` on `issue_events` (`issue_id`);
create index `issue_events_actor_id_index` on `issue_events` (`actor_id`);
create index `issue_events_other_issue_id_index` on `issue_events` (`other_issue_id`);
create index `issue_events_tag_id_index` on `issue_events` (`tag_id`);
