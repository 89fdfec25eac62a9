alter table `users` add column `jabber` text null;
