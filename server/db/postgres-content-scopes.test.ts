/**
 * The content-scope watcher on PostgreSQL (content-scopes.ts `contentScopeWatcher`), as the response cache sees it:
 * two nodes (`createServices` twice over one database copied from the migrated template, each with its own pool and
 * its own listener), seeded with real reviews through the real data modules. The triggers send each changed scope
 * as a notification at commit (postgres-triggers.test.ts); each node's watcher numbers what it hears, waits for a
 * marker of its own after a commit of its own node (reads its own writes), and counts everything as changed while
 * not listening. The SQLite side is content-scopes.test.ts. Runs only with env CHORUS_TEST_POSTGRES_URL
 * (`npm run test:postgres`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { createTestDatabase } from "../../test/postgres.ts";
import { staleAfter as staleWith } from "../../test/stale-scopes.ts";
import { createServices, type Services } from "../services.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { contentScopeWatcher, MAX_SCOPE_NOTIFICATIONS, type ContentScopeWatcher, type ContentStamp } from "./content-scopes.ts";
import { run, sql, transaction, value } from "./database.ts";

const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
// Selected by vitest.postgres.config.ts only (test/engine-suites.ts): without PostgreSQL it fails, never skips.
if (!adminUrl) throw new Error("PostgreSQL only: run it with `npm run test:postgres -- <file>` (env CHORUS_TEST_POSTGRES_URL)");
const S = TEST_STORE_ID;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("content scopes on PostgreSQL: every node's watcher", () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> };
  /** Node A (the one whose answers are judged) and node B (another node over the same database). */
  let a: Services;
  let b: Services;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chorus-pg-scopes-"));
    database = await createTestDatabase(adminUrl!);
    a = await createServices({ databasePath: database.url, mediaPath: join(dir, "media") });
    b = await createServices({ databasePath: database.url, mediaPath: join(dir, "media") });
    await seedRealReviews(a, { productIds: ["1078", "862", "1094"], limit: 300 });
    await seedRealReviews(a, { storeId: OTHER_STORE_ID, productIds: ["1078"], limit: 50 });
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const firstReviewOf = async (productId: string, storeId = S) =>
    (await value<string>(a.db, sql`SELECT review_id FROM reviews WHERE store_id = ${storeId} AND product_id = ${productId} ORDER BY created_ms DESC, review_id LIMIT 1`))!;
  const groupOf = async (productId: string) => (await a.stores.getProduct(S, productId))!.groupId!;
  /** A raw helpful-vote row on the newest review of `productId` (a write outside any transaction): its review's scopes. */
  const voteOn = async (node: Services, productId: string, storeId = S) =>
    run(
      node.db,
      sql`INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (${storeId}, ${await firstReviewOf(productId, storeId)}, ${crypto.randomUUID()}, 'helpful', 0, 0)`,
    );
  /** Which of `scopes` node A's watcher has seen change since `before` (as of a `current()` now). */
  const staleSince = async (watcher: ContentScopeWatcher, before: ContentStamp, scopes: Record<string, string[] | null>) => {
    const now = await watcher.current();
    return Object.fromEntries(Object.entries(scopes).map(([name, list]) => [name, !watcher.isFresh(before, list, now)]));
  };
  /** Poll node A's watcher (every 5 ms, at most `ms`) until `scope` is stale since `before`. @returns a promise of the ms it took, or null. */
  const staleWithin = async (watcher: ContentScopeWatcher, before: ContentStamp, scope: string, ms: number) => {
    const start = performance.now();
    while (performance.now() - start < ms) {
      if (!watcher.isFresh(before, [scope], await watcher.current())) return performance.now() - start;
      await sleep(5);
    }
    return null;
  };

  it("a node's write makes exactly the answers that read its scopes stale on that node, right after its commit (no wait)", async () => {
    const group = await groupOf("1078");
    const stale = await staleWith(
      a.contentScopes,
      () =>
        a.reviewsData.insert({ reviewId: crypto.randomUUID(), storeId: S, productId: "1078", rating: 5, title: "", body: "Fits well.", createdMs: Date.now(), status: "published", reviewerName: "A" }),
      {
        product: [contentScope.store(S), contentScope.product(S, "1078")],
        group: [contentScope.store(S), contentScope.group(S, group)],
        store: [contentScope.store(S), contentScope.storeReviews(S)],
        otherProduct: [contentScope.store(S), contentScope.product(S, "862")],
        otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
        unscoped: null,
      },
    );
    expect(stale).toEqual({ product: true, group: true, store: true, otherProduct: false, otherStore: false, unscoped: true });
    const settings = await staleWith(a.contentScopes, () => a.stores.updateSettings(S, { name: "Renamed" }), {
      product: [contentScope.store(S), contentScope.product(S, "1094")],
      otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
    });
    expect(settings).toEqual({ product: true, otherStore: false });
  });

  it("reads its own writes: 30 commits in a row, each seen by the very next current() (no sleep), also inside transaction()", async () => {
    for (let i = 0; i < 30; i++) {
      const productId = ["1078", "862", "1094"][i % 3]!;
      const write = i % 2 ? () => voteOn(a, productId) : () => transaction(a.db, async () => void (await voteOn(a, productId)));
      const stale = await staleWith(a.contentScopes, write, {
        product: [contentScope.product(S, productId)],
        otherStore: [contentScope.product(OTHER_STORE_ID, "1078")],
      });
      expect(stale, `commit ${i}`).toEqual({ product: true, otherStore: false });
    }
  });

  it("reads its own writes under concurrency: each of 40 concurrent writers sees its own commit at its next current()", async () => {
    const products = ["1078", "862", "1094"];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const productId = products[i % 3]!;
          await sleep(i % 7); // spread the commits over the round trips of the others
          const before = await a.contentScopes.current();
          await voteOn(a, productId);
          const now = await a.contentScopes.current();
          return a.contentScopes.isFresh(before, [contentScope.product(S, productId)], now);
        }),
      );
      expect(
        results.filter((fresh) => fresh),
        `round ${round}: writers that did not see their own commit`,
      ).toEqual([]);
    }
  });

  it("a write on another node is seen by this node's watcher within 1 s, without a commit of its own", async () => {
    for (const productId of ["862", "1094", "1078"]) {
      const before = await a.contentScopes.current();
      await voteOn(b, productId);
      const tookMs = await staleWithin(a.contentScopes, before, contentScope.product(S, productId), 1_000);
      expect(tookMs, `product ${productId}`).not.toBeNull();
      expect(await staleSince(a.contentScopes, before, { other: [contentScope.product(OTHER_STORE_ID, "1078")] })).toEqual({ other: false });
    }
  });

  it("after a commit of its own, a node has heard every commit made before it on other nodes too", async () => {
    for (let i = 0; i < 10; i++) {
      const before = await a.contentScopes.current();
      await voteOn(b, "862"); // another node's commit, then at once
      await voteOn(a, "1094"); // one of this node's
      expect(await staleSince(a.contentScopes, before, { b: [contentScope.product(S, "862")], a: [contentScope.product(S, "1094")] }), `round ${i}`).toEqual({ b: true, a: true });
    }
  });

  it("a rolled-back transaction makes nothing stale, on this node or another", async () => {
    const reviewId = await firstReviewOf("1078");
    const rollBack = (node: Services) =>
      expect(
        transaction(node.db, async () => {
          await run(node.db, sql`UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ${reviewId}`);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
    const before = await a.contentScopes.current();
    await rollBack(a);
    await rollBack(b);
    // A later commit of each node (another store's loyalty) makes this node wait until it heard everything before it.
    await run(b.db, sql`UPDATE stores SET name = name WHERE store_id = ${OTHER_STORE_ID}`);
    await run(a.db, sql`UPDATE stores SET name = name WHERE store_id = ${OTHER_STORE_ID}`);
    expect(await staleSince(a.contentScopes, before, { product: [contentScope.store(S), contentScope.product(S, "1078")], other: [contentScope.store(OTHER_STORE_ID)] })).toEqual({
      product: false,
      other: true,
    });
  });

  it(`a transaction touching more than ${MAX_SCOPE_NOTIFICATIONS} scopes makes every answer stale, on every node`, async () => {
    const beforeA = await a.contentScopes.current();
    const beforeB = await b.contentScopes.current();
    // One statement changing more than MAX_SCOPE_NOTIFICATIONS rows (the trigger runs per row).
    await run(
      b.db,
      sql`INSERT INTO products (store_id, product_id, name)
      SELECT ${S}, 'bulk-' || n, 'Bulk ' || n FROM generate_series(0, ${MAX_SCOPE_NOTIFICATIONS}) AS n`,
    );
    const untouched = { otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")], admin: ["admin"] };
    expect(await staleSince(b.contentScopes, beforeB, untouched)).toEqual({ otherStore: true, admin: true }); // the writing node, at once
    expect(await staleWithin(a.contentScopes, beforeA, contentScope.product(OTHER_STORE_ID, "1078"), 1_000)).not.toBeNull(); // the other, within 1 s
    expect(await staleSince(a.contentScopes, beforeA, untouched)).toEqual({ otherStore: true, admin: true });
    // Answers computed afterwards are fresh again.
    const after = await a.contentScopes.current();
    expect(await staleSince(a.contentScopes, after, untouched)).toEqual({ otherStore: false, admin: false });
  }, 120_000);

  it("while its listener is disconnected nothing is fresh; once it listens again, everything computed before counts as changed", async () => {
    const watcher = await contentScopeWatcher(a.db, null);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const untouched = [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")];
      let before = await watcher.current();
      expect(watcher.isFresh(before, untouched, await watcher.current())).toBe(true);
      // Cut every content-scope listener's connection (this watcher's and the nodes'; they reconnect 1 s later).
      const cut = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'chorus-content-scopes' AND datname = current_database()");
      expect(cut.rowCount).toBeGreaterThanOrEqual(1);
      const lost = performance.now();
      expect(await staleWithin(watcher, before, untouched[1]!, 1_000)).not.toBeNull(); // the stamp before the loss
      // Disconnected: an answer computed now is stale at the next current() (unless it reconnected meanwhile).
      const during = await watcher.current();
      const duringFresh = watcher.isFresh(during, untouched, await watcher.current());
      if (performance.now() - lost < 900) expect(duringFresh).toBe(false);
      // Listening again (1 s later): answers computed after that stay fresh; one computed before does not.
      before = during;
      let fresh = false;
      for (const start = performance.now(); !fresh && performance.now() - start < 5_000; await sleep(20)) {
        const stamp = await watcher.current();
        fresh = watcher.isFresh(stamp, untouched, await watcher.current());
      }
      expect(fresh).toBe(true);
      expect(watcher.isFresh(before, untouched, await watcher.current())).toBe(false);
      // And it hears commits again.
      const stamp = await watcher.current();
      await voteOn(b, "1078", OTHER_STORE_ID);
      expect(await staleWithin(watcher, stamp, untouched[1]!, 1_000)).not.toBeNull();
    } finally {
      await admin.end();
      await watcher.close();
    }
  }, 30_000);
});
