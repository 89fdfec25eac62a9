-- Redundant with issue_field_values_issue_id_field_id_slot_unique and the search probe index (both
-- lead with issue_id): one index less to maintain on every field value an import writes.
drop index if exists "issue_field_values_issue_id_index";
