alter table "issues" add "imported" boolean not null default false;
-- Issues that existed before this migration keep the old rule (an import may update them).
update issues set imported = true;
