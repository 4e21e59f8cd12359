/**
 * PostgreSQL's triggers (server/db/postgres/002-triggers.sql) and content-scope triggers and watcher
 * (content-scopes.ts), on a real database copied from the migrated template, seeded with real reviews through
 * the real data modules. Runs only with env CHORUS_TEST_POSTGRES_URL (an admin URL: `npm run test:postgres`);
 * the SQLite side is content-scopes.test.ts and the API suites.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { createTestDatabase } from "../../test/postgres.ts";
import { createServices, type Services } from "../services.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { contentScopeWatcher, installContentScopeTriggers, TABLE_SCOPES, trackedTables } from "./content-scopes.ts";
import { openDatabase } from "./database.ts";
import { staleAfter as staleWith } from "../../test/stale-scopes.ts";

const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
const S = TEST_STORE_ID;

describe.skipIf(!adminUrl)("PostgreSQL triggers", () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> };
  let services: Services;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chorus-pg-triggers-"));
    database = await createTestDatabase(adminUrl!);
    services = createServices({ databasePath: database.url, mediaPath: join(dir, "media") });
    seedRealReviews(services, { productIds: ["1078", "862"], limit: 400 });
  }, 300_000);
  afterAll(async () => {
    services?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => services.db;
  const firstReviewOf = (productId: string) =>
    db().prepare("SELECT review_id FROM reviews WHERE store_id = ? AND product_id = ? ORDER BY created_ms DESC, review_id LIMIT 1").pluck().get(S, productId) as string;

  /** Run `write`, then say which of `scopes` changed since just before it (as the response cache sees it). */
  const staleAfter = (write: () => void, scopes: Record<string, string[] | null>) => staleWith(services.contentScopes, write, scopes);

  it("gives every tracked table its insert, update and delete content-scope triggers; search, limit and pending tables none", () => {
    const tables = trackedTables(db());
    expect(tables).toEqual(expect.arrayContaining(["reviews", "products", "stores", "review_votes", "loyalty_transactions", "schema_migrations"]));
    for (const untracked of ["review_search", "survey_responses_fts", "rate_limit_hits", "admin_rate_limits", "review_aggregate_changes", "content_seq"]) {
      expect(tables).not.toContain(untracked);
    }
    const triggers = new Set(db().prepare("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal").pluck().all() as string[]);
    for (const table of tables) for (const event of ["insert", "update", "delete"]) expect(triggers.has(`content_scope_${table}_${event}`), `${table} ${event}`).toBe(true);
    expect([...triggers].filter((t) => t.startsWith("content_scope_")).length).toBe(tables.length * 3);
  });

  it("maps every PostgreSQL table, PostgreSQL-only ones too (none falls back to `*` by oversight)", () => {
    expect(trackedTables(db()).filter((t) => !(t in TABLE_SCOPES))).toEqual([]);
  });

  it("installs nothing again when the triggers are in place (a second node starting)", () => {
    const functions = "SELECT string_agg(p.proname || ':' || p.xmin::text, ',' ORDER BY p.proname) FROM pg_proc p WHERE p.proname LIKE 'content\\_scope\\_%'";
    const before = db().prepare(functions).pluck().get();
    installContentScopeTriggers(db());
    openDatabase(database.url).close();
    expect(db().prepare(functions).pluck().get()).toBe(before);
  });

  it("a new review touches its product, its group and the store's review content, nothing of another product", () => {
    const group = services.stores.getProduct(S, "1078")!.groupId!;
    const stale = staleAfter(
      () => services.reviewsData.insert({ reviewId: crypto.randomUUID(), storeId: S, productId: "1078", rating: 5, title: "", body: "Fits well.", createdMs: Date.now(), status: "published", reviewerName: "A" }),
      {
        product: [contentScope.store(S), contentScope.product(S, "1078")],
        group: [contentScope.store(S), contentScope.group(S, group)],
        store: [contentScope.store(S), contentScope.storeReviews(S)],
        otherProduct: [contentScope.store(S), contentScope.product(S, "862")],
        unscoped: null,
      },
    );
    expect(stale).toEqual({ product: true, group: true, store: true, otherProduct: false, unscoped: true });
  });

  it("a helpful vote touches the product of its review (a scope looked up through the review)", () => {
    const stale = staleAfter(
      () => db().prepare("INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (?, ?, 'v-pg', 'helpful', 0, 0)").run(S, firstReviewOf("862")),
      { product: [contentScope.product(S, "862")], otherProduct: [contentScope.product(S, "1078")] },
    );
    expect(stale).toEqual({ product: true, otherProduct: false });
  });

  it("a write that rolls back touches nothing", () => {
    const stale = staleAfter(
      () => {
        try {
          db().transaction(() => {
            db().prepare("UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ?").run(firstReviewOf("1078"));
            throw new Error("abort");
          })();
        } catch {
          // rolled back
        }
      },
      { product: [contentScope.product(S, "1078")], unscoped: null },
    );
    expect(stale).toEqual({ product: false, unscoped: false });
  });

  it("one long transaction writes each scope once, numbered above every earlier commit, and keeps the aggregates equal to a recount", () => {
    const before = services.contentScopes.current().seq;
    const group = services.stores.getProduct(S, "862")!.groupId!;
    const ids: string[] = [];
    db().transaction(() => {
      // More than 256 review changes: the aggregates' later changes are summed in at commit (002-triggers.sql).
      for (let i = 0; i < 600; i++) {
        const reviewId = crypto.randomUUID();
        ids.push(reviewId);
        services.reviewsData.insert({
          reviewId, storeId: S, productId: i % 2 ? "862" : "1078", rating: 1 + (i % 5), title: "", body: `Review ${i}`,
          createdMs: Date.UTC(2026, 2, 1) + i, status: i % 7 ? "published" : "pending", reviewerName: "B", isRecommended: i % 3 ? i % 2 === 0 : undefined,
        });
      }
      for (const reviewId of ids.slice(0, 50)) services.reviewsData.setStatus(S, reviewId, "rejected");
      db().prepare("DELETE FROM reviews WHERE review_id = ?").run(ids[60]);
    })();
    const changed = db().prepare("SELECT scope, version FROM content_scope_versions WHERE version > ? ORDER BY version").all(before) as { scope: string; version: number }[];
    expect(changed.map((r) => r.scope)).toEqual(expect.arrayContaining([contentScope.product(S, "862"), contentScope.product(S, "1078"), contentScope.group(S, group), contentScope.storeReviews(S)]));
    expect(new Set(changed.map((r) => r.scope)).size).toBe(changed.length);
    expect(services.contentScopes.current().seq).toBe(changed.at(-1)!.version);
    expect(db().prepare("SELECT count(*) FROM review_aggregate_changes").pluck().get()).toBe(0);

    const recount = db().prepare(
      `SELECT t.scope_type, t.scope_id, t.n AS "count", t.total, t.rec, a.review_count, a.rating_total, a.recommended_count, a.level1, t.l1, a.level5, t.l5
         FROM (SELECT 'store' AS scope_type, '' AS scope_id, count(*) AS n, sum(rating) AS total, sum(CASE WHEN is_recommended = 1 THEN 1 ELSE 0 END) AS rec,
                      sum(CASE WHEN rating = 1 THEN 1 ELSE 0 END) AS l1, sum(CASE WHEN rating = 5 THEN 1 ELSE 0 END) AS l5
                 FROM reviews WHERE store_id = ? AND status = 'published'
               UNION ALL
               SELECT 'product', product_id, count(*), sum(rating), sum(CASE WHEN is_recommended = 1 THEN 1 ELSE 0 END),
                      sum(CASE WHEN rating = 1 THEN 1 ELSE 0 END), sum(CASE WHEN rating = 5 THEN 1 ELSE 0 END)
                 FROM reviews WHERE store_id = ? AND status = 'published' GROUP BY product_id) t
         LEFT JOIN review_aggregates a ON a.store_id = ? AND a.scope_type = t.scope_type AND a.scope_id = t.scope_id`,
    ).all(S, S, S) as Record<string, number>[];
    expect(recount.length).toBe(3);
    for (const r of recount) {
      expect([r.review_count, r.rating_total, r.recommended_count, r.level1, r.level5], `${r.scope_type} ${r.scope_id}`).toEqual([r.count, r.total, r.rec, r.l1, r.l5]);
    }
  });

  it("the points ledger's guards raise SQLite's messages, as SQLITE_CONSTRAINT_TRIGGER", () => {
    db().prepare("INSERT INTO loyalty_customers (loyalty_customer_id, store_id, platform_customer_id, status, created_ms) VALUES ('pg-c1', ?, 'pg-pc1', 'enrolled', 0)").run(S);
    const tx = db().prepare(
      "INSERT INTO loyalty_transactions (transaction_id, store_id, loyalty_customer_id, type, points, balance_after, description, created_ms) VALUES (?, ?, 'pg-c1', 'earning', ?, ?, 'd', 0)",
    );
    tx.run("pg-t1", S, 100, 100);
    expect(db().prepare("SELECT balance, lifetime_points FROM loyalty_customers WHERE loyalty_customer_id = 'pg-c1'").get()).toEqual({ balance: 100, lifetime_points: 100 });
    const failure = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      return null;
    };
    expect(failure(() => tx.run("pg-t2", S, 10, 999))).toEqual({ code: "SQLITE_CONSTRAINT_TRIGGER", message: "loyalty transaction balance_after must equal the balance plus points" });
    expect(failure(() => db().prepare("UPDATE loyalty_transactions SET points = 1 WHERE transaction_id = 'pg-t1'").run())).toEqual({ code: "SQLITE_CONSTRAINT_TRIGGER", message: "the loyalty points ledger is append-only" });
    expect(failure(() => db().prepare("DELETE FROM loyalty_transactions WHERE transaction_id = 'pg-t1'").run())).toEqual({ code: "SQLITE_CONSTRAINT_TRIGGER", message: "the loyalty points ledger is append-only" });
    expect(failure(() => db().prepare("UPDATE loyalty_customers SET balance = 5 WHERE loyalty_customer_id = 'pg-c1'").run())).toEqual({ code: "SQLITE_CONSTRAINT_TRIGGER", message: "a loyalty balance must equal the sum of the customer's transactions" });
  });

  it("a review event's snapshot is the text SQLite's json_object writes", () => {
    db().prepare("INSERT INTO webhook_subscriptions (subscription_id, store_id, url, secret_encrypted, secret_prefix, created_ms, updated_ms) VALUES ('pg-sub', ?, 'https://example.com/h', 'x', 'p', 0, 0)").run(S);
    db().prepare("INSERT INTO webhook_subscription_events (store_id, event_type, subscription_id) VALUES (?, 'review.updated', 'pg-sub')").run(S);
    const reviewId = firstReviewOf("1078");
    db().prepare("UPDATE reviews SET title = 'Edited' WHERE review_id = ?").run(reviewId);
    const event = db().prepare("SELECT event_id, snapshot_json FROM webhook_events WHERE resource_id = ? AND event_type = 'review.updated'").get(reviewId) as { event_id: string; snapshot_json: string };
    expect(event.snapshot_json).toBe('{"product_id":"1078"}');
    expect(event.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it("learns of another connection's commit from its NOTIFY, without polling", async () => {
    const watcher = contentScopeWatcher(db(), null, 100_000, { listenUrl: database.url, pollMs: 3_600_000 });
    const other = openDatabase(database.url);
    try {
      watcher.current(); // starts the listener
      await new Promise((resolve) => setTimeout(resolve, 300)); // listening
      const before = watcher.current();
      other.prepare("UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ?").run(firstReviewOf("862"));
      const start = Date.now();
      let now = watcher.current();
      while (now.seq === before.seq && Date.now() - start < 1_000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        now = watcher.current();
      }
      expect(watcher.isFresh(before, [contentScope.product(S, "862")], now)).toBe(false);
      expect(watcher.isFresh(before, [contentScope.product(S, "1078")], now)).toBe(true);
    } finally {
      other.close();
      await watcher.close();
    }
  });
});
