-- PostgreSQL only: attachment contents in the database, shared by every host
-- (issues/attachments/attachment-store-pg.ts). SQLite's server keeps them in its folder.
select 1;
