-- Shop-platform connection and orders from its webhooks (issue #22 items 1, 3, 4, 6; docs/platforms.md).

-- One connection per store: the shop's domain (Shopify: `example.myshopify.com`, lower-case) and the app
-- secret that signs its webhooks. HMAC verification needs the secret itself, so it cannot be hashed: it is
-- stored encrypted (AES-256-GCM under the installation key `platform_secret_key` of app_settings) and never
-- shown again (the admin and GET /enterprise/settings say only whether it is set).
CREATE TABLE platform_connections (
  store_id          TEXT PRIMARY KEY REFERENCES stores(store_id) ON DELETE CASCADE,
  shop_domain       TEXT,
  secret_encrypted  TEXT,                          -- base64url(iv | tag | ciphertext)
  secret_set_ms     INTEGER,
  updated_ms        INTEGER NOT NULL
);
CREATE UNIQUE INDEX platform_connections_shop ON platform_connections (shop_domain) WHERE shop_domain IS NOT NULL;

-- Webhooks already applied, by the platform's delivery ID (`X-Shopify-Webhook-Id`, `X-Chorus-Webhook-Id`):
-- a delivery seen again answers 200 and changes nothing.
CREATE TABLE platform_webhooks (
  store_id    TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  webhook_id  TEXT NOT NULL,
  topic       TEXT NOT NULL,
  outcome     TEXT NOT NULL CHECK (outcome IN ('applied', 'ignored')),
  received_ms INTEGER NOT NULL,
  PRIMARY KEY (store_id, webhook_id)
) WITHOUT ROWID;

-- Order headers: one row per order. The lines stay in `orders` (one row per order and product), so the
-- CSV import and POST /enterprise/orders keep working; they add a header too.
CREATE TABLE order_headers (
  store_id             TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  order_id             TEXT NOT NULL,
  order_name           TEXT,                       -- the shop's order number, e.g. "#1001"
  email                TEXT NOT NULL DEFAULT '',    -- trimmed, lower-case; '' when the order has none
  platform_customer_id TEXT,                       -- Shopify customer.id: links to loyalty_customers.platform_customer_id
  customer_name        TEXT,
  locale               TEXT,
  currency             TEXT,
  subtotal             REAL,                       -- currency units; points-per-spend earns on it
  status               TEXT NOT NULL DEFAULT 'ordered' CHECK (status IN ('ordered', 'fulfilled', 'cancelled')),
  ordered_ms           INTEGER NOT NULL,
  fulfilled_ms         INTEGER,
  cancelled_ms         INTEGER,
  updated_ms           INTEGER NOT NULL,
  source               TEXT,                       -- shopify-webhook, signed-webhook, orders-csv, enterprise-api, demo-generated
  PRIMARY KEY (store_id, order_id)
);
CREATE INDEX order_headers_recent ON order_headers (store_id, ordered_ms, order_id);
CREATE INDEX order_headers_customer ON order_headers (store_id, platform_customer_id) WHERE platform_customer_id IS NOT NULL;

ALTER TABLE orders ADD COLUMN variant_id TEXT;
ALTER TABLE orders ADD COLUMN title TEXT;
ALTER TABLE orders ADD COLUMN price REAL;
ALTER TABLE orders ADD COLUMN quantity INTEGER;
CREATE INDEX orders_lines ON orders (store_id, order_id);

INSERT INTO order_headers (store_id, order_id, email, ordered_ms, updated_ms, source)
SELECT store_id, order_id, MIN(email), MIN(ordered_ms), MIN(ordered_ms), MIN(source) FROM orders GROUP BY store_id, order_id;
