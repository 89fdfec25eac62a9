-- Bulk inserts pay per statement, not per row, in the triggers they fire (issue 21, the import on
-- PostgreSQL: an import of 100 issues ran about 700 row triggers, each a PL/pgSQL call with its own
-- lookups and upserts; at 50,000 issues the field values' inserts took 110 µs an issue and the
-- comments' 91).
-- Field values' search keys: rows inserted with the right keys (as the import and the use cases
-- write them) are left alone; one statement per insert fixes any row whose keys are missing or
-- wrong, as SQLite's trigger does since migration 0026. An update of the field or value still
-- recomputes them before the row is written.
drop trigger "issue_field_values_search_keys" on "issue_field_values";
create trigger "issue_field_values_search_keys" before update of "field_id", "value_id" on "issue_field_values" for each row execute function "trackline_issue_field_values_search_keys"();
create function "trackline_issue_field_values_search_keys_inserted"() returns trigger language plpgsql as $$ begin update "issue_field_values" v set "field_key" = k."field_key", "value_key" = k."value_key" from (select n."id", n."field_key" as "given_field", n."value_key" as "given_value", (select pf."custom_field_id" from "project_fields" pf where pf."id" = n."field_id") as "field_key", (select fv."name_key" from "field_values" fv where fv."id" = n."value_id") as "value_key" from new_values n) k where v."id" = k."id" and (k."field_key" is distinct from k."given_field" or k."value_key" is distinct from k."given_value"); return null; end $$;
create trigger "issue_field_values_search_keys_inserted" after insert on "issue_field_values" referencing new table as new_values for each statement execute function "trackline_issue_field_values_search_keys_inserted"();
-- Counts per issue (migration 0045): an insert's new rows are counted per issue in one upsert,
-- after the issues they count for are locked in id order as before; deletes and updates keep
-- their row triggers.
drop trigger "issue_marks_stars" on "issue_stars";
create trigger "issue_marks_stars" after delete or update of "issue_id" on "issue_stars" for each row execute function "trackline_issue_marks_stars"();
create function "trackline_issue_marks_stars_inserted"() returns trigger language plpgsql as $$ begin perform 1 from "issues" where "id" in (select n."issue_id" from new_rows n) order by "id" for no key update; insert into "issue_marks" ("issue_id", "stars") select n."issue_id", count(*) from new_rows n group by n."issue_id" on conflict ("issue_id") do update set "stars" = "issue_marks"."stars" + excluded."stars"; return null; end $$;
create trigger "issue_marks_stars_inserted" after insert on "issue_stars" referencing new table as new_rows for each statement execute function "trackline_issue_marks_stars_inserted"();
drop trigger "issue_marks_votes" on "issue_votes";
create trigger "issue_marks_votes" after delete or update of "issue_id" on "issue_votes" for each row execute function "trackline_issue_marks_votes"();
create function "trackline_issue_marks_votes_inserted"() returns trigger language plpgsql as $$ begin perform 1 from "issues" where "id" in (select n."issue_id" from new_rows n) order by "id" for no key update; insert into "issue_marks" ("issue_id", "votes") select n."issue_id", count(*) from new_rows n group by n."issue_id" on conflict ("issue_id") do update set "votes" = "issue_marks"."votes" + excluded."votes"; return null; end $$;
create trigger "issue_marks_votes_inserted" after insert on "issue_votes" referencing new table as new_rows for each statement execute function "trackline_issue_marks_votes_inserted"();
drop trigger "issue_marks_tags" on "issue_tags";
create trigger "issue_marks_tags" after delete or update of "issue_id" on "issue_tags" for each row execute function "trackline_issue_marks_tags"();
create function "trackline_issue_marks_tags_inserted"() returns trigger language plpgsql as $$ begin perform 1 from "issues" where "id" in (select n."issue_id" from new_rows n) order by "id" for no key update; insert into "issue_marks" ("issue_id", "tags") select n."issue_id", count(*) from new_rows n group by n."issue_id" on conflict ("issue_id") do update set "tags" = "issue_marks"."tags" + excluded."tags"; return null; end $$;
create trigger "issue_marks_tags_inserted" after insert on "issue_tags" referencing new table as new_rows for each statement execute function "trackline_issue_marks_tags_inserted"();
drop trigger "issue_marks_comments" on "issue_comments";
create trigger "issue_marks_comments" after delete or update of "issue_id", "deleted" on "issue_comments" for each row execute function "trackline_issue_marks_comments"();
create function "trackline_issue_marks_comments_inserted"() returns trigger language plpgsql as $$ begin perform 1 from "issues" where "id" in (select n."issue_id" from new_rows n where not n."deleted") order by "id" for no key update; insert into "issue_marks" ("issue_id", "comments") select n."issue_id", count(*) from new_rows n where not n."deleted" group by n."issue_id" on conflict ("issue_id") do update set "comments" = "issue_marks"."comments" + excluded."comments"; return null; end $$;
create trigger "issue_marks_comments_inserted" after insert on "issue_comments" referencing new table as new_rows for each statement execute function "trackline_issue_marks_comments_inserted"();
