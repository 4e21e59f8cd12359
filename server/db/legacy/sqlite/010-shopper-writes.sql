-- Shopper writes (issue 3): helpful votes, imported orders (verified-buyer status), answer authors.

-- One vote per visitor per review (docs/writes.md, Helpful votes). The UNIQUE key plus the count update in the same
-- IMMEDIATE transaction makes repeated or concurrent votes of one visitor count once.
CREATE TABLE review_votes (
  store_id     TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  review_id    TEXT NOT NULL REFERENCES reviews(review_id) ON DELETE CASCADE,
  visitor_hash TEXT NOT NULL,                     -- HMAC of the visitor ID: raw IDs are never stored
  vote         TEXT NOT NULL CHECK (vote IN ('helpful', 'unhelpful')),
  created_ms   INTEGER NOT NULL,
  updated_ms   INTEGER NOT NULL,
  PRIMARY KEY (review_id, visitor_hash)
) WITHOUT ROWID;

-- Imported orders: a review or answer whose e-mail bought the product is from a verified buyer.
CREATE TABLE orders (
  store_id   TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  order_id   TEXT NOT NULL,
  product_id TEXT NOT NULL,
  email      TEXT NOT NULL,                       -- trimmed, lower-case
  ordered_ms INTEGER NOT NULL,
  source     TEXT,
  PRIMARY KEY (store_id, order_id, product_id)
);
CREATE INDEX orders_buyer ON orders (store_id, email, product_id);

-- Answers by verified buyers keep the buyer's e-mail (never shown) and verified status.
ALTER TABLE answers ADD COLUMN author_email TEXT;
ALTER TABLE answers ADD COLUMN verified_status TEXT NOT NULL DEFAULT 'unverified'
  CHECK (verified_status IN ('verified-buyer', 'unverified'));
ALTER TABLE answers ADD COLUMN source TEXT;
ALTER TABLE answers ADD COLUMN source_key TEXT;
CREATE UNIQUE INDEX answers_source ON answers (store_id, source, source_key) WHERE source IS NOT NULL;
CREATE INDEX answers_status ON answers (store_id, status, created_ms);
