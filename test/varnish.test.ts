/**
 * Varnish in front (issue 26 item 1, docs/deployment.md): a real varnishd running deploy/varnish/chorus.vcl
 * before a real Chorus server whose CACHE_PURGE_URLS points at it (with the purge secret). Storefront
 * reads are cached and purged by content scopes within a second of a change made through the front or
 * by another process on the same database; credentials are never shared; health probes, compression,
 * ETags and CORS behave as without Varnish. Skipped, saying so, only where varnishd is not installed
 * (.ci/run installs it).
 */
import { spawn } from "node:child_process";
import { createServer as createHttpServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoProgram } from "../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { loadConfig, PROJECT_ROOT } from "../server/config.ts";
import { ANY_COMMIT_TAG, scopeTag, startCachePurger, surrogateKeys } from "../server/http/cache-purge.ts";
import { renderBackendsVcl } from "../deploy/varnish/backends.ts";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { freePort } from "./ports.ts";
import { findVarnishd, startVarnish, type Varnish } from "./varnish.ts";

const haveVarnish = findVarnishd() !== null;
// In CI (env CI, .ci/run installs it) a missing varnishd fails the run instead of skipping.
if (!haveVarnish && process.env.CI) throw new Error("test/varnish.test.ts: varnishd is not installed (.ci/run installs it)");
if (!haveVarnish) console.warn("test/varnish.test.ts SKIPPED: varnishd is not installed (apt-get install -y varnish varnish-modules; .ci/run does it)");

describe("xkey tags of content scopes", () => {
  it("keep vmod_xkey's separators out of tags and always carry *", () => {
    expect(surrogateKeys(["store:s1", "product:s1:a b,c"])).toBe("store:s1 product:s1:a%20b%2Cc *");
    expect(surrogateKeys([])).toBe("*");
    expect(surrogateKeys(null)).toBe("* chorus:any-commit");
    expect(scopeTag("product:s:é\t%")).toBe("product:s:%C3%A9%09%25");
  });
});

describe("CACHE_PURGE_URLS and the generated VCL", () => {
  it("reads a comma-separated list of http(s) URLs and refuses anything else, naming the variable", () => {
    const env = (value: string) => ({ NODE_ENV: "test", CACHE_PURGE_URLS: value }) as NodeJS.ProcessEnv;
    expect(loadConfig(env("")).CACHE_PURGE_URLS).toEqual([]);
    expect(loadConfig(env(" http://10.0.0.5:6081/, https://chorus:s3cret@cache.example ")).CACHE_PURGE_URLS).toEqual(["http://10.0.0.5:6081/", "https://chorus:s3cret@cache.example"]);
    for (const bad of ["varnish:6081", "ftp://cache.example/", "http://ok.example,nonsense"]) {
      expect(() => loadConfig(env(bad))).toThrow(/CACHE_PURGE_URLS/);
    }
  });

  it("refuses bad backends, purgers and secrets", () => {
    expect(() => renderBackendsVcl({ backends: [] })).toThrow(/At least one backend/);
    expect(() => renderBackendsVcl({ backends: ["10.0.0.2"] })).toThrow(/Bad backend/);
    expect(() => renderBackendsVcl({ backends: ['evil";host:80'] })).toThrow(/Bad backend/);
    expect(() => renderBackendsVcl({ backends: ["10.0.0.2:3000"], purgers: ["10.0.0.0/33"] })).toThrow(/Bad purger/);
    expect(() => renderBackendsVcl({ backends: ["10.0.0.2:3000"], purgeSecret: 'short"' })).toThrow(/purge secret/);
    const vcl = renderBackendsVcl({ backends: ["10.0.0.2:3000", "[::1]:3001"] });
    expect(vcl).toContain('.host = "::1";');
    expect(vcl).toContain('"10.0.0.2";'); // the nodes may purge by default
  });
});

describe("the purger", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  it("retries a failing cache with backoff, keeping and merging the tags, logs each failure and the recovery", async () => {
    const received: string[] = [];
    let failing = true;
    const cache = createHttpServer((req, res) => {
      received.push(`${req.method} ${req.headers["xkey-purge"]} ${req.headers.authorization ?? "-"}`);
      res.writeHead(failing ? 503 : 200).end();
    });
    await new Promise<void>((resolve) => cache.listen(0, "127.0.0.1", resolve));
    const port = (cache.address() as AddressInfo).port;
    const lines: string[] = [];
    const purger = startCachePurger({ db: t.services.db, urls: [`http://chorus:${"s".repeat(16)}@127.0.0.1:${port}/`], log: (l) => lines.push(l), intervalMs: 20, maxBackoffMs: 100 });
    try {
      const waitFor = async (done: () => boolean) => {
        const until = Date.now() + 3_000;
        while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      };
      await waitFor(() => received.length >= 2);
      expect(received.length).toBeGreaterThanOrEqual(2);
      expect(received[0]).toBe(`PURGE * chorus:any-commit Basic ${Buffer.from(`chorus:${"s".repeat(16)}`).toString("base64")}`);
      expect(lines[0]).toMatch(/^Cache purge: http:\/\/127\.0\.0\.1:\d+\/ failed \(attempt 1, 2 tags waiting, next try in 20 ms\): answered 503/);
      expect(lines.join("\n")).not.toContain("s".repeat(16)); // the secret is never logged
      await seedRealReviews(t.services, { productIds: ["1078"], limit: 1 });
      await waitFor(() => received.some((r) => r.includes("store:"))); // the commit's tags joined the waiting ones
      failing = false;
      await waitFor(() => lines.some((l) => l.includes("answers again")));
      await waitFor(() => purger.pending === 0);
      expect(purger.pending).toBe(0);
      const last = received.at(-1)!.split(" ");
      expect(last).toEqual(expect.arrayContaining(["*", "chorus:any-commit", `store:${TEST_STORE_ID}`, `product:${TEST_STORE_ID}:1078`]));
      expect(lines.at(-1)).toMatch(/answers again after \d+ failed attempts/);
    } finally {
      await purger.stop();
      cache.close();
    }
  });
});

describe("the purger's second purge", () => {
  it("purges each change's tags once more after repeatAfterMs (an answer fetched before the commit but stored after the first purge)", async () => {
    const t = await startTestServer();
    const seen: { at: number; tags: string }[] = [];
    const cache = createHttpServer((req, res) => {
      seen.push({ at: performance.now(), tags: String(req.headers["xkey-purge"]) });
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => cache.listen(0, "127.0.0.1", resolve));
    const purger = startCachePurger({ db: t.services.db, urls: [`http://127.0.0.1:${(cache.address() as AddressInfo).port}/`], log: () => {}, intervalMs: 20, repeatAfterMs: 300 });
    try {
      const until = Date.now() + 3_000;
      while (seen.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5)); // the purge of everything at start
      await seedRealReviews(t.services, { productIds: ["862"], limit: 1 });
      const product = `product:${TEST_STORE_ID}:862`;
      const withProduct = () => seen.filter((s) => s.tags.split(" ").includes(product));
      while (withProduct().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      const [first, second] = withProduct();
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(250);
      expect(second!.at - first!.at).toBeLessThan(1_000);
    } finally {
      await purger.stop();
      cache.close();
      await t.close();
    }
  });
});

describe("the purger's flush", () => {
  it("sends what is committed now without waiting for the poll, resolving once the cache answered; rejects while the cache fails", async () => {
    const t = await startTestServer();
    const seen: string[] = [];
    let failing = false;
    const cache = createHttpServer((req, res) => {
      seen.push(String(req.headers["xkey-purge"]));
      res.writeHead(failing ? 500 : 200).end();
    });
    await new Promise<void>((resolve) => cache.listen(0, "127.0.0.1", resolve));
    // A poll period no test waits out: only flush() can send the change.
    const purger = startCachePurger({ db: t.services.db, urls: [`http://127.0.0.1:${(cache.address() as AddressInfo).port}/`], log: () => {}, intervalMs: 600_000, repeatAfterMs: 0 });
    try {
      await purger.flush(); // the purge of everything at start
      expect(seen).toEqual([`* ${ANY_COMMIT_TAG}`]);
      await seedRealReviews(t.services, { productIds: ["862"], limit: 1 });
      await purger.flush();
      expect(seen).toHaveLength(2);
      expect(seen[1]!.split(" ")).toContain(`product:${TEST_STORE_ID}:862`);
      expect(purger.pending).toBe(0);
      await purger.flush(); // nothing changed: nothing sent
      expect(seen).toHaveLength(2);
      failing = true;
      await seedRealReviews(t.services, { productIds: ["1078"], limit: 1 });
      await expect(purger.flush()).rejects.toThrow(/did not take \d+ tags/);
      expect(purger.pending).toBeGreaterThan(0);
      failing = false;
      await purger.flush(); // the tags kept are sent
      expect(seen.at(-1)!.split(" ")).toContain(`product:${TEST_STORE_ID}:1078`);
      expect(purger.pending).toBe(0);
    } finally {
      await purger.stop();
      cache.close();
      await t.close();
    }
  });
});

describe("the purger and a closed connection", () => {
  it("sends a PURGE once more at once when the cache closed the connection under it (an idle keep-alive connection), logging nothing", async () => {
    const t = await startTestServer();
    let requests = 0;
    const cache = createHttpServer((req, res) => {
      if (++requests === 1)
        req.socket.destroy(); // closed before any answer
      else res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => cache.listen(0, "127.0.0.1", resolve));
    const lines: string[] = [];
    const purger = startCachePurger({ db: t.services.db, urls: [`http://127.0.0.1:${(cache.address() as AddressInfo).port}/`], log: (l) => lines.push(l), intervalMs: 600_000, repeatAfterMs: 0 });
    try {
      await purger.flush();
      expect(requests).toBe(2);
      expect(purger.purges).toBe(1);
      expect(lines).toEqual([]);
    } finally {
      await purger.stop();
      cache.close();
      await t.close();
    }
  });
});

const SECRET = "varnish-test-platform-secret-0123";
const PURGE_SECRET = "purge-secret-0123456789";
const store = `/v1/stores/${TEST_STORE_ID}`;

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number };
/** A GET (or other method) with exactly `headers` (no automatic Accept-Encoding, no decompression). */
function raw(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
const json = (r: Raw) => JSON.parse((r.headers["content-encoding"] === "gzip" ? gunzipSync(r.body) : r.body).toString("utf8")) as unknown;

describe.skipIf(!haveVarnish)("Varnish in front of Chorus", () => {
  let t: TestServer;
  let v: Varnish;
  let front: string;
  let apiKeyA: string;
  let apiKeyB: string;
  let tokens: string[];
  let customerIds: string[];

  beforeAll(async () => {
    // Both in 3600-3699; Varnish first, so Chorus's first purge (everything, at start) finds it.
    const serverPort = await freePort(3600, 3699);
    let varnishPort = serverPort;
    while (varnishPort === serverPort) varnishPort = await freePort(3600, 3699);
    // Purges are allowed by the shared secret only (the ACL names another address), so the test proves the secret path.
    v = await startVarnish({ port: varnishPort, backends: [`127.0.0.1:${serverPort}`], purgers: ["192.0.2.1"], purgeSecret: PURGE_SECRET });
    front = v.url;
    t = await startTestServer({ port: serverPort, cachePurgeUrls: [`http://chorus:${PURGE_SECRET}@127.0.0.1:${varnishPort}/`] });
    await seedRealReviews(t.services, { productIds: ["1078", "862"] });
    await seedRealReviews(t.services, { storeId: OTHER_STORE_ID, productIds: ["1094"] });
    await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
    apiKeyA = (await t.services.apiKeys.create(TEST_STORE_ID, "a")).key;
    apiKeyB = (await t.services.apiKeys.create(OTHER_STORE_ID, "b")).key;
    tokens = [];
    customerIds = [];
    for (const who of ["ann", "bob"]) {
      const login = await fetch(`${t.baseUrl}${store}/loyalty/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customerAccessToken: await signPlatformToken(SECRET, { platformCustomerId: who, email: `${who}@example.com` }) }),
      });
      const answer = (await login.json()) as { customerToken: string; loyaltyCustomer: { loyaltyCustomerId: string } };
      tokens.push(answer.customerToken);
      customerIds.push(answer.loyaltyCustomer.loyaltyCustomerId);
    }
    await v.healthy(); // the probe saw Chorus come up
    // Let the seeding's purges go out before anything is cached.
    await new Promise((r) => setTimeout(r, 500));
  }, 240_000); // seeding through the write path takes longer on PostgreSQL (vitest.postgres.config.ts allows hooks 240 s)
  afterAll(async () => {
    await t?.close().catch(() => {});
    await v?.stop();
  });

  it("serves a storefront read as a MISS, then a HIT with the same body; the xkey tags never reach the client", async () => {
    const path = `${store}/products/shopify-1078/reviews`;
    const direct = await raw(t.url(path));
    expect(direct.headers.xkey).toBe(`store:${TEST_STORE_ID} product:${TEST_STORE_ID}:1078 *`);
    const first = await raw(front + path);
    const second = await raw(front + path);
    expect([first.status, first.headers["x-cache"]]).toEqual([200, "MISS"]);
    expect([second.status, second.headers["x-cache"]]).toEqual([200, "HIT"]);
    expect(Number(second.headers.age)).toBeGreaterThanOrEqual(0);
    expect(second.headers["cache-control"]).toBe(direct.headers["cache-control"]);
    expect(second.headers.xkey).toBeUndefined();
    expect(json(second)).toEqual(json(direct));
  });

  it("answers a helpful vote sent through the front in the next read within 1 s (purged by content scope), and leaves other products cached", async () => {
    const path = `${store}/products/shopify-1078/reviews`;
    const other = `${store}/products/shopify-862/reviews`;
    await raw(front + other);
    expect((await raw(front + other)).headers["x-cache"]).toBe("HIT");
    const before = json(await raw(front + path)) as { reviews: { reviewId: string; helpfulCount: number }[] };
    expect((await raw(front + path)).headers["x-cache"]).toBe("HIT");
    const target = before.reviews[0]!;
    const vote = await fetch(`${front}${store}/reviews/${target.reviewId}/votes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ vote: "helpful", visitorId: "varnish-visitor-1" }),
    });
    expect(vote.status).toBe(200);
    expect(vote.headers.get("x-cache")).toBe("PASS");
    const committed = performance.now();
    let fresh = -1;
    while (performance.now() - committed < 3_000) {
      const page = json(await raw(front + path)) as typeof before;
      if (page.reviews.find((r) => r.reviewId === target.reviewId)!.helpfulCount === target.helpfulCount + 1) {
        fresh = performance.now() - committed;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    console.log(`varnish: vote through the front served fresh after ${fresh.toFixed(0)} ms`);
    expect(fresh).toBeGreaterThanOrEqual(0);
    expect(fresh).toBeLessThan(1_000);
    expect((await raw(front + other)).headers["x-cache"]).toBe("HIT"); // another product's answer was not purged
  });

  // The writer process loads the server's modules first (tens of seconds on a busy machine); only the time after its commit is measured.
  it("serves a review published by another process on the same database within 1 s", { timeout: 120_000 }, async () => {
    const path = `${store}/products/shopify-862/reviews`;
    await raw(front + path);
    expect((await raw(front + path)).headers["x-cache"]).toBe("HIT");
    // A separate Node process with its own connection: only the content-scope log tells this server.
    const script = [
      `import { createServices } from ${JSON.stringify(join(PROJECT_ROOT, "server/services.ts"))};`,
      `import { publishRealReview } from ${JSON.stringify(join(PROJECT_ROOT, "test/fixtures.ts"))};`,
      `const s = await createServices({ databasePath: ${JSON.stringify(t.databasePath)}, mediaPath: ${JSON.stringify(join(t.dir, "media"))} });`,
      `process.stdout.write((await publishRealReview(s, "862")) + "\\n"); await s.close();`,
    ].join("\n");
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const reviewId = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.trim());
      });
      child.once("exit", (code) => code !== 0 && reject(new Error(`writer exited with ${code}`)));
    });
    const committed = performance.now();
    let fresh = -1;
    while (performance.now() - committed < 3_000) {
      const page = json(await raw(front + path)) as { reviews: { reviewId: string }[] };
      if (page.reviews[0]?.reviewId === reviewId) {
        fresh = performance.now() - committed;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    console.log(`varnish: review published by another process served fresh after ${fresh.toFixed(0)} ms`);
    expect(fresh).toBeGreaterThanOrEqual(0);
    expect(fresh).toBeLessThan(1_000);
  });

  it("refuses PURGE without the secret (and from outside the ACL)", async () => {
    expect((await raw(front + "/", { "xkey-purge": "*" }, "PURGE")).status).toBe(403);
    expect((await raw(front + "/", { "xkey-purge": "*", authorization: "Basic " + Buffer.from("chorus:wrong-secret-000000").toString("base64") }, "PURGE")).status).toBe(403);
    const ok = await raw(front + "/", { "xkey-purge": "nothing-has-this-tag", authorization: "Basic " + Buffer.from(`chorus:${PURGE_SECRET}`).toString("base64") }, "PURGE");
    expect([ok.status, ok.body.toString().trim()]).toEqual([200, "Purged 0"]);
  });

  it("never serves an enterprise (Basic) or loyalty customer (Bearer) answer to another credential", async () => {
    const basic = (key: string, storeId: string) => ({ authorization: "Basic " + Buffer.from(`${storeId}:${key}`).toString("base64") });
    const a = await raw(front + "/enterprise/settings", basic(apiKeyA, TEST_STORE_ID));
    const b = await raw(front + "/enterprise/settings", basic(apiKeyB, OTHER_STORE_ID));
    const a2 = await raw(front + "/enterprise/settings", basic(apiKeyA, TEST_STORE_ID));
    const wrong = await raw(front + "/enterprise/settings", basic("x".repeat(32), TEST_STORE_ID));
    const none = await raw(front + "/enterprise/settings");
    expect([a.status, b.status, a2.status, wrong.status, none.status]).toEqual([200, 200, 200, 401, 401]);
    expect(a.headers["x-cache"]).toBe("PASS");
    expect(a2.headers["x-cache"]).toBe("PASS");
    expect(json(a)).not.toEqual(json(b));
    expect(json(a2)).toEqual(json(a));

    const me = (i: number) => raw(`${front}${store}/loyalty/customer`, { authorization: `Bearer ${tokens[i]}` });
    const [ann, bob, ann2] = [await me(0), await me(1), await me(0)];
    expect([ann.status, bob.status, ann2.status]).toEqual([200, 200, 200]);
    const id = (r: Raw) => (json(r) as { loyaltyCustomer: { loyaltyCustomerId: string } }).loyaltyCustomer.loyaltyCustomerId;
    expect(id(ann)).toBe(customerIds[0]);
    expect(id(bob)).toBe(customerIds[1]);
    expect(id(ann2)).toBe(customerIds[0]);
    expect(ann2.headers["x-cache"]).toBe("PASS");
    expect((await raw(`${front}${store}/loyalty/customer`)).status).toBe(401);
    // A tailored answer of a public read (customer-optional) is not stored for the anonymous shoppers.
    const rules = `${store}/loyalty/earning_rules`;
    expect((await raw(front + rules, { authorization: `Bearer ${tokens[0]}` })).headers["x-cache"]).toBe("PASS");
    expect((await raw(front + rules)).headers["x-cache"]).toBe("MISS");
    expect((await raw(front + rules)).headers["x-cache"]).toBe("HIT");
    expect((await raw(front + rules, { authorization: `Bearer ${tokens[1]}` })).headers["x-cache"]).toBe("PASS");
  });

  it("shares storefront reads whatever cookies come along, and never stores a page of the admin", async () => {
    const path = `${store}/products/shopify-862/review_aggregate`;
    await raw(front + path);
    const withCookie = await raw(front + path, { cookie: "__session=an-admin-session; other=1" });
    expect([withCookie.status, withCookie.headers["x-cache"]]).toEqual([200, "HIT"]);
    for (const headers of [{ cookie: "__session=an-admin-session" }, {}] as Record<string, string>[]) {
      const login = await raw(front + "/admin/login", headers);
      expect(login.status).toBe(200);
      expect(login.headers["x-cache"]).toBe("PASS");
      expect(login.headers["cache-control"]).toBe("no-store");
    }
  });

  it("serves gzip to gzip clients and identity to the others, both the same JSON as direct, with Vary: Accept-Encoding", async () => {
    const path = `${store}/reviews?perPage=20`;
    const direct = await raw(t.url(path));
    expect(direct.body.length).toBeGreaterThan(1024);
    const gz = await raw(front + path, { "accept-encoding": "gzip, deflate, br" });
    const gzHit = await raw(front + path, { "accept-encoding": "gzip" });
    const plain = await raw(front + path);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gzHit.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const r of [gz, gzHit, plain]) {
      expect(r.status).toBe(200);
      expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
      expect(json(r)).toEqual(json(direct));
    }
    expect(JSON.parse(plain.body.toString("utf8"))).toEqual(json(direct)); // really identity
    expect(gz.body.length).toBeLessThan(direct.body.length / 2);
  });

  it("answers If-None-Match with 304 on a hit, for the ETag it served and the one Chorus sent", async () => {
    const path = `${store}/products/shopify-1078/review_aggregate`;
    const direct = await raw(t.url(path));
    const first = await raw(front + path, { "accept-encoding": "gzip" });
    const etag = String(first.headers.etag);
    expect(etag.replace(/^W\//, "")).toBe(String(direct.headers.etag).replace(/^W\//, ""));
    const again = await raw(front + path, { "accept-encoding": "gzip", "if-none-match": etag });
    expect([again.status, again.headers["x-cache"], again.body.length]).toEqual([304, "HIT", 0]);
    expect((await raw(front + path, { "if-none-match": String(direct.headers.etag) })).status).toBe(304);
    expect((await raw(front + path, { "if-none-match": '"something-else"' })).status).toBe(200);
  });

  it("keeps CORS as Chorus sends it: preflight and the headers of a read", async () => {
    const path = `${store}/products/shopify-1078/reviews`;
    const ask = { origin: "https://shop.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" };
    const direct = await raw(t.url(path), ask, "OPTIONS");
    const viaFront = await raw(front + path, ask, "OPTIONS");
    const cors = (r: Raw) => Object.fromEntries(Object.entries(r.headers).filter(([k]) => k.startsWith("access-control-") || k === "vary"));
    expect(viaFront.status).toBe(direct.status);
    expect(cors(viaFront)).toEqual(cors(direct));
    const read = await raw(front + path, { origin: "https://shop.example" });
    const readDirect = await raw(t.url(path), { origin: "https://shop.example" });
    expect(read.headers["access-control-allow-origin"]).toBe("*");
    expect(cors(read)).toEqual(cors(readDirect));
  });

  it("marks the node sick through /healthz when it stops, then answers 503 at once", async () => {
    expect(v.admin("backend.list")).toMatch(/chorus_1\s+probe\s+\d+\/\d+\s+healthy/i);
    const stopped = performance.now();
    await t.close();
    let sickAfter = -1;
    while (performance.now() - stopped < 8_000) {
      if (/chorus_1\s+probe\s+\d+\/\d+\s+sick/i.test(v.admin("backend.list"))) {
        sickAfter = performance.now() - stopped;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const answer = await raw(`${front}${store}/products/shopify-1078/questions`);
    console.log(`varnish: backend sick ${sickAfter.toFixed(0)} ms after the server stopped; then a 503 in ${answer.ms.toFixed(1)} ms`);
    expect(sickAfter).toBeGreaterThan(0);
    expect(answer.status).toBe(503);
    expect(answer.ms).toBeLessThan(100);
    expect((json(answer) as { error: { description: string } }).error.description).toMatch(/unavailable/);
  });
});
