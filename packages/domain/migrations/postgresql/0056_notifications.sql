-- Notifications (issue 39): the outbox of changes, messages and their deliveries, webhooks,
-- users' channels and subscriptions; banned users, a project's notification group, and the
-- user fields whose users are told as assignees (the seeded Assignee is one).
create table "installation_keys" ("name" varchar(50) not null, "value" varchar(200) not null, primary key ("name"));

create table "notification_events" ("id" serial primary key, "issue_id" int not null, "project_id" int not null, "author_id" int not null, "kinds" varchar(300) not null, "payload" text not null, "quiet" boolean not null default false, "created_at" bigint not null, "status" text not null default 'pending', "lease_until" bigint null, "claim_token" varchar(64) null, "attempts" int not null default 0);
create index "notification_events_claimable_index" on "notification_events" ("id") where status in ('pending', 'processing');

create table "notification_subscriptions" ("id" serial primary key, "user_id" int not null, "saved_search_id" int null, "tag_id" int null);
create index "notification_subscriptions_saved_search_id_index" on "notification_subscriptions" ("saved_search_id");
create index "notification_subscriptions_tag_id_index" on "notification_subscriptions" ("tag_id");
alter table "notification_subscriptions" add constraint "notification_subscriptions_user_id_saved_search_id_unique" unique ("user_id", "saved_search_id");
alter table "notification_subscriptions" add constraint "notification_subscriptions_user_id_tag_id_unique" unique ("user_id", "tag_id");

create table "notification_settings" ("id" serial primary key, "user_id" int not null, "email_mode" text not null default 'each', "email_digest_minutes" int not null default 60, "inapp_mode" text not null default 'each', "inapp_digest_minutes" int not null default 60, "own_changes" boolean not null default false);
alter table "notification_settings" add constraint "notification_settings_user_id_unique" unique ("user_id");

create table "notification_messages" ("id" serial primary key, "user_id" int not null, "channel" text not null, "digest" boolean not null default false, "issue_id" int null, "system" text null, "status" text not null default 'pending', "lease_until" bigint null, "claim_token" varchar(64) null, "attempts" int not null default 0, "created_at" bigint not null, "sent_at" bigint null, "read_at" bigint null, "error" text null);
create index "notification_messages_user_id_channel_id_index" on "notification_messages" ("user_id", "channel", "id");
create index "notification_messages_claimable_index" on "notification_messages" ("id") where status in ('pending', 'sending');

create table "notification_deliveries" ("id" serial primary key, "event_id" int not null, "user_id" int not null, "channel" text not null, "group_key" varchar(100) not null, "issue_id" int not null, "digest" boolean not null default false, "due_at" bigint not null, "message_id" int null);
create index "notification_deliveries_user_id_index" on "notification_deliveries" ("user_id");
create index "notification_deliveries_message_id_index" on "notification_deliveries" ("message_id");
create index "notification_deliveries_waiting_index" on "notification_deliveries" ("group_key", "due_at") where message_id is null;
alter table "notification_deliveries" add constraint "notification_deliveries_event_id_user_id_channel_unique" unique ("event_id", "user_id", "channel");

create table "webhooks" ("id" serial primary key, "name" varchar(80) not null, "name_key" varchar(80) not null, "url" varchar(2000) not null, "secret" varchar(200) not null, "kinds" varchar(300) not null, "owner_id" int not null, "enabled" boolean not null default true, "disabled_reason" text null, "created_at" bigint not null);
alter table "webhooks" add constraint "webhooks_name_key_unique" unique ("name_key");
create index "webhooks_owner_id_index" on "webhooks" ("owner_id");

create table "webhook_deliveries" ("id" serial primary key, "webhook_id" int not null, "event_id" int not null, "status" text not null default 'pending', "lease_until" bigint not null default '0', "claim_token" varchar(64) null, "attempts" int not null default 0, "payload" text null, "created_at" bigint not null, "first_attempt_at" bigint null, "delivered_at" bigint null, "last_status" int null, "last_error" text null);
create index "webhook_deliveries_event_id_index" on "webhook_deliveries" ("event_id");
create index "webhook_deliveries_claimable_index" on "webhook_deliveries" ("lease_until") where status in ('pending', 'sending');
alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_event_id_unique" unique ("webhook_id", "event_id");

create table "webhook_attempts" ("id" serial primary key, "delivery_id" int not null, "at" bigint not null, "status_code" int null, "error" text null, "duration_ms" int not null, "redelivery" boolean not null default false);
create index "webhook_attempts_delivery_id_index" on "webhook_attempts" ("delivery_id");

create table "webhook_projects" ("id" serial primary key, "webhook_id" int not null, "project_id" int not null);
create index "webhook_projects_project_id_index" on "webhook_projects" ("project_id");
alter table "webhook_projects" add constraint "webhook_projects_webhook_id_project_id_unique" unique ("webhook_id", "project_id");

alter table "custom_fields" add "is_assignee" boolean not null default false;

alter table "users" add "banned" boolean not null default false;

alter table "projects" add "notification_group_id" int null;
alter table "projects" add constraint "projects_notification_group_id_foreign" foreign key ("notification_group_id") references "user_groups" ("id") on delete set null;
create index "projects_notification_group_id_index" on "projects" ("notification_group_id");

alter table "notification_events" add constraint "notification_events_status_check" check ("status" in ('pending', 'processing', 'done'));

alter table "notification_subscriptions" add constraint "notification_subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;
alter table "notification_subscriptions" add constraint "notification_subscriptions_saved_search_id_foreign" foreign key ("saved_search_id") references "saved_searches" ("id") on delete cascade;
alter table "notification_subscriptions" add constraint "notification_subscriptions_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on delete cascade;

alter table "notification_settings" add constraint "notification_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;
alter table "notification_settings" add constraint "notification_settings_email_mode_check" check ("email_mode" in ('off', 'each', 'digest'));
alter table "notification_settings" add constraint "notification_settings_inapp_mode_check" check ("inapp_mode" in ('off', 'each', 'digest'));

alter table "notification_messages" add constraint "notification_messages_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;
alter table "notification_messages" add constraint "notification_messages_channel_check" check ("channel" in ('email', 'inapp'));
alter table "notification_messages" add constraint "notification_messages_status_check" check ("status" in ('pending', 'sending', 'sent', 'skipped', 'failed'));

alter table "notification_deliveries" add constraint "notification_deliveries_event_id_foreign" foreign key ("event_id") references "notification_events" ("id") on delete cascade;
alter table "notification_deliveries" add constraint "notification_deliveries_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;
alter table "notification_deliveries" add constraint "notification_deliveries_message_id_foreign" foreign key ("message_id") references "notification_messages" ("id") on delete cascade;
alter table "notification_deliveries" add constraint "notification_deliveries_channel_check" check ("channel" in ('email', 'inapp'));

alter table "webhooks" add constraint "webhooks_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on delete cascade;

alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;
alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "notification_events" ("id") on delete cascade;
alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'sending', 'delivered', 'failed', 'skipped'));

alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on delete cascade;

alter table "webhook_projects" add constraint "webhook_projects_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;
alter table "webhook_projects" add constraint "webhook_projects_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;

update "custom_fields" set "is_assignee" = true where "name_key" = 'assignee' and "kind" = 'user';
