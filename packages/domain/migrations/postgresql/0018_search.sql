-- Search at scale (issue 21). Field values carry search keys the same in every project: the
-- field's prototype (`field_key` = custom_fields.id) and the value's name key (`value_key`),
-- set by the trigger below whatever code writes the rows. Indexes list a value's (or a user's)
-- issues in issue order, and probe one issue's values, all covering; issues are indexed by their
-- dates, tags by (tag, issue). `issue_search.doc` is the full-text document (english tsvector:
-- summary A, description B, public not deleted comments C) under a GIN index, kept by triggers.
alter table "issue_field_values" add "field_key" int null, add "value_key" text null;
update "issue_field_values" ifv set "field_key" = pf."custom_field_id" from "project_fields" pf where pf."id" = ifv."field_id";
update "issue_field_values" ifv set "value_key" = fv."name_key" from "field_values" fv where fv."id" = ifv."value_id";
create index "issue_field_values_field_key_value_key_issue_id_index" on "issue_field_values" ("field_key", "value_key", "issue_id");
create index "issue_field_values_field_key_user_id_issue_id_index" on "issue_field_values" ("field_key", "user_id", "issue_id");
create index "issue_field_values_issue_id_field_key_value_key_user_id_index" on "issue_field_values" ("issue_id", "field_key", "value_key", "user_id");
create function "trackline_issue_field_values_search_keys"() returns trigger language plpgsql as $$ begin new."field_key" := (select pf."custom_field_id" from "project_fields" pf where pf."id" = new."field_id"); new."value_key" := (select fv."name_key" from "field_values" fv where fv."id" = new."value_id"); return new; end $$;
create trigger "issue_field_values_search_keys" before insert or update of "field_id", "value_id" on "issue_field_values" for each row execute function "trackline_issue_field_values_search_keys"();
create function "trackline_field_values_search_key"() returns trigger language plpgsql as $$ begin update "issue_field_values" set "value_key" = new."name_key" where "value_id" = new."id"; return null; end $$;
create trigger "field_values_search_key_update" after update of "name_key" on "field_values" for each row execute function "trackline_field_values_search_key"();

create index "issues_created_at_index" on "issues" ("created_at");
create index "issues_updated_at_index" on "issues" ("updated_at");
create index "issues_resolved_at_index" on "issues" ("resolved_at");
create index "issue_tags_tag_id_issue_id_index" on "issue_tags" ("tag_id", "issue_id");

create table "issue_search" ("issue_id" int not null primary key references "issues" ("id") on delete cascade, "doc" tsvector not null);
create index "issue_search_doc_index" on "issue_search" using gin ("doc");
insert into "issue_search" ("issue_id", "doc") select i."id", setweight(to_tsvector('english', i."summary"), 'A') || setweight(to_tsvector('english', i."description"), 'B') || setweight(to_tsvector('english', coalesce((select string_agg(c."text", ' ' order by c."id") from "issue_comments" c where c."issue_id" = i."id" and not c."deleted" and c."permitted_group_id" is null), '')), 'C') from "issues" i;
create function "trackline_issue_search_issue"() returns trigger language plpgsql as $$ begin insert into "issue_search" ("issue_id", "doc") select i."id", setweight(to_tsvector('english', i."summary"), 'A') || setweight(to_tsvector('english', i."description"), 'B') || setweight(to_tsvector('english', coalesce((select string_agg(c."text", ' ' order by c."id") from "issue_comments" c where c."issue_id" = i."id" and not c."deleted" and c."permitted_group_id" is null), '')), 'C') from "issues" i where i."id" = new."id" on conflict ("issue_id") do update set "doc" = excluded."doc"; return null; end $$;
create trigger "issue_search_issue" after insert or update of "summary", "description" on "issues" for each row execute function "trackline_issue_search_issue"();
create function "trackline_issue_search_comment"() returns trigger language plpgsql as $$ declare ids int[]; begin ids := case tg_op when 'INSERT' then array[new."issue_id"] when 'DELETE' then array[old."issue_id"] else array[old."issue_id", new."issue_id"] end; insert into "issue_search" ("issue_id", "doc") select i."id", setweight(to_tsvector('english', i."summary"), 'A') || setweight(to_tsvector('english', i."description"), 'B') || setweight(to_tsvector('english', coalesce((select string_agg(c."text", ' ' order by c."id") from "issue_comments" c where c."issue_id" = i."id" and not c."deleted" and c."permitted_group_id" is null), '')), 'C') from "issues" i where i."id" = any(ids) on conflict ("issue_id") do update set "doc" = excluded."doc"; return null; end $$;
create trigger "issue_search_comment" after insert or update of "text", "deleted", "permitted_group_id", "issue_id" or delete on "issue_comments" for each row execute function "trackline_issue_search_comment"();
