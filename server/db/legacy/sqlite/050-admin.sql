-- Merchant admin (issue 7): users with argon2id password hashes, store memberships, sessions stored
-- as SHA-256 hashes of the cookie token, login failures for rate limiting, and a moderation-queue index.

CREATE TABLE merchant_users (
  user_id       TEXT PRIMARY KEY,                 -- uuid
  email         TEXT NOT NULL UNIQUE,             -- stored lower-cased and trimmed
  password_hash TEXT NOT NULL,                    -- argon2id PHC string
  created_ms    INTEGER NOT NULL
);

-- A user belongs to one or more stores and sees only those.
CREATE TABLE store_memberships (
  user_id    TEXT NOT NULL REFERENCES merchant_users(user_id) ON DELETE CASCADE,
  store_id   TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (user_id, store_id)
) WITHOUT ROWID;

CREATE TABLE admin_sessions (
  session_hash TEXT PRIMARY KEY,                  -- hex sha256 of the cookie token (the token itself is never stored)
  user_id      TEXT NOT NULL REFERENCES merchant_users(user_id) ON DELETE CASCADE,
  csrf_token   TEXT NOT NULL,                     -- synchroniser token for every form of this session
  created_ms   INTEGER NOT NULL,
  expires_ms   INTEGER NOT NULL
);
CREATE INDEX admin_sessions_user ON admin_sessions (user_id);
CREATE INDEX admin_sessions_expiry ON admin_sessions (expires_ms);

-- Failed sign-ins (e-mail lower-cased; ip as the proxy reported it, or '' when unknown).
CREATE TABLE admin_login_failures (
  email      TEXT NOT NULL,
  ip         TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX admin_login_failures_email ON admin_login_failures (email, created_ms);
CREATE INDEX admin_login_failures_ip ON admin_login_failures (ip, created_ms);
CREATE INDEX admin_login_failures_time ON admin_login_failures (created_ms);

-- The moderation queue: newest first per store and status, keyset on (created_ms, review_id).
CREATE INDEX reviews_moderation ON reviews (store_id, status, created_ms, review_id);
