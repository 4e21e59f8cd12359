-- Accounts (issue #21 item 2): store sign-up, instance operators, owner / member roles, team invitations
-- by e-mail and password reset by e-mail. Invitation and reset tokens are random 256-bit values sent in
-- the e-mail's link; only their SHA-256 hash is stored, each is single-use and expires.

-- An instance operator may create stores from the admin even when public sign-up is closed.
ALTER TABLE merchant_users ADD COLUMN is_operator INTEGER NOT NULL DEFAULT 0 CHECK (is_operator IN (0, 1));
-- The demo merchant of an existing demo database is the operator, as the demo seeder makes it on a new one.
UPDATE merchant_users SET is_operator = 1 WHERE email = 'demo@chorus.test';

-- Owners manage the team (invite, remove); members use the store's admin. Existing memberships are owners.
ALTER TABLE store_memberships ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'member'));

-- The shop's own address as the merchant gave it at sign-up (http(s); null for stores created otherwise).
ALTER TABLE stores ADD COLUMN shop_url TEXT;

CREATE TABLE admin_invites (
  invite_id   TEXT PRIMARY KEY,                               -- uuid (revoke forms name it; never the token)
  store_id    TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  email       TEXT NOT NULL,                                  -- lower-cased and trimmed
  role        TEXT NOT NULL CHECK (role IN ('owner', 'member')),
  token_hash  TEXT NOT NULL UNIQUE,                           -- hex SHA-256 of the link's token
  invited_by  TEXT REFERENCES merchant_users(user_id) ON DELETE SET NULL,
  created_ms  INTEGER NOT NULL,
  expires_ms  INTEGER NOT NULL,
  used_ms     INTEGER,                                        -- accepted (single use)
  revoked_ms  INTEGER                                         -- revoked by an owner, or replaced by a newer invite
);
CREATE INDEX admin_invites_store ON admin_invites (store_id, created_ms);

CREATE TABLE admin_password_resets (
  token_hash  TEXT PRIMARY KEY,                               -- hex SHA-256 of the link's token
  user_id     TEXT NOT NULL REFERENCES merchant_users(user_id) ON DELETE CASCADE,
  created_ms  INTEGER NOT NULL,
  expires_ms  INTEGER NOT NULL,
  used_ms     INTEGER                                         -- a new password was set with it (single use)
) WITHOUT ROWID;
CREATE INDEX admin_password_resets_user ON admin_password_resets (user_id);
CREATE INDEX admin_password_resets_expiry ON admin_password_resets (expires_ms);
