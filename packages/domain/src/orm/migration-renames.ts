/**
 * Migration files renamed so that every name starts with its own, strictly increasing number
 * (four files once shared `0008_`, and their order hung on the alphabet). Databases migrated
 * before the renaming recorded the old names; `migrate` rewrites those records to the new ones
 * before it compares, so nothing is applied twice. Never edit an entry; add one only when a
 * file that some database may have recorded is renamed.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '0005_vcs_require_pusher_match.sql': '0004_vcs_require_pusher_match.sql',
  '0006_project_trash.sql': '0005_project_trash.sql',
  '0007_custom_fields.sql': '0006_custom_fields.sql',
  '0008_groups.sql': '0007_groups.sql',
  '0008_user_bundle_groups.sql': '0009_user_bundle_groups.sql',
  '0008_users_jabber.sql': '0010_users_jabber.sql',
  '0009_attachments_work_items.sql': '0011_attachments_work_items.sql',
  '0010_issue_history.sql': '0012_issue_history.sql',
  '0012_auth_epoch.sql': '0013_auth_epoch.sql',
  '0013_vocabulary_epoch.sql': '0014_vocabulary_epoch.sql',
  '0014_vcs_claimable_index.sql': '0015_vcs_claimable_index.sql',
  '0015_vcs_deliveries_integration_index.sql': '0016_vcs_deliveries_integration_index.sql',
  '0016_issue_visibility.sql': '0017_issue_visibility.sql',
  '0020_search.sql': '0018_search.sql',
  '0030_epoch_truncate_triggers.sql': '0019_epoch_truncate_triggers.sql',
  '0031_users_email_set_by.sql': '0020_users_email_set_by.sql',
};
