-- The hand-written triggers of the SQLite schema (after SQLite migration 085), as PostgreSQL 15 plpgsql.
-- Same names, same events (row level: SQLite triggers are FOR EACH ROW), same effects, same error
-- messages (code matches on them; the driver reports SQLSTATE P0001 as SQLITE_CONSTRAINT_TRIGGER).
-- Not here: the content-scope triggers (generated at start-up by installContentScopeTriggers,
-- server/db/content-scopes.ts) and the full-text sync of review_search / survey_responses_fts (001-baseline.sql).
--
-- Differences from the SQLite text, none visible to the code above:
-- - SQLite's reviews_aggregate_* and reviews_recommended_* are one set of triggers here (reviews_aggregate_*),
--   writing each aggregate row once per review change, and a long transaction's changes past its 256th review
--   change once at its commit (see reviews_aggregate());
-- - a trigger WHEN may not hold a subquery in PostgreSQL: such conditions are tested in the function;
-- - SQLite's `a IS NOT b` is `a IS DISTINCT FROM b`, a comparison used as 0/1 is cast `::bigint`;
-- - `lower(hex(randomblob(16)))` (32 random hex digits) is `md5(gen_random_uuid()::text)`: 32 hex digits
--   from 122 random bits (gen_random_uuid() is built in and cryptographically random, no extension needed);
-- - `unixepoch('subsec') * 1000` is the wall clock in ms (clock_timestamp());
-- - `json_object('product_id', x)` is written out so the text is byte-identical ({"product_id":"..."}).
-- - PostgreSQL fires AFTER ROW triggers at the end of the statement, SQLite after each row; the ledger and
--   the guards are only written one row per statement, the aggregates are sums (order-free).
-- - Triggers of one table and event fire in name order in PostgreSQL, newest first in SQLite. A points
--   transaction's `loyalty_*_transaction.created` event is written BEFORE INSERT so that it still precedes
--   its customer's `loyalty_customer.updated`; the events of a statement changing several rows may follow
--   another row order than SQLite's (each event is delivered on its own).

-- Wall-clock epoch milliseconds, as SQLite's CAST(unixepoch('subsec') * 1000 AS INTEGER).
CREATE FUNCTION chorus_now_ms() RETURNS bigint LANGUAGE sql VOLATILE AS $$
  SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
$$;

---------------------------------------------------------------------------------------------------------------
-- Review aggregates: review count, rating total and per-level counts of published reviews by store, product
-- and group; recommended counts.

-- The net change a review row change makes to its store, product and group aggregates: the old row leaves
-- them when it was published (`o` = -1), the new row joins them when it is (`n` = 1); one row per aggregate,
-- none when the net change is zero (e.g. a published review's title edit).
CREATE FUNCTION review_aggregate_deltas(o bigint, old_row reviews, n bigint, new_row reviews)
RETURNS TABLE (store_id text, scope_type text, scope_id text, review_count bigint, rating_total bigint, level1 bigint,
               level2 bigint, level3 bigint, level4 bigint, level5 bigint, recommended_count bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT d.store_id, d.scope_type, d.scope_id, sum(d.c), sum(d.c * d.rating),
         sum(d.c * (d.rating = 1)::int), sum(d.c * (d.rating = 2)::int), sum(d.c * (d.rating = 3)::int),
         sum(d.c * (d.rating = 4)::int), sum(d.c * (d.rating = 5)::int), sum(d.c * (d.recommended IS NOT DISTINCT FROM 1)::int)
    FROM (VALUES
            ((old_row).store_id, 'store', '', o, (old_row).rating, (old_row).is_recommended),
            ((old_row).store_id, 'product', (old_row).product_id, o, (old_row).rating, (old_row).is_recommended),
            ((old_row).store_id, 'group', (old_row).group_id, o, (old_row).rating, (old_row).is_recommended),
            ((new_row).store_id, 'store', '', n, (new_row).rating, (new_row).is_recommended),
            ((new_row).store_id, 'product', (new_row).product_id, n, (new_row).rating, (new_row).is_recommended),
            ((new_row).store_id, 'group', (new_row).group_id, n, (new_row).rating, (new_row).is_recommended)
         ) AS d (store_id, scope_type, scope_id, c, rating, recommended)
   WHERE d.c <> 0 AND d.scope_id IS NOT NULL
   GROUP BY d.store_id, d.scope_type, d.scope_id
  HAVING sum(d.c) <> 0 OR sum(d.c * d.rating) <> 0 OR sum(d.c * (d.recommended IS NOT DISTINCT FROM 1)::int) <> 0
$$;

-- Aggregate changes a long transaction has not applied yet (see reviews_aggregate); emptied at its commit.
CREATE TABLE review_aggregate_changes (LIKE review_aggregates);

-- reviews_aggregate_insert / _update / _delete (SQLite's reviews_aggregate_* and reviews_recommended_* in one):
-- each aggregate row a review change moves is upserted once (created when missing), as SQLite does, for a
-- transaction's first 256 review changes. PostgreSQL keeps every version of a row until the transaction ends,
-- and each update walks them, so a transaction loading thousands of reviews would take quadratic time on its
-- store's aggregate row: its later changes go to review_aggregate_changes instead, and are summed into
-- review_aggregates once, when it commits (review_aggregate_changes_fold). Such a transaction (a bulk load)
-- reads partial aggregates until then; every other transaction sees them as SQLite does.
CREATE FUNCTION reviews_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- -1 / +1 when the old / new row counts (published); OLD is NULL on INSERT, NEW on DELETE.
  o bigint := CASE WHEN TG_OP <> 'INSERT' AND OLD.status = 'published' THEN -1 ELSE 0 END;
  n bigint := CASE WHEN TG_OP <> 'DELETE' AND NEW.status = 'published' THEN 1 ELSE 0 END;
  applied bigint := COALESCE(NULLIF(current_setting('chorus.review_aggregate_writes', true), '')::bigint, 0);
BEGIN
  IF applied < 256 THEN
    INSERT INTO review_aggregates AS a (store_id, scope_type, scope_id, review_count, rating_total,
                                        level1, level2, level3, level4, level5, recommended_count)
    SELECT * FROM review_aggregate_deltas(o, OLD, n, NEW)
    ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
      review_count = a.review_count + excluded.review_count, rating_total = a.rating_total + excluded.rating_total,
      level1 = a.level1 + excluded.level1, level2 = a.level2 + excluded.level2, level3 = a.level3 + excluded.level3,
      level4 = a.level4 + excluded.level4, level5 = a.level5 + excluded.level5,
      recommended_count = a.recommended_count + excluded.recommended_count;
    PERFORM set_config('chorus.review_aggregate_writes', (applied + 1)::text, true);
  ELSE
    INSERT INTO review_aggregate_changes SELECT * FROM review_aggregate_deltas(o, OLD, n, NEW);
    PERFORM set_config('chorus.review_aggregate_pending', '1', true);
  END IF;
  RETURN NULL;
END $$;

-- At commit (a deferred constraint trigger: one event per pending change, the first one does the work):
-- sum the transaction's pending changes into review_aggregates.
CREATE FUNCTION review_aggregate_changes_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('chorus.review_aggregate_pending', true) = '1' THEN
    PERFORM set_config('chorus.review_aggregate_pending', '', true);
    WITH d AS (DELETE FROM review_aggregate_changes RETURNING *)
    INSERT INTO review_aggregates AS a (store_id, scope_type, scope_id, review_count, rating_total,
                                        level1, level2, level3, level4, level5, recommended_count)
    SELECT d.store_id, d.scope_type, d.scope_id, sum(d.review_count), sum(d.rating_total), sum(d.level1), sum(d.level2),
           sum(d.level3), sum(d.level4), sum(d.level5), sum(d.recommended_count)
      FROM d GROUP BY d.store_id, d.scope_type, d.scope_id
    ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET
      review_count = a.review_count + excluded.review_count, rating_total = a.rating_total + excluded.rating_total,
      level1 = a.level1 + excluded.level1, level2 = a.level2 + excluded.level2, level3 = a.level3 + excluded.level3,
      level4 = a.level4 + excluded.level4, level5 = a.level5 + excluded.level5,
      recommended_count = a.recommended_count + excluded.recommended_count;
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER review_aggregate_changes_fold AFTER INSERT ON review_aggregate_changes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION review_aggregate_changes_fold();

CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews FOR EACH ROW
  WHEN (NEW.status = 'published') EXECUTE FUNCTION reviews_aggregate();
CREATE TRIGGER reviews_aggregate_update AFTER UPDATE OF status, rating, is_recommended, product_id, group_id ON reviews FOR EACH ROW
  WHEN (OLD.status = 'published' OR NEW.status = 'published') EXECUTE FUNCTION reviews_aggregate();
CREATE TRIGGER reviews_aggregate_delete AFTER DELETE ON reviews FOR EACH ROW
  WHEN (OLD.status = 'published') EXECUTE FUNCTION reviews_aggregate();

---------------------------------------------------------------------------------------------------------------
-- Groups: reviews, their media and questions carry a copy of their product's group_id.

CREATE FUNCTION reviews_group_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.group_id IS DISTINCT FROM (SELECT group_id FROM products WHERE store_id = NEW.store_id AND product_id = NEW.product_id) THEN
    RAISE EXCEPTION 'reviews.group_id must equal the product''s group_id' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER reviews_group_guard BEFORE INSERT ON reviews FOR EACH ROW EXECUTE FUNCTION reviews_group_guard();

CREATE FUNCTION questions_group_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.group_id IS DISTINCT FROM (SELECT group_id FROM products WHERE store_id = NEW.store_id AND product_id = NEW.product_id) THEN
    RAISE EXCEPTION 'questions.group_id must equal the product''s group_id' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER questions_group_guard BEFORE INSERT ON questions FOR EACH ROW EXECUTE FUNCTION questions_group_guard();

CREATE FUNCTION review_media_scope_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM reviews r WHERE r.review_id = NEW.review_id AND r.store_id = NEW.store_id
                    AND r.product_id = NEW.product_id AND r.group_id IS NOT DISTINCT FROM NEW.group_id) THEN
    RAISE EXCEPTION 'review_media store/product/group must equal its review''s' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER review_media_scope_guard BEFORE INSERT ON review_media FOR EACH ROW EXECUTE FUNCTION review_media_scope_guard();

-- A product moved to another group takes its reviews, their media and its questions along.
CREATE FUNCTION products_group_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reviews SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  UPDATE review_media SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  UPDATE questions SET group_id = NEW.group_id WHERE store_id = NEW.store_id AND product_id = NEW.product_id;
  RETURN NULL;
END $$;
CREATE TRIGGER products_group_change AFTER UPDATE OF group_id ON products FOR EACH ROW
  WHEN (OLD.group_id IS DISTINCT FROM NEW.group_id) EXECUTE FUNCTION products_group_change();

---------------------------------------------------------------------------------------------------------------
-- Media: reviews.media_count counts a review's published media; media follow their review's status.

CREATE FUNCTION review_media_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE reviews SET media_count = media_count + 1 WHERE review_id = NEW.review_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE reviews SET media_count = media_count - 1 WHERE review_id = OLD.review_id;
  ELSE
    UPDATE reviews SET media_count = media_count + (NEW.status = 'published')::int - (OLD.status = 'published')::int
     WHERE review_id = NEW.review_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER review_media_count_insert AFTER INSERT ON review_media FOR EACH ROW
  WHEN (NEW.status = 'published') EXECUTE FUNCTION review_media_count();
CREATE TRIGGER review_media_count_update AFTER UPDATE OF status ON review_media FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION review_media_count();
CREATE TRIGGER review_media_count_delete AFTER DELETE ON review_media FOR EACH ROW
  WHEN (OLD.status = 'published') EXECUTE FUNCTION review_media_count();

CREATE FUNCTION review_media_follow_review() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE review_media
  SET status = CASE WHEN item_rejected = 1 THEN 'rejected' ELSE NEW.status END,
      rejected_ms = CASE
        WHEN item_rejected = 1 THEN rejected_ms
        WHEN NEW.status <> 'rejected' THEN NULL
        -- the rejection's time: the review's new updated_ms when the writer set one, else the clock
        WHEN NEW.updated_ms IS DISTINCT FROM OLD.updated_ms AND NEW.updated_ms IS NOT NULL THEN NEW.updated_ms
        ELSE chorus_now_ms()
      END
  WHERE store_id = NEW.store_id AND review_id = NEW.review_id;
  RETURN NULL;
END $$;
CREATE TRIGGER review_media_follow_review AFTER UPDATE OF status ON reviews FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION review_media_follow_review();

---------------------------------------------------------------------------------------------------------------
-- The loyalty points ledger: append-only; each transaction continues its customer's balance, which always
-- equals the sum of the customer's transactions.

CREATE FUNCTION loyalty_transactions_no_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the loyalty points ledger is append-only' USING ERRCODE = 'P0001';
END $$;
CREATE TRIGGER loyalty_transactions_no_update BEFORE UPDATE ON loyalty_transactions FOR EACH ROW
  EXECUTE FUNCTION loyalty_transactions_no_change();
CREATE TRIGGER loyalty_transactions_no_delete BEFORE DELETE ON loyalty_transactions FOR EACH ROW
  EXECUTE FUNCTION loyalty_transactions_no_change();

CREATE FUNCTION loyalty_transactions_continue_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.balance_after IS DISTINCT FROM
     (SELECT balance FROM loyalty_customers WHERE loyalty_customer_id = NEW.loyalty_customer_id AND store_id = NEW.store_id) + NEW.points THEN
    RAISE EXCEPTION 'loyalty transaction balance_after must equal the balance plus points' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER loyalty_transactions_continue_balance BEFORE INSERT ON loyalty_transactions FOR EACH ROW
  EXECUTE FUNCTION loyalty_transactions_continue_balance();

CREATE FUNCTION loyalty_transactions_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE loyalty_customers
     SET balance = balance + NEW.points,
         lifetime_points = lifetime_points + CASE WHEN NEW.type = 'earning' THEN NEW.points ELSE 0 END
   WHERE loyalty_customer_id = NEW.loyalty_customer_id AND store_id = NEW.store_id;
  RETURN NULL;
END $$;
CREATE TRIGGER loyalty_transactions_apply AFTER INSERT ON loyalty_transactions FOR EACH ROW
  EXECUTE FUNCTION loyalty_transactions_apply();

CREATE FUNCTION loyalty_customers_balance_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.balance IS DISTINCT FROM (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions
                                    WHERE store_id = OLD.store_id AND loyalty_customer_id = OLD.loyalty_customer_id) THEN
    RAISE EXCEPTION 'a loyalty balance must equal the sum of the customer''s transactions' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER loyalty_customers_balance_guard BEFORE UPDATE OF balance ON loyalty_customers FOR EACH ROW
  EXECUTE FUNCTION loyalty_customers_balance_guard();

---------------------------------------------------------------------------------------------------------------
-- Outgoing webhooks: a change a store subscribes to (an enabled subscription to its event type) writes an
-- event to the outbox (webhook_events), dispatched later by server/webhooks/delivery.ts.

-- Write an event `evt_<32 random hex digits>` of `p_type` about `p_resource` when `p_store` has an enabled
-- subscription to it; `p_snapshot` is its snapshot_json (NULL: none).
CREATE FUNCTION webhook_event_add(p_store text, p_type text, p_resource text, p_snapshot text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
              WHERE e.store_id = p_store AND e.event_type = p_type AND s.status = 'enabled') THEN
    INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
    VALUES ('evt_' || md5(gen_random_uuid()::text), p_store, p_type, p_resource, p_snapshot, chorus_now_ms());
  END IF;
END $$;

-- {"product_id":<product_id>} exactly as SQLite's json_object('product_id', product_id) writes it.
CREATE FUNCTION webhook_review_snapshot(p_product text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT '{"product_id":' || COALESCE(to_json(p_product)::text, 'null') || '}'
$$;

CREATE FUNCTION webhook_review_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'review.created', NEW.review_id, webhook_review_snapshot(NEW.product_id));
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_review_created AFTER INSERT ON reviews FOR EACH ROW EXECUTE FUNCTION webhook_review_created();

CREATE FUNCTION webhook_review_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'review.updated', NEW.review_id, webhook_review_snapshot(NEW.product_id));
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_review_updated AFTER UPDATE ON reviews FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD.title IS DISTINCT FROM NEW.title
        OR OLD.body IS DISTINCT FROM NEW.body OR OLD.reply_body IS DISTINCT FROM NEW.reply_body
        OR OLD.verified_status IS DISTINCT FROM NEW.verified_status OR OLD.reviewer_name IS DISTINCT FROM NEW.reviewer_name
        OR OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.variant_id IS DISTINCT FROM NEW.variant_id
        OR OLD.is_recommended IS DISTINCT FROM NEW.is_recommended OR OLD.is_incentivized IS DISTINCT FROM NEW.is_incentivized
        OR OLD.media_count IS DISTINCT FROM NEW.media_count)
  EXECUTE FUNCTION webhook_review_updated();

CREATE FUNCTION webhook_review_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(OLD.store_id, 'review.deleted', OLD.review_id, webhook_review_snapshot(OLD.product_id));
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_review_deleted AFTER DELETE ON reviews FOR EACH ROW EXECUTE FUNCTION webhook_review_deleted();

CREATE FUNCTION webhook_survey_response_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'survey_response.created', NEW.survey_response_id, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_survey_response_created AFTER INSERT ON survey_responses FOR EACH ROW
  EXECUTE FUNCTION webhook_survey_response_created();

CREATE FUNCTION webhook_loyalty_customer_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'loyalty_customer.created', NEW.loyalty_customer_id, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_loyalty_customer_created AFTER INSERT ON loyalty_customers FOR EACH ROW
  EXECUTE FUNCTION webhook_loyalty_customer_created();

CREATE FUNCTION webhook_loyalty_customer_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'loyalty_customer.updated', NEW.loyalty_customer_id, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_loyalty_customer_updated AFTER UPDATE ON loyalty_customers FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.balance IS DISTINCT FROM NEW.balance
        OR OLD.vip_tier_id IS DISTINCT FROM NEW.vip_tier_id OR OLD.minimum_vip_tier_id IS DISTINCT FROM NEW.minimum_vip_tier_id
        OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION webhook_loyalty_customer_updated();

-- BEFORE INSERT (after the balance guard, by name), so that the transaction's event precedes the
-- `loyalty_customer.updated` its balance change writes, as in SQLite; a failing insert undoes the event with it.
CREATE FUNCTION webhook_loyalty_transaction_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'loyalty_' || NEW.type || '_transaction.created', NEW.transaction_id, NULL);
  RETURN NEW;
END $$;
CREATE TRIGGER webhook_loyalty_earning_transaction_created BEFORE INSERT ON loyalty_transactions FOR EACH ROW
  WHEN (NEW.type = 'earning') EXECUTE FUNCTION webhook_loyalty_transaction_created();
CREATE TRIGGER webhook_loyalty_redemption_transaction_created BEFORE INSERT ON loyalty_transactions FOR EACH ROW
  WHEN (NEW.type = 'redemption') EXECUTE FUNCTION webhook_loyalty_transaction_created();
