-- Search plans (issue 21): PostgreSQL gets extended statistics of (field_key, value_key). SQLite's
-- planner does not choose these plans (search-plan.ts joins the measured driver first): nothing here,
-- the file keeps both dialects' migration lists alike.
select 1;
