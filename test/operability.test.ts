/**
 * Operability over real HTTP (issue #19 items 1 and 11, #20 item 5): the health check, 405 with
 * `Allow` for a known path and a wrong method, JSON 404 / 401 for unknown API paths, request logs that
 * carry no secrets, absolute URLs that never come from the request's `Host`, and one clear line when
 * the port is taken. Real servers (the production createHttpServer over the Remix build, temp SQLite
 * files); the last test starts the real entry point (server/http/main.ts) in a child process.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../server/config.ts";
import { seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { run, sql } from "../server/db/database.ts";
import { startTestServer, type TestServer } from "./server.ts";

const S = `/v1/stores/${TEST_STORE_ID}`;
const STACK = /\bat .+\.(ts|js|tsx):\d+|node:internal|Error: /;

type LogLine = Record<string, unknown> & { level: number; msg?: string };
/** A pino logger (info level, as in production) whose JSON lines are kept in `lines`. */
function captureLogger() {
  const raw: string[] = [];
  const logger = pino({ level: "info", base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, { write: (line: string) => void raw.push(line) });
  return { logger, raw, lines: () => raw.map((l) => JSON.parse(l) as LogLine) };
}

/** Wait until `check()` holds (log lines are written when the response finishes, just after the client has it). */
async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe("GET /healthz", () => {
  let t: TestServer;
  beforeAll(async () => (t = await startTestServer()));
  afterAll(() => t.close());

  it("answers 200 {status: ok}, never cached; HEAD-free GET twice gives the same", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(t.url("/healthz"));
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ status: "ok" });
    }
  });

  it("answers 503 once the database is closed, and keeps answering", async () => {
    await t.services.db.close();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(t.url("/healthz"));
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = await res.json();
      expect(body.status).not.toBe("ok");
      expect(JSON.stringify(body)).not.toMatch(STACK);
    }
  });
});

describe("API paths: wrong method, unknown path", () => {
  let t: TestServer;
  const log = captureLogger();
  let basic = "";
  beforeAll(async () => {
    t = await startTestServer({ logger: log.logger });
    await seedRealReviews(t.services, { productIds: ["1078"] });
    basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${(await t.services.apiKeys.create(TEST_STORE_ID, "operability")).key}`).toString("base64")}`;
  });
  afterAll(() => t.close());

  const cases: [string, string, string[], Record<string, string>?][] = [
    ["DELETE", `${S}/reviews`, ["GET", "HEAD", "OPTIONS"]],
    ["POST", `${S}/review_aggregate`, ["GET", "HEAD", "OPTIONS"]],
    ["GET", `${S}/loyalty/login`, ["POST", "OPTIONS"]],
    ["PUT", "/enterprise/orders", ["POST", "OPTIONS"]],
    ["PATCH", "/enterprise/surveys", ["GET", "HEAD", "OPTIONS"], {}],
  ];
  it.each(cases)("%s %s → 405 JSON with Allow: %j, no stack trace, nothing logged at error level", async (method, path, allow, extra) => {
    const res = await fetch(t.url(path), {
      method,
      headers: { authorization: basic, ...(method === "GET" ? {} : { "content-type": "application/json" }), ...extra },
      ...(method === "GET" ? {} : { body: JSON.stringify({ any: "thing" }) }),
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("allow")?.split(/,\s*/).sort()).toEqual([...allow].sort());
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { description: expect.stringContaining(allow[0]), code: "method_not_allowed" } });
    expect(text).not.toMatch(STACK);
    await until(() => log.lines().some((l) => l.status === 405 && l.method === method));
    expect(log.lines().filter((l) => l.level >= 50)).toEqual([]);
  });

  it("an unknown path under /v1 → 404 JSON", async () => {
    for (const path of ["/v1/no-such-thing", `${S}/no-such-thing`, `${S}/reviews/extra/segments`]) {
      const res = await fetch(t.url(path));
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = await res.json();
      expect(body.error.description).toEqual(expect.any(String));
      expect(JSON.stringify(body)).not.toMatch(STACK);
    }
  });

  it("a path with a malformed %-escape → 400 JSON, never Express's HTML page with a stack trace", async () => {
    for (const path of ["/%E0%A4%A", "/r/%E0%A4%A", "/admin/%E0%A4%A", "/widgets/%E0%A4%A.js", "/demo/products/%"]) {
      const res = await fetch(t.url(path));
      const text = await res.text();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(text, path).not.toMatch(STACK);
      expect(text, path).not.toMatch(/URIError|node_modules/);
      if (res.headers.get("content-type")?.includes("application/json")) expect(JSON.parse(text).error.description).toEqual(expect.any(String));
    }
  });

  it("a page POST answered before its body was read (a page without an action: 405) closes the connection", async () => {
    const { status, connection } = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest(t.url("/demo"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "1000000" } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
      });
      req.on("error", reject);
      req.write("csrf=x&intent=store&moderation=");
    });
    expect(status).toBe(405);
    expect(connection).toBe("close");
  });

  it("every answer says X-Content-Type-Options: nosniff (API, errors, widget script, pages)", async () => {
    for (const path of [`${S}/reviews?limit=1`, "/v1/no-such-thing", "/v1/openapi.json", "/widgets/chorus.js", "/healthz", "/admin/login"]) {
      const res = await fetch(t.url(path));
      await res.arrayBuffer();
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("an unknown path under /enterprise without credentials → 401 (nothing revealed); with them → 404", async () => {
    const res = await fetch(t.url("/enterprise/no-such-thing"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(await res.text()).toBe("");
    const known = await fetch(t.url("/enterprise/no-such-thing"), { headers: { authorization: basic } });
    expect(known.status).toBe(404);
    expect((await known.json()).error.description).toEqual(expect.any(String));
    expect(log.lines().filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe("request logs", () => {
  let t: TestServer;
  const log = captureLogger();
  let apiKey = "";
  beforeAll(async () => {
    t = await startTestServer({ logger: log.logger });
    await seedRealReviews(t.services, { productIds: ["1078"] });
    apiKey = (await t.services.apiKeys.create(TEST_STORE_ID, "logs")).key;
  });
  afterAll(() => t.close());

  it("one line per request with reqId, method, route, status, ms; never the token, credentials, e-mail or cookie", async () => {
    const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtc2hvcHBlciJ9.c2VjcmV0LXNpZ25hdHVyZQ";
    const EMAIL = "private.person@example.org";
    const COOKIE = "s3cr3t-cookie-value-4711";
    const basic = Buffer.from(`${TEST_STORE_ID}:${apiKey}`).toString("base64");
    const requests: [string, RequestInit][] = [
      [`${S}/loyalty/customer`, { headers: { authorization: `Bearer ${TOKEN}` } }],
      [`${S}/loyalty/earning_rules`, { headers: { authorization: `Bearer ${TOKEN}`, cookie: `chorus_visitor=${COOKIE}` } }],
      ["/enterprise/surveys", { headers: { authorization: `Basic ${basic}` } }],
      [`/enterprise/surveys?email=${encodeURIComponent(EMAIL)}`, { headers: { authorization: `Basic ${Buffer.from(`${TEST_STORE_ID}:wrong-${apiKey}`).toString("base64")}` } }],
      [`${S}/reviews?limit=1&email=${encodeURIComponent(EMAIL)}`, { headers: { cookie: `chorus_visitor=${COOKIE}; other=${COOKIE}` } }],
      [
        `${S}/products/shopify-1078/questions`,
        {
          method: "POST",
          headers: { "content-type": "application/json", cookie: `chorus_visitor=${COOKIE}` },
          body: JSON.stringify({ question: "Does it run small?", email: EMAIL, displayName: "Sam" }),
        },
      ],
      [`/admin/login?email=${encodeURIComponent(EMAIL)}`, { headers: { cookie: `chorus_admin=${COOKIE}` } }],
      [`/v1/no-such-thing?email=${encodeURIComponent(EMAIL)}`, { headers: { authorization: `Bearer ${TOKEN}` } }],
    ];
    const before = log.raw.length;
    const statuses: number[] = [];
    for (const [path, init] of requests) {
      const res = await fetch(t.url(path), { redirect: "manual", ...init });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    await until(() => log.raw.length - before >= requests.length);
    const mine = log.raw.slice(before);
    expect(mine).toHaveLength(requests.length);
    for (const raw of mine) {
      for (const secret of [TOKEN, apiKey, basic, EMAIL, encodeURIComponent(EMAIL), COOKIE, "private.person"]) expect(raw).not.toContain(secret);
      const line = JSON.parse(raw) as LogLine;
      expect(line).toMatchObject({ reqId: expect.any(String), method: expect.any(String), status: expect.any(Number), ms: expect.any(Number) });
      expect(line).toHaveProperty("route");
      expect(line.url ?? line.req ?? line.headers).toBeUndefined();
    }
    // Pages are named by their Remix route too.
    expect(mine.map((raw) => (JSON.parse(raw) as LogLine).route)).toContain("routes/admin.login");
    const lines = mine.map((raw) => JSON.parse(raw) as LogLine);
    expect(lines.map((l) => l.status).sort()).toEqual([...statuses].sort());
    // The route names the operation without its values.
    expect(lines.map((l) => l.route)).toContain("routes/v1.stores.$storeId.reviews");
    expect(lines.some((l) => String(l.route).includes(TEST_STORE_ID))).toBe(false);
  });

  it("X-Request-Id: a well-formed one is echoed and logged; a malformed one is replaced; none gets a new one", async () => {
    const given = await fetch(t.url(`${S}/review_aggregate`), { headers: { "x-request-id": "trace-abc.123_XYZ" } });
    expect(given.headers.get("x-request-id")).toBe("trace-abc.123_XYZ");
    await until(() => log.lines().some((l) => l.reqId === "trace-abc.123_XYZ"));
    expect(log.lines().find((l) => l.reqId === "trace-abc.123_XYZ")).toMatchObject({ method: "GET", route: "routes/v1.stores.$storeId.review_aggregate", status: 200 });

    // A made one: this process's prefix and a counter, so two requests never share one.
    const made = /^[\w-]{8}-\d+$/;
    const bad = await fetch(t.url(`${S}/review_aggregate`), { headers: { "x-request-id": `<script>${"x".repeat(80)}` } });
    expect(bad.headers.get("x-request-id")).toMatch(made);
    const none = await fetch(t.url("/healthz"));
    expect(none.headers.get("x-request-id")).toMatch(made);
    expect(none.headers.get("x-request-id")).not.toBe(bad.headers.get("x-request-id"));
  });
});

describe("absolute URLs never come from the Host header (issue #19 finding 11)", () => {
  const photo = () =>
    sharp({ create: { width: 320, height: 240, channels: 3, background: "#3b7" } })
      .jpeg()
      .toBuffer();

  /** A published review of product 1078 with a published photo, submitted through the storefront API. */
  async function seedPhotoReview(t: TestServer): Promise<void> {
    const rows = await seedRealReviews(t.services, { productIds: ["1078"] });
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
    const r = rows.find((x) => x.title && x.body)!;
    const fd = new FormData();
    for (const [k, v] of Object.entries({ rating: 5, title: r.title, body: r.body, displayName: "Robin", email: "robin@example.com" })) fd.append(k, String(v));
    fd.append("media", new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }), "photo.jpg");
    const res = await fetch(t.url(`${S}/products/shopify-1078/reviews`), { method: "POST", body: fd });
    expect(res.status).toBe(201);
    const { review } = await res.json();
    // Media are published with their review by the moderation flow; make sure this one is.
    await run(t.services.db, sql`UPDATE review_media SET status = 'published' WHERE review_id = ${review.reviewId}`);
    await run(t.services.db, sql`UPDATE reviews SET status = 'published' WHERE review_id = ${review.reviewId}`);
  }

  /** Every absolute http(s) URL in a JSON answer. */
  const urlsIn = (body: unknown) => [...JSON.stringify(body).matchAll(/"(https?:\/\/[^"]+)"/g)].map((m) => m[1]);
  const MEDIA_PATHS = [`${S}/review_media`, `${S}/products/shopify-1078/review_media`, `${S}/reviews?orderBy=${encodeURIComponent("has_media desc")}&limit=5`];

  async function urlsOf(t: TestServer, path: string, headers: Record<string, string>) {
    const res = await fetch(t.url(path), { headers });
    expect(res.status, path).toBe(200);
    return urlsIn(await res.json());
  }

  describe("default (no PUBLIC_URL, no trusted proxy)", () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer();
      await seedPhotoReview(t);
    });
    afterAll(() => t.close());

    it.each(MEDIA_PATHS)("%s with Host: evil.example has no evil.example URL, also on the second (cached) request", async (path) => {
      for (let i = 0; i < 2; i++) {
        const urls = await urlsOf(t, path, { host: "evil.example" });
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url).not.toContain("evil.example");
      }
      // And a normal request after the hostile ones gets no evil.example URL from the cache either.
      for (const url of await urlsOf(t, path, {})) expect(url).not.toContain("evil.example");
    });

    it("X-Forwarded-Host and X-Forwarded-Proto from an untrusted peer are ignored", async () => {
      for (let i = 0; i < 2; i++) {
        const urls = await urlsOf(t, `${S}/review_media`, { "x-forwarded-host": "forged.example", "x-forwarded-proto": "https" });
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) {
          expect(url).not.toContain("forged.example");
          expect(url.startsWith("http://")).toBe(true);
        }
      }
    });
  });

  describe("PUBLIC_URL", () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ publicUrl: "https://reviews.example.com", trustedProxies: "loopback" });
      await seedPhotoReview(t);
    });
    afterAll(() => t.close());

    it.each(MEDIA_PATHS)("%s: every URL starts with PUBLIC_URL, whatever Host or X-Forwarded-* say", async (path) => {
      for (const headers of [{}, { host: "evil.example" }, { "x-forwarded-host": "proxy.example", "x-forwarded-proto": "http" }] as Record<string, string>[]) {
        const urls = await urlsOf(t, path, headers);
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url.startsWith("https://reviews.example.com/"), url).toBe(true);
      }
    });
  });

  describe("a trusted proxy (TRUSTED_PROXIES=loopback)", () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ trustedProxies: "loopback" });
      await seedPhotoReview(t);
    });
    afterAll(() => t.close());

    it("URLs use its X-Forwarded-Proto and X-Forwarded-Host, each request its own (not another's cached answer)", async () => {
      for (let i = 0; i < 2; i++) {
        const a = await urlsOf(t, `${S}/review_media`, { "x-forwarded-host": "shop-a.example", "x-forwarded-proto": "https" });
        expect(a.length).toBeGreaterThan(0);
        for (const url of a) expect(url.startsWith("https://shop-a.example/"), url).toBe(true);
        const b = await urlsOf(t, `${S}/review_media`, { "x-forwarded-host": "shop-b.example:8443", "x-forwarded-proto": "https" });
        for (const url of b) expect(url.startsWith("https://shop-b.example:8443/"), url).toBe(true);
        const direct = await urlsOf(t, `${S}/review_media`, {});
        for (const url of direct) expect(url).not.toMatch(/shop-[ab]\.example/);
      }
    });

    it("a malformed X-Forwarded-Host or proto is not used", async () => {
      for (const headers of [
        { "x-forwarded-host": "evil.example/path?x", "x-forwarded-proto": "https" },
        { "x-forwarded-host": "ok.example", "x-forwarded-proto": "javascript" },
      ]) {
        for (const url of await urlsOf(t, `${S}/review_media`, headers)) {
          expect(url).not.toContain("evil.example");
          expect(url).not.toContain("ok.example");
          expect(url).toMatch(/^https?:\/\//);
        }
      }
    });
  });
});

describe("start-up: the port is already in use", () => {
  let blocker: Server;
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chorus-eaddrinuse-"));
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("node server/http/main.ts prints one line naming the port and exits 1, without a stack trace", async () => {
    const port = (blocker.address() as AddressInfo).port;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      CHORUS_DEMO: "0",
      DATABASE_PATH: join(dir, "chorus.sqlite"),
      MEDIA_PATH: join(dir, "media"),
      READ_WORKERS: "0",
      LOG_LEVEL: "silent",
    };
    delete env.PUBLIC_URL;
    delete env.TRUSTED_PROXIES;
    const child = spawn(process.execPath, [join(PROJECT_ROOT, "server/http/main.ts")], { cwd: PROJECT_ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.on("exit", (c) => (clearTimeout(timer), resolve(c)));
    });
    expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(1);
    const errorLines = stderr.split("\n").filter((l) => l.trim());
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain(String(port));
    expect(errorLines[0]).toMatch(/in use/i);
    expect(stdout + stderr).not.toMatch(/\n\s+at |EADDRINUSE: address|node:internal/);
    expect(stdout).not.toMatch(/listening/i);
  }, 40_000);
});
