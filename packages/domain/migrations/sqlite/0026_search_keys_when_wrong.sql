-- Search keys at write speed (issue 21). Migration 0020's insert trigger rewrote every new field
-- value row to set its search keys (an update touching three indexes again), even when the writer
-- had given them. Now the trigger only corrects rows whose keys are missing or wrong: writers that
-- know the keys (the import) pay two primary-key probes per row instead of a second write.
drop trigger `issue_field_values_search_keys_insert`;
create trigger `issue_field_values_search_keys_insert` after insert on `issue_field_values` for each row when new.`field_key` is not (select pf.`custom_field_id` from `project_fields` pf where pf.`id` = new.`field_id`) or new.`value_key` is not (select fv.`name_key` from `field_values` fv where fv.`id` = new.`value_id`) begin update `issue_field_values` set `field_key` = (select pf.`custom_field_id` from `project_fields` pf where pf.`id` = new.`field_id`), `value_key` = (select fv.`name_key` from `field_values` fv where fv.`id` = new.`value_id`) where `id` = new.`id`; end;
