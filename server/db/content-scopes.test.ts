/**
 * Content scopes (content-scopes.ts): the triggers on every table, over a real SQLite file seeded with
 * real reviews through the real data modules, and the watcher's freshness rule.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { createServices, type Services } from "../services.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { contentScopeWatcher, installContentScopeTriggers, TABLE_SCOPES, trackedTables } from "./content-scopes.ts";
import { exec, openDatabase, run, sql, transaction, value, values } from "./database.ts";
import { staleAfter as staleWith } from "../../test/stale-scopes.ts";

const S = TEST_STORE_ID;
let dir: string;
let services: Services;
const groupOf = async (productId: string) => (await services.stores.getProduct(S, productId))!.groupId!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-scopes-"));
  services = await createServices({ databasePath: join(dir, "db.sqlite"), mediaPath: join(dir, "media") });
  await seedRealReviews(services, { productIds: ["1078", "862", "1094"] });
  await seedRealReviews(services, { storeId: OTHER_STORE_ID, productIds: ["1078"] });
});
afterAll(async () => {
  await services?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run `write` (awaited), then say which of `scopes` changed since just before it (as the response cache sees it). */
const staleAfter = (write: () => unknown, scopes: Record<string, string[] | null>) => staleWith(services.contentScopes, write, scopes);

const firstReviewOf = async (productId: string, storeId = S) =>
  (await value<string>(services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${storeId} AND product_id = ${productId} ORDER BY created_ms DESC LIMIT 1`))!;

describe("content-scope triggers", () => {
  it("every table has an insert, an update and a delete trigger, full-text shadow tables aside", async () => {
    const tables = await trackedTables(services.db);
    expect(tables).toEqual(expect.arrayContaining(["reviews", "products", "stores", "review_votes", "loyalty_transactions", "admin_sessions"]));
    expect(tables.some((t) => t.startsWith("survey_responses_fts"))).toBe(false);
    const triggers = new Set(await values<string>(services.db, sql`SELECT name FROM sqlite_master WHERE type = 'trigger'`));
    for (const table of tables) for (const event of ["insert", "update", "delete"]) expect(triggers.has(`content_scope_${table}_${event}`), `${table} ${event}`).toBe(true);
  });

  it("maps every table of the schema (none falls back to `*` by oversight)", async () => {
    expect((await trackedTables(services.db)).filter((t) => !(t in TABLE_SCOPES))).toEqual([]);
  });

  it("installs nothing again when the triggers are in place (no schema change on a second start)", async () => {
    const schemaVersion = () => value<number>(services.db, sql`PRAGMA schema_version`);
    const before = await schemaVersion();
    await installContentScopeTriggers(services.db);
    const again = await openDatabase(join(dir, "db.sqlite"));
    await again.close();
    expect(await schemaVersion()).toBe(before);
  });

  it("a new review touches its product, its group and the store's review content, nothing of another product", async () => {
    const group = await groupOf("1078");
    const stale = await staleAfter(
      () =>
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
      {
        product: [contentScope.store(S), contentScope.product(S, "1078")],
        group: [contentScope.store(S), contentScope.group(S, group)],
        store: [contentScope.store(S), contentScope.storeReviews(S)],
        otherProduct: [contentScope.store(S), contentScope.product(S, "862")],
        otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
      },
    );
    expect(stale).toEqual({ product: true, group: true, store: true, otherProduct: false, otherStore: false });
  });

  it("a helpful vote (a row that belongs to a review) touches the review's product", async () => {
    const reviewId = await firstReviewOf("862");
    const stale = await staleAfter(
      () => run(services.db, sql`INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (${S}, ${reviewId}, 'v', 'helpful', 0, 0)`),
      { product: [contentScope.product(S, "862")], otherProduct: [contentScope.product(S, "1078")] },
    );
    expect(stale).toEqual({ product: true, otherProduct: false });
  });

  it("a store's settings touch every answer of that store and none of another store", async () => {
    const stale = await staleAfter(() => services.stores.updateSettings(S, { name: "Renamed" }), {
      product: [contentScope.store(S), contentScope.product(S, "1094")],
      otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
    });
    expect(stale).toEqual({ product: true, otherStore: false });
  });

  it("an admin session touches only answers that name no scopes", async () => {
    const stale = await staleAfter(
      async () => {
        await run(services.db, sql`INSERT INTO merchant_users (user_id, email, password_hash, created_ms) VALUES ('u1', 'a@example.com', 'x', 0)`);
        await run(services.db, sql`INSERT INTO admin_sessions (session_hash, user_id, csrf_token, created_ms, expires_ms) VALUES ('h', 'u1', 'c', 0, 1)`);
      },
      { unscoped: null, product: [contentScope.store(S), contentScope.product(S, "1078")] },
    );
    expect(stale).toEqual({ unscoped: true, product: false });
  });

  it("a table without a mapping touches every scoped answer (safe by default)", async () => {
    await exec(services.db, "CREATE TABLE later_feature (store_id TEXT, note TEXT)");
    await installContentScopeTriggers(services.db);
    const stale = await staleAfter(() => run(services.db, sql`INSERT INTO later_feature VALUES (${S}, 'x')`), {
      otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
    });
    expect(stale).toEqual({ otherStore: true });
    await exec(services.db, "DROP TABLE later_feature");
    await installContentScopeTriggers(services.db);
    expect(await value<number>(services.db, sql`SELECT count(*) FROM sqlite_master WHERE name LIKE 'content_scope_later_feature%'`)).toBe(0);
  });

  it("sees a commit made by another connection (a CLI, the AI worker thread)", async () => {
    const other = await openDatabase(join(dir, "db.sqlite"));
    try {
      const reviewId = await firstReviewOf("1078", OTHER_STORE_ID);
      const stale = await staleAfter(() => run(other, sql`UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ${reviewId}`), {
        otherStore: [contentScope.product(OTHER_STORE_ID, "1078")],
        store: [contentScope.product(S, "1078")],
      });
      expect(stale).toEqual({ otherStore: true, store: false });
    } finally {
      await other.close();
    }
  });

  it("a write that rolls back touches nothing", async () => {
    const reviewId = await firstReviewOf("1094");
    const stale = await staleAfter(
      async () => {
        await expect(
          transaction(services.db, async () => {
            expect((await run(services.db, sql`UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ${reviewId}`)).changes).toBe(1);
            throw new Error("abort");
          }),
        ).rejects.toThrow("abort"); // rolled back
      },
      { product: [contentScope.product(S, "1094")], unscoped: null },
    );
    expect(stale).toEqual({ product: false, unscoped: false });
  });

  it("remembers at most maxScopes changed scopes: past that it forgets them and answers computed before are stale", async () => {
    const watcher = await contentScopeWatcher(services.db, null, 4);
    const vote = async (productId: string) =>
      run(
        services.db,
        sql`INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (${S}, ${await firstReviewOf(productId)}, ${crypto.randomUUID()}, 'helpful', 0, 0)`,
      );
    const scopesOf = (productId: string) => [contentScope.store(S), contentScope.product(S, productId)];
    const before = await watcher.current();
    await vote("1094"); // its product, its group, the store's reviews: 3 scopes
    const first = await watcher.current();
    expect(watcher.trackedScopes).toBe(3);
    expect(watcher.isFresh(before, scopesOf("1078"), first)).toBe(true);
    await vote("862"); // 2 or 3 more: over the limit of 4
    const second = await watcher.current();
    // Forgotten: fewer than the 3 remembered before (the map is cleared the moment it passes 4; only scopes of this
    // same commit noted after that moment are kept).
    expect(watcher.trackedScopes).toBeLessThan(3);
    expect(watcher.isFresh(before, scopesOf("1078"), second)).toBe(false); // computed before the reset: stale, to be safe
    expect(watcher.isFresh(second, scopesOf("1078"), second)).toBe(true); // computed after: fresh
    await vote("1078");
    const third = await watcher.current();
    expect(watcher.isFresh(second, scopesOf("1078"), third)).toBe(false); // a change after the reset is seen
    expect(watcher.isFresh(second, scopesOf("862"), third)).toBe(true);
  });
});
