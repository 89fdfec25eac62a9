-- A banned account cannot authenticate (password, session or token); its issues and grants stay.
alter table "users" add column "banned" boolean not null default false;
