-- Issue 20 item 4: TRUNCATE fires no delete trigger, so on PostgreSQL truncating sessions, tokens or
-- grants (or any table the epochs of 0012 and 0013 watch) left them unmoved: every process kept
-- using what it had remembered. Statement-level `after truncate` triggers beside the `after delete`
-- ones move the same epoch in the truncating transaction (also for tables truncated by CASCADE).
create trigger "auth_epoch_users_truncate" after truncate on "users" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_sessions_truncate" after truncate on "sessions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_permanent_tokens_truncate" after truncate on "permanent_tokens" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_projects_truncate" after truncate on "projects" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_grants_truncate" after truncate on "role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_permissions_truncate" after truncate on "role_permissions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_members_truncate" after truncate on "group_members" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_role_grants_truncate" after truncate on "group_role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "vocabulary_epoch_projects_truncate" after truncate on "projects" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_users_truncate" after truncate on "users" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_project_fields_truncate" after truncate on "project_fields" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_field_values_truncate" after truncate on "field_values" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_bundle_users_truncate" after truncate on "bundle_users" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_bundle_groups_truncate" after truncate on "bundle_groups" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_group_members_truncate" after truncate on "group_members" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_tags_truncate" after truncate on "tags" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_issue_link_types_truncate" after truncate on "issue_link_types" for each statement execute function "trackline_bump_vocabulary_epoch"();
