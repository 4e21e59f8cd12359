-- Review requests (issue #22 item 2; server/review-requests/, docs/review-requests.md).
-- Times are integer ms since the Unix epoch (UTC).

-- Per-store settings: one JSON document validated by the zod schema of server/review-requests/settings.ts
-- (on/off, delay, reminder, quiet hours, time zone, templates per language). No row = the defaults (off).
CREATE TABLE review_request_settings (
  store_id      TEXT PRIMARY KEY REFERENCES stores(store_id) ON DELETE CASCADE,
  settings_json TEXT NOT NULL,
  updated_ms    INTEGER NOT NULL
);

-- One review request per order. `next_step` is what the scheduler sends next ('request', then
-- 'reminder'), at `due_ms`; NULL when nothing more will be sent. `status` says where the request stands.
CREATE TABLE review_requests (
  request_id    TEXT PRIMARY KEY,                          -- uuid
  store_id      TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  order_id      TEXT NOT NULL,
  email         TEXT NOT NULL,                             -- trimmed, lower-case
  customer_name TEXT,
  locale        TEXT,
  fulfilled_ms  INTEGER NOT NULL,
  created_ms    INTEGER NOT NULL,
  status        TEXT NOT NULL DEFAULT 'scheduled'
                CHECK (status IN ('scheduled', 'sent', 'completed', 'cancelled', 'skipped')),
  skip_reason   TEXT,                                      -- 'unsubscribed', 'already-reviewed', 'disabled', 'no-products'
  next_step     TEXT CHECK (next_step IN ('request', 'reminder')),
  due_ms        INTEGER,
  sent_ms       INTEGER,
  reminded_ms   INTEGER,
  opened_ms     INTEGER,                                   -- first time a link of the message was opened
  cancelled_ms  INTEGER,
  UNIQUE (store_id, order_id)
);
CREATE INDEX review_requests_due ON review_requests (due_ms) WHERE next_step IS NOT NULL;
CREATE INDEX review_requests_store_sent ON review_requests (store_id, sent_ms) WHERE sent_ms IS NOT NULL;

-- The order's products the request asks about; `review_id` once a review was written through a link.
CREATE TABLE review_request_products (
  request_id  TEXT NOT NULL REFERENCES review_requests(request_id) ON DELETE CASCADE,
  store_id    TEXT NOT NULL,
  product_id  TEXT NOT NULL,
  position    INTEGER NOT NULL,
  review_id   TEXT,
  reviewed_ms INTEGER,
  PRIMARY KEY (request_id, product_id)
);
CREATE INDEX review_request_products_reviewed ON review_request_products (store_id, reviewed_ms) WHERE reviewed_ms IS NOT NULL;

-- Link tokens of the messages, stored as SHA-256 hashes (the e-mail holds the only copy of a token).
-- purpose 'review': opens /r/{token} for one product; 'unsubscribe': /u/{token} for the address.
CREATE TABLE review_request_tokens (
  token_hash  TEXT PRIMARY KEY,                            -- hex SHA-256 of the token
  request_id  TEXT NOT NULL REFERENCES review_requests(request_id) ON DELETE CASCADE,
  store_id    TEXT NOT NULL,
  purpose     TEXT NOT NULL CHECK (purpose IN ('review', 'unsubscribe')),
  product_id  TEXT,                                        -- set for purpose 'review'
  created_ms  INTEGER NOT NULL,
  expires_ms  INTEGER NOT NULL
);
CREATE INDEX review_request_tokens_request ON review_request_tokens (request_id);

-- Addresses that unsubscribed from a store's review requests (trimmed, lower-case).
CREATE TABLE review_request_unsubscribes (
  store_id   TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  email      TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (store_id, email)
);

-- "Already reviewed": a shopper's reviews of a product in a store, whatever their status.
CREATE INDEX reviews_reviewer ON reviews (store_id, reviewer_email, product_id) WHERE reviewer_email IS NOT NULL;
