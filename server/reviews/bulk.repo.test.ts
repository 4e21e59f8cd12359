import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { realReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { createServices } from "../services.ts";
import { bulkLoadReviews } from "./bulk.repo.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-bulk-"));
const services = createServices({ databasePath: join(dir, "db.sqlite") });
afterAll(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

const schemaObjects = () => services.db.prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'reviews' ORDER BY name").all();

it("bulk loading restores every index and trigger and leaves aggregates equal to direct counts", () => {
  const before = schemaObjects();
  services.stores.create({ storeId: TEST_STORE_ID, name: "t", platform: "shopify" });
  services.stores.upsertGroup({ storeId: TEST_STORE_ID, groupId: "g", name: "G" });
  for (const id of ["a", "b", "c"]) services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: id, name: id, groupId: id === "c" ? undefined : "g" });
  const rows = realReviews().slice(0, 3000);
  bulkLoadReviews(services.db, TEST_STORE_ID, (insert) =>
    services.db.transaction(() =>
      rows.forEach((r, i) =>
        insert({ reviewId: crypto.randomUUID(), storeId: TEST_STORE_ID, productId: ["a", "b", "c"][i % 3], rating: r.rating, title: r.title, body: r.body, createdMs: i, status: "published", reviewerName: "x" }),
      ),
    )(),
  );
  expect(schemaObjects()).toEqual(before);
  const byProduct = (p: string) => rows.filter((_, i) => ["a", "b", "c"][i % 3] === p);
  for (const p of ["a", "b", "c"]) {
    const agg = services.reviewsData.aggregate(TEST_STORE_ID, { type: "product", productId: p });
    expect(agg.review_count).toBe(byProduct(p).length);
    expect(agg.rating_total).toBe(byProduct(p).reduce((s, r) => s + r.rating, 0));
  }
  expect(services.reviewsData.aggregate(TEST_STORE_ID, { type: "group", groupId: "g" }).review_count).toBe(2000);
  expect(services.reviewsData.aggregate(TEST_STORE_ID, { type: "store" }).review_count).toBe(3000);
  // The aggregate trigger is back: a normal insert counts again.
  services.reviewsData.insert({ reviewId: crypto.randomUUID(), storeId: TEST_STORE_ID, productId: "c", rating: 5, title: "", body: rows[0].body, createdMs: 1, status: "published", reviewerName: "x" });
  expect(services.reviewsData.aggregate(TEST_STORE_ID, { type: "store" }).review_count).toBe(3001);
  // The search index (migration 084) holds every review, the bulk-loaded ones and the one after (integrity-check
  // with rank 1 compares it with the reviews table and throws on a difference).
  services.db.prepare("INSERT INTO review_search (review_search, rank) VALUES ('integrity-check', 1)").run();
  const dresses = rows.filter((r) => /\bdress\b/i.test(`${r.title} ${r.body}`)).length;
  expect(services.db.prepare("SELECT count(*) FROM review_search WHERE review_search MATCH 'dress'").pluck().get()).toBeGreaterThanOrEqual(dresses);
});
