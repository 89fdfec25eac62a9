create table "vcs_integrations" ("id" serial primary key, "name" varchar(80) not null, "name_key" varchar(80) not null, "host" text not null, "repository" varchar(300) not null, "api_key_hash" varchar(64) not null, "secret" varchar(200) null, "branches" varchar(2000) not null default '', "committers_role_id" int null, "service_user_id" int not null, "created_at" timestamptz not null);
alter table "vcs_integrations" add constraint "vcs_integrations_name_key_unique" unique ("name_key");
alter table "vcs_integrations" add constraint "vcs_integrations_api_key_hash_unique" unique ("api_key_hash");

create table "vcs_deliveries" ("id" serial primary key, "integration_id" int not null, "delivery_key" varchar(200) not null, "event" varchar(100) not null, "received_at" bigint not null, "status" text not null default 'pending', "lease_until" bigint null, "claim_token" varchar(64) null, "attempts" int not null default 0, "commit_count" int not null, "payload" text not null, "error" text null, "finished_at" bigint null);
create index "vcs_deliveries_status_lease_until_index" on "vcs_deliveries" ("status", "lease_until");
alter table "vcs_deliveries" add constraint "vcs_deliveries_integration_id_delivery_key_unique" unique ("integration_id", "delivery_key");

create table "vcs_effects" ("id" serial primary key, "integration_id" int not null, "commit_sha" varchar(100) not null, "issue_id" int not null, "command_key" varchar(64) not null, "command" text not null, "status" text not null, "reason" text null, "actor_id" int null, "delivery_id" int null, "created_at" bigint not null);
create index "vcs_effects_issue_id_index" on "vcs_effects" ("issue_id");
create index "vcs_effects_actor_id_index" on "vcs_effects" ("actor_id");
create index "vcs_effects_delivery_id_index" on "vcs_effects" ("delivery_id");
alter table "vcs_effects" add constraint "vcs_effects_integration_id_commit_sha_issue_id_co_e737a_unique" unique ("integration_id", "commit_sha", "issue_id", "command_key");

create table "vcs_changes" ("id" serial primary key, "integration_id" int null, "issue_id" int not null, "commit_sha" varchar(100) not null, "url" text not null, "author_name" text not null, "author_email" text null, "message" text not null, "committed_at" varchar(100) not null, "branch" text not null, "delivery_id" int null, "committer_id" int null, "comment_author_id" int null, "note" text null, "created_at" bigint not null);
create index "vcs_changes_issue_id_index" on "vcs_changes" ("issue_id");
create index "vcs_changes_delivery_id_index" on "vcs_changes" ("delivery_id");
create index "vcs_changes_committer_id_index" on "vcs_changes" ("committer_id");
create index "vcs_changes_comment_author_id_index" on "vcs_changes" ("comment_author_id");
alter table "vcs_changes" add constraint "vcs_changes_integration_id_commit_sha_issue_id_unique" unique ("integration_id", "commit_sha", "issue_id");

create table "vcs_integration_projects" ("id" serial primary key, "integration_id" int not null, "project_id" int not null);
create index "vcs_integration_projects_project_id_index" on "vcs_integration_projects" ("project_id");
alter table "vcs_integration_projects" add constraint "vcs_integration_projects_integration_id_project_id_unique" unique ("integration_id", "project_id");

alter table "vcs_integrations" add constraint "vcs_integrations_committers_role_id_foreign" foreign key ("committers_role_id") references "roles" ("id") on delete set null;
alter table "vcs_integrations" add constraint "vcs_integrations_service_user_id_foreign" foreign key ("service_user_id") references "users" ("id");
alter table "vcs_integrations" add constraint "vcs_integrations_host_check" check ("host" in ('github', 'gitlab', 'bitbucket'));

alter table "vcs_deliveries" add constraint "vcs_deliveries_integration_id_foreign" foreign key ("integration_id") references "vcs_integrations" ("id") on delete cascade;
alter table "vcs_deliveries" add constraint "vcs_deliveries_status_check" check ("status" in ('pending', 'processing', 'done', 'failed'));

alter table "vcs_effects" add constraint "vcs_effects_integration_id_foreign" foreign key ("integration_id") references "vcs_integrations" ("id") on delete cascade;
alter table "vcs_effects" add constraint "vcs_effects_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "vcs_effects" add constraint "vcs_effects_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on delete set null;
alter table "vcs_effects" add constraint "vcs_effects_delivery_id_foreign" foreign key ("delivery_id") references "vcs_deliveries" ("id") on delete set null;
alter table "vcs_effects" add constraint "vcs_effects_status_check" check ("status" in ('applied', 'skipped', 'failed'));

alter table "vcs_changes" add constraint "vcs_changes_integration_id_foreign" foreign key ("integration_id") references "vcs_integrations" ("id") on delete set null;
alter table "vcs_changes" add constraint "vcs_changes_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on delete cascade;
alter table "vcs_changes" add constraint "vcs_changes_delivery_id_foreign" foreign key ("delivery_id") references "vcs_deliveries" ("id") on delete set null;
alter table "vcs_changes" add constraint "vcs_changes_committer_id_foreign" foreign key ("committer_id") references "users" ("id") on delete set null;
alter table "vcs_changes" add constraint "vcs_changes_comment_author_id_foreign" foreign key ("comment_author_id") references "users" ("id") on delete set null;

alter table "vcs_integration_projects" add constraint "vcs_integration_projects_integration_id_foreign" foreign key ("integration_id") references "vcs_integrations" ("id") on delete cascade;
alter table "vcs_integration_projects" add constraint "vcs_integration_projects_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;
