/**
 * Widget files over real HTTP (server/widgets/static.ts, ADR 0018), against the real build in public/widgets
 * (`npm run build` first): each element module the loader names, the shared chunks and a translation part answer
 * 200, kept a year (`immutable`), any origin, nosniff, `Vary: Accept-Encoding`; their brotli, gzip and identity
 * bodies decode to the same bytes (the file's); an ETag per coding, 304 on a match; the loader is kept 5 minutes;
 * an unknown widget file (another build's, a compressed file itself, a folder) and path traversal attempts are JSON
 * 404s, never 500 or the app's HTML.
 */
import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { PROJECT_ROOT } from "../config.ts";
import { WIDGET_TAGS } from "../../widgets/internal/registry.ts";

const WIDGETS = join(PROJECT_ROOT, "public/widgets");
let t: TestServer;
/** The loader's table as written by the build: each tag's module file, and the shared chunks' files. */
let modules: Record<string, [string, ...number[]]>;
let chunks: string[];

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

/** A request line sent as written (no client normalises `..` away); the status code and body of the answer. */
function rawRequestLine(target: string): Promise<{ status: number; text: string }> {
  const url = new URL(t.url("/"));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    const parts: Buffer[] = [];
    socket.on("data", (c: Buffer) => parts.push(c));
    socket.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), text });
    });
    socket.on("error", reject);
  });
}

const expectJson404 = (res: { status: number; headers: IncomingHttpHeaders; body: Buffer }, what: string) => {
  expect(res.status, what).toBe(404);
  expect(res.headers["content-type"], what).toBe("application/json; charset=utf-8");
  expect(res.headers["content-encoding"], what).toBeUndefined();
  expect(res.headers["cache-control"], what).toBe("no-store");
  expect(JSON.parse(res.body.toString("utf8")).error.description, what).toMatch(/No such widget file/);
};

beforeAll(async () => {
  const loader = readFileSync(join(WIDGETS, "chorus.js"), "utf8");
  // The table the build wrote into the loader: the first object literal keyed by element tags, then the chunk list.
  modules = JSON.parse(/(\{"chorus-[^}]*\})/.exec(loader)![1]!);
  chunks = JSON.parse(/(\["chunks\/[\w-]+\.js"(?:,"chunks\/[\w-]+\.js")*\])/.exec(loader)![1]!);
  t = await startTestServer();
});
afterAll(() => t?.close());

describe("GET /widgets/<hashed file>", () => {
  it("the loader names a module per element and the shared chunks, each served a year, immutable, to any origin", async () => {
    expect(Object.keys(modules).sort()).toEqual([...WIDGET_TAGS].sort());
    const files = [...Object.values(modules).map(([file]) => file), ...chunks];
    for (const file of files) {
      expect(file).toMatch(/^chunks\/[\w-]+-[\w-]{8}\.js$|^chunks\/[\w-]{8}\.js$/);
      const res = await raw(`/widgets/${file}`, { "accept-encoding": "br" });
      expect(res.status, file).toBe(200);
      expect(res.headers["content-type"], file).toBe("text/javascript; charset=utf-8");
      expect(res.headers["cache-control"], file).toBe("public, max-age=31536000, immutable");
      expect(res.headers["access-control-allow-origin"], file).toBe("*");
      expect(res.headers["x-content-type-options"], file).toBe("nosniff");
      expect(res.headers.vary, file).toMatch(/Accept-Encoding/i);
      expect(res.headers["content-encoding"], file).toBe("br");
    }
  });

  it("brotli, gzip and identity bodies decode to the same bytes, the built file's", async () => {
    const file = modules["chorus-reviews"]![0];
    const built = readFileSync(join(WIDGETS, file));
    const br = await raw(`/widgets/${file}`, { "accept-encoding": "gzip, deflate, br" });
    const gz = await raw(`/widgets/${file}`, { "accept-encoding": "gzip" });
    const id = await raw(`/widgets/${file}`, { "accept-encoding": "identity" });
    const none = await raw(`/widgets/${file}`);
    expect([br.headers["content-encoding"], gz.headers["content-encoding"], id.headers["content-encoding"], none.headers["content-encoding"]]).toEqual(["br", "gzip", undefined, undefined]);
    expect(br.body.length).toBeLessThan(gz.body.length);
    expect(gz.body.length).toBeLessThan(built.length / 2);
    expect(brotliDecompressSync(br.body).equals(built)).toBe(true);
    expect(gunzipSync(gz.body).equals(built)).toBe(true);
    expect(id.body.equals(built)).toBe(true);
    expect(none.body.equals(built)).toBe(true);
    for (const res of [br, gz, id, none]) expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    // q=0 refuses brotli: gzip.
    expect((await raw(`/widgets/${file}`, { "accept-encoding": "br;q=0, gzip" })).headers["content-encoding"]).toBe("gzip");
    // HEAD: the headers of the GET, no body.
    const head = await raw(`/widgets/${file}`, { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
  });

  it("each coding has its own ETag; a match is a 304 with the same caching headers", async () => {
    const file = chunks[0]!;
    const br = await raw(`/widgets/${file}`, { "accept-encoding": "br" });
    const id = await raw(`/widgets/${file}`, { "accept-encoding": "identity" });
    expect(br.headers.etag).toBeTruthy();
    expect(id.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(id.headers.etag);
    const again = await raw(`/widgets/${file}`, { "accept-encoding": "br", "if-none-match": br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await raw(`/widgets/${file}`, { "accept-encoding": "identity", "if-none-match": id.headers.etag! })).status).toBe(304);
  });

  it("a translation part is JSON, kept a year, compressed by negotiation", async () => {
    const [hash] = readdirSync(join(WIDGETS, "i18n"));
    const path = `i18n/${hash}/de/reviews.json`;
    const res = await raw(`/widgets/${path}`, { "accept-encoding": "br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(JSON.parse(brotliDecompressSync(res.body).toString("utf8"))).toEqual(JSON.parse(readFileSync(join(WIDGETS, path), "utf8")));
  });
});

describe("GET /widgets/chorus.js", () => {
  it("the loader: kept 5 minutes, JavaScript, compressed by negotiation", async () => {
    const res = await raw("/widgets/chorus.js", { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=300");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(res.body).equals(readFileSync(join(WIDGETS, "chorus.js")))).toBe(true);
  });
});

describe("unknown widget files", () => {
  it("a file of another build, a compressed file itself, a folder and a dotfile are JSON 404s", async () => {
    expectJson404(await raw("/widgets/chunks/chorus-reviews-AAAAAAAA.js", { "accept-encoding": "br" }), "another build's module");
    expectJson404(await raw("/widgets/chunks/AAAAAAAA.js"), "another build's chunk");
    expectJson404(await raw("/widgets/i18n/AAAAAAAA/de/reviews.json"), "another build's part");
    expectJson404(await raw(`/widgets/${modules["chorus-star-rating"]![0]}.br`), "a compressed file");
    expectJson404(await raw("/widgets/chunks/"), "a folder");
    expectJson404(await raw("/widgets/chunks"), "a folder without a slash");
    expectJson404(await raw("/widgets/.env"), "a dotfile");
    expectJson404(await raw("/widgets/chorus-reviews.js"), "an element module without its hash");
    expectJson404(await raw("/widgets/%E0%A4%A"), "a path that does not decode");
  });

  it("a method other than GET and HEAD is a 405 naming them (server/http/methods.ts)", async () => {
    const res = await raw("/widgets/chorus.js", {}, "POST");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });

  it("path traversal attempts are 404s and reveal no file", async () => {
    for (const target of [
      "/widgets/../package.json",
      "/widgets/..%2fpackage.json",
      "/widgets/%2e%2e/%2e%2e/package.json",
      "/widgets/chunks/..%2F..%2F..%2Fpackage.json",
      "/widgets/..%5cpackage.json",
      "/widgets/chunks/%2e%2e%2f%2e%2e%2fchorus.js",
      "/widgets/chorus.js%00.json",
    ]) {
      const res = await rawRequestLine(target);
      // "/widgets/../package.json" is not below /widgets at all: whatever answers it (the app's 404), never the file.
      expect(res.status, target).toBe(404);
      expect(res.text, target).not.toContain('"name": "chorus"');
      if (target !== "/widgets/../package.json") expect(res.text, target).toContain("No such widget file");
    }
  });
});
