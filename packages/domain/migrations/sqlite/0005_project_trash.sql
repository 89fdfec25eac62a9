alter table `projects` add column `deleted_at` datetime null;
