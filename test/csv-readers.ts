/**
 * Strict CSV readers for export tests (docs/exports.md "The files"): the file read back the way a
 * spreadsheet or Python's csv module reads it, where a CRLF, a bare LF and a bare CR each end a record
 * outside quotes. `nastyText` generates cell texts that break careless writers.
 */
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { execFileSync } from "node:child_process";

/**
 * Records of `text` (a leading BOM allowed) with csv-parse: every line break is a record delimiter
 * outside quotes, quotes must be well-formed and every record must have as many fields as the first.
 */
export function readCsvStrict(text: string | Uint8Array): string[][] {
  return parse(typeof text === "string" ? text : Buffer.from(text), {
    bom: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_quotes: false,
    relax_column_count: false,
    skip_empty_lines: false,
  }) as string[][];
}

const PYTHON_READER = ["import csv, io, json, sys", "f = io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8-sig', newline='')", "sys.stdout.write(json.dumps(list(csv.reader(f, strict=True))))"].join(
  "\n",
);

/** Records of the UTF-8 `bytes` as Python's csv module reads them (excel dialect, strict). Needs `python3`. */
export function readCsvPython(bytes: string | Uint8Array): string[][] {
  const input = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.from(bytes);
  return JSON.parse(execFileSync("python3", ["-c", PYTHON_READER], { input, maxBuffer: 512 * 1024 * 1024 }).toString("utf8")) as string[][];
}

/** Pieces that break CSV writers and spreadsheets: line breaks of each kind, quotes, commas, tabs, edge spaces, formulas, unicode. */
export const NASTY_PIECES = [
  "\r\n",
  "\n",
  "\r",
  "\n\r",
  '"',
  '""',
  ",",
  "\t",
  " ",
  "  ",
  "=cmd|' /C calc'!A0",
  "=1+1",
  "+1",
  "-1",
  "@SUM(A1)",
  ' =HYPERLINK("http://x")',
  "\t=1",
  "\r=1",
  "＝1",
  "é",
  "日本語",
  "🙂",
  "\u00a0",
  "\u2028",
  "a",
  "text",
  "'",
  ";",
  "\\",
  "\u0000",
];

/** A cell text built from NASTY_PIECES and arbitrary unicode (full code points). */
export const nastyText = (): fc.Arbitrary<string> =>
  fc.array(fc.oneof(fc.constantFrom(...NASTY_PIECES), fc.string({ unit: "grapheme", maxLength: 6 })), { maxLength: 8 }).map((parts) => parts.join(""));

/** Fixed nasty texts, one per trap, for inserting through the real write paths. */
export const NASTY_TEXTS = [
  "line one\nline two",
  "bare\rcarriage",
  "crlf\r\ninside",
  "trailing newline\n",
  "\nleading newline",
  'say "hi", then leave',
  "a,b,c",
  "  leading spaces",
  "trailing spaces  ",
  "\ttab first",
  "=cmd|' /C calc'!A0",
  "+1 great",
  "-2 bad",
  "@SUM(A1)",
  "   =1+2",
  " \t@x",
  "\r=1",
  "＝1",
  'mixed "q"\r\n, and\n\r\rmore',
  "Ünïcödé 日本語 🙂",
];

/**
 * The cell a reader should get back for the text `value` (docs/exports.md "Formula-safe"): `'` + the text when
 * it starts with `=`, `+`, `-`, `@` (or their full-width forms) after optional whitespace, or with a tab, CR or LF.
 */
export const guarded = (value: string) => (/^(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])/.test(value) ? `'${value}` : value);
