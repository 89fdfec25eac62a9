-- Links by their source: every issue read asks whether the issue has links (`exists ... where
-- source_id = ?`), and commands and the issue view read them, but PostgreSQL had only the unique
-- index leading with type_id, so each of those scanned every link. SQLite has had this index since 0001.
create index if not exists "issue_links_source_id_index" on "issue_links" ("source_id");
