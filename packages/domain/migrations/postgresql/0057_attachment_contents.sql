-- Attachment contents in the database (issue 40): every host of one PostgreSQL serves every file
-- (issues/attachments/attachment-store-pg.ts). A content is a blob named by its SHA-256 (null
-- while its upload streams in) and its bytes are chunks of 60 KiB; identical content is stored once.
create table "attachment_blobs" ("id" bigserial primary key, "hash" varchar(64) null, "size" bigint not null default 0, "chunk_count" int not null default 0, "stored_at" timestamptz not null default now());
create unique index "attachment_blobs_hash_unique" on "attachment_blobs" ("hash");
create table "attachment_chunks" ("blob_id" bigint not null, "idx" int not null, "data" bytea not null, primary key ("blob_id", "idx"));
alter table "attachment_chunks" add constraint "attachment_chunks_blob_id_foreign" foreign key ("blob_id") references "attachment_blobs" ("id") on delete cascade;
-- A shared attachment folder's marker (issues/attachments/shared-directory.ts): the first host
-- writes it into its folder, every host starting later must find it in its own.
create table "attachment_directory" ("id" smallint primary key check ("id" = 1), "marker" varchar(64) not null, "host" varchar(255) not null, "path" text not null, "created_at" timestamptz not null default now());
