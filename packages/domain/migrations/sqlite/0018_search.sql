-- Search at scale (issue 21). Field values carry search keys the same in every project: the
-- field's prototype (`field_key` = custom_fields.id) and the value's name key (`value_key`),
-- kept by the triggers below whatever code writes the rows. Indexes list a value's (or a user's)
-- issues in issue order, and probe one issue's values, all covering; issues are indexed by their
-- dates, tags by (tag, issue). `issue_fts` is the full-text index (FTS5, contentless, rowid = issue
-- id) over summary, description and the public, not deleted comments. Writes only queue the
-- issue (`issue_fts_queue`, by triggers); the search engine's indexer process re-indexes queued
-- issues in batches (search-index.ts), off the request path. Existing issues are queued here.
alter table `issue_field_values` add column `field_key` integer null;
alter table `issue_field_values` add column `value_key` text null;
update `issue_field_values` set `field_key` = (select pf.`custom_field_id` from `project_fields` pf where pf.`id` = `issue_field_values`.`field_id`), `value_key` = (select fv.`name_key` from `field_values` fv where fv.`id` = `issue_field_values`.`value_id`);
create index `issue_field_values_field_key_value_key_issue_id_index` on `issue_field_values` (`field_key`, `value_key`, `issue_id`);
create index `issue_field_values_field_key_user_id_issue_id_index` on `issue_field_values` (`field_key`, `user_id`, `issue_id`);
create index `issue_field_values_issue_id_field_key_value_key_user_id_index` on `issue_field_values` (`issue_id`, `field_key`, `value_key`, `user_id`);
create trigger `issue_field_values_search_keys_insert` after insert on `issue_field_values` for each row begin update `issue_field_values` set `field_key` = (select pf.`custom_field_id` from `project_fields` pf where pf.`id` = new.`field_id`), `value_key` = (select fv.`name_key` from `field_values` fv where fv.`id` = new.`value_id`) where `id` = new.`id`; end;
create trigger `issue_field_values_search_keys_update` after update of `field_id`, `value_id` on `issue_field_values` for each row begin update `issue_field_values` set `field_key` = (select pf.`custom_field_id` from `project_fields` pf where pf.`id` = new.`field_id`), `value_key` = (select fv.`name_key` from `field_values` fv where fv.`id` = new.`value_id`) where `id` = new.`id`; end;
create trigger `field_values_search_key_update` after update of `name_key` on `field_values` for each row begin update `issue_field_values` set `value_key` = new.`name_key` where `value_id` = new.`id`; end;

create index `issues_created_at_index` on `issues` (`created_at`);
create index `issues_updated_at_index` on `issues` (`updated_at`);
create index `issues_resolved_at_index` on `issues` (`resolved_at`);
create index `issue_tags_tag_id_issue_id_index` on `issue_tags` (`tag_id`, `issue_id`);

create virtual table `issue_fts` using fts5(`summary`, `description`, `comments`, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
create table `issue_fts_queue` (`issue_id` integer not null primary key);
insert into `issue_fts_queue` (`issue_id`) select `id` from `issues`;
create trigger `issue_fts_issue_insert` after insert on `issues` for each row begin insert or ignore into `issue_fts_queue` (`issue_id`) values (new.`id`); end;
create trigger `issue_fts_issue_update` after update of `summary`, `description` on `issues` for each row begin insert or ignore into `issue_fts_queue` (`issue_id`) values (new.`id`); end;
create trigger `issue_fts_issue_delete` after delete on `issues` for each row begin delete from `issue_fts` where `rowid` = old.`id`; delete from `issue_fts_queue` where `issue_id` = old.`id`; end;
create trigger `issue_fts_comment_insert` after insert on `issue_comments` for each row begin insert or ignore into `issue_fts_queue` (`issue_id`) values (new.`issue_id`); end;
create trigger `issue_fts_comment_update` after update of `text`, `deleted`, `permitted_group_id`, `issue_id` on `issue_comments` for each row begin insert or ignore into `issue_fts_queue` (`issue_id`) values (old.`issue_id`); insert or ignore into `issue_fts_queue` (`issue_id`) values (new.`issue_id`); end;
create trigger `issue_fts_comment_delete` after delete on `issue_comments` for each row begin insert or ignore into `issue_fts_queue` (`issue_id`) values (old.`issue_id`); end;
