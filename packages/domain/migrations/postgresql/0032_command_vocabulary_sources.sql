-- Issue 25: the command language also names groups (`visible to <group>`), work types and whether
-- a project tracks time (`work 2h Development`): changes to them move the command-vocabulary epoch
-- (row 2, migration 0013) like every other table a vocabulary is built from.
create trigger "vocabulary_epoch_user_groups_insert" after insert on "user_groups" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_user_groups_update" after update on "user_groups" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_user_groups_delete" after delete on "user_groups" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_user_groups_truncate" after truncate on "user_groups" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_work_types_insert" after insert on "work_types" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_work_types_update" after update on "work_types" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_work_types_delete" after delete on "work_types" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_work_types_truncate" after truncate on "work_types" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_project_time_tracking_insert" after insert on "project_time_tracking" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_project_time_tracking_update" after update on "project_time_tracking" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_project_time_tracking_delete" after delete on "project_time_tracking" for each statement execute function "trackline_bump_vocabulary_epoch"();
create trigger "vocabulary_epoch_project_time_tracking_truncate" after truncate on "project_time_tracking" for each statement execute function "trackline_bump_vocabulary_epoch"();
