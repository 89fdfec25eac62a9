-- Groups in user bundles: the members of a bundle's groups are values of the user fields using it (after 0008_groups).
create table "bundle_groups" ("id" serial primary key, "bundle_id" int not null, "group_id" int not null);
create index "bundle_groups_group_id_index" on "bundle_groups" ("group_id");
alter table "bundle_groups" add constraint "bundle_groups_bundle_id_group_id_unique" unique ("bundle_id", "group_id");

alter table "bundle_groups" add constraint "bundle_groups_bundle_id_foreign" foreign key ("bundle_id") references "bundles" ("id") on delete cascade;
alter table "bundle_groups" add constraint "bundle_groups_group_id_foreign" foreign key ("group_id") references "user_groups" ("id") on delete cascade;
