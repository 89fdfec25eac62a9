-- The unique (integration_id, delivery_key) index leads with integration_id and serves every
-- lookup and cascade by integration; its own index only cost each stored delivery one more
-- b-tree insert. (PostgreSQL never had it: foreign keys are not indexed there by default.)
drop index `vcs_deliveries_integration_id_index`;
