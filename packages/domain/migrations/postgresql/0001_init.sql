create table "issue_link_types" ("id" serial primary key, "name" varchar(100) not null, "name_key" varchar(100) not null, "outward_name" varchar(100) not null, "inward_name" varchar(100) not null, "directed" boolean not null default false, "aggregation" boolean not null default false);
alter table "issue_link_types" add constraint "issue_link_types_name_key_unique" unique ("name_key");

create table "permissions" ("key" varchar(100) not null, "description" varchar(300) not null, primary key ("key"));

create table "roles" ("id" serial primary key, "name" varchar(100) not null, "name_key" varchar(100) not null, "description" varchar(1000) not null default '');
alter table "roles" add constraint "roles_name_key_unique" unique ("name_key");

create table "role_permissions" ("role_id" int not null, "permission_key" varchar(100) not null, primary key ("role_id", "permission_key"));

create table "users" ("id" serial primary key, "login" varchar(100) not null, "login_key" varchar(100) not null, "full_name" varchar(200) not null, "email" varchar(200) null, "email_key" varchar(200) null, "password_hash" varchar(200) null, "type" text not null default 'user', "context_folder" varchar(100) null, "created_at" timestamptz not null);
alter table "users" add constraint "users_login_key_unique" unique ("login_key");
create index "users_email_key_index" on "users" ("email_key");

create table "sessions" ("id_hash" varchar(64) not null, "user_id" int not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id_hash"));
create index "sessions_expires_at_index" on "sessions" ("expires_at");

create table "projects" ("id" serial primary key, "short_name" varchar(50) not null, "short_name_key" varchar(50) not null, "name" varchar(200) not null, "name_key" varchar(200) not null, "description" varchar(4000) not null default '', "lead_id" int not null, "starting_number" int not null default 1, "next_number" int not null default 1, "created_at" timestamptz not null);
alter table "projects" add constraint "projects_short_name_key_unique" unique ("short_name_key");
alter table "projects" add constraint "projects_name_key_unique" unique ("name_key");

create table "role_grants" ("id" serial primary key, "user_id" int not null, "role_id" int not null, "project_id" int null, "scope_key" varchar(40) not null);
alter table "role_grants" add constraint "role_grants_user_id_role_id_scope_key_unique" unique ("user_id", "role_id", "scope_key");

create table "permanent_tokens" ("id" serial primary key, "user_id" int not null, "name" varchar(100) not null, "secret_hash" varchar(64) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null);
alter table "permanent_tokens" add constraint "permanent_tokens_user_id_name_unique" unique ("user_id", "name");

create table "issues" ("id" serial primary key, "project_id" int not null, "number_in_project" int not null, "summary" varchar(1000) not null, "description" text not null default '', "reporter_id" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);
alter table "issues" add constraint "issues_project_id_number_in_project_unique" unique ("project_id", "number_in_project");

create table "issue_links" ("id" serial primary key, "type_id" int not null, "source_id" int not null, "target_id" int not null, "created_at" timestamptz not null);
create index "issue_links_target_id_index" on "issue_links" ("target_id");
alter table "issue_links" add constraint "issue_links_type_id_source_id_target_id_unique" unique ("type_id", "source_id", "target_id");

alter table "role_permissions" add constraint "role_permissions_role_id_foreign" foreign key ("role_id") references "roles" ("id") on update cascade on delete cascade;
alter table "role_permissions" add constraint "role_permissions_permission_key_foreign" foreign key ("permission_key") references "permissions" ("key") on update cascade on delete cascade;

alter table "users" add constraint "users_type_check" check ("type" in ('user', 'root', 'guest', 'system', 'workflow', 'service'));

alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

alter table "projects" add constraint "projects_lead_id_foreign" foreign key ("lead_id") references "users" ("id");

alter table "role_grants" add constraint "role_grants_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;
alter table "role_grants" add constraint "role_grants_role_id_foreign" foreign key ("role_id") references "roles" ("id") on delete cascade;
alter table "role_grants" add constraint "role_grants_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;

alter table "permanent_tokens" add constraint "permanent_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

alter table "issues" add constraint "issues_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;
alter table "issues" add constraint "issues_reporter_id_foreign" foreign key ("reporter_id") references "users" ("id");

alter table "issue_links" add constraint "issue_links_type_id_foreign" foreign key ("type_id") references "issue_link_types" ("id") on delete cascade;
alter table "issue_links" add constraint "issue_links_source_id_foreign" foreign key ("source_id") references "issues" ("id") on delete cascade;
alter table "issue_links" add constraint "issue_links_target_id_foreign" foreign key ("target_id") references "issues" ("id") on delete cascade;
