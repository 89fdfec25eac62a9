create table "user_groups" ("id" serial primary key, "name" varchar(100) not null, "name_key" varchar(100) not null, "description" varchar(1000) not null default '', "auto_join" boolean not null default false, "created_at" timestamptz not null);
alter table "user_groups" add constraint "user_groups_name_key_unique" unique ("name_key");

create table "group_role_grants" ("id" serial primary key, "group_id" int not null, "role_id" int not null, "project_id" int null, "scope_key" varchar(40) not null);
alter table "group_role_grants" add constraint "group_role_grants_group_id_role_id_scope_key_unique" unique ("group_id", "role_id", "scope_key");

create table "group_members" ("id" serial primary key, "group_id" int not null, "user_id" int not null);
alter table "group_members" add constraint "group_members_user_id_group_id_unique" unique ("user_id", "group_id");

alter table "group_role_grants" add constraint "group_role_grants_group_id_foreign" foreign key ("group_id") references "user_groups" ("id") on delete cascade;
alter table "group_role_grants" add constraint "group_role_grants_role_id_foreign" foreign key ("role_id") references "roles" ("id") on delete cascade;
alter table "group_role_grants" add constraint "group_role_grants_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;

alter table "group_members" add constraint "group_members_group_id_foreign" foreign key ("group_id") references "user_groups" ("id") on delete cascade;
alter table "group_members" add constraint "group_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;
