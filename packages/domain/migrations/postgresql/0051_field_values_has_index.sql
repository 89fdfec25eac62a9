-- "has: Field" in issue order (issue 21). The field's rows without a user were listed by the
-- (field_key, user_id, issue_id) index under "user_id is null"; PostgreSQL does not take an
-- "is null" as fixing a column of the index's order, so it hashed all of them (500,000 rows for
-- "has: Subsystem" at a million issues) for every such count. The index is split in two partial
-- ones, each row in exactly one (as many entries as before): a field's rows without a user by
-- (field_key, issue_id), in issue order for both databases; a user's rows by (field_key, user_id,
-- issue_id) as before.
create index "issue_field_values_field_key_issue_id_no_user_index" on "issue_field_values" ("field_key", "issue_id") where "user_id" is null;
create index "issue_field_values_field_key_user_id_issue_id_user_index" on "issue_field_values" ("field_key", "user_id", "issue_id") where "user_id" is not null;
drop index if exists "issue_field_values_field_key_user_id_issue_id_index";
