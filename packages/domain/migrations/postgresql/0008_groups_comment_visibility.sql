alter table "issue_comments" add "deleted" boolean not null default false, add "permitted_group_id" int null;
alter table "issue_comments" add constraint "issue_comments_permitted_group_id_foreign" foreign key ("permitted_group_id") references "user_groups" ("id") on delete restrict;
create index "issue_comments_permitted_group_id_index" on "issue_comments" ("permitted_group_id");
