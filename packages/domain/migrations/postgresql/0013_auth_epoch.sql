-- The authorisation epoch: a counter bumped by triggers on every change that can change what a
-- credential resolves to (users, tokens, sessions, grants, role permissions, group membership, group
-- grants, the project trash). Processes cache resolved actors keyed by the credential and the epoch
-- they read (packages/domain/src/auth/actor-cache.ts): triggers, not use cases, bump it, so no write
-- path (nor another process, nor hand-written SQL) can forget to.
create table "trackline_auth_epoch" ("id" int not null primary key, "n" bigint not null);
insert into "trackline_auth_epoch" ("id", "n") values (1, 0);
create function "trackline_bump_auth_epoch"() returns trigger language plpgsql as $$ begin update "trackline_auth_epoch" set "n" = "n" + 1 where "id" = 1; return null; end $$;
create trigger "auth_epoch_users_update" after update of "login", "login_key", "type", "password_hash" on "users" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_users_delete" after delete on "users" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_sessions_update" after update on "sessions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_sessions_delete" after delete on "sessions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_permanent_tokens_update" after update of "user_id", "name", "secret_hash" on "permanent_tokens" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_permanent_tokens_delete" after delete on "permanent_tokens" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_projects_insert" after insert on "projects" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_projects_update" after update of "deleted_at" on "projects" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_projects_delete" after delete on "projects" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_grants_insert" after insert on "role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_grants_update" after update on "role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_grants_delete" after delete on "role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_permissions_insert" after insert on "role_permissions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_permissions_update" after update on "role_permissions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_role_permissions_delete" after delete on "role_permissions" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_members_insert" after insert on "group_members" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_members_update" after update on "group_members" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_members_delete" after delete on "group_members" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_role_grants_insert" after insert on "group_role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_role_grants_update" after update on "group_role_grants" for each statement execute function "trackline_bump_auth_epoch"();
create trigger "auth_epoch_group_role_grants_delete" after delete on "group_role_grants" for each statement execute function "trackline_bump_auth_epoch"();
