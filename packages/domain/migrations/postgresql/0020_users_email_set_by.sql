-- Issue 20 item 5: who set an account's e-mail when it was not the owner (null: the owner, or before this
-- column); the VCS committer match trusts such an e-mail only while the setter covers the account.
alter table "users" add "email_set_by" int null;
