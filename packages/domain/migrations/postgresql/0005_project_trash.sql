alter table "projects" add column "deleted_at" timestamptz null;
