alter table "users" add column "jabber" varchar(200) null;
