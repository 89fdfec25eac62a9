-- SQLite only: its full-text index moved to a file of its own (orm/text-index-file.ts). PostgreSQL
-- keeps its documents in `issue_search`, written in the writing transaction (migration 0025).
select 1;
