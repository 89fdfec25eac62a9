-- PostgreSQL only: an import builds each issue's search document once. SQLite's text index is
-- written by its indexer from a queue (migration 0052), once per issue already.
select 1;
