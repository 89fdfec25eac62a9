-- Indexes that lead with the same columns as a unique index (or a longer index) of their table:
-- every query they served the longer index serves, and each is one more B-tree insert per row an
-- import writes (issue_tags(tag_id) dirtied a page per star at a random place of the index).
-- Not issues(project_id) on SQLite: it lists a project's issues in id order (the index ends with the
-- rowid), which search walks for a page; the unique (project, number) lists them by number.
drop index if exists `issue_tags_issue_id_index`;
drop index if exists `issue_tags_tag_id_index`;
drop index if exists `issue_stars_issue_id_index`;
drop index if exists `issue_votes_issue_id_index`;
drop index if exists `bundle_users_bundle_id_index`;
