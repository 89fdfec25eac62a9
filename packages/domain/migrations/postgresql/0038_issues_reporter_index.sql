-- The reporter's issues (`by: u`, `reported by: u`, `#me`'s reporter arm) found by an index on PostgreSQL
-- as on SQLite, where the foreign key's index has existed since 0001: without it a query such as
-- `project: S07 by: u12 word` read every issue of the project (283 ms at 1,000,000 issues).
create index if not exists "issues_reporter_id_index" on "issues" ("reporter_id");
