-- A banned account cannot authenticate (password, session or token); its issues and grants stay.
alter table `users` add column `banned` integer not null default false;
