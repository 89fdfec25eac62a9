-- The last updater an import names (`updaterName`): the issue's updater until a change is recorded.
alter table `issues` add column `updater_id` integer null constraint `issues_updater_id_foreign` references `users` (`id`) on delete set null;
create index `issues_updater_id_index` on `issues` (`updater_id`);
