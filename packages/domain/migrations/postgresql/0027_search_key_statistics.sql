-- Search plans on PostgreSQL (issue 21): a field value's rows are found by (field_key, value_key),
-- two columns PostgreSQL assumed independent, so it estimated `State: Open` at a fifth of its rows and
-- planned pages as if matches were rare: a hash join of every match, then a sort (77 ms at 100,000
-- issues for three values), instead of walking the value's index in issue order and stopping at
-- the 50th match (4 ms). Extended statistics of the pair give it the real counts.
create statistics if not exists "issue_field_values_keys_stats" (mcv, dependencies) on "field_key", "value_key" from "issue_field_values";
