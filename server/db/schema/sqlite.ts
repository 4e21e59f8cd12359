/**
 * SQLite-only schema objects of the baseline (server/db/schema/baseline.ts): the FTS5 full-text tables and the
 * hand-written triggers (review aggregates, media counts, group guards, points ledger, webhook outbox), each the
 * exact statement the legacy migrations (server/db/legacy/sqlite/) left in sqlite_master. PostgreSQL's
 * equivalents are in ./postgres.ts. (The content-scope triggers are installed at start-up: content-scopes.ts.)
 */
import { sql } from "kysely";
import { run, type Db } from "../query.ts";

/** The statements, in the order SQLite keeps them (one statement each). */
export const SQLITE_OBJECTS: readonly string[] = [
  `CREATE TRIGGER reviews_group_guard BEFORE INSERT ON reviews
WHEN NEW.group_id IS NOT (SELECT group_id FROM products WHERE store_id = NEW.store_id AND product_id = NEW.product_id)
BEGIN
  SELECT RAISE(ABORT, 'reviews.group_id must equal the product''s group_id');
END`,
  `CREATE TRIGGER products_group_change AFTER UPDATE OF group_id ON products
WHEN OLD.group_id IS NOT NEW.group_id
BEGIN
  UPDATE reviews SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  UPDATE review_media SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  UPDATE questions SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
END`,
  `CREATE TRIGGER review_media_scope_guard BEFORE INSERT ON review_media
WHEN NOT EXISTS (SELECT 1 FROM reviews r WHERE r.review_id = NEW.review_id AND r.store_id = NEW.store_id
                 AND r.product_id = NEW.product_id AND r.group_id IS NEW.group_id)
BEGIN
  SELECT RAISE(ABORT, 'review_media store/product/group must equal its review''s');
END`,
  `CREATE TRIGGER questions_group_guard BEFORE INSERT ON questions
WHEN NEW.group_id IS NOT (SELECT group_id FROM products WHERE store_id = NEW.store_id AND product_id = NEW.product_id)
BEGIN
  SELECT RAISE(ABORT, 'questions.group_id must equal the product''s group_id');
END`,
  `CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews WHEN NEW.status = 'published'
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
END`,
  `CREATE TRIGGER reviews_aggregate_update AFTER UPDATE OF status, rating, product_id, group_id ON reviews
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
END`,
  `CREATE TRIGGER reviews_aggregate_delete AFTER DELETE ON reviews
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
END`,
  `CREATE TRIGGER review_media_count_insert AFTER INSERT ON review_media WHEN NEW.status = 'published'
BEGIN
  UPDATE reviews SET media_count = media_count + 1 WHERE review_id = NEW.review_id;
END`,
  `CREATE TRIGGER review_media_count_update AFTER UPDATE OF status ON review_media WHEN OLD.status IS NOT NEW.status
BEGIN
  UPDATE reviews SET media_count = media_count + (NEW.status = 'published') - (OLD.status = 'published') WHERE review_id = NEW.review_id;
END`,
  `CREATE TRIGGER review_media_count_delete AFTER DELETE ON review_media WHEN OLD.status = 'published'
BEGIN
  UPDATE reviews SET media_count = media_count - 1 WHERE review_id = OLD.review_id;
END`,
  `CREATE VIRTUAL TABLE survey_responses_fts USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2')`,
  // A deleted row's tokens leave the index at once (an erased shopper's words: docs/privacy.md "What stays on disk").
  `INSERT INTO survey_responses_fts (survey_responses_fts, rank) VALUES ('secure-delete', 1)`,
  `CREATE TRIGGER survey_responses_fts_delete AFTER DELETE ON survey_responses BEGIN
  DELETE FROM survey_responses_fts WHERE rowid = old.response_seq;
END`,
  `CREATE TRIGGER loyalty_transactions_continue_balance BEFORE INSERT ON loyalty_transactions
WHEN NEW.balance_after IS NOT (SELECT balance FROM loyalty_customers WHERE loyalty_customer_id = NEW.loyalty_customer_id AND store_id = NEW.store_id) + NEW.points
BEGIN
  SELECT RAISE(ABORT, 'loyalty transaction balance_after must equal the balance plus points');
END`,
  `CREATE TRIGGER loyalty_transactions_apply AFTER INSERT ON loyalty_transactions
BEGIN
  UPDATE loyalty_customers
     SET balance = balance + NEW.points,
         lifetime_points = lifetime_points + CASE WHEN NEW.type = 'earning' THEN NEW.points ELSE 0 END
   WHERE loyalty_customer_id = NEW.loyalty_customer_id AND store_id = NEW.store_id;
END`,
  `CREATE TRIGGER loyalty_transactions_no_update BEFORE UPDATE ON loyalty_transactions
BEGIN
  SELECT RAISE(ABORT, 'the loyalty points ledger is append-only');
END`,
  `CREATE TRIGGER loyalty_transactions_no_delete BEFORE DELETE ON loyalty_transactions
BEGIN
  SELECT RAISE(ABORT, 'the loyalty points ledger is append-only');
END`,
  `CREATE TRIGGER loyalty_customers_balance_guard BEFORE UPDATE OF balance ON loyalty_customers
WHEN NEW.balance IS NOT (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions WHERE store_id = OLD.store_id AND loyalty_customer_id = OLD.loyalty_customer_id)
BEGIN
  SELECT RAISE(ABORT, 'a loyalty balance must equal the sum of the customer''s transactions');
END`,
  `CREATE TRIGGER review_media_follow_review AFTER UPDATE OF status ON reviews WHEN OLD.status IS NOT NEW.status
BEGIN
  UPDATE review_media
  SET status = CASE WHEN item_rejected = 1 THEN 'rejected' ELSE NEW.status END,
      rejected_ms = CASE
        WHEN item_rejected = 1 THEN rejected_ms
        WHEN NEW.status <> 'rejected' THEN NULL
        -- the rejection's time: the review's new updated_ms when the writer set one, else the clock
        WHEN NEW.updated_ms IS NOT OLD.updated_ms AND NEW.updated_ms IS NOT NULL THEN NEW.updated_ms
        ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
      END
  WHERE store_id = NEW.store_id AND review_id = NEW.review_id;
END`,
  `CREATE TRIGGER webhook_review_created AFTER INSERT ON reviews
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'review.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'review.created', NEW.review_id, json_object('product_id', NEW.product_id), CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_review_updated AFTER UPDATE ON reviews
WHEN (OLD.status IS NOT NEW.status OR OLD.rating IS NOT NEW.rating OR OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body
      OR OLD.reply_body IS NOT NEW.reply_body OR OLD.verified_status IS NOT NEW.verified_status OR OLD.reviewer_name IS NOT NEW.reviewer_name
      OR OLD.product_id IS NOT NEW.product_id OR OLD.variant_id IS NOT NEW.variant_id OR OLD.is_recommended IS NOT NEW.is_recommended
      OR OLD.is_incentivized IS NOT NEW.is_incentivized OR OLD.media_count IS NOT NEW.media_count)
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'review.updated' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'review.updated', NEW.review_id, json_object('product_id', NEW.product_id), CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_review_deleted AFTER DELETE ON reviews
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = OLD.store_id AND e.event_type = 'review.deleted' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), OLD.store_id, 'review.deleted', OLD.review_id,
          json_object('product_id', OLD.product_id), CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_survey_response_created AFTER INSERT ON survey_responses
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'survey_response.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'survey_response.created', NEW.survey_response_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_loyalty_customer_created AFTER INSERT ON loyalty_customers
WHEN EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_customer.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_customer.created', NEW.loyalty_customer_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_loyalty_customer_updated AFTER UPDATE ON loyalty_customers
WHEN (OLD.status IS NOT NEW.status OR OLD.balance IS NOT NEW.balance OR OLD.vip_tier_id IS NOT NEW.vip_tier_id
      OR OLD.minimum_vip_tier_id IS NOT NEW.minimum_vip_tier_id OR OLD.email IS NOT NEW.email)
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_customer.updated' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_customer.updated', NEW.loyalty_customer_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_loyalty_earning_transaction_created AFTER INSERT ON loyalty_transactions
WHEN NEW.type = 'earning'
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_earning_transaction.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_earning_transaction.created', NEW.transaction_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER webhook_loyalty_redemption_transaction_created AFTER INSERT ON loyalty_transactions
WHEN NEW.type = 'redemption'
 AND EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
             WHERE e.store_id = NEW.store_id AND e.event_type = 'loyalty_redemption_transaction.created' AND s.status = 'enabled')
BEGIN
  INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, created_ms)
  VALUES ('evt_' || lower(hex(randomblob(16))), NEW.store_id, 'loyalty_redemption_transaction.created', NEW.transaction_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END`,
  `CREATE TRIGGER reviews_recommended_insert AFTER INSERT ON reviews WHEN NEW.status = 'published' AND NEW.is_recommended = 1
BEGIN
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) VALUES (NEW.store_id, 'store', '', 1)
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) VALUES (NEW.store_id, 'product', NEW.product_id, 1)
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
  INSERT INTO review_aggregates (store_id, scope_type, scope_id, recommended_count) SELECT NEW.store_id, 'group', NEW.group_id, 1 WHERE NEW.group_id IS NOT NULL
  ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET recommended_count = recommended_count + 1;
END`,
  `CREATE TRIGGER reviews_recommended_update AFTER UPDATE OF status, is_recommended, product_id, group_id ON reviews
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
END`,
  `CREATE TRIGGER reviews_recommended_delete AFTER DELETE ON reviews WHEN OLD.status = 'published' AND OLD.is_recommended = 1
BEGIN
  UPDATE review_aggregates SET recommended_count = recommended_count - 1
  WHERE store_id = OLD.store_id
    AND ((scope_type = 'store' AND scope_id = '') OR (scope_type = 'product' AND scope_id = OLD.product_id) OR (scope_type = 'group' AND scope_id = OLD.group_id));
END`,
  `CREATE VIRTUAL TABLE review_search USING fts5 (
  title, body, content = 'reviews', content_rowid = 'rowid', tokenize = 'porter unicode61 remove_diacritics 2'
)`,
  `INSERT INTO review_search (review_search, rank) VALUES ('secure-delete', 1)`,
  `CREATE TRIGGER review_search_insert AFTER INSERT ON reviews BEGIN
  INSERT INTO review_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
END`,
  `CREATE TRIGGER review_search_update AFTER UPDATE OF title, body ON reviews
WHEN OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body
BEGIN
  INSERT INTO review_search (review_search, rowid, title, body) VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
  INSERT INTO review_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
END`,
  `CREATE TRIGGER review_search_delete AFTER DELETE ON reviews BEGIN
  INSERT INTO review_search (review_search, rowid, title, body) VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
END`,
];

/** Create the FTS5 tables and triggers (after the tables and indexes). */
export async function sqliteAfterTables(db: Db): Promise<void> {
  for (const statement of SQLITE_OBJECTS) await run(db, sql.raw(statement));
}
