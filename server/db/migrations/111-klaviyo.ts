/**
 * Migration 111 (issue #38 item 3, docs/klaviyo.md): the Klaviyo connection and its outbox.
 *
 * - `klaviyo_accounts`: one row per connected store, the private API key sealed with the installation key
 *   (platforms/secret-box.ts) and its last four characters (`key_hint`) for the admin.
 * - `klaviyo_outbox`: the persisted queue of calls to Klaviyo (server/marketing/klaviyo-sender.ts): `kind` `event`
 *   (Events API, `name` the metric), `profile` (profile import: points, tier, referral link, last review date) or
 *   `deletion` (a data-privacy deletion job after an erasure). `job_id` is the event's `unique_id` at Klaviyo, so a
 *   call sent twice (at-least-once) is one event there. Status `queued` → `sending` (leased) → `delivered` | `failed`
 *   | `skipped` (the resource was gone when its turn came).
 * - Triggers write the jobs in the transaction of the change, only for a store with a `klaviyo_accounts` row: a
 *   review or question with an address (not one imported from another app: those carry a `source_key`), a loyalty
 *   transaction (earned points, a redeemed reward; every transaction also refreshes the profile), a VIP tier change,
 *   a survey response with an address, an unsubscription from review requests (not the hashed key an erasure keeps).
 */
import { sql } from "kysely";
import type { Migration } from "./migration.ts";
import { dialect, exec, executor } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";

/** SQLite: one INSERT of a job, `select` giving (name, kind, resource_id, email, detail_json) rows, guarded by the store's account. */
const sqliteJob = (store: string, select: string) => `
  INSERT INTO klaviyo_outbox (job_id, store_id, kind, name, resource_id, email, detail_json, next_attempt_ms, created_ms)
  SELECT 'kl_' || lower(hex(randomblob(16))), ${store}, j.kind, j.name, j.resource_id, j.email, j.detail_json,
         CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM (${select}) j
  WHERE j.email IS NOT NULL AND EXISTS (SELECT 1 FROM klaviyo_accounts a WHERE a.store_id = ${store});`;

const SQLITE_TRIGGERS = `
CREATE TRIGGER klaviyo_review_submitted AFTER INSERT ON reviews WHEN NEW.reviewer_email IS NOT NULL AND NEW.source_key IS NULL
BEGIN${sqliteJob("NEW.store_id", "SELECT 'event' AS kind, 'Submitted Review' AS name, NEW.review_id AS resource_id, NEW.reviewer_email AS email, NULL AS detail_json")}
${sqliteJob("NEW.store_id", "SELECT 'profile' AS kind, 'profile' AS name, NULL AS resource_id, NEW.reviewer_email AS email, NULL AS detail_json")}
END;
CREATE TRIGGER klaviyo_question_submitted AFTER INSERT ON questions WHEN NEW.asker_email IS NOT NULL AND NEW.source_key IS NULL
BEGIN${sqliteJob("NEW.store_id", "SELECT 'event' AS kind, 'Submitted Question' AS name, NEW.question_id AS resource_id, NEW.asker_email AS email, NULL AS detail_json")}
END;
CREATE TRIGGER klaviyo_loyalty_transaction AFTER INSERT ON loyalty_transactions
BEGIN${sqliteJob(
  "NEW.store_id",
  `SELECT 'event' AS kind, CASE NEW.type WHEN 'earning' THEN 'Loyalty Points Earned' ELSE 'Redeemed Reward' END AS name,
    NEW.transaction_id AS resource_id, c.email AS email, NULL AS detail_json
    FROM loyalty_customers c WHERE c.loyalty_customer_id = NEW.loyalty_customer_id AND NEW.type IN ('earning', 'redemption')`,
)}
${sqliteJob("NEW.store_id", "SELECT 'profile' AS kind, 'profile' AS name, NULL AS resource_id, c.email AS email, NULL AS detail_json FROM loyalty_customers c WHERE c.loyalty_customer_id = NEW.loyalty_customer_id")}
END;
CREATE TRIGGER klaviyo_loyalty_tier_changed AFTER UPDATE OF vip_tier_id ON loyalty_customers WHEN OLD.vip_tier_id IS NOT NEW.vip_tier_id AND NEW.email IS NOT NULL
BEGIN${sqliteJob("NEW.store_id", "SELECT 'event' AS kind, 'Loyalty Tier Changed' AS name, NEW.loyalty_customer_id AS resource_id, NEW.email AS email, json_object('from', OLD.vip_tier_id, 'to', NEW.vip_tier_id) AS detail_json")}
${sqliteJob("NEW.store_id", "SELECT 'profile' AS kind, 'profile' AS name, NULL AS resource_id, NEW.email AS email, NULL AS detail_json")}
END;
CREATE TRIGGER klaviyo_survey_answered AFTER INSERT ON survey_responses WHEN NEW.customer_email IS NOT NULL
BEGIN${sqliteJob("NEW.store_id", "SELECT 'event' AS kind, 'Answered Survey' AS name, NEW.survey_response_id AS resource_id, NEW.customer_email AS email, NULL AS detail_json")}
END;
CREATE TRIGGER klaviyo_review_requests_unsubscribed AFTER INSERT ON review_request_unsubscribes WHEN NEW.email NOT LIKE 'sha256:%'
BEGIN${sqliteJob("NEW.store_id", "SELECT 'event' AS kind, 'Unsubscribed From Review Requests' AS name, NULL AS resource_id, NEW.email AS email, NULL AS detail_json")}
END;`;

const POSTGRES_TRIGGERS = `
-- Queue a Klaviyo job when the store is connected to Klaviyo and there is an address (docs/klaviyo.md).
CREATE FUNCTION klaviyo_job_add(p_store text, p_kind text, p_name text, p_resource text, p_email text, p_detail text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_email IS NOT NULL AND EXISTS (SELECT 1 FROM klaviyo_accounts WHERE store_id = p_store) THEN
    INSERT INTO klaviyo_outbox (job_id, store_id, kind, name, resource_id, email, detail_json, next_attempt_ms, created_ms)
    VALUES ('kl_' || md5(gen_random_uuid()::text), p_store, p_kind, p_name, p_resource, p_email, p_detail, chorus_now_ms(), chorus_now_ms());
  END IF;
END $$;

CREATE FUNCTION klaviyo_review_submitted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM klaviyo_job_add(NEW.store_id, 'event', 'Submitted Review', NEW.review_id, NEW.reviewer_email, NULL);
  PERFORM klaviyo_job_add(NEW.store_id, 'profile', 'profile', NULL, NEW.reviewer_email, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER klaviyo_review_submitted AFTER INSERT ON reviews FOR EACH ROW
  WHEN (NEW.reviewer_email IS NOT NULL AND NEW.source_key IS NULL) EXECUTE FUNCTION klaviyo_review_submitted();

CREATE FUNCTION klaviyo_question_submitted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM klaviyo_job_add(NEW.store_id, 'event', 'Submitted Question', NEW.question_id, NEW.asker_email, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER klaviyo_question_submitted AFTER INSERT ON questions FOR EACH ROW
  WHEN (NEW.asker_email IS NOT NULL AND NEW.source_key IS NULL) EXECUTE FUNCTION klaviyo_question_submitted();

CREATE FUNCTION klaviyo_loyalty_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v_email text;
BEGIN
  SELECT email INTO v_email FROM loyalty_customers WHERE loyalty_customer_id = NEW.loyalty_customer_id;
  IF NEW.type IN ('earning', 'redemption') THEN
    PERFORM klaviyo_job_add(NEW.store_id, 'event', CASE NEW.type WHEN 'earning' THEN 'Loyalty Points Earned' ELSE 'Redeemed Reward' END, NEW.transaction_id, v_email, NULL);
  END IF;
  PERFORM klaviyo_job_add(NEW.store_id, 'profile', 'profile', NULL, v_email, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER klaviyo_loyalty_transaction AFTER INSERT ON loyalty_transactions FOR EACH ROW EXECUTE FUNCTION klaviyo_loyalty_transaction();

CREATE FUNCTION klaviyo_loyalty_tier_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM klaviyo_job_add(NEW.store_id, 'event', 'Loyalty Tier Changed', NEW.loyalty_customer_id, NEW.email,
    json_build_object('from', OLD.vip_tier_id, 'to', NEW.vip_tier_id)::text);
  PERFORM klaviyo_job_add(NEW.store_id, 'profile', 'profile', NULL, NEW.email, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER klaviyo_loyalty_tier_changed AFTER UPDATE OF vip_tier_id ON loyalty_customers FOR EACH ROW
  WHEN (OLD.vip_tier_id IS DISTINCT FROM NEW.vip_tier_id AND NEW.email IS NOT NULL) EXECUTE FUNCTION klaviyo_loyalty_tier_changed();

CREATE FUNCTION klaviyo_survey_answered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM klaviyo_job_add(NEW.store_id, 'event', 'Answered Survey', NEW.survey_response_id, NEW.customer_email, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER klaviyo_survey_answered AFTER INSERT ON survey_responses FOR EACH ROW
  WHEN (NEW.customer_email IS NOT NULL) EXECUTE FUNCTION klaviyo_survey_answered();

CREATE FUNCTION klaviyo_review_requests_unsubscribed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM klaviyo_job_add(NEW.store_id, 'event', 'Unsubscribed From Review Requests', NULL, NEW.email, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER klaviyo_review_requests_unsubscribed AFTER INSERT ON review_request_unsubscribes FOR EACH ROW
  WHEN (NEW.email NOT LIKE 'sha256:%') EXECUTE FUNCTION klaviyo_review_requests_unsubscribed();
`;

export const klaviyoMigration: Migration = {
  version: 111,
  name: "111-klaviyo",
  async up(db) {
    const schema = executor(db).schema;
    const { integer, text } = columnTypes(db);
    const pg = dialect(db) === "postgres";
    await schema
      .createTable("klaviyo_accounts")
      .addColumn("store_id", text, (c) => c.primaryKey().references("stores.store_id").onDelete("cascade"))
      .addColumn("api_key_sealed", text, (c) => c.notNull())
      .addColumn("key_hint", text, (c) => c.notNull())
      .addColumn("updated_ms", integer, (c) => c.notNull())
      .execute();
    await schema
      .createTable("klaviyo_outbox")
      .addColumn("seq", integer, (c) => c.$call((c) => (pg ? c.generatedByDefaultAsIdentity().primaryKey() : c.primaryKey().autoIncrement())))
      .addColumn("job_id", text, (c) => c.notNull().unique())
      .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
      .addColumn("kind", text, (c) => c.notNull().check(sql`kind IN ('event', 'profile', 'deletion')`))
      .addColumn("name", text, (c) => c.notNull())
      .addColumn("resource_id", text)
      .addColumn("email", text, (c) => c.notNull())
      .addColumn("detail_json", text)
      .addColumn("status", text, (c) =>
        c
          .notNull()
          .defaultTo(sql`'queued'`)
          .check(sql`status IN ('queued', 'sending', 'delivered', 'failed', 'skipped')`),
      )
      .addColumn("attempts", integer, (c) => c.notNull().defaultTo(sql`0`))
      .addColumn("next_attempt_ms", integer, (c) => c.notNull())
      .addColumn("lease_until_ms", integer)
      .addColumn("last_status_code", integer)
      .addColumn("last_error", text)
      .addColumn("created_ms", integer, (c) => c.notNull())
      .addColumn("delivered_ms", integer)
      .execute();
    await schema
      .createIndex("klaviyo_outbox_due")
      .on("klaviyo_outbox")
      .columns(["next_attempt_ms", "seq"])
      .where(sql<boolean>`status IN ('queued', 'sending')`)
      .execute();
    await schema.createIndex("klaviyo_outbox_store").on("klaviyo_outbox").columns(["store_id", "seq"]).execute();
    await exec(db, pg ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS);
  },
};
