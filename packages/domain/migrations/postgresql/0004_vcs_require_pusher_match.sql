alter table "vcs_integrations" add column "require_pusher_match" boolean not null default true;
