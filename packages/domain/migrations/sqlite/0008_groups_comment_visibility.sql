alter table `issue_comments` add column `deleted` integer not null default false;
alter table `issue_comments` add column `permitted_group_id` integer null constraint `issue_comments_permitted_group_id_foreign` references `user_groups` (`id`) on delete restrict;
create index `issue_comments_permitted_group_id_index` on `issue_comments` (`permitted_group_id`);
