-- Search keys at write speed (issue 21): SQLite's key trigger now only corrects wrong or missing
-- keys. PostgreSQL's trigger (0020) already sets them before the row is written, at no second
-- write; nothing changes here (the file keeps both dialects' migration lists alike).
select 1;
