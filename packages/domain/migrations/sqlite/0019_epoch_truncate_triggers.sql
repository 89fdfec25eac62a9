-- Issue 20 item 4 (PostgreSQL's TRUNCATE triggers): SQLite has no TRUNCATE; its `delete from t` without a
-- `where` fires the delete triggers of 0012 and 0013 (the truncate optimisation is off for tables with triggers).
select 1;
