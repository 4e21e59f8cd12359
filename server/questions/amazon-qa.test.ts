import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { DATA_DIR } from "../../test/fixtures.ts";
import { PROJECT_ROOT } from "../config.ts";
import { createServices, type Services } from "../services.ts";
import { importAmazonQa, parseAmazonQaLine, parsePythonLiteral } from "./amazon-qa.ts";

const FILE = join(DATA_DIR, "amazon_qa_appliances.json");
const STORE = "11111111-2222-4333-8444-555555555555";

describe("McAuley loose JSON", () => {
  it("parses Python-literal strings with \\' escapes without eval", () => {
    expect(parsePythonLiteral(`{"q": "It\\'s 1/2\\" wide", 'n': 3, "ok": True, "x": None}`)).toEqual({ q: `It's 1/2" wide`, n: 3, ok: true, x: null });
  });

  it("refuses code: a call or an unbalanced quote is a syntax error", () => {
    expect(() => parsePythonLiteral(`__import__('os').system('true')`)).toThrow(SyntaxError);
    expect(() => parsePythonLiteral(`{"q": "say "hi" now"}`)).toThrow(SyntaxError);
  });

  it("a real \\' line of the shared file parses to its question", () => {
    const r = parseAmazonQaLine(String.raw`{"questionType": "yes/no", "asin": "B00009V3UA", "question": "Can the knob be oriented with 'off* at 9 o\'clock?", "answer": "no"}`);
    expect(r).toMatchObject({ asin: "B00009V3UA", question: "Can the knob be oriented with 'off* at 9 o'clock?" });
  });
});

// On either engine: a SQLite file, or a fresh PostgreSQL database with CHORUS_TEST_POSTGRES_URL.
describe("import of the shared Amazon Q&A file", () => {
  let dir: string;
  let database: FreshDatabase;
  let services: Services;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chorus-qa-"));
    database = await freshDatabase(dir);
    services = await createServices({ databasePath: database.location, mediaPath: join(dir, "media") });
    await services.stores.create({ storeId: STORE, name: "Appliance shop", platform: "shopify" });
  });
  afterAll(async () => {
    await services.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports 9,008 records and skips exactly lines 819, 1266 and 8671", async () => {
    const report = await importAmazonQa({ db: services.db, stores: services.stores, questions: services.questionsData }, { storeId: STORE, file: FILE });
    expect(report.records).toBe(9008);
    expect(report.questionsInserted).toBe(9008);
    expect(report.badLines.map((b) => b.line)).toEqual([819, 1266, 8671]);
    expect(report.products).toBe(1153);
    expect(await services.stores.getProduct(STORE, "B00004U9JP")).toMatchObject({ groupId: "appliances" });
  });

  it("a second import inserts nothing (idempotent)", async () => {
    const report = await importAmazonQa({ db: services.db, stores: services.stores, questions: services.questionsData }, { storeId: STORE, file: FILE });
    expect(report.questionsInserted).toBe(0);
    expect(report.alreadyPresent).toBe(9008);
  });

  it("imported questions are listed with their answers", async () => {
    const list = await services.reviews.listQuestions({ storeId: STORE, productKey: "shopify-B00004U9JP" }, { limit: 25 });
    expect(list.questions.length).toBeGreaterThan(0);
    expect(list.questions.every((q) => q.answers.length === 1 && q.answers[0].isStoreAnswer === false)).toBe(true);
    expect(list.questions.map((q) => q.body)).toContain("I have a 9 year old Badger 1 that needs replacing, will this Badger 1 install just like the original one?");
  });

  it("the CLI imports an orders CSV and reports bad rows by line", async () => {
    const csv = join(dir, "orders.csv");
    writeFileSync(csv, "order_id,product_id,email,date\nA-1,B00004U9JP,Buyer@Example.com,2026-01-02\nA-2,,x@example.com,\nA-3,B00004U9JP,not-an-email,\n");
    const out = execFileSync(process.execPath, ["server/cli/import.ts", "--format", "orders-csv", "--store", STORE, "--file", csv], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...database.env, MEDIA_PATH: join(dir, "media") },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toMatch(/3 rows read: 1 order lines imported, 2 bad rows skipped/);
    expect(await services.ordersData.isVerifiedBuyer(STORE, "buyer@example.com", "B00004U9JP")).toBe(true);
  });
});
