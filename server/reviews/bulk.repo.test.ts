/**
 * Bulk loading (bench data) on either engine: SQLite drops and recreates the keyset indexes and insert triggers,
 * PostgreSQL (env CHORUS_TEST_POSTGRES_URL) disables and enables the triggers; both leave the schema as it was,
 * the aggregates equal to direct counts and the search index holding every review.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { realReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { createServices, type Services } from "../services.ts";
import { bulkLoadReviews } from "./bulk.repo.ts";
import { reviewSearchMatch } from "./reviews.repo.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-bulk-"));
let database: FreshDatabase;
let services: Services;
beforeAll(async () => {
  database = await freshDatabase(dir);
  services = createServices({ databasePath: database.location, mediaPath: join(dir, "media") });
});
afterAll(async () => {
  services.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The indexes and triggers of reviews, with whether each trigger is enabled (PostgreSQL). */
const schemaObjects = () => services.db.prepare(database.postgres
  ? `SELECT 'index' AS type, indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'reviews'
     UNION ALL SELECT 'trigger', tgname, tgenabled::text FROM pg_trigger WHERE tgrelid = 'reviews'::regclass AND NOT tgisinternal ORDER BY 2`
  : "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'reviews' ORDER BY name").all();

it("bulk loading restores every index and trigger and leaves aggregates equal to direct counts", () => {
  const before = schemaObjects();
  services.stores.create({ storeId: TEST_STORE_ID, name: "t", platform: "shopify" });
  services.stores.upsertGroup({ storeId: TEST_STORE_ID, groupId: "g", name: "G" });
  for (const id of ["a", "b", "c"]) services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: id, name: id, groupId: id === "c" ? undefined : "g" });
  const rows = realReviews().slice(0, 3000);
  bulkLoadReviews(services.db, TEST_STORE_ID, (insert) =>
    services.db.transaction(() =>
      rows.forEach((r, i) =>
        insert({ reviewId: crypto.randomUUID(), storeId: TEST_STORE_ID, productId: ["a", "b", "c"][i % 3], rating: r.rating, title: r.title, body: r.body, createdMs: i, status: "published", reviewerName: "x", isRecommended: r.recommended }),
      ),
    )(),
  );
  expect(schemaObjects()).toEqual(before);
  const byProduct = (p: string) => rows.filter((_, i) => ["a", "b", "c"][i % 3] === p);
  for (const p of ["a", "b", "c"]) {
    const agg = services.reviewsData.aggregate(TEST_STORE_ID, { type: "product", productId: p });
    expect(agg.review_count).toBe(byProduct(p).length);
    expect(agg.rating_total).toBe(byProduct(p).reduce((s, r) => s + r.rating, 0));
    expect(agg.level5).toBe(byProduct(p).filter((r) => r.rating === 5).length);
    expect(agg.recommended_count).toBe(byProduct(p).filter((r) => r.recommended === true).length);
  }
  expect(services.reviewsData.aggregate(TEST_STORE_ID, { type: "group", groupId: "g" }).review_count).toBe(2000);
  expect(services.reviewsData.aggregate(TEST_STORE_ID, { type: "store" }).review_count).toBe(3000);
  // The aggregate trigger is back: a normal insert counts again.
  services.reviewsData.insert({ reviewId: crypto.randomUUID(), storeId: TEST_STORE_ID, productId: "c", rating: 5, title: "", body: rows[0].body, createdMs: 1, status: "published", reviewerName: "x" });
  expect(services.reviewsData.aggregate(TEST_STORE_ID, { type: "store" }).review_count).toBe(3001);
  // The search index holds every review, the bulk-loaded ones and the one after: on SQLite, integrity-check with
  // rank 1 compares the FTS5 index (migration 084) with the reviews table and throws on a difference; on PostgreSQL,
  // review_search (003-search.sql) has one document per review.
  if (database.postgres) {
    expect(services.db.prepare("SELECT count(*) FROM reviews r LEFT JOIN review_search s ON s.review_id = r.review_id WHERE s.review_id IS NULL").pluck().get()).toBe(0);
    expect(services.db.prepare("SELECT count(*) FROM review_search").pluck().get()).toBe(3001);
  } else {
    services.db.prepare("INSERT INTO review_search (review_search, rank) VALUES ('integrity-check', 1)").run();
  }
  const dresses = rows.filter((r) => /\bdress\b/i.test(`${r.title} ${r.body}`)).length;
  const listed = services.reviewsData.listPublished(TEST_STORE_ID, { type: "store" }, "date desc", 5000, undefined, { search: reviewSearchMatch("dress ")! });
  expect(listed.length).toBeGreaterThanOrEqual(dresses);
});
