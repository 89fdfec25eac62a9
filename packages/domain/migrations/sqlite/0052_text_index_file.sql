-- The full-text index in a file of its own (issue 21: an import waited for the text indexer).
-- `issue_fts` moves from the main file to the schema `fts`, the file `<database>-fts` that every
-- connection attaches (orm/text-index-file.ts): the indexer then writes that file while the
-- server writes this one. The queue becomes a log (`seq` in write order, an issue listed once
-- per write): the indexer indexes a batch in one transaction on the index's file and then
-- dequeues the entries up to the batch's last `seq` in a short one on this file, so a write made
-- meanwhile keeps its later entry and is indexed again. Deleted issues are queued too (their
-- words leave the index with the batch). `seq` is never reused (autoincrement), and both files
-- record the last entry the index holds (`issue_fts_state.through`, written by each of the two
-- transactions): they agree unless the index file is not this database's own state (a backup of
-- one file restored beside a newer other, or a crash between a batch's two transactions), and the
-- server then rebuilds the index at start (orm/migrate.ts). Every issue is indexed again here (the
-- old index was contentless: nothing to copy), about 36 s at a million issues.
drop trigger `issue_fts_issue_insert`;
drop trigger `issue_fts_issue_update`;
drop trigger `issue_fts_issue_delete`;
drop trigger `issue_fts_comment_insert`;
drop trigger `issue_fts_comment_update`;
drop trigger `issue_fts_comment_delete`;
drop table `issue_fts_queue`;
drop table main.`issue_fts`;
create table `issue_fts_queue` (`seq` integer not null primary key autoincrement, `issue_id` integer not null);
create table `issue_fts_state` (`id` integer not null primary key check (`id` = 1), `through` integer not null);
insert into `issue_fts_state` (`id`, `through`) values (1, 0);
create trigger `issue_fts_issue_insert` after insert on `issues` for each row begin insert into `issue_fts_queue` (`issue_id`) values (new.`id`); end;
create trigger `issue_fts_issue_update` after update of `summary`, `description` on `issues` for each row begin insert into `issue_fts_queue` (`issue_id`) values (new.`id`); end;
create trigger `issue_fts_issue_delete` after delete on `issues` for each row begin insert into `issue_fts_queue` (`issue_id`) values (old.`id`); end;
create trigger `issue_fts_comment_insert` after insert on `issue_comments` for each row begin insert into `issue_fts_queue` (`issue_id`) values (new.`issue_id`); end;
create trigger `issue_fts_comment_update` after update of `text`, `deleted`, `permitted_group_id`, `issue_id` on `issue_comments` for each row begin insert into `issue_fts_queue` (`issue_id`) values (old.`issue_id`); insert into `issue_fts_queue` (`issue_id`) values (new.`issue_id`); end;
create trigger `issue_fts_comment_delete` after delete on `issue_comments` for each row begin insert into `issue_fts_queue` (`issue_id`) values (old.`issue_id`); end;
drop table if exists fts.`issue_fts`;
drop table if exists fts.`issue_fts_state`;
create table fts.`issue_fts_state` (`id` integer not null primary key check (`id` = 1), `through` integer not null);
insert into fts.`issue_fts_state` (`id`, `through`) values (1, 0);
create virtual table fts.`issue_fts` using fts5(`summary`, `description`, `comments`, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
insert into fts.`issue_fts` (rowid, `summary`, `description`, `comments`) select i.`id`, i.`summary`, i.`description`, coalesce((select group_concat(c.`text`, ' ') from `issue_comments` c where c.`issue_id` = i.`id` and c.`deleted` = 0 and c.`permitted_group_id` is null), '') from `issues` i;
