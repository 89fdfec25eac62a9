-- Links and tags added or removed by commands: the console's issue activity (model/issue-event.entity.ts).
create table "issue_events" ("id" serial primary key, "issue_id" int not null, "actor_id" int not null, "at" timestamptz not null, "kind" text not null, "other_issue_id" int null, "phrase" varchar(100) null, "tag_id" int null);
create index "issue_events_issue_id_index" on "issue_events" ("issue_id");
create index "issue_events_actor_id_index" on "issue_events" ("actor_id");
create index "issue_events_other_issue_id_index" on "issue_events" ("other_issue_id");
create index "issue_events_tag_id_index" on "issue_events" ("tag_id");
alter table "issue_events" add constraint "issue_events_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "issue_events" add constraint "issue_events_actor_id_foreign" foreign key ("actor_id") references "users" ("id");
alter table "issue_events" add constraint "issue_events_other_issue_id_foreign" foreign key ("other_issue_id") references "issues" ("id") on delete cascade;
alter table "issue_events" add constraint "issue_events_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on delete cascade;
alter table "issue_events" add constraint "issue_events_kind_check" check ("kind" in ('link-added', 'link-removed', 'tag-added', 'tag-removed'));
