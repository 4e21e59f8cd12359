/**
 * The one CSV writer of every export (docs/exports.md): the store exports (exports.service.ts: reviews,
 * questions, loyalty customers and transactions, orders; admin downloads and `/enterprise/exports/*.csv`)
 * and the survey responses export (server/admin/survey-responses.ts).
 *
 * Files are UTF-8 with a byte order mark (spreadsheet programs then read accents), comma-separated, CRLF
 * line ends, and quoted per RFC 4180 wherever a reader could split or trim a cell: a field holding a comma,
 * a quote, any line break (CRLF, a bare LF or a bare CR: spreadsheets and Python's csv module end a record
 * at each of them outside quotes), or leading or trailing whitespace is written in double quotes, with its
 * quotes doubled. Every cell goes through `safeCell` (the formula guard) first.
 *
 * Streams read one batch at a time (back-pressure, highWaterMark 1): memory holds one batch whatever the
 * row count, a slow client slows the reads, and a client that goes away cancels the stream.
 */
import { stringify, type Options } from "csv-stringify/sync";

export type Cell = string | number | boolean | null | undefined;

/**
 * Text a spreadsheet could run as a formula (OWASP "CSV Injection"): starting with `=`, `+`, `-`, `@` (or
 * their full-width forms, which some spreadsheets normalise), possibly after leading whitespace, or
 * starting with a tab, CR or LF.
 */
const FORMULA_START = /^(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])/;

/**
 * A cell as written (docs/exports.md "Formula-safe"): formula-like text (FORMULA_START) prefixed with a
 * single quote `'`, so a spreadsheet shows it as text; null/undefined empty; booleans `true`/`false`;
 * finite numbers stay numbers (e.g. negative points), others empty.
 */
export function safeCell(value: Cell): string | number {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * csv-stringify options of every export. With an explicit `record_delimiter`, csv-stringify quotes only fields
 * holding that exact sequence (CRLF), so a bare LF or CR would end the record in a reader: `quoted_match`
 * quotes any CR or LF, and leading or trailing whitespace (which some readers trim when unquoted).
 */
export const CSV_OPTIONS: Options = { record_delimiter: "\r\n", quoted_match: [/[\r\n]/, /^\s|\s$/] };

/** `rows` as CSV text: each cell through `safeCell`, quoted per CSV_OPTIONS, each record ended by CRLF. No BOM. */
export function csvText(rows: readonly (readonly Cell[])[]): string {
  return stringify(
    rows.map((r) => r.map(safeCell)),
    CSV_OPTIONS,
  );
}

/** One batch of rows of a CSV stream; `done`: the last one. */
export type CsvBatch = { rows: Cell[][]; done: boolean };

/**
 * A CSV byte stream: the BOM and `header`, then the batches of `nextBatch` (called once per pull, the next pull
 * only after its promise settled; an empty batch or `done` ends the file). `cancel` runs when the client goes
 * away before the end.
 */
export function csvBatchStream(header: readonly Cell[], nextBatch: () => CsvBatch | Promise<CsvBatch>, cancel?: () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(`\uFEFF${csvText([header])}`));
          return;
        }
        const { rows, done } = await nextBatch();
        if (rows.length) controller.enqueue(encoder.encode(csvText(rows)));
        if (done || !rows.length) controller.close();
      },
      cancel,
    },
    { highWaterMark: 1 },
  );
}

export type CsvSource<T, K> = {
  /** The column names (first line). */
  header: readonly string[];
  /** At most `limit` rows after the keyset position `after` (undefined: from the start), in key order (a keyset query per batch). */
  fetch: (after: K | undefined, limit: number) => T[] | Promise<T[]>;
  /** The keyset position of a row. */
  keyOf: (row: T) => K;
  /** The cells of a row, in header order. */
  cells: (row: T) => Cell[];
  /** Rows per batch (default 500). */
  batchSize?: number;
};

/**
 * The CSV of a keyset-paged listing as a byte stream: each pull reads `batchSize` rows after the last key (one
 * query per batch, so neither engine holds the whole result set in memory).
 */
export function csvStream<T, K>(source: CsvSource<T, K>): ReadableStream<Uint8Array> {
  const batchSize = source.batchSize ?? 500;
  let after: K | undefined;
  return csvBatchStream(source.header, async () => {
    const rows = await source.fetch(after, batchSize);
    if (rows.length) after = source.keyOf(rows[rows.length - 1]);
    return { rows: rows.map(source.cells), done: rows.length < batchSize };
  });
}
