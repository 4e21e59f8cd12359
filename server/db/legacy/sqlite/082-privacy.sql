-- Shopper data requests (issue 24 item 1; GDPR Art. 15/17, CCPA): every export and erasure of a shopper's data is
-- audited: who asked, when, through what, and how many records of each kind were concerned. The shopper's
-- e-mail or data is never stored here (after an erasure nothing would be left to identify them by).
CREATE TABLE privacy_requests (
  request_id   TEXT PRIMARY KEY,                 -- uuid
  store_id     TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('export', 'erasure', 'data-request')), -- data-request: a platform asked; the merchant was told
  actor        TEXT NOT NULL,                    -- 'admin:<user e-mail>', 'enterprise-api', 'shopify:customers/redact', ...
  counts_json  TEXT NOT NULL,                    -- {"reviews": 2, "mediaFiles": 3, ...}
  created_ms   INTEGER NOT NULL
);
CREATE INDEX privacy_requests_recent ON privacy_requests (store_id, created_ms);
