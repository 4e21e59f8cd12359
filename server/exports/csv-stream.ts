/**
 * Streamed CSV of a keyset-paged listing (docs/exports.md): each pull of the stream reads one batch of
 * `batchSize` rows after the last key (`fetch(after, limit)`), stringifies it with csv-stringify (RFC 4180
 * quoting, CRLF line ends, UTF-8 with a BOM so spreadsheet programs read accents) and hands it on. Memory
 * holds one batch whatever the row count; a slow client slows the reads (back-pressure, highWaterMark 1);
 * a client that goes away cancels the stream and no more batches are read.
 *
 * Cells are safe to open in a spreadsheet (OWASP "CSV Injection"): a text cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return is prefixed with a single quote, so it is shown as text and never
 * run as a formula. Numbers (e.g. negative points) stay numbers.
 */
import { stringify } from "csv-stringify/sync";

export type Cell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as written: formula-like text prefixed with `'`; null/undefined empty; booleans `true`/`false`. */
export function safeCell(value: Cell): string | number {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export type CsvSource<T, K> = {
  /** The column names (first line). */
  header: readonly string[];
  /** At most `limit` rows after the keyset position `after` (undefined: from the start), in key order. */
  fetch: (after: K | undefined, limit: number) => T[];
  /** The keyset position of a row. */
  keyOf: (row: T) => K;
  /** The cells of a row, in header order. */
  cells: (row: T) => Cell[];
  /** Rows per batch (default 500). */
  batchSize?: number;
};

/** The CSV of `source` as a byte stream (see the module comment). */
export function csvStream<T, K>(source: CsvSource<T, K>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batchSize = source.batchSize ?? 500;
  const opts = { record_delimiter: "\r\n" as const };
  let after: K | undefined;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`\uFEFF${stringify([source.header.map((h) => safeCell(h))], opts)}`));
        return;
      }
      const rows = source.fetch(after, batchSize);
      if (rows.length) {
        after = source.keyOf(rows[rows.length - 1]);
        controller.enqueue(encoder.encode(stringify(rows.map((r) => source.cells(r).map(safeCell)), opts)));
      }
      if (rows.length < batchSize) controller.close();
    },
  }, { highWaterMark: 1 });
}
