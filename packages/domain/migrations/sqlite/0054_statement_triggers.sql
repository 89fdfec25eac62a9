-- PostgreSQL only: its row triggers on bulk inserts became statement triggers. SQLite has no
-- statement triggers; its triggers are cheap per row (no procedural call).
select 1;
