-- The search documents move out of line (issue 21, PostgreSQL's count of a frequent word). A count
-- over the GIN index still visits every matching row's heap page (PostgreSQL reads the page of each
-- bitmap entry to check the row is visible, even when the page is all-visible), and with the
-- documents inline (about 1,400 bytes) five rows filled a page: a word in half of a million issues
-- read 200,000 pages. Out of line, a row is its issue id, a pointer into the TOAST table and the
-- compressed pad below (about 80 bytes), 90 to a page: the same count reads 11,000 pages. A count
-- never reads the documents themselves: GIN answers `@@` of words without weights exactly, so the
-- bitmap's rows are not rechecked. Phrases and words of one column are rechecked, reading only
-- their candidates' documents.
--  - `doc` is stored `external`: moved out of line, not compressed (compression costs every write
--    and every read, for little on a list of words);
--  - `toast_tuple_target = 128`: PostgreSQL moves values out of line until a row is under 128 bytes;
--  - `toast_pad`: PostgreSQL only starts moving values out of a row above 2,032 bytes (a constant
--    of its build, which `toast_tuple_target` does not lower). The pad of 2,100 spaces puts every
--    new row above it; it is compressed inline to 35 bytes and never read. A row updated later
--    already holds an out-of-line value, which is enough for PostgreSQL to move the new one out.
--    The pad is compressed by lz4 where the server has it: pglz took 6 µs a row of 15 (measured on
--    100,000 documents without the GIN index: inline 11-16 µs a row, out of line 20-22 with pglz,
--    15 with lz4).
-- Search sessions do not scan this table sequentially (`enable_seqscan = off`, search-engine.ts):
-- a scan would read every document out of line to test it.
drop index "issue_search_doc_index";
alter table "issue_search" rename to "issue_search_inline";
alter table "issue_search_inline" rename constraint "issue_search_pkey" to "issue_search_inline_pkey";
alter table "issue_search_inline" rename constraint "issue_search_issue_id_fkey" to "issue_search_inline_issue_id_fkey";
create table "issue_search" ("issue_id" int not null, "doc" tsvector not null, "toast_pad" text not null default repeat(' ', 2100), constraint "issue_search_pkey" primary key ("issue_id"), constraint "issue_search_issue_id_fkey" foreign key ("issue_id") references "issues" ("id") on delete cascade) with (toast_tuple_target = 128);
alter table "issue_search" alter column "doc" set storage external;
do $$ begin alter table "issue_search" alter column "toast_pad" set compression lz4; exception when feature_not_supported then null; end $$;
insert into "issue_search" ("issue_id", "doc") select "issue_id", "doc" from "issue_search_inline" order by "issue_id";
drop table "issue_search_inline";
create index "issue_search_doc_index" on "issue_search" using gin ("doc");
analyze "issue_search";
