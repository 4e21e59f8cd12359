-- Product handles (the shop's URL slug of a product, e.g. Shopify's /products/<handle>), so reviews
-- imported from another review app by handle find the store's product (server/import/app-import.ts).
ALTER TABLE products ADD COLUMN handle TEXT;
CREATE INDEX products_handle ON products (store_id, handle) WHERE handle IS NOT NULL;
