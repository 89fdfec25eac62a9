create table "issue_changes" ("id" serial primary key, "issue_id" int not null, "updater_id" int not null, "updated_at" timestamptz not null, "fields" text not null);
create index "issue_changes_issue_id_index" on "issue_changes" ("issue_id");
create index "issue_changes_updater_id_index" on "issue_changes" ("updater_id");

alter table "issue_changes" add constraint "issue_changes_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_changes" add constraint "issue_changes_updater_id_foreign" foreign key ("updater_id") references "users" ("id");
