-- Outgoing webhooks (issue #24 item 2, server/webhooks, docs/webhooks.md).
--
-- A store subscribes a URL to event types. A change to a reviewed table inserts an event into the outbox
-- `webhook_events` from a trigger, in the transaction of the change itself: a committed change always has
-- its event, a rolled-back one never has. The delivery queue (server/webhooks/delivery.ts) then builds the
-- event's body once, fans it out to one delivery per subscription, and sends each with retries.

-- Subscriptions. The signing secret is needed in clear to sign, so it is not hashed: it is encrypted
-- (AES-256-GCM under the installation key `webhook_secret_key` of app_settings, server/platforms/secret-box.ts)
-- and shown only when it is created or rotated; `secret_prefix` lets the merchant recognise it.
CREATE TABLE webhook_subscriptions (
  subscription_id      TEXT PRIMARY KEY,                 -- uuid
  store_id             TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  url                  TEXT NOT NULL,
  description          TEXT NOT NULL DEFAULT '',
  secret_encrypted     TEXT NOT NULL,                    -- base64url(iv | tag | ciphertext)
  secret_prefix        TEXT NOT NULL,                    -- the first characters of the secret, for display
  status               TEXT NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason      TEXT,                             -- why it was disabled (repeated failure, or by the merchant)
  disabled_ms          INTEGER,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,       -- failed attempts since the last success
  failing_since_ms     INTEGER,                          -- first failed attempt since the last success
  created_ms           INTEGER NOT NULL,
  updated_ms           INTEGER NOT NULL
);
CREATE INDEX webhook_subscriptions_store ON webhook_subscriptions (store_id, created_ms);

-- The event types of each subscription (the triggers look up whether a store wants an event type at all).
CREATE TABLE webhook_subscription_events (
  store_id        TEXT NOT NULL,
  event_type      TEXT NOT NULL,
  subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(subscription_id) ON DELETE CASCADE,
  PRIMARY KEY (store_id, event_type, subscription_id)
) WITHOUT ROWID;
CREATE INDEX webhook_subscription_events_subscription ON webhook_subscription_events (subscription_id);

-- The outbox: one row per event of a store that had an enabled subscription to its type when it happened.
CREATE TABLE webhook_events (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id      TEXT NOT NULL UNIQUE,                    -- evt_<32 hex>, the Chorus-Event-Id header
  store_id      TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  event_type    TEXT NOT NULL,
  resource_id   TEXT NOT NULL,                           -- review_id, survey_response_id, loyalty_customer_id, transaction_id
  snapshot_json TEXT,                                    -- review.*: the review's product (kept for a review deleted before dispatch)
  payload_json  TEXT,                                    -- the body sent, built once when the event is dispatched
  created_ms    INTEGER NOT NULL,
  dispatched_ms INTEGER
);
CREATE INDEX webhook_events_undispatched ON webhook_events (seq) WHERE dispatched_ms IS NULL;
CREATE INDEX webhook_events_dispatched ON webhook_events (dispatched_ms); -- the retention sweep

-- One delivery of an event to a subscription (a replay is a new delivery of the same event).
CREATE TABLE webhook_deliveries (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id      TEXT NOT NULL UNIQUE,                 -- uuid, the Chorus-Delivery-Id header
  event_seq        INTEGER NOT NULL REFERENCES webhook_events(seq) ON DELETE CASCADE,
  subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions(subscription_id) ON DELETE CASCADE,
  store_id         TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms  INTEGER NOT NULL,
  lease_until_ms   INTEGER,
  last_status_code INTEGER,                              -- HTTP status of the last attempt (NULL: no answer)
  last_latency_ms  INTEGER,
  last_error       TEXT,
  replay_of        TEXT,                                 -- delivery_id this one replays
  created_ms       INTEGER NOT NULL,
  delivered_ms     INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_ms);
CREATE INDEX webhook_deliveries_store ON webhook_deliveries (store_id, seq);
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, seq);

-- The delivery log: every attempt with its answer's status code and latency.
CREATE TABLE webhook_attempts (
  delivery_seq INTEGER NOT NULL REFERENCES webhook_deliveries(seq) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL,
  store_id     TEXT NOT NULL,
  attempted_ms INTEGER NOT NULL,
  status_code  INTEGER,
  latency_ms   INTEGER NOT NULL,
  error        TEXT,
  PRIMARY KEY (delivery_seq, attempt)
) WITHOUT ROWID;

-- ---- Event triggers: the outbox rows, written in the transaction of the change ----
-- Each fires only when the store has an enabled subscription to the event type, so stores without
-- webhooks pay one index probe per write and store nothing.

CREATE TRIGGER webhook_review_created AFTER INSERT ON reviews
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'review.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'review.created', NEW.review_id, json_object('product_id', NEW.product_id), CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

-- What a merchant's system sees of a review changed (not helpful-vote counts).
CREATE TRIGGER webhook_review_updated AFTER UPDATE ON reviews
WHEN (OLD.status IS NOT NEW.status OR OLD.rating IS NOT NEW.rating OR OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body
      OR OLD.reply_body IS NOT NEW.reply_body OR OLD.verified_status IS NOT NEW.verified_status OR OLD.reviewer_name IS NOT NEW.reviewer_name
      OR OLD.product_id IS NOT NEW.product_id OR OLD.variant_id IS NOT NEW.variant_id OR OLD.is_recommended IS NOT NEW.is_recommended
      OR OLD.is_incentivized IS NOT NEW.is_incentivized OR OLD.media_count IS NOT NEW.media_count)
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'review.updated' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'review.updated', NEW.review_id, json_object('product_id', NEW.product_id), CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER webhook_review_deleted AFTER DELETE ON reviews
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = OLD.store_id AND e.event_type = 'review.deleted' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), OLD.store_id, 'review.deleted', OLD.review_id,
          json_object('product_id', OLD.product_id), CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER webhook_survey_response_created AFTER INSERT ON survey_responses
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'survey_response.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'survey_response.created', NEW.survey_response_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER webhook_loyalty_customer_created AFTER INSERT ON loyalty_customers
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_customer.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_customer.created', NEW.loyalty_customer_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER webhook_loyalty_customer_updated AFTER UPDATE ON loyalty_customers
WHEN (OLD.status IS NOT NEW.status OR OLD.balance IS NOT NEW.balance OR OLD.vip_tier_id IS NOT NEW.vip_tier_id
      OR OLD.minimum_vip_tier_id IS NOT NEW.minimum_vip_tier_id OR OLD.email IS NOT NEW.email)
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_customer.updated' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_customer.updated', NEW.loyalty_customer_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER webhook_loyalty_earning_transaction_created AFTER INSERT ON loyalty_transactions
WHEN NEW.type = 'earning'
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_earning_transaction.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_earning_transaction.created', NEW.transaction_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER webhook_loyalty_redemption_transaction_created AFTER INSERT ON loyalty_transactions
WHEN NEW.type = 'redemption'
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_redemption_transaction.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_redemption_transaction.created', NEW.transaction_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

-- ---- Exports (issue #24 item 4, server/exports): keyset scans in date order over every status ----
CREATE INDEX exports_reviews ON reviews (store_id, created_ms, review_id);
CREATE INDEX exports_questions ON questions (store_id, created_ms, question_id);
CREATE INDEX exports_loyalty_customers ON loyalty_customers (store_id, created_ms, loyalty_customer_id);
CREATE INDEX exports_loyalty_transactions ON loyalty_transactions (store_id, seq);
