-- The command-vocabulary epoch: row 2 of the epochs table (row 1 is authorisation, 0012), bumped
-- by triggers on every change that can change what the command language may refer to: projects,
-- project fields and their values, user-bundle members (individuals and groups), users' logins
-- and names, tags and link types. Parsed command vocabularies are remembered per (user, context
-- projects) under it (packages/domain/src/commands/vocabulary-cache.ts). Issues are not among
-- them: the vocabulary's sample of issue ids is a suggestion hint, refreshed by age.
insert into `trackline_auth_epoch` (`id`, `n`) values (2, 0);
create trigger `vocabulary_epoch_projects_insert` after insert on `projects` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_projects_update` after update of `deleted_at` on `projects` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_projects_delete` after delete on `projects` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_users_insert` after insert on `users` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_users_update` after update of `login`, `full_name`, `type` on `users` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_users_delete` after delete on `users` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_project_fields_insert` after insert on `project_fields` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_project_fields_update` after update on `project_fields` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_project_fields_delete` after delete on `project_fields` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_field_values_insert` after insert on `field_values` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_field_values_update` after update on `field_values` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_field_values_delete` after delete on `field_values` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_bundle_users_insert` after insert on `bundle_users` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_bundle_users_update` after update on `bundle_users` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_bundle_users_delete` after delete on `bundle_users` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_bundle_groups_insert` after insert on `bundle_groups` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_bundle_groups_update` after update on `bundle_groups` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_bundle_groups_delete` after delete on `bundle_groups` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_group_members_insert` after insert on `group_members` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_group_members_update` after update on `group_members` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_group_members_delete` after delete on `group_members` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_tags_insert` after insert on `tags` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_tags_update` after update on `tags` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_tags_delete` after delete on `tags` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_issue_link_types_insert` after insert on `issue_link_types` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_issue_link_types_update` after update on `issue_link_types` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
create trigger `vocabulary_epoch_issue_link_types_delete` after delete on `issue_link_types` for each row begin update `trackline_auth_epoch` set `n` = `n` + 1 where `id` = 2; end;
