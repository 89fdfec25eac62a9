-- PostgreSQL gains the reporter's index here; SQLite has had it since 0001 (the foreign key's index).
create index if not exists `issues_reporter_id_index` on `issues` (`reporter_id`);
