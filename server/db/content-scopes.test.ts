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
import { openDatabase } from "./database.ts";
import { staleAfter as staleWith } from "../../test/stale-scopes.ts";

const S = TEST_STORE_ID;
let dir: string;
let services: Services;
let groupOf: (productId: string) => string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-scopes-"));
  services = createServices({ databasePath: join(dir, "db.sqlite"), mediaPath: join(dir, "media") });
  seedRealReviews(services, { productIds: ["1078", "862", "1094"] });
  seedRealReviews(services, { storeId: OTHER_STORE_ID, productIds: ["1078"] });
  groupOf = (productId) => services.stores.getProduct(S, productId)!.groupId!;
});
afterAll(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run `write`, then say which of `scopes` changed since just before it (as the response cache sees it). */
const staleAfter = (write: () => void, scopes: Record<string, string[] | null>) => staleWith(services.contentScopes, write, scopes);

const firstReviewOf = (productId: string, storeId = S) =>
  services.db.prepare("SELECT review_id FROM reviews WHERE store_id = ? AND product_id = ? ORDER BY created_ms DESC LIMIT 1").pluck().get(storeId, productId) as string;

describe("content-scope triggers", () => {
  it("every table has an insert, an update and a delete trigger, full-text shadow tables aside", () => {
    const tables = trackedTables(services.db);
    expect(tables).toEqual(expect.arrayContaining(["reviews", "products", "stores", "review_votes", "loyalty_transactions", "admin_sessions"]));
    expect(tables.some((t) => t.startsWith("survey_responses_fts"))).toBe(false);
    const triggers = new Set(services.db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all() as string[]);
    for (const table of tables) for (const event of ["insert", "update", "delete"]) expect(triggers.has(`content_scope_${table}_${event}`), `${table} ${event}`).toBe(true);
  });

  it("maps every table of the schema (none falls back to `*` by oversight)", () => {
    expect(trackedTables(services.db).filter((t) => !(t in TABLE_SCOPES))).toEqual([]);
  });

  it("installs nothing again when the triggers are in place (no schema change on a second start)", () => {
    const before = services.db.pragma("schema_version", { simple: true });
    installContentScopeTriggers(services.db);
    const again = openDatabase(join(dir, "db.sqlite"));
    again.close();
    expect(services.db.pragma("schema_version", { simple: true })).toBe(before);
  });

  it("a new review touches its product, its group and the store's review content, nothing of another product", () => {
    const stale = staleAfter(
      () => services.reviewsData.insert({ reviewId: crypto.randomUUID(), storeId: S, productId: "1078", rating: 5, title: "", body: "Fits well.", createdMs: Date.now(), status: "published", reviewerName: "A" }),
      {
        product: [contentScope.store(S), contentScope.product(S, "1078")],
        group: [contentScope.store(S), contentScope.group(S, groupOf("1078"))],
        store: [contentScope.store(S), contentScope.storeReviews(S)],
        otherProduct: [contentScope.store(S), contentScope.product(S, "862")],
        otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
      },
    );
    expect(stale).toEqual({ product: true, group: true, store: true, otherProduct: false, otherStore: false });
  });

  it("a helpful vote (a row that belongs to a review) touches the review's product", () => {
    const stale = staleAfter(
      () => services.db.prepare("INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (?, ?, 'v', 'helpful', 0, 0)").run(S, firstReviewOf("862")),
      { product: [contentScope.product(S, "862")], otherProduct: [contentScope.product(S, "1078")] },
    );
    expect(stale).toEqual({ product: true, otherProduct: false });
  });

  it("a store's settings touch every answer of that store and none of another store", () => {
    const stale = staleAfter(() => services.stores.updateSettings(S, { name: "Renamed" }), {
      product: [contentScope.store(S), contentScope.product(S, "1094")],
      otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
    });
    expect(stale).toEqual({ product: true, otherStore: false });
  });

  it("an admin session touches only answers that name no scopes", () => {
    const stale = staleAfter(
      () => {
        services.db.prepare("INSERT INTO merchant_users (user_id, email, password_hash, created_ms) VALUES ('u1', 'a@example.com', 'x', 0)").run();
        services.db.prepare("INSERT INTO admin_sessions (session_hash, user_id, csrf_token, created_ms, expires_ms) VALUES ('h', 'u1', 'c', 0, 1)").run();
      },
      { unscoped: null, product: [contentScope.store(S), contentScope.product(S, "1078")] },
    );
    expect(stale).toEqual({ unscoped: true, product: false });
  });

  it("a table without a mapping touches every scoped answer (safe by default)", () => {
    services.db.exec("CREATE TABLE later_feature (store_id TEXT, note TEXT)");
    installContentScopeTriggers(services.db);
    const stale = staleAfter(() => services.db.prepare("INSERT INTO later_feature VALUES (?, 'x')").run(S), {
      otherStore: [contentScope.store(OTHER_STORE_ID), contentScope.product(OTHER_STORE_ID, "1078")],
    });
    expect(stale).toEqual({ otherStore: true });
    services.db.exec("DROP TABLE later_feature");
    installContentScopeTriggers(services.db);
    expect(services.db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'content_scope_later_feature%'").pluck().get()).toBe(0);
  });

  it("sees a commit made by another connection (a CLI, the AI worker thread)", () => {
    const other = openDatabase(join(dir, "db.sqlite"));
    try {
      const stale = staleAfter(
        () => other.prepare("UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ?").run(firstReviewOf("1078", OTHER_STORE_ID)),
        { otherStore: [contentScope.product(OTHER_STORE_ID, "1078")], store: [contentScope.product(S, "1078")] },
      );
      expect(stale).toEqual({ otherStore: true, store: false });
    } finally {
      other.close();
    }
  });

  it("a write that rolls back touches nothing", () => {
    const stale = staleAfter(
      () => {
        try {
          services.db.transaction(() => {
            services.db.prepare("UPDATE reviews SET helpful_count = helpful_count + 1 WHERE review_id = ?").run(firstReviewOf("1094"));
            throw new Error("abort");
          })();
        } catch {
          // rolled back
        }
      },
      { product: [contentScope.product(S, "1094")], unscoped: null },
    );
    expect(stale).toEqual({ product: false, unscoped: false });
  });

  it("remembers at most maxScopes changed scopes: past that it forgets them and answers computed before are stale", () => {
    const watcher = contentScopeWatcher(services.db, null, 4);
    const vote = (productId: string) =>
      services.db.prepare("INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (?, ?, ?, 'helpful', 0, 0)").run(S, firstReviewOf(productId), crypto.randomUUID());
    const scopesOf = (productId: string) => [contentScope.store(S), contentScope.product(S, productId)];
    const before = watcher.current();
    vote("1094"); // its product, its group, the store's reviews: 3 scopes
    const first = watcher.current();
    expect(watcher.trackedScopes).toBe(3);
    expect(watcher.isFresh(before, scopesOf("1078"), first)).toBe(true);
    vote("862"); // 2 or 3 more: over the limit of 4
    const second = watcher.current();
    expect(watcher.trackedScopes).toBe(0); // forgotten
    expect(watcher.isFresh(before, scopesOf("1078"), second)).toBe(false); // computed before the reset: stale, to be safe
    expect(watcher.isFresh(second, scopesOf("1078"), second)).toBe(true); // computed after: fresh
    vote("1078");
    const third = watcher.current();
    expect(watcher.isFresh(second, scopesOf("1078"), third)).toBe(false); // a change after the reset is seen
    expect(watcher.isFresh(second, scopesOf("862"), third)).toBe(true);
  });
});
