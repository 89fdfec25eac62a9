-- The SHA-256 of each login's look-alike skeleton (users/login-skeleton.ts): a new login whose
-- skeleton another account's login has is refused. Filled for existing rows by the seed.
alter table `users` add column `login_skeleton` text null;
create index `users_login_skeleton_index` on `users` (`login_skeleton`);
