/**
 * Import reviews from a CSV file into a store (issue: storefront reviews on real data).
 *
 * Columns are recognised by name (case-insensitive), so the shared Kaggle clothing file and
 * simpler exports both work:
 * - product: `Clothing ID` | `product_id` | `productId` (required)
 * - rating: `Rating` | `rating` (required, integer 1..5)
 * - title: `Title`; body: `Review Text` | `body`; recommended: `Recommended IND` | `recommended`
 * - helpful votes: `Positive Feedback Count` | `helpful_count`
 * - categories: `Division Name`, `Department Name`, `Class Name` (the class names the product and its group)
 * - date: `date` | `Date` | `created_at` (ISO 8601); reviewer: `reviewer` | `display_name` | `name`
 * - row key: the unnamed first column (the file's own index) or else the record number.
 * - verified purchase: `verified_purchase` | `verified_buyer` | `verified` (`1`, `true`, `y`, `yes` → the review is
 *   `verified-buyer`; anything else or absent → `unverified`). The source system (a platform export, Amazon's
 *   `verified_purchase`) checked the purchase; whoever runs the import vouches for the file. This is one of the
 *   few ways a review becomes verified (issue 19, finding 6; submissions.service.ts).
 *
 * Rules (also in the README): HTML entities are decoded (`entities`); the language is detected
 * (`eld`) from title + body and left empty when the text is too short to tell; a file without
 * dates gets deterministic dates spread over the two years before `anchorMs` (a hash of the row key,
 * so re-imports give the same dates); a file without names gets the display name "Anonymous shopper".
 * Products are `{product}` with name "{Class Name} #{product}"; groups are the class names.
 * Idempotent: each row is keyed by (store, source, row key), so a second run adds nothing.
 * Bad rows are reported with their line numbers and skipped; the import goes on.
 */
import { parse } from "csv-parse";
import { decodeHTML } from "entities";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { basename } from "node:path";
import { eld } from "eld";
import { transaction, type Db } from "../db/database.ts";
import type { ReviewStatus, ReviewsRepo } from "../reviews/reviews.repo.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { appImportRepo } from "./app-import.repo.ts";

export type ImportProgress = { rowsRead: number; inserted: number };
export type ImportReport = {
  rowsRead: number;
  inserted: number;
  alreadyPresent: number;
  badRows: { line: number; reason: string }[];
  products: number;
  groups: number;
  ms: number;
};

export type ImportOptions = {
  storeId: string;
  file: string;
  /** Source name for idempotency; defaults to the file's base name. */
  source?: string;
  /** Status of imported reviews (default `published`). */
  status?: ReviewStatus;
  /** Dates are spread over the two years before this instant (ms); default: today 00:00 UTC. */
  anchorMs?: number;
  /** Called every `progressEvery` rows and at the end. */
  onProgress?: (p: ImportProgress) => void;
  progressEvery?: number;
};

const DAY_MS = 86_400_000;
const SPREAD_MS = 730 * DAY_MS;
const BATCH = 2000;

/** Today 00:00 UTC in ms: the default date anchor. */
export const todayUtcMs = (): number => Math.floor(Date.now() / DAY_MS) * DAY_MS;

/** Deterministic instant in [anchor − 2 years, anchor) for a row key. */
export function spreadDate(anchorMs: number, key: string): number {
  const h = createHash("sha1").update(key).digest();
  return anchorMs - 1 - (h.readUIntBE(0, 6) % SPREAD_MS);
}

let eldLoaded: Promise<unknown> | undefined;
/** Load the language-detection model once (bundled with the package: no network). */
export function loadLanguageDetector(): Promise<unknown> {
  eldLoaded ??= (eld as unknown as { load(size: string): Promise<unknown> }).load("small");
  return eldLoaded;
}

/**
 * ISO 639-1 code of a text's language, or null when it is too short or the detection unreliable.
 * Call `await loadLanguageDetector()` once before.
 */
export function detectLanguage(text: string): string | null {
  const t = text.trim();
  if (t.length < 12) return null;
  const result = eld.detect(t);
  return result.language && result.isReliable() ? result.language : null;
}

const VERIFIED_YES = new Set(["1", "true", "y", "yes"]);

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function pick(record: Record<string, string>, names: string[]): string | undefined {
  for (const name of names) {
    const v = record[name];
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * Stream-import `options.file`. @returns a report; throws only when the file cannot be read or
 * has no product/rating columns.
 */
export async function importReviewsCsv(deps: { db: Db; stores: StoresRepo; reviews: ReviewsRepo }, options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  await loadLanguageDetector();
  const store = await deps.stores.get(options.storeId);
  if (!store) throw new Error(`No store ${options.storeId}`);
  // A gzip copy of a file is the same source (`x.csv.gz` keys its rows as `x.csv`), so importing both never doubles a row.
  const source = options.source ?? basename(options.file).replace(/\.gz$/i, "");
  const anchor = options.anchorMs ?? todayUtcMs();
  const status = options.status ?? "published";
  const report: ImportReport = { rowsRead: 0, inserted: 0, alreadyPresent: 0, badRows: [], products: 0, groups: 0, ms: 0 };
  const knownProducts = new Set<string>();
  const knownGroups = new Set<string>();
  const importRepo = appImportRepo(deps.db);
  /** The batch's rows: each its source key and its write, told whether the key was imported before. */
  let batch: { key: string; write: (present: boolean) => Promise<void> }[] = [];
  /** Write the batch (BATCH rows) in one transaction: one commit per batch, not per row. */
  const flush = async () => {
    if (batch.length === 0) return;
    const work = batch;
    batch = [];
    await transaction(deps.db, async () => {
      const present = await importRepo.presentSourceKeys(
        store.storeId,
        source,
        work.map((w) => w.key),
      );
      for (const w of work) await w.write(present.has(w.key));
    });
    options.onProgress?.({ rowsRead: report.rowsRead, inserted: report.inserted });
  };

  const input = createReadStream(options.file);
  const parser = (/\.gz$/i.test(options.file) ? input.pipe(createGunzip()) : input).pipe(
    parse({ columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), bom: true, relax_column_count: true, info: true, skip_empty_lines: true }),
  );
  let previousEndLine = 1; // the header ends on line 1
  let columnsChecked = false;
  for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    const { record, info } = item;
    const line = previousEndLine + 1;
    previousEndLine = info.lines;
    report.rowsRead++;
    if (!columnsChecked) {
      columnsChecked = true;
      if (pick(record, ["clothing id", "product_id", "productid"]) === undefined || pick(record, ["rating"]) === undefined) {
        throw new Error("The file needs a product column (Clothing ID, product_id) and a Rating column");
      }
    }
    const productId = (pick(record, ["clothing id", "product_id", "productid"]) ?? "").trim();
    const ratingText = (pick(record, ["rating"]) ?? "").trim();
    const rating = /^[1-5]$/.test(ratingText) ? Number(ratingText) : NaN;
    if (!productId || !/^[A-Za-z0-9_.:-]{1,64}$/.test(productId)) {
      report.badRows.push({ line, reason: `product ID missing or invalid: ${JSON.stringify(productId)}` });
      continue;
    }
    if (Number.isNaN(rating)) {
      report.badRows.push({ line, reason: `rating must be an integer from 1 to 5, got ${JSON.stringify(ratingText)}` });
      continue;
    }
    const dateText = pick(record, ["date", "created_at", "datecreated"]);
    let createdMs: number | undefined;
    if (dateText) {
      createdMs = Date.parse(dateText);
      if (Number.isNaN(createdMs)) {
        report.badRows.push({ line, reason: `date is not ISO 8601: ${JSON.stringify(dateText)}` });
        continue;
      }
    }
    const key = (record[""] ?? "").trim() || String(report.rowsRead);
    const title = decodeHTML(pick(record, ["title"]) ?? "").trim();
    const body = decodeHTML(pick(record, ["review text", "body", "text"]) ?? "").trim();
    const recommendedText = (pick(record, ["recommended ind", "recommended", "isrecommended"]) ?? "").trim().toLowerCase();
    const helpful = Number.parseInt(pick(record, ["positive feedback count", "helpful_count", "helpfulcount"]) ?? "0", 10);
    const className = (pick(record, ["class name", "category"]) ?? "").trim();
    const reviewer = (pick(record, ["reviewer", "display_name", "name"]) ?? "").trim() || "Anonymous shopper";
    const verified = VERIFIED_YES.has((pick(record, ["verified_purchase", "verified_buyer", "verified"]) ?? "").trim().toLowerCase());

    batch.push({
      key,
      write: async (present) => {
        if (className && !knownGroups.has(className)) {
          knownGroups.add(className);
          await deps.stores.upsertGroup({ storeId: store.storeId, groupId: slug(className), name: className });
        }
        if (!knownProducts.has(productId)) {
          knownProducts.add(productId);
          if (!(await deps.stores.getProduct(store.storeId, productId))) {
            await deps.stores.upsertProduct({
              storeId: store.storeId,
              productId,
              name: `${className || "Product"} #${productId}`,
              groupId: className ? slug(className) : undefined,
            });
          }
        }
        if (present) {
          report.alreadyPresent++;
          return;
        }
        const inserted = await deps.reviews.insert({
          reviewId: randomUUID(),
          storeId: store.storeId,
          productId,
          rating,
          title,
          body,
          createdMs: createdMs ?? spreadDate(anchor, `${source}:${key}`),
          status,
          reviewerName: reviewer.slice(0, 80),
          helpfulCount: Number.isFinite(helpful) && helpful > 0 ? helpful : 0,
          isRecommended: recommendedText === "1" || recommendedText === "true" ? true : recommendedText === "0" || recommendedText === "false" ? false : null,
          languageCode: detectLanguage(`${title}. ${body}`),
          source,
          sourceKey: key,
          verifiedStatus: verified ? "verified-buyer" : "unverified",
        });
        if (inserted) report.inserted++;
        else report.alreadyPresent++; // the same key twice in one batch: the unique source index keeps the first
      },
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  report.products = knownProducts.size;
  report.groups = knownGroups.size;
  report.ms = Math.round(performance.now() - started);
  return report;
}
