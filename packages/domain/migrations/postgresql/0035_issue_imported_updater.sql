-- The last updater an import names (`updaterName`): the issue's updater until a change is recorded.
alter table "issues" add "updater_id" int null;
alter table "issues" add constraint "issues_updater_id_foreign" foreign key ("updater_id") references "users" ("id") on delete set null;
create index "issues_updater_id_index" on "issues" ("updater_id");
