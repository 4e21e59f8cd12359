/**
 * Combined widget modules over real HTTP (server/http/app.ts `/widgets/chunks/:file`, ADR 0016, issue #23 weight):
 * the combo the loader requests first on a demo product page answers 200 as an immutable, cross-origin JavaScript
 * module whose body is `comboSource(...)` (identity, gzip and brotli alike; a strong ETag, 304 on a match), in the
 * page's language with `?lang=`; another build's version gets this build's code, not kept; every name or
 * language the build does not serve (unknown tag,
 * unsorted level, a tag twice, a malformed or repeated `lang`, `%`-escapes) is a 4xx JSON error, never 500 or HTML;
 * the per-element files' hashed chunks stay immutable, the loader stays at five minutes, and a widget file the build
 * does not have is a JSON 404.
 */
import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoProductPage } from "../../app/lib/demo-pages.server.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { PROJECT_ROOT } from "../config.ts";
import { TRANSLATIONS } from "../contract/widget-translations.ts";
import { comboPath, comboSource, type ComboManifest } from "./combo.ts";

const WIDGETS = join(PROJECT_ROOT, "public/widgets");
let t: TestServer;
let m: ComboManifest;
/** The first combo the loader requests on a demo product page: every chorus-* tag the page holds, one level. */
let first: string;

/** A GET (or HEAD) with exactly these headers (fetch would add and undo Accept-Encoding); the raw body. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(t.url(path), { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  m = JSON.parse(readFileSync(join(WIDGETS, "combo.json"), "utf8")) as ComboManifest;
  const page = demoProductPage("store", { productKey: "shopify-1", name: "A product" });
  const tags = [...new Set(page.match(/<chorus-[a-z-]+/g)!.map((s) => s.slice(1)))];
  expect(tags.length).toBeGreaterThan(2);
  for (const tag of tags) expect(m.tags[tag], tag).toBeDefined();
  first = comboPath(m.version, [tags]);
  t = await startTestServer();
});
afterAll(() => t?.close());

describe("GET /widgets/chunks/<version>.<levels>.js", () => {
  it("the product page's first combo: 200, JavaScript, kept a year, any origin, nosniff; its body is comboSource's", async () => {
    const res = await raw(`/widgets/${first}`, { "accept-encoding": "identity" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body.toString("utf8")).toBe(comboSource(m, first.slice("chunks/".length), ""));
    expect(res.body.toString("utf8")).toContain(`const __chorusTextsLocale="en"`);
  });

  it("gzip and brotli when asked, each the same source", async () => {
    const source = comboSource(m, first.slice("chunks/".length), "")!;
    const gz = await raw(`/widgets/${first}`, { "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
    expect(gz.body.length).toBeLessThan(Buffer.byteLength(source) / 2);
    expect(gunzipSync(gz.body).toString("utf8")).toBe(source);
    const br = await raw(`/widgets/${first}`, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(source);
    // HEAD: the headers, no body.
    const head = await raw(`/widgets/${first}`, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.body.length).toBe(0);
  });

  it("a strong ETag by content; If-None-Match with it → 304 without a body", async () => {
    const a = await raw(`/widgets/${first}`, { "accept-encoding": "gzip" });
    const etag = a.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const b = await raw(`/widgets/${first}`, { "accept-encoding": "identity" });
    expect(b.headers.etag).toBe(etag);
    const again = await raw(`/widgets/${first}`, { "if-none-match": etag, "accept-encoding": "gzip" });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const de = await raw(`/widgets/${first}?lang=de`, { "if-none-match": etag });
    expect(de.status).toBe(200);
    expect(de.headers.etag).not.toBe(etag);
  });

  it("?lang=de: another body, German texts, locale de; de-DE the same module under its own URL", async () => {
    const en = await (await fetch(t.url(`/widgets/${first}`))).text();
    const res = await fetch(t.url(`/widgets/${first}?lang=de`));
    expect(res.status).toBe(200);
    const de = await res.text();
    expect(de).not.toBe(en);
    expect(de).toBe(comboSource(m, first.slice("chunks/".length), "de"));
    expect(de).toContain(`const __chorusTextsLocale="de"`);
    expect(de).toContain(JSON.stringify(TRANSLATIONS.de["reviews.order.dateDesc"]));
    expect(en).not.toContain(JSON.stringify(TRANSLATIONS.de["reviews.order.dateDesc"]));
    const deDE = await fetch(t.url(`/widgets/${first}?lang=de-DE`));
    expect(deDE.status).toBe(200);
    expect(await deDE.text()).toBe(de);
  });

  it("a later level imports the first level by its exact URL, with the same ?lang", async () => {
    const form = comboPath(m.version, [["chorus-review-form"], first.slice(`chunks/${m.version}.`.length, -".js".length).split("+").map((s) => `chorus-${s}`)]);
    const res = await fetch(t.url(`/widgets/${form}?lang=pt-BR`));
    expect(res.status).toBe(200);
    const code = await res.text();
    expect(code).toContain(`from"./${first.slice("chunks/".length)}?lang=pt-BR"`);
    // What the import names resolves, relative to the later level's URL, to the URL the page loaded first.
    const spec = /from"([^"]+)"/.exec(code)![1]!;
    expect(new URL(spec, t.url(`/widgets/${form}?lang=pt-BR`)).href).toBe(t.url(`/widgets/${first}?lang=pt-BR`));
    expect((await fetch(new URL(spec, t.url(`/widgets/${form}`)))).status).toBe(200);
  });

  it("names and languages the build does not serve → 404 JSON with a description (never 500, never HTML)", async () => {
    const v = m.version;
    for (const path of [
      `/widgets/chunks/${v}.nope.js`,
      `/widgets/chunks/${v}.reviews+nope.js`,
      `/widgets/chunks/${v}.star-rating+reviews.js`,
      `/widgets/chunks/${v}.reviews+reviews.js`,
      `/widgets/chunks/${v}.reviews~reviews+star-rating.js`,
      `/widgets/chunks/${v}.reviews.js?lang=de_DE`,
      `/widgets/chunks/${v}.reviews.js?lang=..%2F`,
      `/widgets/chunks/${v}.reviews.js?lang=${"de-".repeat(20)}de`,
      `/widgets/chunks/${v}.reviews.js?lang=de%22%3E`,
      `/widgets/chunks/${v}.reviews.js?lang=de&lang=fr`,
      `/widgets/chunks/${v}.reviews.js?lang[x]=de`,
      `/widgets/chunks/${v}.reviews%2Bstar-rating.js`,
      `/widgets/chunks/${v}.review-form%7Ereviews.js`,
      `/widgets/chunks/${v}.r%65views.js`,
    ]) {
      const res = await raw(path, { "accept-encoding": "gzip" });
      const text = res.body.toString("utf8");
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"], path).toMatch(/^application\/json/);
      expect(res.headers["cache-control"], path).not.toMatch(/immutable/);
      expect(res.headers["access-control-allow-origin"], path).toBe("*");
      expect(JSON.parse(text).error.description, path).toEqual(expect.any(String));
      expect(text, path).not.toMatch(/<html|URIError|node_modules|\bat .+\.(ts|js):\d+/i);
    }
  });

  it("a name of another build's version (a page whose loader is from before an upgrade) gets this build's code, not kept (a cache must not hold it under that name)", async () => {
    const other = `${m.version.slice(0, 7)}${m.version[7] === "A" ? "B" : "A"}`;
    const res = await raw(`/widgets/chunks/${other}.reviews+star-rating.js?lang=de`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body.toString("utf8")).toBe(comboSource(m, `${m.version}.reviews+star-rating.js`, "de"));
    const later = await raw(`/widgets/chunks/${other}.review-form~reviews+star-rating.js?lang=de`);
    expect(later.status).toBe(200);
    expect(later.body.toString("utf8")).toContain(`from"./${other}.reviews+star-rating.js?lang=de"`);
  });

  it("a malformed %-escape in a combo's name → 4xx JSON, never 500 or HTML", async () => {
    for (const path of [`/widgets/chunks/${m.version}.reviews%E0%A4%A.js`, `/widgets/chunks/${m.version}.rev%ZZ.js`, `/widgets/chunks/%${m.version.slice(1)}.reviews.js`]) {
      const res = await raw(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers["content-type"], path).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString("utf8")).error.description, path).toEqual(expect.any(String));
    }
  });
});

describe("the per-element files beside the combos", () => {
  it("a hashed chunk (chunks/<8 characters>.js) is kept a year", async () => {
    const chunk = readdirSync(join(WIDGETS, "chunks")).find((f) => /^[A-Za-z0-9_-]{8}\.js$/.test(f));
    expect(chunk).toBeDefined();
    const res = await raw(`/widgets/chunks/${chunk}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.body.toString("utf8")).toBe(readFileSync(join(WIDGETS, "chunks", chunk!), "utf8"));
  });

  it("a widget file the build does not have (a chunk of an earlier build) → 404 JSON, not the app's HTML page", async () => {
    for (const path of ["/widgets/chunks/nope.js", "/widgets/chunks/abcdefgh.js", "/widgets/chorus-nope.js", "/widgets/i18n/xx/reviews.json"]) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"], path).toMatch(/^application\/json/);
      expect(res.headers["cache-control"], path).toBe("no-store");
      expect(JSON.parse(res.body.toString("utf8")).error.description, path).toEqual(expect.any(String));
    }
  });

  it("the loader and an element's own file stay at five minutes", async () => {
    for (const path of ["/widgets/chorus.js", "/widgets/chorus-reviews.js"]) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers["cache-control"], path).toBe("public, max-age=300");
      expect(res.headers["access-control-allow-origin"], path).toBe("*");
      expect(res.headers["x-content-type-options"], path).toBe("nosniff");
    }
  });
});
