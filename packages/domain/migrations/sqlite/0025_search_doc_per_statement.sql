-- Search documents at write speed (issue 21): PostgreSQL's documents move to per-statement
-- triggers and comments get an index on their issue there. SQLite already indexes comments by
-- issue (0002) and queues changed issues for its indexer process (0020): the index is kept here
-- only so both dialects describe the same schema.
create index if not exists `issue_comments_issue_id_index` on `issue_comments` (`issue_id`);
