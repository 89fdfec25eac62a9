-- Issue 25: the star is each user's own tag named `Star` (as the original keeps it), on every issue
-- they starred, beside `issue_stars`. Stars given before this get their tag here.
insert into `tags` (`owner_id`, `name`, `name_key`, `shared`, `created_at`) select distinct s.`user_id`, 'Star', 'star', false, cast(strftime('%s', 'now') as integer) * 1000 from `issue_stars` s where not exists (select 1 from `tags` t where t.`owner_id` = s.`user_id` and t.`name_key` = 'star');
insert into `issue_tags` (`issue_id`, `tag_id`) select s.`issue_id`, t.`id` from `issue_stars` s join `tags` t on t.`owner_id` = s.`user_id` and t.`name_key` = 'star' where not exists (select 1 from `issue_tags` it where it.`issue_id` = s.`issue_id` and it.`tag_id` = t.`id`);
