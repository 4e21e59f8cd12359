/**
 * The one CSV writer of every export (csv-stream.ts, docs/exports.md) round-trips: whatever the texts
 * (the real review file's titles and bodies, with their bare LFs and CRs, and generated strings of line
 * breaks, quotes, commas, tabs, edge spaces, formulas and unicode), the file read back as a spreadsheet
 * reads it (a CRLF, LF or CR each end a record outside quotes: csv-parse, and Python's csv module) has
 * the same records and the same fields, each equal to the formula-guarded cell, and no cell a spreadsheet
 * could run as a formula.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nastyText, readCsvPython, readCsvStrict } from "../../test/csv-readers.ts";
import { realReviews } from "../../test/fixtures.ts";
import { csvStream, csvText, safeCell, type Cell } from "./csv-stream.ts";

/** The text a reader gets back for `cell`: the guarded cell as a string. */
const expected = (cell: Cell) => String(safeCell(cell));
/** A cell a spreadsheet could run: a formula sign first (after optional whitespace), or a tab/CR/LF first. */
const runnable = (text: string) => /^\s*[=+\-@＝＋－＠]/.test(text) || /^[\t\r\n]/.test(text);

/** The bytes of `csvStream` over `rows`, read in keyset batches of `batchSize` (the key: the row's position). */
async function streamed(header: string[], rows: Cell[][], batchSize: number): Promise<Uint8Array> {
  const keyed = rows.map((cells, i) => ({ i, cells }));
  const stream = csvStream<{ i: number; cells: Cell[] }, number>({
    header,
    batchSize,
    fetch: (after, limit) => keyed.slice(after === undefined ? 0 : after + 1).slice(0, limit),
    keyOf: (r) => r.i,
    cells: (r) => r.cells,
  });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("safeCell (the formula guard)", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["\nx", "'\nx"],
    ["  =1", "'  =1"],
    [" \t+1", "' \t+1"],
    ["\u00a0-1", "'\u00a0-1"],
    ["＝1", "'＝1"],
    ["a=1", "a=1"],
    ["  text", "  text"],
    ["", ""],
  ])("%j is written %j", (cell, written) => expect(safeCell(cell)).toBe(written));

  it("keeps numbers numbers (negative points) and writes null, booleans and non-finite numbers as text", () => {
    expect([safeCell(-300), safeCell(null), safeCell(undefined), safeCell(true), safeCell(false), safeCell(Number.NaN)]).toEqual([-300, "", "", "true", "false", ""]);
  });
});

describe("csvText", () => {
  it("quotes every line break, quote, comma and edge whitespace (RFC 4180)", () => {
    expect(csvText([["a\nb", "c\rd", "e\r\nf", 'g"h', "i,j", " k", "l ", "m\tn", "plain"]])).toBe('"a\nb","c\rd","e\r\nf","g""h","i,j"," k","l ",m\tn,plain\r\n');
  });

  it("the real review file: every title and body comes back as one field of its own record", () => {
    const reviews = realReviews();
    const rows: Cell[][] = reviews.map((r) => [r.index, r.title, r.body, r.rating]);
    const text = csvText([["index", "title", "body", "rating"], ...rows]);
    const back = readCsvStrict(text);
    expect(back.length, `${back.length} records read from ${rows.length + 1} written`).toBe(rows.length + 1);
    for (let i = 0; i < rows.length; i++) expect(back[i + 1]).toEqual(rows[i].map(expected));
    const python = readCsvPython(text);
    expect(python.length).toBe(rows.length + 1);
    expect(python).toEqual(back);
  });

  it("generated texts: same records, same fields (the guarded cell), nothing runnable, with csv-parse and Python", () => {
    const cell = fc.oneof(
      { weight: 6, arbitrary: nastyText() },
      fc.constantFrom<Cell>(null, undefined, true, false),
      fc.integer({ min: -1000, max: 1000 }),
      fc.constantFrom(
        ...realReviews()
          .slice(0, 2000)
          .flatMap((r) => [r.title, r.body]),
      ),
    );
    // At least two columns, as every export has: a record of one empty field is an empty line, which readers disagree on.
    const table = fc.integer({ min: 2, max: 6 }).chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 12 }));
    const samples: Cell[][][] = [];
    fc.assert(
      fc.property(table, (rows) => {
        const back = readCsvStrict(csvText(rows));
        expect(back).toEqual(rows.map((r) => r.map(expected)));
        for (const [r, row] of back.entries()) for (const [c, text] of row.entries()) if (typeof rows[r][c] !== "number") expect(runnable(text), JSON.stringify(text)).toBe(false);
        samples.push(rows);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
    // Python's reader on the same tables, one process for all of them (the tables joined with a marker record).
    const marker = ["--- next table ---"];
    const joined = samples.flatMap((rows) => [...rows, marker]);
    const text = samples.map((rows) => csvText(rows) + csvText([marker])).join("");
    expect(readCsvPython(text)).toEqual(joined.map((r) => r.map(expected)));
  });
});

describe("csvStream", () => {
  it("a streamed file in batches (BOM, header, CRLF) reads back as the rows written", async () => {
    const rows: Cell[][] = realReviews()
      .slice(0, 1234)
      .map((r) => [r.title, r.body, r.rating, r.recommended]);
    const bytes = await streamed(["title", "body", "rating", "recommended"], rows, 100);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const back = readCsvStrict(bytes);
    expect(back.length).toBe(rows.length + 1);
    expect(back.slice(1)).toEqual(rows.map((r) => r.map(expected)));
    expect(readCsvPython(bytes)).toEqual(back);
  });
});
