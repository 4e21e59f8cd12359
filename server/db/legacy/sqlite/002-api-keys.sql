-- Enterprise API keys (docs/api.md, Authentication): stored only as a SHA-256 hash (keys are 256-bit random, so a
-- fast hash is safe; nothing to brute-force), shown once at creation, revocable.
CREATE TABLE api_keys (
  api_key_id  TEXT PRIMARY KEY,
  store_id    TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  key_hash    TEXT NOT NULL UNIQUE,         -- hex sha256 of the full key
  key_prefix  TEXT NOT NULL,                -- first characters, to recognise a key in lists
  created_ms  INTEGER NOT NULL,
  revoked_ms  INTEGER,
  last_used_ms INTEGER
);
CREATE INDEX api_keys_store ON api_keys (store_id, created_ms);
