-- E-mail addresses are unique regardless of case (commits are matched to accounts by them). Accounts
-- that shared an address before keep it as written but lose its key: none of them matches a commit
-- (as before, when the match found several and ran nothing) until one sets it again, and nobody
-- else can take it meanwhile only while no key holds it (docs/security.md).
update users set email_key = null where email_key in
  (select email_key from users where email_key is not null group by email_key having count(*) > 1);
drop index if exists "users_email_key_index";
create unique index "users_email_key_unique" on "users" ("email_key");
