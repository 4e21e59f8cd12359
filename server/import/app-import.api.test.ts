/**
 * Review-app imports (issue 24 item 3) on sample export files in each app's column layout and date format
 * (test/fixtures/imports, real review texts), with photos served by a local HTTP server, through the real
 * importer, database, media pipeline and storefront API.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { realReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { minimalMp4 } from "../../test/media-fixtures.ts";
import { ALWAYS_REFUSED, LOOPBACK_FORMS, REDIRECT_TARGETS, startLoopbackListeners, type LoopbackListeners } from "../../test/ssrf-forms.ts";
import { PROJECT_ROOT } from "../config.ts";
import { createServices } from "../services.ts";
import { all, one, sql, value } from "../db/database.ts";
import { freshDatabase } from "../../test/database-location.ts";
import type { AppFormat } from "./app-formats.ts";
import { appImporterOf, ImportFileError, type AppImportOptions, type AppImportReport } from "./app-import.ts";
import { appImportRepo } from "./app-import.repo.ts";

const FIXTURES = join(PROJECT_ROOT, "test/fixtures/imports");
let t: TestServer;
let photos: Server;
let dir: string;
const files: Record<string, string> = {};
const fixtureRows = (name: string) => parse(readFileSync(join(FIXTURES, name)), { columns: true }) as Record<string, string>[];

type Row = {
  review_id: string;
  product_id: string;
  rating: number;
  title: string;
  body: string;
  created_ms: number;
  status: string;
  reviewer_name: string;
  reviewer_email: string | null;
  verified_status: string;
  reply_body: string | null;
  reply_created_ms: number | null;
  media_count: number;
  reviewer_country_code: string | null;
};
const reviewsOf = (source: string): Promise<Row[]> =>
  all<Row>(
    t.services.db,
    sql`SELECT review_id, product_id, rating, title, body, created_ms, status, reviewer_name,
  reviewer_email, verified_status, reply_body, reply_created_ms, media_count, reviewer_country_code FROM reviews WHERE store_id = ${TEST_STORE_ID} AND source = ${source} ORDER BY created_ms DESC`,
  );
const byName = async (source: string, name: string) => (await reviewsOf(source)).find((r) => r.reviewer_name === name)!;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const run = (format: AppFormat, extra: Partial<AppImportOptions> = {}) => appImporterOf(t.services).run({ storeId: TEST_STORE_ID, file: files[`${format}.csv`], format, ...extra });
/** The numbers a dry run promises and a real run reports. */
const numbers = (r: AppImportReport) => ({
  rowsRead: r.rowsRead,
  imported: r.imported,
  alreadyPresent: r.alreadyPresent,
  badRows: r.badRows,
  curation: r.curation,
  verifiedBuyers: r.verifiedBuyers,
  replies: r.replies,
  products: r.products,
  mediaFound: r.media.found,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-app-import-"));
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#b04a5a" } })
    .jpeg()
    .toBuffer();
  const png = await sharp({ create: { width: 200, height: 300, channels: 3, background: "#2a6f97" } })
    .png()
    .toBuffer();
  photos = createServer((req, res) => {
    if (req.url?.endsWith(".jpg") && !req.url.includes("missing")) res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
    else if (req.url?.endsWith(".png")) res.writeHead(200, { "content-type": "image/png" }).end(png);
    else if (req.url?.endsWith(".mp4")) res.writeHead(200, { "content-type": "video/mp4" }).end(minimalMp4());
    else res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => photos.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
  for (const name of ["judgeme.csv", "yotpo.csv", "okendo.csv", "stamped.csv", "loox.csv", "judgeme-malformed.csv"]) {
    files[name] = join(dir, name);
    writeFileSync(files[name], readFileSync(join(FIXTURES, name), "utf8").replaceAll("__MEDIA__", origin));
  }
  // The photo server is on 127.0.0.1: this server may reach loopback (ALLOW_LOOPBACK_REQUESTS=1).
  t = await startTestServer({ allowLoopbackRequests: true });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Import test", platform: "shopify" });
  const repo = appImportRepo(t.services.db);
  // The store already has Judge.me row 1's product (by ID, without a handle) and Okendo row 1's product (another ID, by handle).
  const jm = fixtureRows("judgeme.csv")[0];
  await repo.createProduct({ storeId: TEST_STORE_ID, productId: jm.product_id, name: "Existing jumpsuit", url: null, handle: null });
  await repo.createProduct({ storeId: TEST_STORE_ID, productId: "7001", name: "Existing by handle", url: null, handle: fixtureRows("okendo.csv")[0].handle });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => photos?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe("sample exports hold real review texts", () => {
  it("every title and text of the fixtures is a row of the CC0 clothing reviews", () => {
    const real = new Set(realReviews().map((r) => r.body));
    const bodyColumn: Record<string, string> = { "judgeme.csv": "body", "yotpo.csv": "Review Content", "okendo.csv": "body", "stamped.csv": "body", "loox.csv": "review" };
    for (const [name, column] of Object.entries(bodyColumn)) for (const row of fixtureRows(name)) expect(real.has(row[column]), `${name}: ${row[column]}`).toBe(true);
  });
});

describe("Judge.me", () => {
  let dry: AppImportReport;
  let real: AppImportReport;
  let again: AppImportReport;
  beforeAll(async () => {
    dry = await run("judgeme", { dryRun: true });
    real = await run("judgeme");
    again = await run("judgeme");
  }, 60_000);

  it("the dry run reports per column what is mapped or ignored, and writes nothing", () => {
    const col = (name: string) => dry.columns.find((c) => c.column === name)!;
    expect(col("review_date").field).toBe("date");
    expect(col("curated").field).toBe("status");
    expect(col("picture_urls").field).toBe("imageUrls");
    expect(col("reviewer_email").field).toBe("reviewerEmail");
    expect(col("ip_address")).toMatchObject({ field: null, note: expect.stringMatching(/not kept/) });
    expect(dry).toMatchObject({ dryRun: true, committed: false });
    expect(dry.media).toMatchObject({ found: 3, imported: 0, failed: [] });
  });

  it("the real run reports the numbers of the dry run; a second run imports nothing and reports the same rows", async () => {
    expect(numbers(real)).toEqual(numbers(dry));
    expect(real).toMatchObject({ committed: true, rowsRead: 5, imported: 5, alreadyPresent: 0, badRows: [] });
    expect(real.curation).toEqual({ published: 3, pending: 1, hidden: 0, spam: 1 });
    expect(real.products).toEqual({ matched: 1, created: 3 }); // two rows share a product
    expect(again).toMatchObject({ committed: true, rowsRead: 5, imported: 0, alreadyPresent: 5, badRows: [] });
    expect(await reviewsOf("app:judgeme")).toHaveLength(5);
  });

  it("keeps the original dates, names, curation, e-mails (private) and replies", async () => {
    const maria = await byName("app:judgeme", "Maria Gomez");
    expect(iso(maria.created_ms)).toBe("2023-04-11T08:15:32.000Z");
    expect(maria).toMatchObject({ status: "published", reviewer_email: "maria.gomez@example.com", reply_body: "Thank you for your review.", verified_status: "unverified" });
    expect(iso(maria.reply_created_ms)).toBe("2023-04-12T09:00:00.000Z");
    expect(await byName("app:judgeme", "Ann Lee")).toMatchObject({ status: "pending" });
    expect(iso((await byName("app:judgeme", "Ann Lee")).created_ms)).toBe("2022-12-30T23:59:59.000Z");
    expect(await byName("app:judgeme", "Promo Bot")).toMatchObject({ status: "rejected" });
  });

  it("downloads the photos through the media pipeline and reports the missing one with its line", async () => {
    expect(real.media.imported).toBe(2);
    expect(real.media.failed).toEqual([{ line: 2, url: expect.stringMatching(/missing\.jpg$/), reason: "HTTP 404" }]);
    expect((await byName("app:judgeme", "Maria Gomez")).media_count).toBe(1);
    // The spam review's photo is kept, not public, and dated rejected at the import (the retention grace starts now).
    const spam = (await one<{ status: string; rejected_ms: number }>(
      t.services.db,
      sql`SELECT status, rejected_ms FROM review_media WHERE review_id = ${(await byName("app:judgeme", "Promo Bot")).review_id}`,
    ))!;
    expect(spam.status).toBe("rejected");
    expect(Date.now() - spam.rejected_ms).toBeLessThan(120_000);
  });

  it("maps products: an existing ID keeps its product (and gains the handle), a handle alone creates a product", async () => {
    const rows = fixtureRows("judgeme.csv");
    expect((await byName("app:judgeme", "Maria Gomez")).product_id).toBe(rows[0].product_id);
    expect(await appImportRepo(t.services.db).productById(TEST_STORE_ID, rows[0].product_id)).toMatchObject({ name: "Existing jumpsuit", handle: rows[0].product_handle });
    expect((await byName("app:judgeme", "Jo Park")).product_id).toBe(rows[3].product_handle);
  });

  it("the storefront shows the name, date, reply and photo, and never an e-mail", async () => {
    const productId = fixtureRows("judgeme.csv")[0].product_id;
    const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${productId}/reviews`));
    const text = await res.text();
    expect(res.status).toBe(200);
    const review = JSON.parse(text).reviews.find((r: { reviewer: { displayName: string } }) => r.reviewer.displayName === "Maria Gomez");
    expect(review).toMatchObject({ dateCreated: "2023-04-11T08:15:32.000Z", reply: { body: "Thank you for your review.", dateCreated: "2023-04-12T09:00:00.000Z" } });
    expect(review.media).toHaveLength(1);
    const file = await fetch(review.media[0].largeUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(text).not.toMatch(/@example\./i);
  });
});

describe("Yotpo", () => {
  it("a store review is a bad row: nothing is imported unless bad rows are skipped; then the numbers match the dry run", async () => {
    const blocked = await run("yotpo");
    expect(blocked).toMatchObject({ committed: false, imported: 4, badRows: [{ line: 6, reason: expect.stringMatching(/store review/) }] });
    expect(await reviewsOf("app:yotpo")).toHaveLength(0);
    const dry = await run("yotpo", { dryRun: true, skipBadRows: true });
    const real = await run("yotpo", { skipBadRows: true });
    expect(numbers(real)).toEqual(numbers(dry));
    expect(real).toMatchObject({ committed: true, imported: 4, verifiedBuyers: 2, replies: 1, curation: { published: 3, pending: 0, hidden: 1, spam: 0 } });
    expect(real.media).toMatchObject({ found: 1, imported: 1, failed: [] });
    const again = await run("yotpo", { skipBadRows: true });
    expect(again).toMatchObject({ imported: 0, alreadyPresent: 4, badRows: real.badRows });
  }, 60_000);

  it("keeps verified buyers (import proof), unpublished reviews rejected, the comment as the store reply, product titles and URLs", async () => {
    const lena = await byName("app:yotpo", "Lena K.");
    expect(lena).toMatchObject({ verified_status: "verified-buyer", status: "published", reply_body: "We are glad it fits well.", media_count: 1 });
    expect(iso(lena.created_ms)).toBe("2022-11-03T14:02:11.000Z");
    expect(await byName("app:yotpo", "Chris P.")).toMatchObject({ verified_status: "unverified", status: "rejected" });
    const row = fixtureRows("yotpo.csv")[0];
    expect(await t.services.stores.getProduct(TEST_STORE_ID, row["Product ID"])).toMatchObject({ name: row["Product Title"], url: row["Product URL"] });
  });
});

describe("Okendo", () => {
  it("maps the documented template: handle to the store's product, shopify- prefixes, SKU, zoned dates, status, country", async () => {
    const dry = await run("okendo", { dryRun: true });
    const real = await run("okendo");
    expect(numbers(real)).toEqual(numbers(dry));
    expect(real).toMatchObject({ imported: 4, products: { matched: 1, created: 2 }, verifiedBuyers: 2, curation: { published: 2, pending: 1, hidden: 1, spam: 0 } });
    const rows = fixtureRows("okendo.csv");
    expect(await byName("app:okendo", "Grace H.")).toMatchObject({ product_id: "7001", verified_status: "verified-buyer", reviewer_country_code: "AU", reply_body: "Thanks, Grace!" });
    expect(iso((await byName("app:okendo", "Grace H.")).created_ms)).toBe("2021-08-14T00:00:00.000Z");
    expect(await byName("app:okendo", "Henry T.")).toMatchObject({ product_id: rows[1].productId.replace("shopify-", ""), status: "pending" });
    expect(iso((await byName("app:okendo", "Henry T.")).created_ms)).toBe("2020-02-29T09:30:00.000Z");
    expect(await byName("app:okendo", "Ivy N.")).toMatchObject({ product_id: rows[2].sku, status: "rejected" });
    expect(iso((await byName("app:okendo", "Ivy N.")).created_ms)).toBe("2019-12-31T22:00:00.000Z");
    expect(real.media).toMatchObject({ found: 1, imported: 1, failed: [] });
    expect((await byName("app:okendo", "Jack L.")).media_count).toBe(1);
    const video = await one<{ type: string; stream_url: string }>(t.services.db, sql`SELECT type, stream_url FROM review_media WHERE review_id = ${(await byName("app:okendo", "Jack L.")).review_id}`);
    expect(video).toMatchObject({ type: "video", stream_url: expect.stringMatching(/video\.mp4$/) });
    expect((await run("okendo")).alreadyPresent).toBe(4);
  }, 60_000);
});

describe("Stamped", () => {
  it("keeps UTC dates without a zone, verified buyers, unpublished reviews hidden, replies and photos", async () => {
    const dry = await run("stamped", { dryRun: true });
    const real = await run("stamped");
    expect(numbers(real)).toEqual(numbers(dry));
    expect(real).toMatchObject({ imported: 4, verifiedBuyers: 2, replies: 1, curation: { published: 3, pending: 0, hidden: 1, spam: 0 }, media: { found: 1, imported: 1, failed: [] } });
    const kim = await byName("app:stamped", "Kim S.");
    expect(iso(kim.created_ms)).toBe("2022-06-19T17:45:00.000Z");
    expect(iso(kim.reply_created_ms)).toBe("2022-06-20T10:00:00.000Z");
    expect(kim).toMatchObject({ verified_status: "verified-buyer", reviewer_email: "kim@example.com" });
    expect(await byName("app:stamped", "Liam B.")).toMatchObject({ status: "rejected", verified_status: "unverified" });
    expect((await byName("app:stamped", "Mia C.")).media_count).toBe(1);
  }, 60_000);
});

describe("Loox", () => {
  it("maps Active / Hidden, the nickname (else the full name), verified purchases, replies and photos", async () => {
    const dry = await run("loox", { dryRun: true });
    const real = await run("loox");
    expect(numbers(real)).toEqual(numbers(dry));
    expect(real).toMatchObject({ imported: 4, verifiedBuyers: 2, replies: 1, curation: { published: 3, pending: 0, hidden: 1, spam: 0 }, media: { imported: 1 } });
    expect(await byName("app:loox", "Olivia")).toMatchObject({ verified_status: "verified-buyer", media_count: 1, title: "" });
    expect(await byName("app:loox", "Paul Durand")).toMatchObject({ status: "rejected" });
    expect(iso((await byName("app:loox", "Quinn")).reply_created_ms)).toBe("2023-09-10T10:00:00.000Z");
    expect(iso((await byName("app:loox", "Rae")).created_ms)).toBe("2023-03-03T03:03:03.000Z");
  }, 60_000);
});

describe("a malformed file", () => {
  it("gives line-numbered errors and imports nothing; with skipBadRows the good rows only", async () => {
    const file = files["judgeme-malformed.csv"];
    const blocked = await appImporterOf(t.services).run({ storeId: TEST_STORE_ID, file, format: "judgeme" });
    expect(blocked.committed).toBe(false);
    expect(blocked.badRows.map((b) => b.line)).toEqual([3, 4, 5]);
    expect(blocked.badRows[0].reason).toMatch(/rating must be a whole number from 1 to 5, got "7"/);
    expect(blocked.badRows[1].reason).toMatch(/does not exist/);
    expect(blocked.badRows[2].reason).toMatch(/not valid CSV/);
    const count = async () => Number(await value<number>(t.services.db, sql`SELECT count(*) AS n FROM reviews WHERE store_id = ${TEST_STORE_ID}`));
    const before = await count();
    await appImporterOf(t.services).run({ storeId: TEST_STORE_ID, file, format: "judgeme" });
    expect(await count()).toBe(before);
    const skipped = await appImporterOf(t.services).run({ storeId: TEST_STORE_ID, file, format: "judgeme", skipBadRows: true });
    expect(skipped).toMatchObject({ committed: true, imported: 1 });
    expect(await count()).toBe(before + 1);
  });

  it("line numbers count the line breaks inside quoted texts and blank lines", async () => {
    const [a, b] = realReviews()
      .filter((r) => r.body.includes(".") && r.title)
      .slice(100, 102);
    const multiLine = a.body.replace(". ", ".\n\n");
    const file = join(dir, "multiline.csv");
    writeFileSync(
      file,
      [
        "title,body,rating,review_date,reviewer_name,product_id",
        `${a.title},"${multiLine.replaceAll('"', '""')}",${a.rating},2023-01-01,Ana,${a.productId}`,
        "",
        `${b.title},"${b.body.replaceAll('"', '""')}",9,2023-01-02,Ben,${b.productId}`,
      ].join("\n"),
    );
    const report = await run("judgeme", { file, dryRun: true } as Partial<AppImportOptions>);
    expect(report.badRows).toEqual([{ line: 6, reason: 'rating must be a whole number from 1 to 5, got "9"' }]);
  });

  it("a row that is not UTF-8 (a Latin-1 export) is a bad row", async () => {
    const file = join(dir, "latin1.csv");
    const r = realReviews().filter((x) => x.title && x.body)[200];
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`title,body,rating,review_date,reviewer_name,product_id\n${r.title},"${r.body.replaceAll('"', '""')}",${r.rating},2023-01-01,`),
        Buffer.from("Ren\xe9e", "latin1"),
        Buffer.from(`,${r.productId}\n`),
      ]),
    );
    const report = await run("judgeme", { file, dryRun: true } as Partial<AppImportOptions>);
    expect(report.badRows).toEqual([{ line: 2, reason: "is not UTF-8 text (save the export as CSV UTF-8)" }]);
  });

  it("a file of another app is refused at its header, naming the missing columns", async () => {
    await expect(run("loox", { file: files["judgeme.csv"] } as Partial<AppImportOptions>)).rejects.toThrow(ImportFileError);
    await expect(run("loox", { file: files["judgeme.csv"] } as Partial<AppImportOptions>)).rejects.toThrow(/line 1: this is not a Loox review export: no column for date/);
  });

  it("a column mapping makes a renamed column count", async () => {
    const renamed = join(dir, "renamed.csv");
    writeFileSync(renamed, readFileSync(files["loox.csv"], "utf8").replace(/^id,status,rating/, "id,status,stars"));
    await expect(run("loox", { file: renamed } as Partial<AppImportOptions>)).rejects.toThrow(/no column for rating/);
    const mapped = await run("loox", { file: renamed, map: { stars: "rating" }, dryRun: true } as Partial<AppImportOptions>);
    expect(mapped.columns.find((c) => c.column === "stars")).toMatchObject({ field: "rating", note: "mapped by you" });
    expect(mapped.alreadyPresent).toBe(4);
  });
});

describe("npm run import -- --format", () => {
  it("the CLI prints the mapping and the same numbers for the dry run and the real run; a re-run imports nothing", async () => {
    const cliDir = mkdtempSync(join(tmpdir(), "chorus-app-import-cli-"));
    // A SQLite file, or a fresh PostgreSQL database with CHORUS_TEST_POSTGRES_URL (test/database-location.ts).
    const database = await freshDatabase(cliDir);
    const env = { ...process.env, ...database.env, MEDIA_PATH: join(cliDir, "media"), LOG_LEVEL: "silent", ALLOW_LOOPBACK_REQUESTS: "1" };
    const services = await createServices({ databasePath: database.location, mediaPath: env.MEDIA_PATH });
    await services.stores.create({ storeId: TEST_STORE_ID, name: "CLI import", platform: "shopify" });
    await services.close();
    const cli = async (...args: string[]) => {
      const { stdout } = await promisify(execFile)(process.execPath, ["server/cli/import.ts", "--store", TEST_STORE_ID, "--format", "stamped", "--file", files["stamped.csv"], ...args], {
        cwd: PROJECT_ROOT,
        env,
      });
      return stdout;
    };
    try {
      const dry = await cli("--dry-run");
      expect(dry).toMatch(/created_at → date \(date the review was written\)/);
      expect(dry).toMatch(/4 rows read: 4 would be imported, 0 already present, 0 bad rows skipped/);
      const real = await cli();
      expect(real).toMatch(/4 rows read: 4 imported, 0 already present, 0 bad rows skipped/);
      const line = (out: string) => out.split("\n").find((l) => l.includes("curation:"));
      expect(line(real)).toBe(line(dry));
      expect(real).toMatch(/media: 1 URLs, 1 imported, 0 failed/);
      expect(await cli()).toMatch(/4 rows read: 0 imported, 4 already present/);
    } finally {
      await database.drop();
      rmSync(cliDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("admin upload: bad input answers 4xx, never 500", () => {
  let agent: AdminAgent;
  const page = `/admin/stores/${TEST_STORE_ID}/import/apps`;
  const upload = (fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }, cookie = agent.cookie) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (file) form.set("file", new Blob([new Uint8Array(file.bytes)]), file.name);
    return fetch(t.url(page), { method: "POST", redirect: "manual", body: form, headers: { cookie } });
  };
  beforeAll(async () => {
    await t.services.admin.createUser({ email: "importer@example.com", password: "import-password-1", storeIds: [TEST_STORE_ID] });
    agent = await signInAgent(t, "importer@example.com", "import-password-1", TEST_STORE_ID);
  });

  it("an upload without the CSRF token is refused and keeps nothing", async () => {
    const res = await upload({ format: "judgeme" }, { name: "judgeme.csv", bytes: readFileSync(files["judgeme.csv"]) });
    expect(res.status).toBe(403);
  });

  it("a binary file, a missing file or app, and a malformed body are 400 with the reason", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const binary = await upload({ csrf: agent.csrf, format: "judgeme" }, { name: "photo.csv", bytes: png });
    expect(binary.status).toBe(400);
    expect(await binary.text()).toMatch(/not a CSV file \(it has binary content\)/);
    const none = await upload({ csrf: agent.csrf, format: "nope" });
    expect(none.status).toBe(400);
    const html = await none.text();
    expect(html).toMatch(/Choose the app the file comes from/);
    expect(html).toMatch(/Choose the export file/);
    const broken = await fetch(t.url(page), {
      method: "POST",
      redirect: "manual",
      body: '--x\r\nContent-Disposition: form-data; name="csrf"\r\n\r\nabc',
      headers: { cookie: agent.cookie, "content-type": "multipart/form-data; boundary=x" },
    });
    expect(broken.status).toBe(400);
  });

  it("a file of another app is previewed with its line-1 error; stale or malformed settings show the upload form", async () => {
    const res = await upload({ csrf: agent.csrf, format: "judgeme" }, { name: "loox.csv", bytes: readFileSync(files["loox.csv"]) });
    expect(res.status).toBe(302);
    const preview = await adminGet(t, agent, res.headers.get("location")!);
    expect(preview.status).toBe(200);
    expect(await preview.text()).toMatch(/line 1: this is not a Judge\.me review export: no column for date/);
    for (const query of ["upload=../../etc/passwd&format=judgeme", "upload=00000000-0000-4000-8000-000000000000&format=judgeme", "upload=x&format=judgeme&map=%7Bbad", "format=loox"]) {
      const res2 = await adminGet(t, agent, `${page}?${query}`);
      expect(res2.status, query).toBe(200);
      expect(await res2.text(), query).toMatch(/Upload the export file/);
    }
  });

  it("a confirmation of an upload that is gone, or with an unknown field, is 400", async () => {
    const gone = await adminPost(t, agent, page, { intent: "import", upload: "00000000-0000-4000-8000-000000000000", format: "judgeme" });
    expect(gone.status).toBe(400);
    expect(await gone.text()).toMatch(/no longer kept/);
    const bad = await adminPost(t, agent, page, { intent: "mapping", upload: "00000000-0000-4000-8000-000000000000", format: "judgeme", "column-0": "x", "field-0": "password" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/Unknown field &quot;password&quot;|Unknown field "password"/);
    const unsigned = await adminPost(t, agent, page, { intent: "import", upload: "00000000-0000-4000-8000-000000000000", format: "judgeme" }, null);
    expect(unsigned.status).toBe(403);
  });
});

describe("admin import: media URLs on loopback, private or reserved hosts are refused (SSRF)", () => {
  let listeners: LoopbackListeners;
  let guarded: TestServer; // without ALLOW_LOOPBACK_REQUESTS
  beforeAll(async () => {
    listeners = await startLoopbackListeners();
    guarded = await startTestServer();
    await guarded.services.stores.create({ storeId: TEST_STORE_ID, name: "Guarded import", platform: "shopify" });
    for (const server of [guarded, t]) await server.services.admin.createUser({ email: "ssrf@example.com", password: "ssrf-import-password", storeIds: [TEST_STORE_ID] });
  }, 60_000);
  afterAll(async () => {
    await guarded?.close();
    await listeners?.close();
  });

  /** The Judge.me fixture with each row's photos replaced by `urls` (at most 20 per row), reviewers renamed (new reviews). */
  const judgemeWith = (urls: string[], name: string) => {
    const rows = fixtureRows("judgeme.csv");
    const per = Math.ceil(urls.length / rows.length);
    const file = join(dir, name);
    writeFileSync(
      file,
      stringify(
        rows.map((row, i) => ({ ...row, reviewer_name: `${row.reviewer_name} (${name})`, picture_urls: urls.slice(i * per, (i + 1) * per).join(",") })),
        { header: true },
      ),
    );
    return file;
  };
  /** Upload, preview and confirm an import through the admin pages. @returns the report page's HTML. */
  async function importThroughAdmin(server: TestServer, file: string): Promise<string> {
    const agent = await signInAgent(server, "ssrf@example.com", "ssrf-import-password", TEST_STORE_ID);
    const page = `/admin/stores/${TEST_STORE_ID}/import/apps`;
    const form = new FormData();
    form.set("csrf", agent.csrf);
    form.set("format", "judgeme");
    form.set("file", new Blob([readFileSync(file)]), "judgeme.csv");
    const uploaded = await fetch(server.url(page), { method: "POST", redirect: "manual", body: form, headers: { cookie: agent.cookie } });
    expect(uploaded.status).toBe(302);
    const preview = new URL(uploaded.headers.get("location")!, server.baseUrl).searchParams;
    const done = await adminPost(server, agent, page, { intent: "import", upload: preview.get("upload")!, format: "judgeme", map: "{}" });
    expect(done.status).toBe(302);
    return (await (await adminGet(server, agent, done.headers.get("location")!)).text()).replace(/<!-- -->/g, "");
  }
  const decode = (html: string) => html.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

  it("without ALLOW_LOOPBACK_REQUESTS every spelling is refused with a clear reason, and no connection arrives", async () => {
    const urls = [...LOOPBACK_FORMS, ...ALWAYS_REFUSED].map((host, i) => `http://${host}:${listeners.port}/photos/${i}.png`);
    const html = decode(await importThroughAdmin(guarded, judgemeWith(urls, "judgeme-ssrf.csv")));
    expect(html).toContain("5 reviews imported from Judge.me.");
    expect(html).toMatch(new RegExp(`Photos and videos imported / failed</dt><dd>0 / ${urls.length}<`));
    // Each URL is listed as the file's cell normalised (WHATWG URL), with the reason.
    for (const url of urls) expect(html, url).toMatch(new RegExp(`Line \\d+: ${new URL(url).href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: refused: [^<]*not on the public internet<`));
    expect(html).toContain(`Line 2: http://[::ffff:7f00:1]:${listeners.port}/photos/9.png: refused: ::ffff:7f00:1 is a loopback address (127.0.0.1), not on the public internet`);
    expect(listeners.connections()).toBe(0);
  }, 60_000);

  it("with ALLOW_LOOPBACK_REQUESTS a loopback photo host may redirect, but not to a private or metadata address", async () => {
    const before = listeners.connections();
    const urls = REDIRECT_TARGETS.map((to, i) => `http://127.0.0.1:${listeners.port}/redirect?to=${encodeURIComponent(to)}&n=${i}`);
    const html = decode(await importThroughAdmin(t, judgemeWith(urls, "judgeme-ssrf-redirect.csv")));
    expect(html).toMatch(new RegExp(`Photos and videos imported / failed</dt><dd>0 / ${urls.length}<`));
    for (const url of urls) expect(html, url).toContain(`${new URL(url).href}: refused: `);
    expect(html).toContain("refused: 169.254.169.254 is a link-local address, not on the public internet");
    // One connection per URL: the first hop; the refused hop never connects.
    expect(listeners.connections() - before).toBe(urls.length);
  }, 60_000);
});
