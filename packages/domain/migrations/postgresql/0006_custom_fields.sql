-- Custom fields as data: global field prototypes (custom_fields), bundles of values shared by
-- fields (bundles, field_values, bundle_users), project fields that attach a prototype with a
-- bundle, and typed simple values on issues. Every existing project field gets a bundle of its
-- own holding exactly its old values (same ids, so issue values survive untouched), and the
-- project's assignees become the users of its Assignee bundle.
create table "bundles" ("id" serial primary key, "kind" text not null, "name" varchar(100) not null, "name_key" varchar(100) not null);
alter table "bundles" add constraint "bundles_kind_name_key_unique" unique ("kind", "name_key");

create table "custom_fields" ("id" serial primary key, "name" varchar(100) not null, "name_key" varchar(100) not null, "kind" text not null, "multi" boolean not null default false, "is_private" boolean not null default false, "default_visibility" boolean not null default true, "auto_attached" boolean not null default false, "default_bundle_id" int null, "attach_bundle_policy" int not null default 0, "can_be_empty" boolean not null default true, "empty_text" varchar(100) null, "default_value" varchar(100) null, "ordinal" int not null default 0);
alter table "custom_fields" add constraint "custom_fields_name_key_unique" unique ("name_key");
create index "custom_fields_default_bundle_id_index" on "custom_fields" ("default_bundle_id");

create table "bundle_users" ("id" serial primary key, "bundle_id" int not null, "user_id" int not null);
create index "bundle_users_user_id_index" on "bundle_users" ("user_id");
alter table "bundle_users" add constraint "bundle_users_bundle_id_user_id_unique" unique ("bundle_id", "user_id");

alter table "bundles" add constraint "bundles_kind_check" check ("kind" in ('enum', 'state', 'user', 'version', 'build', 'ownedField'));
alter table "custom_fields" add constraint "custom_fields_default_bundle_id_foreign" foreign key ("default_bundle_id") references "bundles" ("id") on delete set null;
alter table "custom_fields" add constraint "custom_fields_kind_check" check ("kind" in ('enum', 'state', 'user', 'version', 'build', 'ownedField', 'string', 'text', 'integer', 'float', 'date', 'period'));
alter table "bundle_users" add constraint "bundle_users_bundle_id_foreign" foreign key ("bundle_id") references "bundles" ("id") on delete cascade;
alter table "bundle_users" add constraint "bundle_users_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) values ('Priority', 'priority', 'enum', false, false, true, true, null, 1, false, null, 'Normal', 0);
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) values ('Type', 'type', 'enum', false, false, true, true, null, 1, false, null, 'Bug', 1);
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) values ('State', 'state', 'state', false, false, true, true, null, 1, false, null, 'Submitted', 2);
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) values ('Assignee', 'assignee', 'user', false, false, true, true, null, 1, true, 'Unassigned', null, 3);
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) values ('Subsystem', 'subsystem', 'ownedField', false, false, true, true, null, 1, true, 'No subsystem', null, 4);
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) values ('Fix versions', 'fix versions', 'version', true, false, true, true, null, 1, true, 'Unscheduled', null, 5);

insert into bundles (kind, name, name_key) values ('enum', 'Priorities', 'priorities');
insert into bundles (kind, name, name_key) values ('enum', 'Types', 'types');
insert into bundles (kind, name, name_key) values ('state', 'States', 'states');
insert into bundles (kind, name, name_key) values ('user', 'Assignees', 'assignees');
insert into bundles (kind, name, name_key) values ('ownedField', 'Subsystems', 'subsystems');
insert into bundles (kind, name, name_key) values ('version', 'Versions', 'versions');
update custom_fields set default_bundle_id = (select id from bundles where kind = 'enum' and name_key = 'priorities') where name_key = 'priority';
update custom_fields set default_bundle_id = (select id from bundles where kind = 'enum' and name_key = 'types') where name_key = 'type';
update custom_fields set default_bundle_id = (select id from bundles where kind = 'state' and name_key = 'states') where name_key = 'state';
update custom_fields set default_bundle_id = (select id from bundles where kind = 'user' and name_key = 'assignees') where name_key = 'assignee';
update custom_fields set default_bundle_id = (select id from bundles where kind = 'ownedField' and name_key = 'subsystems') where name_key = 'subsystem';
update custom_fields set default_bundle_id = (select id from bundles where kind = 'version' and name_key = 'versions') where name_key = 'fix versions';
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) select min(name), name_key, min(kind), bool_or(multi), false, true, false, null, 1, bool_or(can_be_empty), min(empty_text), null, 100 from project_fields where name_key not in (select name_key from custom_fields) group by name_key;

insert into bundles (kind, name, name_key) select case when pf.kind = 'enum' and pf.name_key = 'subsystem' then 'ownedField' else pf.kind end, p.short_name || ': ' || pf.name, lower(p.short_name || ': ' || pf.name) from project_fields pf join projects p on p.id = pf.project_id;

alter table "field_values" drop constraint "field_values_field_id_foreign";
alter table "project_fields" drop constraint "project_fields_kind_check";
alter table "project_fields" add "custom_field_id" int null, add "bundle_id" int null;
update project_fields pf set custom_field_id = (select cf.id from custom_fields cf where cf.name_key = pf.name_key), kind = case when pf.kind = 'enum' and pf.name_key = 'subsystem' then 'ownedField' else pf.kind end, bundle_id = (select b.id from bundles b join projects p on p.id = pf.project_id where b.name_key = lower(p.short_name || ': ' || pf.name));
alter table "project_fields" alter column "custom_field_id" set not null;
alter table "project_fields" add constraint "project_fields_custom_field_id_foreign" foreign key ("custom_field_id") references "custom_fields" ("id");
alter table "project_fields" add constraint "project_fields_bundle_id_foreign" foreign key ("bundle_id") references "bundles" ("id") on delete set null;
create index "project_fields_custom_field_id_index" on "project_fields" ("custom_field_id");
create index "project_fields_bundle_id_index" on "project_fields" ("bundle_id");
alter table "project_fields" add constraint "project_fields_kind_check" check ("kind" in ('enum', 'state', 'user', 'version', 'build', 'ownedField', 'string', 'text', 'integer', 'float', 'date', 'period'));

alter table "field_values" drop constraint "field_values_field_id_name_key_unique";
alter table "field_values" add "color_index" int null, add "released" boolean not null default false, add "archived" boolean not null default false, add "release_date" timestamptz null, add "assemble_date" timestamptz null, add "owner_id" int null;
alter table "field_values" add constraint "field_values_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on delete set null;
alter table "field_values" rename column "field_id" to "bundle_id";
update field_values fv set bundle_id = pf.bundle_id from project_fields pf where pf.id = fv.bundle_id;
alter table "field_values" add constraint "field_values_bundle_id_foreign" foreign key ("bundle_id") references "bundles" ("id") on delete cascade;
create index "field_values_owner_id_index" on "field_values" ("owner_id");
alter table "field_values" add constraint "field_values_bundle_id_name_key_unique" unique ("bundle_id", "name_key");

insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Show-stopper', 'show-stopper', '', 0, false, null, false, false from bundles where kind = 'enum' and name_key = 'priorities';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Critical', 'critical', '', 1, false, null, false, false from bundles where kind = 'enum' and name_key = 'priorities';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Major', 'major', '', 2, false, null, false, false from bundles where kind = 'enum' and name_key = 'priorities';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Normal', 'normal', '', 3, false, null, false, false from bundles where kind = 'enum' and name_key = 'priorities';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Minor', 'minor', '', 4, false, null, false, false from bundles where kind = 'enum' and name_key = 'priorities';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Bug', 'bug', '', 0, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Feature', 'feature', '', 1, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Task', 'task', '', 2, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Cosmetics', 'cosmetics', '', 3, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Exception', 'exception', '', 4, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Usability Problem', 'usability problem', '', 5, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Performance Problem', 'performance problem', '', 6, false, null, false, false from bundles where kind = 'enum' and name_key = 'types';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Submitted', 'submitted', '', 0, false, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Open', 'open', '', 1, false, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'In Progress', 'in progress', '', 2, false, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'To be discussed', 'to be discussed', '', 3, false, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Reopened', 'reopened', '', 4, false, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Fixed', 'fixed', '', 5, true, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Verified', 'verified', '', 6, true, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Duplicate', 'duplicate', '', 7, true, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Won''t fix', 'won''t fix', '', 8, true, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Incomplete', 'incomplete', '', 9, true, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Obsolete', 'obsolete', '', 10, true, null, false, false from bundles where kind = 'state' and name_key = 'states';
insert into field_values (bundle_id, name, name_key, description, ordinal, resolved, color_index, released, archived) select id, 'Can''t Reproduce', 'can''t reproduce', '', 11, true, null, false, false from bundles where kind = 'state' and name_key = 'states';

insert into bundle_users (bundle_id, user_id) select pf.bundle_id, pa.user_id from project_assignees pa join project_fields pf on pf.project_id = pa.project_id and pf.kind = 'user';
drop table if exists "project_assignees" cascade;

alter table "issue_field_values" add "text" text null, add "number" double precision null;
