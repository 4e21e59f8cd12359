-- Outgoing mail (issue #21 item 1, server/mail): every message is a row here first (the outbox), then a
-- persisted send job works on it. `seq` orders the admin listing (newest first, keyset); `message_id` is
-- the public ID and the local part of the Message-ID header, stable across retries.
CREATE TABLE mail_outbox (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id      TEXT NOT NULL UNIQUE,                 -- uuid
  store_id        TEXT REFERENCES stores(store_id) ON DELETE CASCADE, -- null: not a store's mail (e.g. password reset)
  kind            TEXT NOT NULL,                        -- invite, password-reset, review-request, ...
  to_address      TEXT NOT NULL,
  subject         TEXT NOT NULL,
  html            TEXT NOT NULL,
  text            TEXT NOT NULL,
  headers_json    TEXT NOT NULL DEFAULT '{}',           -- extra headers, e.g. List-Unsubscribe
  dedupe_key      TEXT UNIQUE,                          -- a second enqueue with the same key is a no-op
  status          TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'kept')),
  attempts        INTEGER NOT NULL DEFAULT 0,           -- send attempts started
  last_error      TEXT,
  next_attempt_ms INTEGER NOT NULL,                     -- not sent before this time (epoch ms)
  lease_until_ms  INTEGER,                              -- while 'sending': the claim holds until then
  created_ms      INTEGER NOT NULL,
  sent_ms         INTEGER
);
-- The sender's claim: due queued messages, and sending ones whose lease ran out (a crash mid-send).
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_ms);
-- The admin listing: a store's messages newest first; mail without a store by recipient.
CREATE INDEX mail_outbox_store ON mail_outbox (store_id, seq);
CREATE INDEX mail_outbox_recipient ON mail_outbox (to_address COLLATE NOCASE, seq) WHERE store_id IS NULL;
