-- Insertion order where SQLite reads rows in rowid order (owner PORT-B). PostgreSQL has no rowid, so these
-- tables get an identity column that grows with each insert and is kept by ON CONFLICT ... DO UPDATE, as
-- SQLite keeps a row's rowid:
-- - channel_surveys: a survey's channel surveys are listed in the order they were created (surveys.repo.ts);
-- - orders: an order's lines are listed in the order they were stored (orders.repo.ts).
ALTER TABLE channel_surveys ADD COLUMN row_seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE orders ADD COLUMN row_seq bigint GENERATED ALWAYS AS IDENTITY;
