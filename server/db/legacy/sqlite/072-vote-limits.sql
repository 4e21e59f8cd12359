-- Helpful votes limited per client address (issue #19 finding 5; server/reviews/votes.repo.ts, docs/writes.md):
-- each new vote row records the address that cast it, as an HMAC of (store, address) keyed with the
-- installation's visitor secret, never the raw address. Rows from before this migration have none and
-- count for no address.
ALTER TABLE review_votes ADD COLUMN address_hash TEXT;

-- The address's recent votes in a store (per-hour limit) and, among them, on one review (per-review limit).
CREATE INDEX review_votes_by_address ON review_votes (store_id, address_hash, created_ms) WHERE address_hash IS NOT NULL;
