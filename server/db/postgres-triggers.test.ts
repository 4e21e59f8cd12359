/**
 * PostgreSQL's triggers (server/db/schema/postgres.ts) and content-scope triggers (content-scopes.ts), on a real
 * database copied from the migrated template, seeded with real reviews through the real data modules. The
 * content-scope triggers write nothing: each changed scope is a notification on CONTENT_SCOPES_CHANNEL sent at
 * commit, which a `pg` client of the test's own hears (test/scope-notifications.ts), as every node's watcher does.
 * What the watcher makes of them (staleness, other nodes, read-your-own-writes) is postgres-content-scopes.test.ts.
 * Runs only with env CHORUS_TEST_POSTGRES_URL (an admin URL: `npm run test:postgres`); the SQLite side is
 * content-scopes.test.ts and the API suites.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { createTestDatabase } from "../../test/postgres.ts";
import { listenForScopes, type ScopeNotifications } from "../../test/scope-notifications.ts";
import { createServices, type Services } from "../services.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { ANY_SCOPE, installContentScopeTriggers, MAX_SCOPE_NOTIFICATIONS, TABLE_SCOPES, trackedTables } from "./content-scopes.ts";
import { all, one, openDatabase, run, sql, transaction, value, values } from "./database.ts";

const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
// Selected by vitest.postgres.config.ts only (test/engine-suites.ts): without PostgreSQL it fails, never skips.
if (!adminUrl) throw new Error("PostgreSQL only: run it with `npm run test:postgres -- <file>` (env CHORUS_TEST_POSTGRES_URL)");
const S = TEST_STORE_ID;

describe("PostgreSQL triggers", () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> };
  let services: Services;
  let heard: ScopeNotifications;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chorus-pg-triggers-"));
    database = await createTestDatabase(adminUrl!);
    services = await createServices({ databasePath: database.url, mediaPath: join(dir, "media") });
    await seedRealReviews(services, { productIds: ["1078", "862"], limit: 400 });
    heard = await listenForScopes(database.url);
  }, 300_000);
  afterAll(async () => {
    await heard?.close();
    await services?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => services.db;
  const firstReviewOf = async (productId: string) =>
    (await value<string>(db(), sql`SELECT review_id FROM reviews WHERE store_id = ${S} AND product_id = ${productId} ORDER BY created_ms DESC, review_id LIMIT 1`))!;
  const groupOf = async (productId: string) => (await services.stores.getProduct(S, productId))!.groupId!;
  /** The scopes of a product's review content: its product, its group and the store's reviews. */
  const reviewContentOf = async (productId: string) => [contentScope.product(S, productId), contentScope.group(S, await groupOf(productId)), contentScope.storeReviews(S)].sort();
  const sorted = (scopes: string[]) => [...scopes].sort();

  it("gives every tracked table its insert, update and delete content-scope triggers; search, limit and pending tables none", async () => {
    const tables = await trackedTables(db());
    expect(tables).toEqual(expect.arrayContaining(["reviews", "products", "stores", "review_votes", "loyalty_transactions", "schema_migrations"]));
    for (const untracked of ["review_search", "survey_responses_fts", "rate_limit_hits", "admin_rate_limits", "review_aggregate_changes", "content_seq"]) {
      expect(tables).not.toContain(untracked);
    }
    const triggers = new Set(await values<string>(db(), sql`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal`));
    for (const table of tables) for (const event of ["insert", "update", "delete"]) expect(triggers.has(`content_scope_${table}_${event}`), `${table} ${event}`).toBe(true);
    expect([...triggers].filter((t) => t.startsWith("content_scope_")).length).toBe(tables.length * 3);
  });

  it("maps every PostgreSQL table, PostgreSQL-only ones too (none falls back to `*` by oversight)", async () => {
    expect((await trackedTables(db())).filter((t) => !(t in TABLE_SCOPES))).toEqual([]);
  });

  it("installs nothing again when the triggers are in place (a second node starting)", async () => {
    const functions = sql<{ functions: string }>`SELECT string_agg(p.proname || ':' || p.xmin::text, ',' ORDER BY p.proname) AS functions FROM pg_proc p WHERE p.proname LIKE 'content\\_scope\\_%'`;
    const before = await value<string>(db(), functions);
    await installContentScopeTriggers(db());
    await (await openDatabase(database.url)).close();
    expect(await value<string>(db(), functions)).toBe(before);
  });

  it("writes nothing: no shared row for writers (no content_seq, no content_scope_versions)", async () => {
    const tables = await values<string>(db(), sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('content_seq', 'content_scope_versions')`);
    for (const table of tables) {
      const rows = () => value<number>(db(), sql`SELECT count(*) FROM ${sql.table(table)}`);
      const before = await rows();
      await services.reviewsData.insert({
        reviewId: crypto.randomUUID(),
        storeId: S,
        productId: "862",
        rating: 4,
        title: "",
        body: "Nice.",
        createdMs: Date.now(),
        status: "published",
        reviewerName: "A",
      });
      expect(await rows(), table).toBe(before);
    }
  });

  it("a new review sends its product, its group and the store's review content, each once", async () => {
    const sent = await heard.sentBy(() =>
      services.reviewsData.insert({
        reviewId: crypto.randomUUID(),
        storeId: S,
        productId: "1078",
        rating: 5,
        title: "",
        body: "Fits well.",
        createdMs: Date.now(),
        status: "published",
        reviewerName: "A",
      }),
    );
    // The review row and the aggregate rows its trigger moves (product, group, store) name the same three scopes: sent once each.
    expect(sorted(sent)).toEqual(await reviewContentOf("1078"));
  });

  it("a helpful vote sends the scopes of its review (looked up through the review), once each", async () => {
    const reviewId = await firstReviewOf("862");
    const sent = await heard.sentBy(() => services.votes.vote(S, reviewId, { vote: "helpful" }, crypto.randomUUID(), "198.51.100.7"));
    expect(sorted(sent)).toEqual(await reviewContentOf("862"));
    // A raw vote row alone (no count moved) sends the same.
    const raw = await heard.sentBy(() =>
      run(db(), sql`INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (${S}, ${reviewId}, 'v-pg', 'helpful', 0, 0)`),
    );
    expect(sorted(raw)).toEqual(await reviewContentOf("862"));
  });

  it("a question sends its product and its group; an answer and a Q&A vote the scopes of their question", async () => {
    const questionId = crypto.randomUUID();
    const question = await heard.sentBy(() =>
      services.questionsData.insertQuestion({ questionId, storeId: S, productId: "1078", body: "Does it run small?", askerName: "Q", status: "published", createdMs: Date.now() }),
    );
    const productAndGroup = sorted([contentScope.product(S, "1078"), contentScope.group(S, await groupOf("1078"))]);
    expect(sorted(question)).toEqual(productAndGroup);
    const answerId = crypto.randomUUID();
    const answer = await heard.sentBy(() =>
      services.questionsData.insertAnswer({
        answerId,
        storeId: S,
        questionId,
        body: "True to size.",
        authorName: "Store",
        isStoreAnswer: true,
        verifiedStatus: "unverified",
        status: "published",
        createdMs: Date.now(),
      }),
    );
    // The answer row, and the question row's answer count if a trigger moves it: the question's scopes.
    expect(sorted([...new Set(answer)])).toEqual(productAndGroup);
    expect(answer.length).toBe(new Set(answer).size);
  });

  it("a loyalty write sends the store's loyalty scope only, once per transaction", async () => {
    const customerId = `pg-c-${crypto.randomUUID()}`;
    const sent = await heard.sentBy(() =>
      transaction(db(), async () => {
        await run(db(), sql`INSERT INTO loyalty_customers (loyalty_customer_id, store_id, platform_customer_id, status, created_ms) VALUES (${customerId}, ${S}, ${customerId}, 'enrolled', 0)`);
        for (const [i, points] of [100, 50, 25].entries()) {
          await run(
            db(),
            sql`INSERT INTO loyalty_transactions (transaction_id, store_id, loyalty_customer_id, type, points, balance_after, description, created_ms)
            VALUES (${`${customerId}-t${i}`}, ${S}, ${customerId}, 'earning', ${points}, ${[100, 150, 175][i]}, 'd', 0)`,
          );
        }
      }),
    );
    expect(sent).toEqual([`loyalty:${S}`]);
  });

  it("untracked tables (rate-limit counters, pending aggregate changes) send nothing", async () => {
    const sent = await heard.sentBy(async () => {
      await run(db(), sql`INSERT INTO rate_limit_hits (limit_key, hits_ms, counted, expires_ms) VALUES ('test:ip:203.0.113.9', ARRAY[1]::bigint[], 1, 2)`);
      await run(db(), sql`UPDATE rate_limit_hits SET counted = 0 WHERE limit_key = 'test:ip:203.0.113.9'`);
      await run(db(), sql`DELETE FROM rate_limit_hits WHERE limit_key = 'test:ip:203.0.113.9'`);
      await run(db(), sql`INSERT INTO admin_rate_limits (key, points, expire) VALUES ('test-key', 1, 2)`);
      await run(db(), sql`DELETE FROM admin_rate_limits WHERE key = 'test-key'`);
    });
    expect(sent).toEqual([]);
  });

  it("a rolled-back transaction sends nothing; a rolled-back savepoint sends nothing of its own", async () => {
    const reviewId = await firstReviewOf("1078");
    const rolledBack = await heard.sentBy(async () => {
      await expect(
        transaction(db(), async () => {
          await run(db(), sql`UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ${reviewId}`);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
    });
    expect(rolledBack).toEqual([]);
    const customerId = `pg-c-${crypto.randomUUID()}`;
    const partly = await heard.sentBy(() =>
      transaction(db(), async () => {
        await expect(
          transaction(db(), async () => {
            await run(db(), sql`UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ${reviewId}`);
            throw new Error("abort the savepoint");
          }),
        ).rejects.toThrow("abort the savepoint");
        await run(db(), sql`INSERT INTO loyalty_customers (loyalty_customer_id, store_id, platform_customer_id, status, created_ms) VALUES (${customerId}, ${S}, ${customerId}, 'enrolled', 0)`);
      }),
    );
    expect(partly).toEqual([`loyalty:${S}`]);
  });

  it("each scope once per transaction, however many rows of it change; commits are heard in commit order", async () => {
    const ids = Array.from({ length: 40 }, () => crypto.randomUUID());
    const sent = await heard.sentBy(async () => {
      await transaction(db(), async () => {
        for (const [i, reviewId] of ids.entries()) {
          await services.reviewsData.insert({
            reviewId,
            storeId: S,
            productId: i % 2 ? "862" : "1078",
            rating: 1 + (i % 5),
            title: "",
            body: `Review ${i}`,
            createdMs: Date.UTC(2026, 1, 1) + i,
            status: "published",
            reviewerName: "B",
          });
        }
        for (const reviewId of ids.slice(0, 10)) await services.reviewsData.setStatus(S, reviewId, "rejected");
      });
      await services.stores.updateSettings(S, { name: "Renamed once" });
    });
    const reviewContent = [...new Set([...(await reviewContentOf("862")), ...(await reviewContentOf("1078"))])];
    expect(sent.length).toBe(new Set(sent).size);
    expect(sorted(sent.slice(0, -1))).toEqual(sorted(reviewContent));
    expect(sent.at(-1)).toBe(contentScope.store(S)); // the second commit's scope after the first commit's
  });

  it(`a transaction that would send more than ${MAX_SCOPE_NOTIFICATIONS} notifications sends \`*\` instead of the rest`, async () => {
    // One statement inserting MAX_SCOPE_NOTIFICATIONS products (the trigger runs per row).
    const sent = await heard.sentBy(() =>
      run(
        db(),
        sql`INSERT INTO products (store_id, product_id, name)
        SELECT ${S}, 'bulk-' || n, 'Bulk ' || n FROM generate_series(0, ${MAX_SCOPE_NOTIFICATIONS - 1}) AS n`,
      ),
    );
    expect(sent.at(-1)).toBe(ANY_SCOPE);
    expect(sent.filter((s) => s === ANY_SCOPE)).toHaveLength(1);
    expect(sent.length).toBeLessThanOrEqual(MAX_SCOPE_NOTIFICATIONS + 1);
    expect(sent.length).toBe(new Set(sent).size);
    // The next transaction counts from zero again.
    expect(await heard.sentBy(() => services.stores.upsertProduct({ storeId: S, productId: "bulk-0", name: "Bulk again" }))).toEqual(expect.arrayContaining([contentScope.product(S, "bulk-0")]));
  }, 120_000);

  it("one long transaction keeps the aggregates equal to a recount (its later changes summed in at commit)", async () => {
    const ids: string[] = [];
    await transaction(db(), async () => {
      // More than 256 review changes: the aggregates' later changes are summed in at commit (postgres.ts review_aggregate_changes).
      for (let i = 0; i < 600; i++) {
        const reviewId = crypto.randomUUID();
        ids.push(reviewId);
        await services.reviewsData.insert({
          reviewId,
          storeId: S,
          productId: i % 2 ? "862" : "1078",
          rating: 1 + (i % 5),
          title: "",
          body: `Review ${i}`,
          createdMs: Date.UTC(2026, 2, 1) + i,
          status: i % 7 ? "published" : "pending",
          reviewerName: "B",
          isRecommended: i % 3 ? i % 2 === 0 : undefined,
        });
      }
      for (const reviewId of ids.slice(0, 50)) await services.reviewsData.setStatus(S, reviewId, "rejected");
      await run(db(), sql`DELETE FROM reviews WHERE review_id = ${ids[60]}`);
    });
    expect(await value<number>(db(), sql`SELECT count(*) FROM review_aggregate_changes`)).toBe(0);

    const recount = await all<Record<string, number | string>>(
      db(),
      sql`
      SELECT t.scope_type, t.scope_id, t.n AS "count", t.total, t.rec, a.review_count, a.rating_total, a.recommended_count, a.level1, t.l1, a.level5, t.l5
         FROM (SELECT 'store' AS scope_type, '' AS scope_id, count(*) AS n, sum(rating) AS total, sum(CASE WHEN is_recommended = 1 THEN 1 ELSE 0 END) AS rec,
                      sum(CASE WHEN rating = 1 THEN 1 ELSE 0 END) AS l1, sum(CASE WHEN rating = 5 THEN 1 ELSE 0 END) AS l5
                 FROM reviews WHERE store_id = ${S} AND status = 'published'
               UNION ALL
               SELECT 'product', product_id, count(*), sum(rating), sum(CASE WHEN is_recommended = 1 THEN 1 ELSE 0 END),
                      sum(CASE WHEN rating = 1 THEN 1 ELSE 0 END), sum(CASE WHEN rating = 5 THEN 1 ELSE 0 END)
                 FROM reviews WHERE store_id = ${S} AND status = 'published' GROUP BY product_id) t
         LEFT JOIN review_aggregates a ON a.store_id = ${S} AND a.scope_type = t.scope_type AND a.scope_id = t.scope_id`,
    );
    expect(recount.length).toBe(3);
    for (const r of recount) {
      expect([r.review_count, r.rating_total, r.recommended_count, r.level1, r.level5], `${r.scope_type} ${r.scope_id}`).toEqual([r.count, r.total, r.rec, r.l1, r.l5]);
    }
  }, 120_000);

  it("the points ledger's guards raise SQLite's messages, as SQLITE_CONSTRAINT_TRIGGER", async () => {
    await run(db(), sql`INSERT INTO loyalty_customers (loyalty_customer_id, store_id, platform_customer_id, status, created_ms) VALUES ('pg-c1', ${S}, 'pg-pc1', 'enrolled', 0)`);
    const tx = (id: string, points: number, balanceAfter: number) =>
      run(
        db(),
        sql`
      INSERT INTO loyalty_transactions (transaction_id, store_id, loyalty_customer_id, type, points, balance_after, description, created_ms)
      VALUES (${id}, ${S}, 'pg-c1', 'earning', ${points}, ${balanceAfter}, 'd', 0)`,
      );
    await tx("pg-t1", 100, 100);
    expect(await one(db(), sql`SELECT balance, lifetime_points FROM loyalty_customers WHERE loyalty_customer_id = 'pg-c1'`)).toEqual({ balance: 100, lifetime_points: 100 });
    const failure = async (fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      return null;
    };
    expect(await failure(() => tx("pg-t2", 10, 999))).toEqual({ code: "SQLITE_CONSTRAINT_TRIGGER", message: "loyalty transaction balance_after must equal the balance plus points" });
    expect(await failure(() => run(db(), sql`UPDATE loyalty_transactions SET points = 1 WHERE transaction_id = 'pg-t1'`))).toEqual({
      code: "SQLITE_CONSTRAINT_TRIGGER",
      message: "the loyalty points ledger is append-only",
    });
    expect(await failure(() => run(db(), sql`DELETE FROM loyalty_transactions WHERE transaction_id = 'pg-t1'`))).toEqual({
      code: "SQLITE_CONSTRAINT_TRIGGER",
      message: "the loyalty points ledger is append-only",
    });
    expect(await failure(() => run(db(), sql`UPDATE loyalty_customers SET balance = 5 WHERE loyalty_customer_id = 'pg-c1'`))).toEqual({
      code: "SQLITE_CONSTRAINT_TRIGGER",
      message: "a loyalty balance must equal the sum of the customer's transactions",
    });
  });

  it("a review event's snapshot is the text SQLite's json_object writes", async () => {
    await run(
      db(),
      sql`INSERT INTO webhook_subscriptions (subscription_id, store_id, url, secret_encrypted, secret_prefix, created_ms, updated_ms) VALUES ('pg-sub', ${S}, 'https://example.com/h', 'x', 'p', 0, 0)`,
    );
    await run(db(), sql`INSERT INTO webhook_subscription_events (store_id, event_type, subscription_id) VALUES (${S}, 'review.updated', 'pg-sub')`);
    const reviewId = await firstReviewOf("1078");
    await run(db(), sql`UPDATE reviews SET title = 'Edited' WHERE review_id = ${reviewId}`);
    const event = (await one<{ event_id: string; snapshot_json: string }>(
      db(),
      sql`SELECT event_id, snapshot_json FROM webhook_events WHERE resource_id = ${reviewId} AND event_type = 'review.updated'`,
    ))!;
    expect(event.snapshot_json).toBe('{"product_id":"1078"}');
    expect(event.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
  });
});
