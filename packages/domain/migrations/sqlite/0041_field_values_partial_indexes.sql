-- Field values by user and by bundle value only where they have one (issue 21, the import): three
-- rows of four name no user, and a user's row names no bundle value; those rows are never looked up
-- by it (a user's or a value's deletion, a value's rename all ask `= ?`), and an index entry less
-- is written for each.
drop index if exists `issue_field_values_value_id_index`;
create index `issue_field_values_value_id_index` on `issue_field_values` (`value_id`) where value_id is not null;
drop index if exists `issue_field_values_user_id_index`;
create index `issue_field_values_user_id_index` on `issue_field_values` (`user_id`) where user_id is not null;
