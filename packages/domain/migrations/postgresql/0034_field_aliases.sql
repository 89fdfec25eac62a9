-- Issue 25: a field prototype's aliases, as data (comma-separated; editable with the prototype):
-- other names of the field in commands, search and suggestions (`add affects 1.0`). The original's
-- predefined fields carry them: `affects` for Affected versions (Command Grammar page), `fixed in`
-- for Fix versions (offered beside `Fixed in build` when typing `Fixed`). They move the command
-- vocabulary epoch like the rest of a prototype that commands read.
alter table "custom_fields" add column "aliases" varchar(500) not null default '';
update "custom_fields" set "aliases" = 'affects' where "name_key" = 'affected versions';
update "custom_fields" set "aliases" = 'fixed in' where "name_key" = 'fix versions';
create trigger "vocabulary_epoch_custom_fields_aliases_update" after update of "aliases" on "custom_fields" for each statement execute function "trackline_bump_vocabulary_epoch"();
