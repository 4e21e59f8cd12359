/**
 * Test data from the real shared files (../shared/data, or DEMO_DATA_DIR): never invented reviews.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "csv-parse/sync";
import { PROJECT_ROOT } from "../server/config.ts";
import { transaction } from "../server/db/database.ts";
import { bulkLoadReviews } from "../server/reviews/bulk.repo.ts";
import type { NewReview } from "../server/reviews/reviews.repo.ts";

export const DATA_DIR = resolve(process.env.DEMO_DATA_DIR ?? join(PROJECT_ROOT, "../shared/data"));
export const REVIEWS_CSV = join(DATA_DIR, "womens_clothing_ecommerce_reviews.csv");

if (!existsSync(REVIEWS_CSV)) throw new Error(`Real test data not found at ${REVIEWS_CSV}: set DEMO_DATA_DIR`);

export type RealReview = { index: string; productId: string; title: string; body: string; rating: number; recommended: boolean; helpful: number; className: string };

let cache: RealReview[] | null = null;
/** All rows of the real clothing reviews file (parsed once per test worker). */
export function realReviews(): RealReview[] {
  cache ??= (parse(readFileSync(REVIEWS_CSV), { columns: true, bom: true }) as Record<string, string>[]).map((r) => ({
    index: r[""],
    productId: r["Clothing ID"],
    title: r.Title,
    body: r["Review Text"],
    rating: Number(r.Rating),
    recommended: r["Recommended IND"] === "1",
    helpful: Number(r["Positive Feedback Count"]),
    className: r["Class Name"],
  }));
  return cache;
}

export const TEST_STORE_ID = "11111111-2222-4333-8444-555555555555";
export const OTHER_STORE_ID = "99999999-8888-4777-8666-555555555555";

/** From this many rows on, seedRealReviews loads them in bulk (server/reviews/bulk.repo.ts) instead of one write each. */
export const BULK_SEED_ROWS = 1_000;
/** Reviews per multi-row INSERT when seeding in bulk. */
const BULK_CHUNK = 400;

/**
 * Create a store and load real reviews into it through the real data modules: every row of the real
 * file whose product is in `productIds` (or the first `limit` rows), with deterministic dates
 * (newest = lowest file index), products grouped by class name, in one transaction. @returns a promise of the rows used.
 *
 * Up to BULK_SEED_ROWS rows go through the write path one by one (`reviewsData.insert`, every trigger per row). More
 * go through the bench data's bulk loader (`bulkLoadReviews`: multi-row INSERTs with the keyset indexes, aggregate and
 * search triggers suspended, then rebuilt and recomputed): the same rows, aggregates and search index (bulk.repo.test.ts),
 * 5x faster on SQLite and one round trip per few hundred rows on PostgreSQL. Only while nothing else writes reviews.
 */
export async function seedRealReviews(
  services: import("../server/services.ts").Services,
  options: { storeId?: string; productIds?: string[]; limit?: number; status?: "published" | "pending" } = {},
): Promise<RealReview[]> {
  const storeId = options.storeId ?? TEST_STORE_ID;
  await services.stores.create({ storeId, name: "Test store", platform: "shopify" });
  let rows = realReviews().filter((r) => r.productId && (!options.productIds || options.productIds.includes(r.productId)));
  if (options.limit) rows = rows.slice(0, options.limit);
  const base = Date.UTC(2026, 0, 1);
  const review = (r: RealReview): NewReview => ({
    reviewId: crypto.randomUUID(),
    storeId,
    productId: r.productId,
    rating: r.rating,
    title: r.title,
    body: r.body,
    createdMs: base - Number(r.index) * 60_000,
    status: options.status ?? "published",
    reviewerName: "Anonymous shopper",
    helpfulCount: r.helpful,
    isRecommended: r.recommended,
    languageCode: "en",
    source: "test",
    sourceKey: r.index,
  });
  // Each group and product is written (or found) once per call, not once per review: a round trip each on PostgreSQL.
  const groups = new Set<string>();
  const products = new Set<string>();
  const catalogue = async (r: RealReview) => {
    const groupId = r.className ? r.className.toLowerCase().replace(/[^a-z0-9]+/g, "-") : undefined;
    if (groupId && !groups.has(groupId)) {
      await services.stores.upsertGroup({ storeId, groupId, name: r.className });
      groups.add(groupId);
    }
    if (!products.has(r.productId)) {
      if (!(await services.stores.getProduct(storeId, r.productId))) await services.stores.upsertProduct({ storeId, productId: r.productId, name: `${r.className} #${r.productId}`, groupId });
      products.add(r.productId);
    }
  };
  if (rows.length < BULK_SEED_ROWS) {
    await transaction(services.db, async () => {
      for (const r of rows) {
        await catalogue(r);
        await services.reviewsData.insert(review(r));
      }
    });
    return rows;
  }
  await transaction(services.db, async () => {
    for (const r of rows) await catalogue(r);
  });
  await bulkLoadReviews(services.db, storeId, (insert) =>
    transaction(services.db, async () => {
      for (let i = 0; i < rows.length; i += BULK_CHUNK) await insert(rows.slice(i, i + BULK_CHUNK).map(review));
    }),
  );
  return rows;
}

/**
 * Publish one more review of `productId` in the test store, dated now (newer than every seeded one), with
 * the text of a real review (of product 1094), in one commit. @returns a promise of its review ID.
 */
export async function publishRealReview(services: import("../server/services.ts").Services, productId: string, storeId = TEST_STORE_ID): Promise<string> {
  const text = realReviews().find((r) => r.productId === "1094" && r.body)!;
  const reviewId = crypto.randomUUID();
  await services.reviewsData.insert({
    reviewId,
    storeId,
    productId,
    rating: text.rating,
    title: text.title,
    body: text.body,
    createdMs: Date.now(),
    status: "published",
    reviewerName: "Anonymous shopper",
  });
  return reviewId;
}
