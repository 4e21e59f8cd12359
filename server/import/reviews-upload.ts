/**
 * Reviews CSV uploaded in the admin (issue 21, "import a small CSV of reviews"): the bytes are checked
 * (size, text, header) before the one importer (`importReviewsCsv`, reviews-csv.ts: its columns, rules
 * and per-row report) reads them from a private temporary file. The source of the rows is
 * `upload:<file name>`, so uploading the same file again adds nothing (rows are keyed by source and
 * row key) while a file of another name is a new source.
 */
import { parse } from "csv-parse/sync";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, badRequest } from "../contract/errors.ts";
import type { Db } from "../db/database.ts";
import type { ReviewsRepo, ReviewStatus } from "../reviews/reviews.repo.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { importReviewsCsv, type ImportReport } from "./reviews-csv.ts";

/** The largest CSV the admin accepts, in bytes (2 MB: several thousand reviews). */
export const MAX_REVIEWS_CSV_BYTES = 2 * 1024 * 1024;
/** At most this many bad rows are listed in the answer (the count is always complete). */
export const MAX_BAD_ROWS_LISTED = 200;

/** Column names the importer reads (lower-cased), per field; the first of each is the one documented. */
export const REVIEWS_CSV_COLUMNS = {
  product: ["product_id", "clothing id", "productid"],
  rating: ["rating"],
} as const;

/** The result of an upload: the importer's report (bad rows listed up to MAX_BAD_ROWS_LISTED) and the source name. */
export type UploadReport = Omit<ImportReport, "badRows"> & { source: string; badRows: { line: number; reason: string }[]; badRowCount: number };

/**
 * Check that `bytes` look like a reviews CSV: not empty, at most MAX_REVIEWS_CSV_BYTES, UTF-8 text
 * without NUL bytes, and a header line with a product column and a rating column.
 * @throws ApiError 413 too large, 400 with the reason otherwise.
 */
export function sniffReviewsCsv(bytes: Uint8Array): void {
  if (bytes.byteLength === 0) throw badRequest("The file is empty: choose a CSV file of reviews", "invalid_file");
  if (bytes.byteLength > MAX_REVIEWS_CSV_BYTES) throw new ApiError(413, `The file is too large: at most ${MAX_REVIEWS_CSV_BYTES / 1024 / 1024} MB`, "body_too_large");
  if (bytes.subarray(0, 8192).includes(0)) throw badRequest("This is not a text file: upload a CSV file (comma-separated values, UTF-8)", "invalid_file");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("The file is not UTF-8 text: save it as CSV UTF-8 and upload it again", "invalid_file");
  }
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  let header: string[];
  try {
    header = ((parse(firstLine, { relax_column_count: true }) as string[][])[0] ?? []).map((h) => h.trim().toLowerCase());
  } catch {
    throw badRequest("The first line is not a CSV header row", "invalid_file");
  }
  const has = (names: readonly string[]) => names.some((n) => header.includes(n));
  if (!has(REVIEWS_CSV_COLUMNS.product) || !has(REVIEWS_CSV_COLUMNS.rating)) {
    throw badRequest(`The header row needs a product_id column and a rating column; it has: ${header.slice(0, 12).join(", ") || "nothing"}`, "invalid_file");
  }
}

/** A file name made safe for the source name: letters, digits, dot, dash, underscore; at most 100 characters. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100) || "reviews.csv";

/** Create the upload import over the database, stores and reviews data modules. */
export function reviewsUploadService(deps: { db: Db; stores: StoresRepo; reviews: ReviewsRepo }) {
  return {
    /**
     * Import an uploaded reviews CSV into `storeId` with reviews `status` (published or pending).
     * @returns the report (imported, already present, bad rows with line numbers and reasons).
     * @throws ApiError 400 / 413 from `sniffReviewsCsv`, 404 unknown store.
     */
    async importUpload(storeId: string, upload: { fileName: string; bytes: Uint8Array; status: ReviewStatus }): Promise<UploadReport> {
      if (!(await deps.stores.get(storeId))) throw new ApiError(404, "No store with this ID", "store_not_found");
      sniffReviewsCsv(upload.bytes);
      const dir = await mkdtemp(join(tmpdir(), "chorus-upload-"));
      const source = `upload:${safeName(upload.fileName)}`;
      try {
        const file = join(dir, "reviews.csv");
        await writeFile(file, upload.bytes, { mode: 0o600 });
        let report: ImportReport;
        try {
          report = await importReviewsCsv(deps, { storeId, file, source, status: upload.status });
        } catch (error) {
          // the importer throws plain errors for a file it cannot read (e.g. a malformed quote): a 400 with its reason
          throw badRequest(`The file could not be imported: ${error instanceof Error ? error.message : String(error)}`, "invalid_file");
        }
        return { ...report, source, badRowCount: report.badRows.length, badRows: report.badRows.slice(0, MAX_BAD_ROWS_LISTED) };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
export type ReviewsUploadService = ReturnType<typeof reviewsUploadService>;
