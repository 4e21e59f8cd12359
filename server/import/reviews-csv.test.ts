import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices, type Services } from "../services.ts";
import { all, one, sql } from "../db/database.ts";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { REVIEWS_CSV, realReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { importReviewsCsv, spreadDate, type ImportReport } from "./reviews-csv.ts";

let dir: string;
let database: FreshDatabase;
let services: Services;
const deps = () => ({ db: services.db, stores: services.stores, reviews: services.reviewsData });
const ANCHOR = Date.UTC(2026, 10, 1);
/**
 * Rows of the real file imported here: the import's 2,000-row batches twice over and a part one, with the file's
 * multi-line bodies, HTML entities and a review without text. The whole file (23,486 rows) is imported by
 * test/first-start.test.ts (the shipped copy, through the same importer) and by each Playwright run's demo store.
 */
const SLICE_ROWS = 5_000;
/** The header and the first SLICE_ROWS records of the real file, as they are, under the file's own name (its source). */
let sliceFile: string;
/** The reviews of the slice, as test/fixtures.ts reads them. */
const sliceReviews = () => realReviews().slice(0, SLICE_ROWS);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-import-"));
  mkdirSync(join(dir, "slice"));
  sliceFile = join(dir, "slice", basename(REVIEWS_CSV));
  writeFileSync(sliceFile, stringify((parse(readFileSync(REVIEWS_CSV), { bom: true }) as string[][]).slice(0, SLICE_ROWS + 1)));
  // A SQLite file, or a fresh PostgreSQL database with CHORUS_TEST_POSTGRES_URL (test/database-location.ts).
  database = await freshDatabase(dir);
  services = await createServices({ databasePath: database.location });
  await services.stores.create({ storeId: TEST_STORE_ID, name: "Import test", platform: "shopify" });
});
afterAll(async () => {
  await services.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("import of the real clothing reviews file (its first 5,000 rows)", () => {
  let first: ImportReport;
  beforeAll(async () => {
    first = await importReviewsCsv(deps(), { storeId: TEST_STORE_ID, file: sliceFile, anchorMs: ANCHOR });
  });

  it("imports every row, with one product per Clothing ID and one group per class", async () => {
    const rows = sliceReviews();
    expect(first.rowsRead).toBe(SLICE_ROWS);
    expect(first.inserted).toBe(SLICE_ROWS);
    expect(first.badRows).toEqual([]);
    expect(first.products).toBe(new Set(rows.map((r) => r.productId)).size);
    expect(first.groups).toBe(new Set(rows.map((r) => r.className).filter(Boolean)).size);
    expect((await services.reviewsData.countByStatus(TEST_STORE_ID)).published).toBe(SLICE_ROWS);
  });

  it("the product with the most reviews keeps its real rating counts", async () => {
    const counts = new Map<string, number>();
    for (const r of sliceReviews()) counts.set(r.productId, (counts.get(r.productId) ?? 0) + 1);
    const [topId] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const top = (await services.stores.topProducts(TEST_STORE_ID, 1))[0];
    expect(top.productId).toBe(topId);
    const mine = sliceReviews().filter((r) => r.productId === topId);
    expect(top.reviewCount).toBe(mine.length);
    const agg = await services.reviewsData.aggregate(TEST_STORE_ID, { type: "product", productId: topId });
    expect(agg.rating_total).toBe(mine.reduce((s, r) => s + r.rating, 0));
  });

  it("decodes HTML entities such as &#39;", async () => {
    const encoded = sliceReviews().find((r) => r.body.includes("&#39;"))!;
    expect(encoded).toBeDefined();
    const stored = (await one<{ body: string }>(services.db, sql`SELECT body FROM reviews WHERE store_id = ${TEST_STORE_ID} AND source_key = ${encoded.index}`))!;
    expect(stored.body).not.toContain("&#39;");
    expect(stored.body).toContain("'");
  });

  it("keeps helpful counts, recommended flags and multi-line bodies from the file", async () => {
    const multi = sliceReviews().find((r) => r.body.includes("\n"))!;
    const row = (await one<{ body: string; helpful_count: number; is_recommended: number }>(
      services.db,
      sql`SELECT body, helpful_count, is_recommended FROM reviews WHERE store_id = ${TEST_STORE_ID} AND source_key = ${multi.index}`,
    ))!;
    expect(row.body).toContain("\n");
    expect(row.helpful_count).toBe(multi.helpful);
    expect(row.is_recommended).toBe(multi.recommended ? 1 : 0);
  });

  it("gives deterministic dates within the two years before the anchor, and detects English", async () => {
    const row = (await one<{ created_ms: number; language_code: string; reviewer_name: string }>(
      services.db,
      sql`SELECT created_ms, language_code, reviewer_name FROM reviews WHERE store_id = ${TEST_STORE_ID} AND source_key = '1'`,
    ))!;
    expect(row.created_ms).toBe(spreadDate(ANCHOR, "womens_clothing_ecommerce_reviews.csv:1"));
    expect(row.created_ms).toBeLessThan(ANCHOR);
    expect(row.created_ms).toBeGreaterThanOrEqual(ANCHOR - 730 * 86_400_000);
    expect(row.language_code).toBe("en");
    expect(row.reviewer_name).toBe("Anonymous shopper");
  });

  it("leaves the language empty for a review without text", async () => {
    const empty = sliceReviews().find((r) => !r.body && !r.title)!;
    const row = (await one<{ language_code: string | null }>(services.db, sql`SELECT language_code FROM reviews WHERE store_id = ${TEST_STORE_ID} AND source_key = ${empty.index}`))!;
    expect(row.language_code).toBeNull();
  });

  it("is idempotent: a second run adds nothing", async () => {
    const again = await importReviewsCsv(deps(), { storeId: TEST_STORE_ID, file: sliceFile, anchorMs: ANCHOR });
    expect(again.inserted).toBe(0);
    expect(again.alreadyPresent).toBe(SLICE_ROWS);
    expect((await services.reviewsData.countByStatus(TEST_STORE_ID)).published).toBe(SLICE_ROWS);
  });

  it("a gzip copy of the file is the same source: importing it adds nothing", async () => {
    const gz = `${sliceFile}.gz`;
    writeFileSync(gz, gzipSync(readFileSync(sliceFile)));
    const again = await importReviewsCsv(deps(), { storeId: TEST_STORE_ID, file: gz, anchorMs: ANCHOR });
    expect(again.inserted).toBe(0);
    expect(again.alreadyPresent).toBe(SLICE_ROWS);
  });
});

describe("bad rows", () => {
  it("are reported with their line numbers and skipped without aborting", async () => {
    // Real rows, three of them damaged: rating out of range, rating not a number, product ID missing.
    const real = realReviews().slice(0, 6);
    const header = ["", "Clothing ID", "Age", "Title", "Review Text", "Rating", "Recommended IND", "Positive Feedback Count", "Division Name", "Department Name", "Class Name"];
    const records = real.map((r, i) => [
      `bad-${r.index}`,
      i === 4 ? "" : r.productId,
      "30",
      r.title,
      r.body,
      i === 1 ? "7" : i === 3 ? "five" : String(r.rating),
      r.recommended ? "1" : "0",
      String(r.helpful),
      "General",
      "Tops",
      r.className,
    ]);
    const text = stringify([header, ...records]);
    const file = join(dir, "damaged.csv");
    writeFileSync(file, text);
    const report = await importReviewsCsv(deps(), { storeId: TEST_STORE_ID, file, source: "damaged" });
    expect(report.rowsRead).toBe(6);
    expect(report.inserted).toBe(3);
    // Line numbers are of the record's first line in the file (line 1 is the header).
    const lines = text.split("\n");
    const lineOf = (key: string) => lines.findIndex((l) => l.startsWith(key + ",")) + 1;
    expect(report.badRows).toEqual([
      { line: lineOf(`bad-${real[1].index}`), reason: expect.stringMatching(/rating/) },
      { line: lineOf(`bad-${real[3].index}`), reason: expect.stringMatching(/rating/) },
      { line: lineOf(`bad-${real[4].index}`), reason: expect.stringMatching(/product/) },
    ]);
  });

  it("a file without product and rating columns is refused", async () => {
    const file = join(dir, "nothing.csv");
    writeFileSync(file, "a,b\n1,2\n");
    await expect(importReviewsCsv(deps(), { storeId: TEST_STORE_ID, file })).rejects.toThrow(/product column/);
  });
});

describe("verified purchases from the source system (issue 19, finding 6)", () => {
  it("a verified_purchase column marks those rows verified-buyer, the others stay unverified", async () => {
    const real = realReviews()
      .filter((r) => r.body)
      .slice(0, 3);
    const file = join(dir, "verified.csv");
    writeFileSync(file, stringify([["", "product_id", "rating", "title", "body", "verified_purchase"], ...real.map((r, i) => [`v${i}`, "verified-1", r.rating, r.title, r.body, ["Y", "N", ""][i]])]));
    const report = await importReviewsCsv(deps(), { storeId: TEST_STORE_ID, file, source: "verified-test" });
    expect(report.inserted).toBe(3);
    const statuses = await all(services.db, sql`SELECT source_key, verified_status FROM reviews WHERE store_id = ${TEST_STORE_ID} AND source = 'verified-test' ORDER BY source_key`);
    expect(statuses).toEqual([
      { source_key: "v0", verified_status: "verified-buyer" },
      { source_key: "v1", verified_status: "unverified" },
      { source_key: "v2", verified_status: "unverified" },
    ]);
  });
});
