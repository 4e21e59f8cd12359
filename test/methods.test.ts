/**
 * Every method on every kind of path (issue #33, server/http/methods.ts, docs/api.md "Methods"), sent as raw
 * HTTP/1.1 over a TCP socket — Node's own client and `fetch` refuse to send some of these (TRACE with a body,
 * CONNECT, lower-case methods) — to the real server: API paths answer 405 with `Allow` or 501 with the JSON
 * error body, pages and static files a plain-text 405 with `Allow`; nothing is a 500, and nothing reaches the
 * request log at error level or stderr with a stack trace.
 */
import { connect } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";

const S = `/v1/stores/${TEST_STORE_ID}`;
const STACK = /\bat .+\.(ts|js|tsx):\d+|node:internal|Error: /;

type Answer = { status: number; headers: Record<string, string>; body: string };

/** Send `requestText` on a new connection and read the answer until the server closes it (or 3 s). */
function rawRequest(port: number, requestText: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(requestText));
    let data = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = "", ...rest] = data.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (!status) reject(new Error(`No HTTP answer to ${JSON.stringify(requestText.slice(0, 60))}: ${JSON.stringify(data.slice(0, 200))}`));
      else resolve({ status, headers, body: rest.join("\r\n\r\n") });
    };
    const timer = setTimeout(done, 3000);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      data += chunk;
      // A complete answer with a Content-Length: no need to wait for the close.
      const [head, ...rest] = data.split("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      const bodiless = /^HTTP\/1\.1 (204|304)/.test(head) || requestText.startsWith("HEAD ");
      if (rest.length && (bodiless || (length !== undefined && Buffer.byteLength(rest.join("\r\n\r\n"), "latin1") >= Number(length)))) done();
    });
    socket.on("end", done);
    socket.on("error", done);
  });
}

const API_PATHS = [
  "/v1/openapi.json",
  `${S}/reviews`,
  `${S}/loyalty/login`,
  "/v1/no-such-thing",
  "/v1",
  "/enterprise/openapi.json",
  "/enterprise/settings",
  "/enterprise/no-such-thing",
  "/enterprise",
  "/platforms/openapi.json",
  "/platforms/shopify/webhooks",
  `/platforms/webhooks/${TEST_STORE_ID}`,
  "/platforms/no-such-thing",
  "/healthz",
];
const PAGES = ["/", "/admin", "/admin/login", "/demo", "/demo/products/1078", "/no-such-page", "/favicon.ico"];
const STATIC = ["/widgets/chorus.js", "/widgets/chunks/nothing.js", "/widgets/no-such-file.js", "/assets/nothing.js", "/media/nothing.jpg"];
/** Methods no path of Chorus implements: some Node's parser knows (TRACE, PROPFIND, ...), some it rejects itself (TRACK, FOO, BREW, get). */
const ODD = ["TRACE", "TRACK", "CONNECT", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "LOCK", "SEARCH", "QUERY", "PURGE", "LINK", "M-SEARCH", "FOO", "BREW", "get", "Post", "X-CUSTOM"];

describe("methods on every kind of path", () => {
  let t: TestServer;
  let port = 0;
  const raw: string[] = [];
  const logger = pino({ level: "info", base: undefined }, { write: (line: string) => void raw.push(line) });
  const stderr: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({ logger });
    await seedRealReviews(t.services, { productIds: ["1078"] });
    port = Number(new URL(t.baseUrl).port);
    // What Remix or Express would print about a request they could not handle (stack traces go to stderr).
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void stderr.push(args.map(String).join(" ")));
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void stderr.push(args.map(String).join(" ")));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  const send = (method: string, path: string, body?: string) =>
    rawRequest(
      port,
      `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${body === undefined ? "" : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`}\r\n${body ?? ""}`,
    );

  it.each(ODD)("%s on API paths → 501 JSON naming the accepted methods", async (method) => {
    for (const path of API_PATHS) {
      const res = await send(method, path);
      expect(res.status, `${method} ${path}`).toBe(501);
      expect(res.headers["content-type"], `${method} ${path}`).toContain("application/json");
      expect(JSON.parse(res.body), `${method} ${path}`).toEqual({ error: { description: expect.stringContaining("GET, HEAD, POST"), code: "method_not_implemented" } });
      expect(res.body).not.toMatch(STACK);
    }
  });

  it.each(ODD)("%s on pages and static files → plain 405 with Allow", async (method) => {
    for (const path of [...PAGES, ...STATIC]) {
      const res = await send(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers["content-type"], `${method} ${path}`).toContain("text/plain");
      expect(res.headers.allow, `${method} ${path}`).toBe(STATIC.includes(path) ? "GET, HEAD" : "GET, HEAD, POST");
      expect(res.body).not.toMatch(STACK);
    }
  });

  it("a refused method with a body (TRACE, PROPFIND) is answered and the connection closed, the body never read", async () => {
    for (const method of ["TRACE", "PROPFIND", "BREW"]) {
      const res = await send(method, `${S}/reviews`, JSON.stringify({ rating: 5 }));
      expect(res.status, method).toBe(501);
      expect(res.headers.connection?.toLowerCase()).toBe("close");
    }
  });

  it("PUT, PATCH, DELETE, OPTIONS on pages and static files → plain 405 with Allow (Remix never sees them)", async () => {
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      for (const path of [...PAGES, ...STATIC]) {
        const res = await send(method, path, method === "OPTIONS" ? undefined : "{}");
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe(STATIC.includes(path) ? "GET, HEAD" : "GET, HEAD, POST");
      }
    }
    const post = await send("POST", "/widgets/chorus.js", "{}");
    expect(post.status).toBe(405);
  });

  it("implemented methods a path does not accept → 405 JSON with the path's Allow; OPTIONS → 204 with Allow", async () => {
    const cases: [string, string, string][] = [
      ["DELETE", "/v1/openapi.json", "GET, HEAD, OPTIONS"],
      ["PUT", `${S}/loyalty/login`, "POST, OPTIONS"],
      ["GET", "/platforms/shopify/webhooks", "POST, OPTIONS"],
      ["PATCH", `/platforms/webhooks/${TEST_STORE_ID}`, "POST, OPTIONS"],
      ["POST", "/healthz", "GET, HEAD"],
      ["DELETE", "/healthz", "GET, HEAD"],
      ["OPTIONS", "/healthz", "GET, HEAD"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await send(method, path, method === "GET" || method === "OPTIONS" ? undefined : "{}");
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(JSON.parse(res.body).error.code, `${method} ${path}`).toBe("method_not_allowed");
    }
    for (const [path, allow] of [
      ["/enterprise/openapi.json", "GET, HEAD, OPTIONS"],
      ["/platforms/shopify/webhooks", "POST, OPTIONS"],
    ]) {
      const res = await send("OPTIONS", path);
      expect(res.status, path).toBe(204);
      expect(res.headers.allow, path).toBe(allow);
    }
    // HEAD /healthz: the status, no body.
    const head = await send("HEAD", "/healthz");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("a POST to a page without an action is Remix's 405, to an unknown page a 404: answered, not logged", async () => {
    for (const [path, status] of [
      ["/", 405],
      ["/demo", 405],
      ["/favicon.ico", 404],
      ["/no-such-page", 404],
    ] as const) {
      const res = await rawRequest(port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=1`);
      expect(res.status, `POST ${path}`).toBe(status);
    }
  });

  it("none of it logged at error level or with a stack trace; each refused request has its request line", async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = raw.map((l) => JSON.parse(l) as { level: number; method?: string; status?: number });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(raw.join("\n")).not.toMatch(STACK);
    expect(stderr.filter((l) => STACK.test(l))).toEqual([]);
    for (const method of ["TRACE", "TRACK", "CONNECT", "BREW", "get"])
      expect(
        lines.some((l) => l.method === method && l.status === 501),
        method,
      ).toBe(true);
  });
});
