create table "tags" ("id" serial primary key, "owner_id" int not null, "name" varchar(100) not null, "name_key" varchar(100) not null, "shared" boolean not null default false, "created_at" timestamptz not null);
create index "tags_name_key_index" on "tags" ("name_key");
alter table "tags" add constraint "tags_owner_id_name_key_unique" unique ("owner_id", "name_key");

create table "saved_searches" ("id" serial primary key, "owner_id" int not null, "name" varchar(100) not null, "name_key" varchar(100) not null, "query" varchar(2000) not null, "shared" boolean not null default false, "created_at" timestamptz not null);
create index "saved_searches_name_key_index" on "saved_searches" ("name_key");
alter table "saved_searches" add constraint "saved_searches_owner_id_name_key_unique" unique ("owner_id", "name_key");

create table "project_fields" ("id" serial primary key, "project_id" int not null, "name" varchar(100) not null, "name_key" varchar(100) not null, "kind" text not null, "multi" boolean not null default false, "can_be_empty" boolean not null default true, "empty_text" varchar(100) null, "default_value" varchar(100) null, "ordinal" int not null default 0);
alter table "project_fields" add constraint "project_fields_project_id_name_key_unique" unique ("project_id", "name_key");

create table "field_values" ("id" serial primary key, "field_id" int not null, "name" varchar(100) not null, "name_key" varchar(100) not null, "description" varchar(1000) not null default '', "ordinal" int not null default 0, "resolved" boolean not null default false);
create index "field_values_name_key_index" on "field_values" ("name_key");
alter table "field_values" add constraint "field_values_field_id_name_key_unique" unique ("field_id", "name_key");

create table "project_assignees" ("id" serial primary key, "project_id" int not null, "user_id" int not null);
create index "project_assignees_user_id_index" on "project_assignees" ("user_id");
alter table "project_assignees" add constraint "project_assignees_project_id_user_id_unique" unique ("project_id", "user_id");

create table "issue_votes" ("id" serial primary key, "issue_id" int not null, "user_id" int not null);
create index "issue_votes_user_id_index" on "issue_votes" ("user_id");
alter table "issue_votes" add constraint "issue_votes_issue_id_user_id_unique" unique ("issue_id", "user_id");

create table "issue_tags" ("id" serial primary key, "issue_id" int not null, "tag_id" int not null);
create index "issue_tags_tag_id_index" on "issue_tags" ("tag_id");
alter table "issue_tags" add constraint "issue_tags_issue_id_tag_id_unique" unique ("issue_id", "tag_id");

create table "issue_stars" ("id" serial primary key, "issue_id" int not null, "user_id" int not null);
create index "issue_stars_user_id_index" on "issue_stars" ("user_id");
alter table "issue_stars" add constraint "issue_stars_issue_id_user_id_unique" unique ("issue_id", "user_id");

create table "issue_field_values" ("id" serial primary key, "issue_id" int not null, "field_id" int not null, "slot" int not null, "value_id" int null, "user_id" int null);
create index "issue_field_values_value_id_index" on "issue_field_values" ("value_id");
create index "issue_field_values_user_id_index" on "issue_field_values" ("user_id");
alter table "issue_field_values" add constraint "issue_field_values_issue_id_field_id_slot_unique" unique ("issue_id", "field_id", "slot");

create table "issue_comments" ("id" serial primary key, "issue_id" int not null, "author_id" int not null, "text" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);
create index "issue_comments_author_id_index" on "issue_comments" ("author_id");

alter table "issues" add "resolved_at" timestamptz null;

alter table "tags" add constraint "tags_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on delete cascade;

alter table "saved_searches" add constraint "saved_searches_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on delete cascade;

alter table "project_fields" add constraint "project_fields_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;
alter table "project_fields" add constraint "project_fields_kind_check" check ("kind" in ('enum', 'state', 'user', 'version'));

alter table "field_values" add constraint "field_values_field_id_foreign" foreign key ("field_id") references "project_fields" ("id") on delete cascade;

alter table "project_assignees" add constraint "project_assignees_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;
alter table "project_assignees" add constraint "project_assignees_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

alter table "issue_votes" add constraint "issue_votes_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_votes" add constraint "issue_votes_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

alter table "issue_tags" add constraint "issue_tags_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_tags" add constraint "issue_tags_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on delete cascade;

alter table "issue_stars" add constraint "issue_stars_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_stars" add constraint "issue_stars_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

alter table "issue_field_values" add constraint "issue_field_values_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_field_values" add constraint "issue_field_values_field_id_foreign" foreign key ("field_id") references "project_fields" ("id") on delete cascade;
alter table "issue_field_values" add constraint "issue_field_values_value_id_foreign" foreign key ("value_id") references "field_values" ("id") on delete cascade;
alter table "issue_field_values" add constraint "issue_field_values_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;

alter table "issue_comments" add constraint "issue_comments_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_comments" add constraint "issue_comments_author_id_foreign" foreign key ("author_id") references "users" ("id") on delete cascade;
