alter table `vcs_integrations` add column `require_pusher_match` integer not null default true;
