-- Loyalty program (docs/loyalty.md).
-- The points ledger (loyalty_transactions) is append-only: triggers refuse UPDATE and DELETE, check that
-- each row's balance_after continues the customer's balance, and keep loyalty_customers.balance equal to
-- the sum of the customer's transactions (CHECK balance >= 0 makes a negative balance impossible).

-- One program per store: the platform adapter's secret and the legal policies.
CREATE TABLE loyalty_programs (
  store_id         TEXT PRIMARY KEY REFERENCES stores(store_id) ON DELETE CASCADE,
  platform_adapter TEXT NOT NULL DEFAULT 'hs256',
  platform_secret  TEXT NOT NULL,                 -- HS256 key shared with the storefront platform (verification needs it in clear)
  button_text      TEXT NOT NULL,
  policy_html      TEXT NOT NULL,                 -- sanitised on save
  policy_template  TEXT NOT NULL,
  privacy_policy_url TEXT NOT NULL,
  terms_url        TEXT NOT NULL,
  policy_version   TEXT NOT NULL,
  merchant_policies_json TEXT,
  updated_ms       INTEGER NOT NULL
);

CREATE TABLE loyalty_vip_tiers (
  vip_tier_id       TEXT PRIMARY KEY,
  store_id          TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  points_threshold  INTEGER NOT NULL CHECK (points_threshold >= 0),
  points_multiplier REAL NOT NULL DEFAULT 1 CHECK (points_multiplier > 0),
  perks_json        TEXT,
  UNIQUE (store_id, points_threshold)
);

CREATE TABLE loyalty_customers (
  loyalty_customer_id  TEXT PRIMARY KEY,
  store_id             TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  platform_customer_id TEXT NOT NULL,
  email                TEXT,                       -- lower-cased
  status               TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'enrolled', 'blocked')),
  balance              INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
  lifetime_points      INTEGER NOT NULL DEFAULT 0,  -- sum of positive earnings: the VIP tier measure
  vip_tier_id          TEXT REFERENCES loyalty_vip_tiers(vip_tier_id),
  minimum_vip_tier_id  TEXT REFERENCES loyalty_vip_tiers(vip_tier_id),
  enrollment_channel   TEXT,
  legal_version_accepted TEXT,
  enrolled_ms          INTEGER,
  created_ms           INTEGER NOT NULL,
  UNIQUE (store_id, platform_customer_id)
);
CREATE INDEX loyalty_customers_email ON loyalty_customers (store_id, email);

CREATE TABLE loyalty_earning_rules (
  earning_rule_id  TEXT PRIMARY KEY,
  store_id         TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  type             TEXT NOT NULL CHECK (type IN ('sign-up', 'points-per-spend', 'review', 'review-with-media', 'birthday')),
  name             TEXT NOT NULL,
  points           INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
  points_per_currency_unit REAL CHECK (points_per_currency_unit IS NULL OR points_per_currency_unit >= 0),
  enabled          INTEGER NOT NULL DEFAULT 1,
  minimum_vip_tier_id TEXT REFERENCES loyalty_vip_tiers(vip_tier_id),
  position         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX loyalty_earning_rules_store ON loyalty_earning_rules (store_id, position);

CREATE TABLE loyalty_redemption_rules (
  redemption_rule_id TEXT PRIMARY KEY,
  store_id         TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  type             TEXT NOT NULL CHECK (type IN ('fixed-amount-coupon', 'percentage-coupon', 'free-shipping')),
  name             TEXT NOT NULL,
  points_cost      INTEGER NOT NULL CHECK (points_cost > 0),
  reward_description TEXT NOT NULL,
  reward_value     REAL NOT NULL DEFAULT 0,
  enabled          INTEGER NOT NULL DEFAULT 1,
  minimum_vip_tier_id TEXT REFERENCES loyalty_vip_tiers(vip_tier_id),
  position         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX loyalty_redemption_rules_store ON loyalty_redemption_rules (store_id, position);

-- The points ledger. seq gives the keyset order (newest first = seq desc).
CREATE TABLE loyalty_transactions (
  seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
  transaction_id      TEXT NOT NULL UNIQUE,
  store_id            TEXT NOT NULL,
  loyalty_customer_id TEXT NOT NULL REFERENCES loyalty_customers(loyalty_customer_id),
  type                TEXT NOT NULL CHECK (type IN ('earning', 'redemption', 'adjustment')),
  points              INTEGER NOT NULL,
  balance_after       INTEGER NOT NULL CHECK (balance_after >= 0),
  description         TEXT NOT NULL,
  earning_rule_id     TEXT,
  redemption_rule_id  TEXT,
  award_key           TEXT,        -- 'sign-up', 'review:<reviewId>': one award per customer and key
  order_id            TEXT,        -- enterprise order earnings: one per store and order
  coupon_code         TEXT,
  created_ms          INTEGER NOT NULL,
  CHECK ((type = 'earning' AND points >= 0) OR (type = 'redemption' AND points < 0) OR type = 'adjustment')
);
CREATE INDEX loyalty_transactions_customer ON loyalty_transactions (store_id, loyalty_customer_id, seq);
CREATE UNIQUE INDEX loyalty_transactions_award ON loyalty_transactions (store_id, loyalty_customer_id, award_key) WHERE award_key IS NOT NULL;
CREATE UNIQUE INDEX loyalty_transactions_order ON loyalty_transactions (store_id, order_id) WHERE order_id IS NOT NULL;
CREATE UNIQUE INDEX loyalty_transactions_coupon ON loyalty_transactions (coupon_code) WHERE coupon_code IS NOT NULL;

CREATE TRIGGER loyalty_transactions_continue_balance BEFORE INSERT ON loyalty_transactions
WHEN NEW.balance_after IS NOT (SELECT balance FROM loyalty_customers WHERE loyalty_customer_id = NEW.loyalty_customer_id AND store_id = NEW.store_id) + NEW.points
BEGIN
  SELECT RAISE(ABORT, 'loyalty transaction balance_after must equal the balance plus points');
END;

CREATE TRIGGER loyalty_transactions_apply AFTER INSERT ON loyalty_transactions
BEGIN
  UPDATE loyalty_customers
     SET balance = balance + NEW.points,
         lifetime_points = lifetime_points + CASE WHEN NEW.type = 'earning' THEN NEW.points ELSE 0 END
   WHERE loyalty_customer_id = NEW.loyalty_customer_id AND store_id = NEW.store_id;
END;

CREATE TRIGGER loyalty_transactions_no_update BEFORE UPDATE ON loyalty_transactions
BEGIN
  SELECT RAISE(ABORT, 'the loyalty points ledger is append-only');
END;

CREATE TRIGGER loyalty_transactions_no_delete BEFORE DELETE ON loyalty_transactions
BEGIN
  SELECT RAISE(ABORT, 'the loyalty points ledger is append-only');
END;

-- The balance column may change only through the ledger trigger above.
CREATE TRIGGER loyalty_customers_balance_guard BEFORE UPDATE OF balance ON loyalty_customers
WHEN NEW.balance IS NOT (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions WHERE store_id = OLD.store_id AND loyalty_customer_id = OLD.loyalty_customer_id)
BEGIN
  SELECT RAISE(ABORT, 'a loyalty balance must equal the sum of the customer''s transactions');
END;

-- Review earnings look reviews up by the reviewer's e-mail.
CREATE INDEX loyalty_reviews_email ON reviews (store_id, lower(reviewer_email)) WHERE reviewer_email IS NOT NULL;
