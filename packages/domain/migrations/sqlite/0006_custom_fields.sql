-- Custom fields as data: global field prototypes (custom_fields), bundles of values shared by
-- fields (bundles, field_values, bundle_users), project fields that attach a prototype with a
-- bundle, and typed simple values on issues. Every existing project field gets a bundle of its
-- own holding exactly its old values (same ids, so issue values survive untouched), and the
-- project's assignees become the users of its Assignee bundle. SQLite tables are rebuilt with
-- foreign keys off (migrate.ts turns them off around SQLite migrations and checks them after).
create table `bundles` (`id` integer not null primary key autoincrement, `kind` text check (`kind` in ('enum', 'state', 'user', 'version', 'build', 'ownedField')) not null, `name` text not null, `name_key` text not null);
create unique index `bundles_kind_name_key_unique` on `bundles` (`kind`, `name_key`);

create table `custom_fields` (`id` integer not null primary key autoincrement, `name` text not null, `name_key` text not null, `kind` text check (`kind` in ('enum', 'state', 'user', 'version', 'build', 'ownedField', 'string', 'text', 'integer', 'float', 'date', 'period')) not null, `multi` integer not null default false, `is_private` integer not null default false, `default_visibility` integer not null default true, `auto_attached` integer not null default false, `default_bundle_id` integer null, `attach_bundle_policy` integer not null default 0, `can_be_empty` integer not null default true, `empty_text` text null, `default_value` text null, `ordinal` integer not null default 0, constraint `custom_fields_default_bundle_id_foreign` foreign key (`default_bundle_id`) references `bundles` (`id`) on delete set null);
create unique index `custom_fields_name_key_unique` on `custom_fields` (`name_key`);
create index `custom_fields_default_bundle_id_index` on `custom_fields` (`default_bundle_id`);

create table `bundle_users` (`id` integer not null primary key autoincrement, `bundle_id` integer not null, `user_id` integer not null, constraint `bundle_users_bundle_id_foreign` foreign key (`bundle_id`) references `bundles` (`id`) on delete cascade, constraint `bundle_users_user_id_foreign` foreign key (`user_id`) references `users` (`id`) on delete cascade);
create index `bundle_users_bundle_id_index` on `bundle_users` (`bundle_id`);
create index `bundle_users_user_id_index` on `bundle_users` (`user_id`);
create unique index `bundle_users_bundle_id_user_id_unique` on `bundle_users` (`bundle_id`, `user_id`);

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
insert into custom_fields (name, name_key, kind, multi, is_private, default_visibility, auto_attached, default_bundle_id, attach_bundle_policy, can_be_empty, empty_text, default_value, ordinal) select min(name), name_key, min(kind), max(multi), false, true, false, null, 1, max(can_be_empty), min(empty_text), null, 100 from project_fields where name_key not in (select name_key from custom_fields) group by name_key;

insert into bundles (kind, name, name_key) select case when pf.kind = 'enum' and pf.name_key = 'subsystem' then 'ownedField' else pf.kind end, p.short_name || ': ' || pf.name, lower(p.short_name || ': ' || pf.name) from project_fields pf join projects p on p.id = pf.project_id;

create table `project_fields__temp_alter` (`id` integer not null primary key autoincrement, `project_id` integer not null, `custom_field_id` integer not null, `name` text not null, `name_key` text not null, `kind` text check (`kind` in ('enum', 'state', 'user', 'version', 'build', 'ownedField', 'string', 'text', 'integer', 'float', 'date', 'period')) not null, `multi` integer not null default false, `bundle_id` integer null, `can_be_empty` integer not null default true, `empty_text` text null, `default_value` text null, `ordinal` integer not null default 0, constraint `project_fields_project_id_foreign` foreign key (`project_id`) references `projects` (`id`) on delete cascade, constraint `project_fields_custom_field_id_foreign` foreign key (`custom_field_id`) references `custom_fields` (`id`), constraint `project_fields_bundle_id_foreign` foreign key (`bundle_id`) references `bundles` (`id`) on delete set null);
insert into `project_fields__temp_alter` select pf.`id`, pf.`project_id`, (select cf.id from custom_fields cf where cf.name_key = pf.name_key) as `custom_field_id`, pf.`name`, pf.`name_key`, case when pf.kind = 'enum' and pf.name_key = 'subsystem' then 'ownedField' else pf.kind end as `kind`, pf.`multi`, (select b.id from bundles b join projects p on p.id = pf.project_id where b.name_key = lower(p.short_name || ': ' || pf.name)) as `bundle_id`, pf.`can_be_empty`, pf.`empty_text`, pf.`default_value`, pf.`ordinal` from `project_fields` pf;
drop table `project_fields`;
alter table `project_fields__temp_alter` rename to `project_fields`;
create index `project_fields_project_id_index` on `project_fields` (`project_id`);
create index `project_fields_custom_field_id_index` on `project_fields` (`custom_field_id`);
create index `project_fields_bundle_id_index` on `project_fields` (`bundle_id`);
create unique index `project_fields_project_id_name_key_unique` on `project_fields` (`project_id`, `name_key`);

create table `field_values__temp_alter` (`id` integer not null primary key autoincrement, `bundle_id` integer not null, `name` text not null, `name_key` text not null, `description` text not null default '', `ordinal` integer not null default 0, `resolved` integer not null default false, `color_index` integer null, `released` integer not null default false, `archived` integer not null default false, `release_date` datetime null, `assemble_date` datetime null, `owner_id` integer null, constraint `field_values_bundle_id_foreign` foreign key (`bundle_id`) references `bundles` (`id`) on delete cascade, constraint `field_values_owner_id_foreign` foreign key (`owner_id`) references `users` (`id`) on delete set null);
insert into `field_values__temp_alter` select fv.`id`, (select pf.bundle_id from project_fields pf where pf.id = fv.field_id) as `bundle_id`, fv.`name`, fv.`name_key`, fv.`description`, fv.`ordinal`, fv.`resolved`, null as `color_index`, false as `released`, false as `archived`, null as `release_date`, null as `assemble_date`, null as `owner_id` from `field_values` fv;
drop table `field_values`;
alter table `field_values__temp_alter` rename to `field_values`;
create index `field_values_bundle_id_index` on `field_values` (`bundle_id`);
create index `field_values_name_key_index` on `field_values` (`name_key`);
create index `field_values_owner_id_index` on `field_values` (`owner_id`);
create unique index `field_values_bundle_id_name_key_unique` on `field_values` (`bundle_id`, `name_key`);

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
drop table if exists `project_assignees`;

alter table `issue_field_values` add column `text` text null;
alter table `issue_field_values` add column `number` double null;
