-- Okendo-compatible storefront answers (issue #23 item 1, docs/api.md, Okendo-compatible).

-- 1. The aggregate's `recommendationCount`: published reviews whose reviewer recommends the product, per
-- scope, kept by triggers beside the counts of migration 001. UPSERT style (a row may be created by these
-- triggers or by 001's, in either order), then a backfill of the existing reviews.
ALTER TABLE review_aggregates ADD COLUMN recommended_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER reviews_recommended_insert AFTER INSERT ON reviews WHEN NEW.status = 'published' AND NEW.is_recommended = 1
BEGIN
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) VALUES (NEW.store_id, 'store', '', 1)
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) VALUES (NEW.store_id, 'product', NEW.product_id, 1)
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) SELECT NEW.store_id, 'group', NEW.group_id, 1 WHERE NEW.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
END;

CREATE TRIGGER reviews_recommended_update AFTER UPDATE OF status, is_recommended, product_id, group_id ON reviews
WHEN (OLD.status = 'published' AND OLD.is_recommended = 1) OR (NEW.status = 'published' AND NEW.is_recommended = 1)
BEGIN
  UPDATE review_aggregates SET recommended_count = recommended_count - 1
  WHERE OLD.status = 'published' AND OLD.is_recommended = 1 AND store_id = OLD.store_id
    AND ((scope_type = 'store' AND scope_id = '') OR (scope_type = 'product' AND scope_id = OLD.product_id) OR (scope_type = 'group' AND scope_id = OLD.group_id));
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) SELECT NEW.store_id, 'store', '', 1
  WHERE NEW.status = 'published' AND NEW.is_recommended = 1
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) SELECT NEW.store_id, 'product', NEW.product_id, 1
  WHERE NEW.status = 'published' AND NEW.is_recommended = 1
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) SELECT NEW.store_id, 'group', NEW.group_id, 1
  WHERE NEW.status = 'published' AND NEW.is_recommended = 1 AND NEW.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
END;

CREATE TRIGGER reviews_recommended_delete AFTER DELETE ON reviews WHEN OLD.status = 'published' AND OLD.is_recommended = 1
BEGIN
  UPDATE review_aggregates SET recommended_count = recommended_count - 1
  WHERE store_id = OLD.store_id
    AND ((scope_type = 'store' AND scope_id = '') OR (scope_type = 'product' AND scope_id = OLD.product_id) OR (scope_type = 'group' AND scope_id = OLD.group_id));
END;

UPDATE review_aggregates SET recommended_count = (
  SELECT count(*) FROM reviews r
  WHERE r.store_id = review_aggregates.store_id AND r.status = 'published' AND r.is_recommended = 1
    AND (review_aggregates.scope_type = 'store'
      OR (review_aggregates.scope_type = 'product' AND r.product_id = review_aggregates.scope_id)
      OR (review_aggregates.scope_type = 'group' AND r.group_id = review_aggregates.scope_id))
);

-- 2. `orderBy=unhelpful desc`: one keyset index per scope, like the orders of migration 001.
CREATE INDEX reviews_store_unhelpful ON reviews (store_id, unhelpful_count, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_product_unhelpful ON reviews (store_id, product_id, unhelpful_count, created_ms, review_id) WHERE status = 'published';
CREATE INDEX reviews_group_unhelpful ON reviews (store_id, group_id, unhelpful_count, created_ms, review_id) WHERE status = 'published' AND group_id IS NOT NULL;

-- 3. Product attributes (`GET …/attributes`, the attribute filters) and attribute rating averages of the
-- aggregate read only the published reviews that carry them.
CREATE INDEX reviews_product_attributes ON reviews (store_id, product_id) WHERE status = 'published' AND product_attributes_json IS NOT NULL;
CREATE INDEX reviews_product_attribute_ratings ON reviews (store_id, product_id) WHERE status = 'published' AND attributes_with_rating_json IS NOT NULL;
CREATE INDEX reviews_group_attribute_ratings ON reviews (store_id, group_id) WHERE status = 'published' AND attributes_with_rating_json IS NOT NULL AND group_id IS NOT NULL;

-- 4. Helpful votes on questions and answers (`POST …/questions/{id}/vote`, `…/answers/{id}/vote`): the
-- counts, and one row per voter (client address, keyed like review_votes) per item.
ALTER TABLE questions ADD COLUMN helpful_count INTEGER NOT NULL DEFAULT 0 CHECK (helpful_count >= 0);
ALTER TABLE questions ADD COLUMN unhelpful_count INTEGER NOT NULL DEFAULT 0 CHECK (unhelpful_count >= 0);
ALTER TABLE answers ADD COLUMN helpful_count INTEGER NOT NULL DEFAULT 0 CHECK (helpful_count >= 0);
ALTER TABLE answers ADD COLUMN unhelpful_count INTEGER NOT NULL DEFAULT 0 CHECK (unhelpful_count >= 0);

CREATE TABLE qa_votes (
  store_id     TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  question_id  TEXT NOT NULL REFERENCES questions(question_id) ON DELETE CASCADE,
  item_type    TEXT NOT NULL CHECK (item_type IN ('question', 'answer')),
  item_id      TEXT NOT NULL,                     -- the question ID, or the answer ID
  voter_hash   TEXT NOT NULL,                     -- HMAC of the voter (server/reviews/visitors.ts): raw addresses are never stored
  address_hash TEXT,
  vote         TEXT NOT NULL CHECK (vote IN ('helpful', 'unhelpful')),
  created_ms   INTEGER NOT NULL,
  updated_ms   INTEGER NOT NULL,
  PRIMARY KEY (item_type, item_id, voter_hash)
) WITHOUT ROWID;
CREATE INDEX qa_votes_by_address ON qa_votes (store_id, address_hash, created_ms) WHERE address_hash IS NOT NULL;

-- Question orders `helpful desc` / `unhelpful desc` (newest first on ties), product and group scope.
CREATE INDEX questions_product_helpful ON questions (store_id, product_id, helpful_count, created_ms, question_id) WHERE status = 'published';
CREATE INDEX questions_product_unhelpful ON questions (store_id, product_id, unhelpful_count, created_ms, question_id) WHERE status = 'published';
CREATE INDEX questions_group_helpful ON questions (store_id, group_id, helpful_count, created_ms, question_id) WHERE status = 'published' AND group_id IS NOT NULL;
CREATE INDEX questions_group_unhelpful ON questions (store_id, group_id, unhelpful_count, created_ms, question_id) WHERE status = 'published' AND group_id IS NOT NULL;
