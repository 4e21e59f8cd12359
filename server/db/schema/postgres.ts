/**
 * PostgreSQL-only schema objects of the baseline (server/db/schema/baseline.ts), as the legacy PostgreSQL files
 * (server/db/legacy/postgres/001-008) created them: chorus_json_type() (used by a CHECK, so before the tables);
 * after the tables, the plpgsql triggers of the hand-written SQLite triggers, the full-text search tables,
 * configurations and functions (SQLite's FTS5), the rate-limit tables shared by nodes, and the identity columns
 * that stand for SQLite's rowid order. SQLite's equivalents are in ./sqlite.ts.
 */
import { exec, type Db } from "../query.ts";

/** The type of a JSON text ('array', 'object', …; NULL when not valid JSON): SQLite's json_valid() + json_type(). */
const JSON_TYPE = `CREATE FUNCTION chorus_json_type(value text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN jsonb_typeof(value::jsonb);
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;`;

/**
 * The hand-written triggers of the SQLite schema as plpgsql (legacy 002-triggers.sql): same names, events and
 * error messages. Its own comments say what differs from the SQLite text.
 */
export const TRIGGERS = `-- The hand-written triggers of the SQLite schema (after SQLite migration 085), as PostgreSQL 15 plpgsql.
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
-- - SQLite's "a IS NOT b" is "a IS DISTINCT FROM b", a comparison used as 0/1 is cast "::bigint";
-- - "lower(hex(randomblob(16)))" (32 random hex digits) is "md5(gen_random_uuid()::text)": 32 hex digits
--   from 122 random bits (gen_random_uuid() is built in and cryptographically random, no extension needed);
-- - "unixepoch('subsec') * 1000" is the wall clock in ms (clock_timestamp());
-- - "json_object('product_id', x)" is written out so the text is byte-identical ({"product_id":"..."}).
-- - PostgreSQL fires AFTER ROW triggers at the end of the statement, SQLite after each row; the ledger and
--   the guards are only written one row per statement, the aggregates are sums (order-free).
-- - Triggers of one table and event fire in name order in PostgreSQL, newest first in SQLite. A points
--   transaction's "loyalty_*_transaction.created" event is written BEFORE INSERT so that it still precedes
--   its customer's "loyalty_customer.updated"; the events of a statement changing several rows may follow
--   another row order than SQLite's (each event is delivered on its own).

-- Wall-clock epoch milliseconds, as SQLite's CAST(unixepoch('subsec') * 1000 AS INTEGER).
CREATE FUNCTION chorus_now_ms() RETURNS bigint LANGUAGE sql VOLATILE AS $$
  SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
$$;

---------------------------------------------------------------------------------------------------------------
-- Review aggregates: review count, rating total and per-level counts of published reviews by store, product
-- and group; recommended counts.

-- The net change a review row change makes to its store, product and group aggregates: the old row leaves
-- them when it was published ("o" = -1), the new row joins them when it is ("n" = 1); one row per aggregate,
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

-- Write an event "evt_<32 random hex digits>" of "p_type" about "p_resource" when "p_store" has an enabled
-- subscription to it; "p_snapshot" is its snapshot_json (NULL: none).
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
-- "loyalty_customer.updated" its balance change writes, as in SQLite; a failing insert undoes the event with it.
CREATE FUNCTION webhook_loyalty_transaction_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_event_add(NEW.store_id, 'loyalty_' || NEW.type || '_transaction.created', NEW.transaction_id, NULL);
  RETURN NEW;
END $$;
CREATE TRIGGER webhook_loyalty_earning_transaction_created BEFORE INSERT ON loyalty_transactions FOR EACH ROW
  WHEN (NEW.type = 'earning') EXECUTE FUNCTION webhook_loyalty_transaction_created();
CREATE TRIGGER webhook_loyalty_redemption_transaction_created BEFORE INSERT ON loyalty_transactions FOR EACH ROW
  WHEN (NEW.type = 'redemption') EXECUTE FUNCTION webhook_loyalty_transaction_created();`;

/** Full-text search (legacy 003-search.sql): review_search and survey_responses_fts as tsvector tables. */
export const SEARCH = `-- Full-text search on PostgreSQL (issue #26 item 2): the equivalents of SQLite's FTS5 tables "review_search"
-- (migration 084) and "survey_responses_fts" (migration 030). FTS shape, for porters:
--
--   review_search (review_id text PRIMARY KEY REFERENCES reviews ON DELETE CASCADE, document tsvector NOT NULL)
--     One row per review, chorus_review_document(title, body), kept by the triggers below on every insert and
--     change of title or body (a deleted review's row goes with it); GIN index on document.
--     Match: "document @@ to_tsquery('chorus_english', ?)" with "tsqueryOf(match)" (server/db/text-search.ts),
--     which turns the FTS5 query of "reviewSearchMatch" into "('don' <-> 't') & 'fit':*" (the words of a phrase
--     "<->", phrases "&", a prefix word ":*").
--     Highlights: ts_headline('chorus_english', chorus_search_text(text), query, 'HighlightAll=true,
--     StartSel="…", StopSel="…"'), put back into the text as typed by "restoreHighlights" (text-search.ts).
--   survey_responses_fts (response_seq bigint PRIMARY KEY REFERENCES survey_responses ON DELETE CASCADE,
--     document tsvector NOT NULL); GIN index on document.
--     Written by the surveys repo with the response: to_tsvector('chorus_simple', chorus_search_text(?)) of its
--     text answers; matched with "document @@ to_tsquery('chorus_simple', ?)" and "tsqueryOf(ftsQuery(text))".
--   review_search_rebuild() refills review_search from reviews (FTS5's 'rebuild', e.g. after a bulk load).
--
--   Both are search indexes only, like SQLite's virtual tables: the content-scope triggers do not track them
--   (their rows change only with reviews / survey_responses, which are tracked).
--
-- Text search configurations: "chorus_english" = the default parser, "unaccent", then the Snowball English
-- stemmer WITHOUT a stop-word list (FTS5's porter tokenizer has none: "the" and "don't" are words), so "fits"
-- finds "fit" and "cafe" finds "café"; "chorus_simple" = "unaccent" then lower-casing, no stemming (FTS5
-- unicode61 with remove_diacritics). Both read the text through chorus_search_text (words split as unicode61
-- splits them). Differences from FTS5: Snowball English stems a few words differently from Porter; unaccent
-- folds a few letters FTS5 keeps (ß -> ss, æ -> ae); digits such as ½ or ² separate words; a phrase may run
-- from the end of a title into the start of the body; a phrase's words are highlighted wherever they occur in
-- a matching review, not only where they form the phrase; a deleted review's words stay on disk until VACUUM
-- (never found again: FTS5's secure-delete removes them at once).
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH DICTIONARY chorus_english_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION chorus_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION chorus_english
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, chorus_english_stem;
ALTER TEXT SEARCH CONFIGURATION chorus_english
  ALTER MAPPING FOR numword, numhword, hword_numpart WITH unaccent, simple;

CREATE TEXT SEARCH CONFIGURATION chorus_simple (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION chorus_simple
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart WITH unaccent, simple;

-- The text as the search indexes read it: lower-cased and every character that is not a letter, a digit, a
-- combining diacritic or private-use a space (Unicode classes from ICU; ASCII white space kept), one code point
-- for one, so that words split where FTS5's unicode61 splits them: PostgreSQL's parser in the C locale takes
-- any non-ASCII character for a letter ("don’t", "—", "€5" or a no-break space would join words), and keeps
-- e-mail addresses, URLs and HTML tags whole. ts_headline() over this text gives the positions of the matched
-- words in the original, code point for code point (server/db/text-search.ts "restoreHighlights").
CREATE FUNCTION chorus_search_text(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT lower(regexp_replace(value COLLATE "und-x-icu", '[^[:alnum:] \\t\\n\\r\\f\\v\\u0300-\\u036F\\uE000-\\uF8FF]', ' ', 'g'))
$$;

CREATE TABLE review_search (
  review_id text PRIMARY KEY REFERENCES reviews(review_id) ON DELETE CASCADE,
  document  tsvector NOT NULL
);
CREATE INDEX review_search_document ON review_search USING gin (document);

-- The search document of a review's title and body.
CREATE FUNCTION chorus_review_document(title text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('chorus_english'::regconfig, chorus_search_text(title)) || to_tsvector('chorus_english'::regconfig, chorus_search_text(body))
$$;

CREATE FUNCTION review_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_search (review_id, document) VALUES (NEW.review_id, chorus_review_document(NEW.title, NEW.body))
  ON CONFLICT (review_id) DO UPDATE SET document = excluded.document;
  RETURN NULL;
END
$$;
CREATE TRIGGER review_search_insert AFTER INSERT ON reviews FOR EACH ROW EXECUTE FUNCTION review_search_sync();
CREATE TRIGGER review_search_update AFTER UPDATE OF title, body ON reviews FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body IS DISTINCT FROM NEW.body) EXECUTE FUNCTION review_search_sync();

-- Rebuild the whole review index (after a bulk load that dropped the triggers, like FTS5's 'rebuild').
CREATE FUNCTION review_search_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM review_search;
  INSERT INTO review_search (review_id, document) SELECT review_id, chorus_review_document(title, body) FROM reviews;
$$;
SELECT review_search_rebuild();

CREATE TABLE survey_responses_fts (
  response_seq bigint PRIMARY KEY REFERENCES survey_responses(response_seq) ON DELETE CASCADE,
  document     tsvector NOT NULL
);
CREATE INDEX survey_responses_fts_document ON survey_responses_fts USING gin (document);`;

/** Tables only PostgreSQL has (legacy 004, 006): limits shared by every node (in memory on SQLite). */
const RATE_LIMITS = `-- Admin form limits shared by every node (issue #26 item 3): sign-ups per client address, password reset
-- requests per address and per e-mail, team invitations per store (server/admin/window-limiter.ts). One row
-- per limiter key and fixed window, in the shape rate-limiter-flexible's RateLimiterPostgres reads and writes:
-- "key" = '<limiter>.<configuration>:<key>', "points" consumed in the window, "expire" = end of the window
-- (epoch ms). PostgreSQL only: on SQLite (one process) the counts live in memory.
CREATE TABLE admin_rate_limits (
  key    text PRIMARY KEY,
  points bigint NOT NULL DEFAULT 0,
  expire bigint
);
-- The library deletes rows expired an hour ago every 5 minutes (DELETE ... WHERE expire < $1).
CREATE INDEX admin_rate_limits_expire ON admin_rate_limits (expire);

-- Storefront write limits shared by every node (issue #26 item 3): review and question submissions per client
-- address and per e-mail, survey responses per client address (server/reviews/submission-limits.ts
-- "sharedWindowCounter"). One row per limiter key with the times of its counted hits in the sliding window;
-- each hit is counted or refused by one atomic INSERT ... ON CONFLICT DO UPDATE on the row.
-- PostgreSQL only: on SQLite (one process) the windows live in memory. Helpful-vote limits need no table:
-- votes.repo.ts counts review_votes / qa_votes rows inside the vote's transaction.
CREATE TABLE rate_limit_hits (
  limit_key  text PRIMARY KEY,     -- '<limiter>:<key>', e.g. 'submissions:ip:203.0.113.7', 'survey-responses:2001:db8:1:2::/64'
  hits_ms    bigint[] NOT NULL,    -- epoch ms of the counted hits still in the window (at most the limit's max), oldest first
  counted    bigint NOT NULL,      -- 1 when the key's last hit was counted, 0 when it was refused
  expires_ms bigint NOT NULL       -- when the newest hit leaves its window: the row may be deleted after
);
CREATE INDEX rate_limit_hits_expires ON rate_limit_hits (expires_ms);`;

/** Insertion order where SQLite reads rows in rowid order (legacy 007): identity columns. */
const INSERTION_ORDER = `ALTER TABLE ai_content_versions ADD COLUMN version_seq bigint GENERATED ALWAYS AS IDENTITY;
-- Insertion order where SQLite reads rows in rowid order (owner PORT-B). PostgreSQL has no rowid, so these
-- tables get an identity column that grows with each insert and is kept by ON CONFLICT ... DO UPDATE, as
-- SQLite keeps a row's rowid:
-- - channel_surveys: a survey's channel surveys are listed in the order they were created (surveys.repo.ts);
-- - orders: an order's lines are listed in the order they were stored (orders.repo.ts).
ALTER TABLE channel_surveys ADD COLUMN row_seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE orders ADD COLUMN row_seq bigint GENERATED ALWAYS AS IDENTITY;`;

/** Before the tables: functions their constraints call. */
export async function postgresBeforeTables(db: Db): Promise<void> {
  await exec(db, JSON_TYPE);
}

/** After the tables and indexes: triggers, search, PostgreSQL-only tables and columns. */
export async function postgresAfterTables(db: Db): Promise<void> {
  await exec(db, TRIGGERS);
  await exec(db, SEARCH);
  await exec(db, RATE_LIMITS);
  await exec(db, INSERTION_ORDER);
}
