alter table `issues` add column `permitted_group_id` integer null constraint `issues_permitted_group_id_foreign` references `user_groups` (`id`) on delete restrict;
create index `issues_permitted_group_id_index` on `issues` (`permitted_group_id`);
-- Private fields leave the command vocabulary of those who may not read or set them: a prototype
-- made private (or public) changes what every vocabulary of its projects may hold.
create trigger `vocabulary_epoch_custom_fields_update` after update of `is_private` on `custom_fields` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
