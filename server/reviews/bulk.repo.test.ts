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
import { all, run, sql, transaction, value } from "../db/database.ts";
import { createServices, type Services } from "../services.ts";
import { bulkLoadReviews } from "./bulk.repo.ts";
import { reviewSearchMatch } from "./reviews.repo.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-bulk-"));
let database: FreshDatabase;
let services: Services;
beforeAll(async () => {
  database = await freshDatabase(dir);
  services = await createServices({ databasePath: database.location, mediaPath: join(dir, "media") });
});
afterAll(async () => {
  await services.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The indexes and triggers of reviews, with whether each trigger is enabled (PostgreSQL). */
const schemaObjects = () =>
  all(
    services.db,
    database.postgres
      ? sql`SELECT 'index' AS type, indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'reviews'
     UNION ALL SELECT 'trigger', tgname, tgenabled::text FROM pg_trigger WHERE tgrelid = 'reviews'::regclass AND NOT tgisinternal ORDER BY 2`
      : sql`SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'reviews' ORDER BY name`,
  );

it("bulk loading restores every index and trigger and leaves aggregates equal to direct counts", async () => {
  const before = await schemaObjects();
  await services.stores.create({ storeId: TEST_STORE_ID, name: "t", platform: "shopify" });
  await services.stores.upsertGroup({ storeId: TEST_STORE_ID, groupId: "g", name: "G" });
  for (const id of ["a", "b", "c"]) await services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: id, name: id, groupId: id === "c" ? undefined : "g" });
  const rows = realReviews().slice(0, 3000);
  await bulkLoadReviews(services.db, TEST_STORE_ID, (insert) =>
    transaction(services.db, async () => {
      for (const [i, r] of rows.entries()) {
        await insert({
          reviewId: crypto.randomUUID(),
          storeId: TEST_STORE_ID,
          productId: ["a", "b", "c"][i % 3],
          rating: r.rating,
          title: r.title,
          body: r.body,
          createdMs: i,
          status: "published",
          reviewerName: "x",
          isRecommended: r.recommended,
        });
      }
    }),
  );
  expect(await schemaObjects()).toEqual(before);
  const byProduct = (p: string) => rows.filter((_, i) => ["a", "b", "c"][i % 3] === p);
  for (const p of ["a", "b", "c"]) {
    const agg = await services.reviewsData.aggregate(TEST_STORE_ID, { type: "product", productId: p });
    expect(agg.review_count).toBe(byProduct(p).length);
    expect(agg.rating_total).toBe(byProduct(p).reduce((s, r) => s + r.rating, 0));
    expect(agg.level5).toBe(byProduct(p).filter((r) => r.rating === 5).length);
    expect(agg.recommended_count).toBe(byProduct(p).filter((r) => r.recommended === true).length);
  }
  expect((await services.reviewsData.aggregate(TEST_STORE_ID, { type: "group", groupId: "g" })).review_count).toBe(2000);
  expect((await services.reviewsData.aggregate(TEST_STORE_ID, { type: "store" })).review_count).toBe(3000);
  // The aggregate trigger is back: a normal insert counts again.
  await services.reviewsData.insert({
    reviewId: crypto.randomUUID(),
    storeId: TEST_STORE_ID,
    productId: "c",
    rating: 5,
    title: "",
    body: rows[0].body,
    createdMs: 1,
    status: "published",
    reviewerName: "x",
  });
  expect((await services.reviewsData.aggregate(TEST_STORE_ID, { type: "store" })).review_count).toBe(3001);
  // The search index holds every review, the bulk-loaded ones and the one after: on SQLite, integrity-check with
  // rank 1 compares the FTS5 index (migration 084) with the reviews table and throws on a difference; on PostgreSQL,
  // review_search (003-search.sql) has one document per review.
  if (database.postgres) {
    expect(await value<number>(services.db, sql`SELECT count(*) AS n FROM reviews r LEFT JOIN review_search s ON s.review_id = r.review_id WHERE s.review_id IS NULL`)).toBe(0);
    expect(await value<number>(services.db, sql`SELECT count(*) AS n FROM review_search`)).toBe(3001);
  } else {
    await run(services.db, sql`INSERT INTO review_search (review_search, rank) VALUES ('integrity-check', 1)`);
  }
  const dresses = rows.filter((r) => /\bdress\b/i.test(`${r.title} ${r.body}`)).length;
  const listed = await services.reviewsData.listPublished(TEST_STORE_ID, { type: "store" }, "date desc", 5000, undefined, { search: reviewSearchMatch("dress ")! });
  expect(listed.length).toBeGreaterThanOrEqual(dresses);
});
