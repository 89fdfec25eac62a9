-- PostgreSQL only: its search documents moved out of line. SQLite's text index is FTS5 (0052).
select 1;
