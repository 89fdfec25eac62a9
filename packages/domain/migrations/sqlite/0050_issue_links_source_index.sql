-- Links by their source (PostgreSQL lacked this index; SQLite has had it since 0001): a no-op here.
create index if not exists `issue_links_source_id_index` on `issue_links` (`source_id`);
