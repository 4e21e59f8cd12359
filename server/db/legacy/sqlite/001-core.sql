-- Core schema: stores, products, review groups, reviews, review media, questions and answers.
-- Times are integer milliseconds since the Unix epoch (UTC); the API renders them as ISO 8601.

CREATE TABLE app_settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE stores (
  store_id        TEXT PRIMARY KEY,              -- subscriber ID (uuid)
  name            TEXT NOT NULL,
  platform        TEXT NOT NULL,                 -- e.g. shopify, bigcommerce: the product path prefix
  moderation      TEXT NOT NULL DEFAULT 'manual'
                  CHECK (moderation IN ('manual', 'auto-publish-4-5', 'auto-publish-all')),
  translation     TEXT NOT NULL DEFAULT 'off' CHECK (translation IN ('off', 'on-load')),
  ai_auto_publish INTEGER NOT NULL DEFAULT 0,
  created_ms      INTEGER NOT NULL
);

-- A review group (collection): products that share reviews. A product belongs to at most one group.
CREATE TABLE review_groups (
  store_id          TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  group_id          TEXT NOT NULL,
  name              TEXT NOT NULL,
  use_group_content INTEGER NOT NULL DEFAULT 0,   -- docs/ai.md, Answers
  PRIMARY KEY (store_id, group_id)
);

CREATE TABLE products (
  store_id   TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  product_id TEXT NOT NULL,                       -- the platform's product ID, without the platform prefix
  name       TEXT NOT NULL,
  url        TEXT,
  image_url  TEXT,
  group_id   TEXT,
  PRIMARY KEY (store_id, product_id),
  FOREIGN KEY (store_id, group_id) REFERENCES review_groups(store_id, group_id)
);
CREATE INDEX products_group ON products (store_id, group_id);

CREATE TABLE reviews (
  review_id        TEXT PRIMARY KEY,              -- uuid
  store_id         TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  product_id       TEXT NOT NULL,
  group_id         TEXT,                          -- copy of products.group_id (guarded by trigger) for group-scope index scans
  variant_id       TEXT,
  variant_name     TEXT,
  rating           INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  title            TEXT NOT NULL DEFAULT '',
  body             TEXT NOT NULL DEFAULT '',
  created_ms       INTEGER NOT NULL,
  updated_ms       INTEGER,
  helpful_count    INTEGER NOT NULL DEFAULT 0 CHECK (helpful_count >= 0),
  unhelpful_count  INTEGER NOT NULL DEFAULT 0 CHECK (unhelpful_count >= 0),
  is_recommended   INTEGER,                       -- NULL when unknown
  is_incentivized  INTEGER NOT NULL DEFAULT 0,
  language_code    TEXT,                          -- detected at creation/import; NULL when detection failed
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  reviewer_name    TEXT NOT NULL,
  reviewer_email   TEXT,                          -- never leaves through the storefront
  verified_status  TEXT NOT NULL DEFAULT 'unverified'
                   CHECK (verified_status IN ('verified-buyer', 'verified-reviewer', 'unverified')),
  reviewer_country_code TEXT,
  reviewer_country_name TEXT,
  reviewer_zone_code    TEXT,
  media_count      INTEGER NOT NULL DEFAULT 0,    -- published media items (kept by trigger)
  reply_body       TEXT,
  reply_created_ms INTEGER,
  product_attributes_json     TEXT,
  attributes_with_rating_json TEXT,
  source           TEXT,                          -- import source name, with source_key: idempotent imports
  source_key       TEXT,
  has_media        INTEGER GENERATED ALWAYS AS (media_count > 0) VIRTUAL,
  rating_inverse   INTEGER GENERATED ALWAYS AS (-rating) VIRTUAL,
  helpful_inverse  INTEGER GENERATED ALWAYS AS (-helpful_count) VIRTUAL,
  FOREIGN KEY (store_id, product_id) REFERENCES products(store_id, product_id)
);
CREATE UNIQUE INDEX reviews_source ON reviews (store_id, source, source_key) WHERE source IS NOT NULL;
CREATE INDEX reviews_status ON reviews (store_id, status, created_ms);

-- Keyset indexes: every storefront order in every scope is one index scan (docs/api.md, Paging; docs/api.md, Query parameters and limits).
-- Mixed-direction orders (rating asc / helpful asc with newest-first ties) scan the inverse columns.
CREATE INDEX reviews_store_date ON reviews (store_id, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_store_rating ON reviews (store_id, rating, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_store_rating_inverse ON reviews (store_id, rating_inverse, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_store_helpful ON reviews (store_id, helpful_count, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_store_helpful_inverse ON reviews (store_id, helpful_inverse, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_store_media ON reviews (store_id, has_media, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_date ON reviews (store_id, product_id, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_rating ON reviews (store_id, product_id, rating, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_rating_inverse ON reviews (store_id, product_id, rating_inverse, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_helpful ON reviews (store_id, product_id, helpful_count, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_helpful_inverse ON reviews (store_id, product_id, helpful_inverse, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_media ON reviews (store_id, product_id, has_media, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_group_date ON reviews (store_id, group_id, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX reviews_group_rating ON reviews (store_id, group_id, rating, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX reviews_group_rating_inverse ON reviews (store_id, group_id, rating_inverse, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX reviews_group_helpful ON reviews (store_id, group_id, helpful_count, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX reviews_group_helpful_inverse ON reviews (store_id, group_id, helpful_inverse, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX reviews_group_media ON reviews (store_id, group_id, has_media, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;

-- Review aggregate per scope over published reviews (scope_type store|product|group; scope_id '' for store).
CREATE TABLE review_aggregates (
  store_id   TEXT NOT NULL,
  scope_type TEXT NOT NULL CHECK (scope_type IN ('store', 'product', 'group')),
  scope_id   TEXT NOT NULL,
  review_count INTEGER NOT NULL DEFAULT 0,
  rating_total INTEGER NOT NULL DEFAULT 0,
  level1 INTEGER NOT NULL DEFAULT 0, level2 INTEGER NOT NULL DEFAULT 0, level3 INTEGER NOT NULL DEFAULT 0,
  level4 INTEGER NOT NULL DEFAULT 0, level5 INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (store_id, scope_type, scope_id)
) WITHOUT ROWID;

CREATE TABLE review_media (
  media_id    TEXT PRIMARY KEY,                   -- uuid
  store_id    TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  review_id   TEXT NOT NULL REFERENCES reviews(review_id) ON DELETE CASCADE,
  product_id  TEXT NOT NULL,
  group_id    TEXT,
  type        TEXT NOT NULL CHECK (type IN ('image', 'video')),
  status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  alt         TEXT,
  thumbnail_url TEXT NOT NULL,                    -- path below the media route, e.g. /media/<store>/<id>/thumb.jpg
  large_url     TEXT NOT NULL,
  full_size_url TEXT NOT NULL,
  stream_url    TEXT,
  width INTEGER, height INTEGER, bytes INTEGER,
  position    INTEGER NOT NULL DEFAULT 0,
  created_ms  INTEGER NOT NULL
);
CREATE INDEX review_media_review ON review_media (review_id, position);
CREATE INDEX review_media_store ON review_media (store_id, created_ms, media_id) WHERE status = 'published';
CREATE INDEX review_media_product ON review_media (store_id, product_id, created_ms, media_id) WHERE status = 'published';
CREATE INDEX review_media_group ON review_media (store_id, group_id, created_ms, media_id) WHERE status = 'published' AND group_id IS NOT NULL;

CREATE TABLE questions (
  question_id TEXT PRIMARY KEY,
  store_id    TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  product_id  TEXT NOT NULL,
  group_id    TEXT,
  body        TEXT NOT NULL,
  asker_name  TEXT NOT NULL,
  asker_email TEXT,
  status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  created_ms  INTEGER NOT NULL,
  source      TEXT,
  source_key  TEXT,
  FOREIGN KEY (store_id, product_id) REFERENCES products(store_id, product_id)
);
CREATE UNIQUE INDEX questions_source ON questions (store_id, source, source_key) WHERE source IS NOT NULL;
CREATE INDEX questions_product ON questions (store_id, product_id, created_ms, question_id) WHERE status = 'published';
CREATE INDEX questions_group ON questions (store_id, group_id, created_ms, question_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX questions_status ON questions (store_id, status, created_ms);

CREATE TABLE answers (
  answer_id   TEXT PRIMARY KEY,
  question_id TEXT NOT NULL REFERENCES questions(question_id) ON DELETE CASCADE,
  store_id    TEXT NOT NULL,
  body        TEXT NOT NULL,
  author_name TEXT NOT NULL,
  is_store_answer INTEGER NOT NULL DEFAULT 0,
  is_public   INTEGER NOT NULL DEFAULT 1,
  status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  created_ms  INTEGER NOT NULL
);
CREATE INDEX answers_question ON answers (question_id, created_ms);

-- Triggers keep denormalised columns and aggregates true whatever code writes.
-- Writers copy products.group_id into reviews/questions (and the review's product/group into media) on insert;
-- these guards reject a row that disagrees, so group-scope listings and aggregates can trust the copy.
CREATE TRIGGER reviews_group_guard BEFORE INSERT ON reviews
WHEN NEW.group_id IS NOT (SELECT group_id FROM products WHERE store_id = NEW.store_id AND product_id = NEW.product_id)
BEGIN
  SELECT RAISE(ABORT, 'reviews.group_id must equal the product''s group_id');
END;

CREATE TRIGGER products_group_change AFTER UPDATE OF group_id ON products
WHEN OLD.group_id IS NOT NEW.group_id
BEGIN
  UPDATE reviews SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  UPDATE review_media SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  UPDATE questions SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
END;

CREATE TRIGGER review_media_scope_guard BEFORE INSERT ON review_media
WHEN NOT EXISTS (SELECT 1 FROM reviews r WHERE r.review_id = NEW.review_id AND r.store_id = NEW.store_id
                 AND r.product_id = NEW.product_id AND r.group_id IS NEW.group_id)
BEGIN
  SELECT RAISE(ABORT, 'review_media store/product/group must equal its review''s');
END;

CREATE TRIGGER questions_group_guard BEFORE INSERT ON questions
WHEN NEW.group_id IS NOT (SELECT group_id FROM products WHERE store_id = NEW.store_id AND product_id = NEW.product_id)
BEGIN
  SELECT RAISE(ABORT, 'questions.group_id must equal the product''s group_id');
END;

CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews WHEN NEW.status = 'published'
BEGIN
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT NEW.store_id, 'store', '', 1, 1 * NEW.rating, 1 * (NEW.rating = 1), 1 * (NEW.rating = 2), 1 * (NEW.rating = 3), 1 * (NEW.rating = 4), 1 * (NEW.rating = 5)
  WHERE NEW.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count + 1, rating_total = rating_total + NEW.rating,
    level1 = level1 + (NEW.rating = 1), level2 = level2 + (NEW.rating = 2), level3 = level3 + (NEW.rating = 3),
    level4 = level4 + (NEW.rating = 4), level5 = level5 + (NEW.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT NEW.store_id, 'product', NEW.product_id, 1, 1 * NEW.rating, 1 * (NEW.rating = 1), 1 * (NEW.rating = 2), 1 * (NEW.rating = 3), 1 * (NEW.rating = 4), 1 * (NEW.rating = 5)
  WHERE NEW.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count + 1, rating_total = rating_total + NEW.rating,
    level1 = level1 + (NEW.rating = 1), level2 = level2 + (NEW.rating = 2), level3 = level3 + (NEW.rating = 3),
    level4 = level4 + (NEW.rating = 4), level5 = level5 + (NEW.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT NEW.store_id, 'group', NEW.group_id, 1, 1 * NEW.rating, 1 * (NEW.rating = 1), 1 * (NEW.rating = 2), 1 * (NEW.rating = 3), 1 * (NEW.rating = 4), 1 * (NEW.rating = 5)
  WHERE NEW.status = 'published' AND NEW.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count + 1, rating_total = rating_total + NEW.rating,
    level1 = level1 + (NEW.rating = 1), level2 = level2 + (NEW.rating = 2), level3 = level3 + (NEW.rating = 3),
    level4 = level4 + (NEW.rating = 4), level5 = level5 + (NEW.rating = 5);
END;

CREATE TRIGGER reviews_aggregate_update AFTER UPDATE OF status, rating, product_id, group_id ON reviews
BEGIN
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT OLD.store_id, 'store', '', -1, -1 * OLD.rating, -1 * (OLD.rating = 1), -1 * (OLD.rating = 2), -1 * (OLD.rating = 3), -1 * (OLD.rating = 4), -1 * (OLD.rating = 5)
  WHERE OLD.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count - 1, rating_total = rating_total - OLD.rating,
    level1 = level1 - (OLD.rating = 1), level2 = level2 - (OLD.rating = 2), level3 = level3 - (OLD.rating = 3),
    level4 = level4 - (OLD.rating = 4), level5 = level5 - (OLD.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT OLD.store_id, 'product', OLD.product_id, -1, -1 * OLD.rating, -1 * (OLD.rating = 1), -1 * (OLD.rating = 2), -1 * (OLD.rating = 3), -1 * (OLD.rating = 4), -1 * (OLD.rating = 5)
  WHERE OLD.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count - 1, rating_total = rating_total - OLD.rating,
    level1 = level1 - (OLD.rating = 1), level2 = level2 - (OLD.rating = 2), level3 = level3 - (OLD.rating = 3),
    level4 = level4 - (OLD.rating = 4), level5 = level5 - (OLD.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT OLD.store_id, 'group', OLD.group_id, -1, -1 * OLD.rating, -1 * (OLD.rating = 1), -1 * (OLD.rating = 2), -1 * (OLD.rating = 3), -1 * (OLD.rating = 4), -1 * (OLD.rating = 5)
  WHERE OLD.status = 'published' AND OLD.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count - 1, rating_total = rating_total - OLD.rating,
    level1 = level1 - (OLD.rating = 1), level2 = level2 - (OLD.rating = 2), level3 = level3 - (OLD.rating = 3),
    level4 = level4 - (OLD.rating = 4), level5 = level5 - (OLD.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT NEW.store_id, 'store', '', 1, 1 * NEW.rating, 1 * (NEW.rating = 1), 1 * (NEW.rating = 2), 1 * (NEW.rating = 3), 1 * (NEW.rating = 4), 1 * (NEW.rating = 5)
  WHERE NEW.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count + 1, rating_total = rating_total + NEW.rating,
    level1 = level1 + (NEW.rating = 1), level2 = level2 + (NEW.rating = 2), level3 = level3 + (NEW.rating = 3),
    level4 = level4 + (NEW.rating = 4), level5 = level5 + (NEW.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT NEW.store_id, 'product', NEW.product_id, 1, 1 * NEW.rating, 1 * (NEW.rating = 1), 1 * (NEW.rating = 2), 1 * (NEW.rating = 3), 1 * (NEW.rating = 4), 1 * (NEW.rating = 5)
  WHERE NEW.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count + 1, rating_total = rating_total + NEW.rating,
    level1 = level1 + (NEW.rating = 1), level2 = level2 + (NEW.rating = 2), level3 = level3 + (NEW.rating = 3),
    level4 = level4 + (NEW.rating = 4), level5 = level5 + (NEW.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT NEW.store_id, 'group', NEW.group_id, 1, 1 * NEW.rating, 1 * (NEW.rating = 1), 1 * (NEW.rating = 2), 1 * (NEW.rating = 3), 1 * (NEW.rating = 4), 1 * (NEW.rating = 5)
  WHERE NEW.status = 'published' AND NEW.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count + 1, rating_total = rating_total + NEW.rating,
    level1 = level1 + (NEW.rating = 1), level2 = level2 + (NEW.rating = 2), level3 = level3 + (NEW.rating = 3),
    level4 = level4 + (NEW.rating = 4), level5 = level5 + (NEW.rating = 5);
END;

CREATE TRIGGER reviews_aggregate_delete AFTER DELETE ON reviews
BEGIN
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT OLD.store_id, 'store', '', -1, -1 * OLD.rating, -1 * (OLD.rating = 1), -1 * (OLD.rating = 2), -1 * (OLD.rating = 3), -1 * (OLD.rating = 4), -1 * (OLD.rating = 5)
  WHERE OLD.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count - 1, rating_total = rating_total - OLD.rating,
    level1 = level1 - (OLD.rating = 1), level2 = level2 - (OLD.rating = 2), level3 = level3 - (OLD.rating = 3),
    level4 = level4 - (OLD.rating = 4), level5 = level5 - (OLD.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT OLD.store_id, 'product', OLD.product_id, -1, -1 * OLD.rating, -1 * (OLD.rating = 1), -1 * (OLD.rating = 2), -1 * (OLD.rating = 3), -1 * (OLD.rating = 4), -1 * (OLD.rating = 5)
  WHERE OLD.status = 'published'
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count - 1, rating_total = rating_total - OLD.rating,
    level1 = level1 - (OLD.rating = 1), level2 = level2 - (OLD.rating = 2), level3 = level3 - (OLD.rating = 3),
    level4 = level4 - (OLD.rating = 4), level5 = level5 - (OLD.rating = 5);
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5)
  SELECT OLD.store_id, 'group', OLD.group_id, -1, -1 * OLD.rating, -1 * (OLD.rating = 1), -1 * (OLD.rating = 2), -1 * (OLD.rating = 3), -1 * (OLD.rating = 4), -1 * (OLD.rating = 5)
  WHERE OLD.status = 'published' AND OLD.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
    review_count = review_count - 1, rating_total = rating_total - OLD.rating,
    level1 = level1 - (OLD.rating = 1), level2 = level2 - (OLD.rating = 2), level3 = level3 - (OLD.rating = 3),
    level4 = level4 - (OLD.rating = 4), level5 = level5 - (OLD.rating = 5);
END;

CREATE TRIGGER review_media_count_insert AFTER INSERT ON review_media WHEN NEW.status = 'published'
BEGIN
  UPDATE reviews SET media_count = media_count + 1 WHERE review_id = NEW.review_id;
END;

CREATE TRIGGER review_media_count_update AFTER UPDATE OF status ON review_media WHEN OLD.status IS NOT NEW.status
BEGIN
  UPDATE reviews SET media_count = media_count + (NEW.status = 'published') - (OLD.status = 'published') WHERE review_id = NEW.review_id;
END;

CREATE TRIGGER review_media_count_delete AFTER DELETE ON review_media WHEN OLD.status = 'published'
BEGIN
  UPDATE reviews SET media_count = media_count - 1 WHERE review_id = OLD.review_id;
END;
