/**
 * Read worker threads (read-workers.ts): real threads, each with its own connection to a temp SQLite
 * file and the real Remix build, behind the real HTTP server; real reviews from the shared data.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishRealReview, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { loadBuild, startTestServer, type TestServer } from "../../test/server.ts";
import { startAiWorkerThread } from "../ai/worker-host.ts";
import { PROJECT_ROOT } from "../config.ts";
import { operationTable } from "../api/route-table.ts";
import { startReadWorkers, startWorkerPool } from "./read-workers.ts";

const PRODUCT = "1078";
const store = `/v1/stores/${TEST_STORE_ID}`;

describe("read workers", () => {
  let withWorkers: TestServer;
  let withoutWorkers: TestServer;
  let group: string;

  beforeAll(async () => {
    withWorkers = await startTestServer({ readWorkers: 1 });
    // The same database file, answered on the HTTP thread alone: the reference.
    withoutWorkers = await startTestServer({ databasePath: `${withWorkers.dir}/chorus.sqlite`, cache: false });
    const rows = await seedRealReviews(withWorkers.services, { productIds: [PRODUCT, "862", "1094"] });
    group = rows
      .find((r) => r.productId === PRODUCT)!
      .className.toLowerCase()
      .replace(/[^a-z0-9]+/g, "-");
    // a published AI summary and keyword topics of the product (embedded engine), for their routes below
    await withWorkers.services.ai.generate(TEST_STORE_ID, { type: "product", id: "862" }, { publish: true });
  });
  afterAll(async () => {
    await withoutWorkers?.close();
    await withWorkers?.close();
  });

  it("is sent only public storefront GETs that only read (the operations marked readsOnly)", async () => {
    const sent = operationTable(await loadBuild()).operations.filter((op) => op.readsOnly);
    // reviews, media, questions, aggregates in every scope; AI summary and keywords; snippets, structured data, widget settings;
    // the Okendo-compatible review, question aggregate and product attributes; Okendo's widget_plus_settings; a channel survey;
    // a country's regions; the referral program
    expect(sent).toHaveLength(25);
    for (const op of sent) expect([op.method, op.api, op.auth, op.cache], op.routeId).toEqual(["GET", "storefront", "none", "public"]);
  });

  it("answers every read route with the status, bytes and ETag the HTTP thread computes", async () => {
    const paths = [
      `${store}/products/shopify-${PRODUCT}/reviews`,
      `${store}/products/shopify-${PRODUCT}/reviews?orderBy=rating%20asc&limit=5`,
      `${store}/collections/${group}/reviews?orderBy=helpful%20desc`,
      `${store}/reviews?orderBy=date%20asc&limit=3`,
      `${store}/products/shopify-${PRODUCT}/review_aggregate`,
      `${store}/collections/${group}/review_aggregate`,
      `${store}/review_aggregate`,
      `${store}/products/shopify-${PRODUCT}/review_media`,
      `${store}/collections/${group}/review_media`,
      `${store}/review_media`,
      `${store}/products/shopify-${PRODUCT}/questions`,
      `${store}/collections/${group}/questions`,
      `${store}/products/shopify-862/reviews_summary`,
      `${store}/products/shopify-862/reviews_keywords`,
      `${store}/regions/DE`,
      `${store}/products/shopify-${PRODUCT}/reviews?orderBy=sideways`, // a 400, computed by the worker too
      `/v1/stores/00000000-0000-4000-8000-000000000000/reviews`, // unknown store: 404
    ];
    // the second page through nextUrl: a signed cursor the worker verifies with the same installation secret
    const first = (await (await fetch(withoutWorkers.url(`${store}/products/shopify-${PRODUCT}/reviews?limit=2`))).json()) as { nextUrl: string };
    expect(first.nextUrl).toContain("lastEvaluated=");
    paths.push(`/v1${first.nextUrl}`); // nextUrl is relative to /v1 (docs/api.md, Paging)

    const summary = (await (await fetch(withoutWorkers.url(`${store}/products/shopify-862/reviews_summary`))).json()) as { reviewsSummary?: { body: string } };
    expect(summary.reviewsSummary?.body).toBeTruthy(); // real content, not `{}`
    const before = withWorkers.readWorkers!.answered;
    for (const path of paths) {
      const [a, b] = await Promise.all([fetch(withWorkers.url(path)), fetch(withoutWorkers.url(path))]);
      expect(a.status, path).toBe(b.status);
      expect(a.headers.get("etag"), path).toBe(b.headers.get("etag"));
      expect(a.headers.get("cache-control"), path).toBe(b.headers.get("cache-control"));
      expect(await a.text(), path).toBe(await b.text());
    }
    expect(withWorkers.readWorkers!.answered - before).toBe(paths.length);
  });

  it("computes a URL that many requests miss at once only once (request coalescing)", async () => {
    const many = (path: string) => Promise.all(Array.from({ length: 20 }, () => fetch(withWorkers.url(path)).then(async (r) => [r.status, await r.text()] as const)));
    await many(`${store}/review_aggregate?warm=sockets`); // 20 open keep-alive connections
    const path = `${store}/products/shopify-1094/reviews?orderBy=rating%20desc`;
    const before = withWorkers.readWorkers!.answered;
    const answers = await many(path);
    expect(withWorkers.readWorkers!.answered - before).toBe(1);
    expect(new Set(answers.map(([status, text]) => `${status} ${text}`)).size).toBe(1);
    expect(answers[0]![0]).toBe(200);
  });

  it("computes credentialed reads and the loyalty program on the HTTP thread", async () => {
    const before = withWorkers.readWorkers!.answered;
    expect((await fetch(withWorkers.url(`${store}/products/shopify-862/reviews`), { headers: { authorization: "Bearer x" } })).status).toBe(200);
    expect((await fetch(withWorkers.url(`${store}/loyalty/earning_rules`))).status).toBeLessThan(500);
    expect(withWorkers.readWorkers!.answered).toBe(before);
  });

  it("shows a review published after a cached answer in the next answer", async () => {
    const path = `${store}/products/shopify-862/reviews?limit=5`;
    const before = (await (await fetch(withWorkers.url(path))).json()) as { reviews: { reviewId: string }[] };
    expect((await fetch(withWorkers.url(path))).headers.get("etag")).toBeTruthy(); // answered from the cache now
    const reviewId = await publishRealReview(withWorkers.services, "862"); // a real review text, newer than every other
    const answered = withWorkers.readWorkers!.answered;
    const after = (await (await fetch(withWorkers.url(path))).json()) as { reviews: { reviewId: string }[] };
    expect(withWorkers.readWorkers!.answered).toBe(answered + 1); // computed again, by the worker
    expect(after.reviews[0]!.reviewId).toBe(reviewId);
    expect(after.reviews.slice(1).map((r) => r.reviewId)).toEqual(before.reviews.slice(0, 4).map((r) => r.reviewId));
  });
});

describe("request coalescing across commits (a thread that answers 300 ms after it reads)", () => {
  const SLOW_READ_THREAD_DELAY_MS = 300; // test/slow-read-thread.ts
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ readWorkers: 1, readWorkerEntry: new URL("../../test/slow-read-thread.ts", import.meta.url) });
    await seedRealReviews(t.services, { productIds: [PRODUCT, "862", "1094"] });
  });
  afterAll(async () => t?.close());

  const publish = (productId: string) => publishRealReview(t.services, productId);
  const firstReviewId = async (res: Response) => ((await res.json()) as { reviews: { reviewId: string }[] }).reviews[0]!.reviewId;

  it("a request that arrives after a commit to other content waits for the answer being computed", async () => {
    const path = `${store}/products/shopify-${PRODUCT}/reviews?limit=3`;
    const before = t.readWorkers!.answered;
    const first = fetch(t.url(path));
    await new Promise((r) => setTimeout(r, SLOW_READ_THREAD_DELAY_MS / 3)); // the thread has read; its answer is on the way
    await publish("862"); // another product: not a content scope the answer read
    const second = await fetch(t.url(path));
    const [a, b] = [await (await first).text(), await second.text()];
    expect(b).toBe(a);
    expect(t.readWorkers!.answered - before).toBe(1);
  });

  it("a request that arrives after a commit to the content being read does not take the older answer", async () => {
    const path = `${store}/products/shopify-1094/reviews?limit=3`;
    const before = t.readWorkers!.answered;
    const first = fetch(t.url(path));
    await new Promise((r) => setTimeout(r, SLOW_READ_THREAD_DELAY_MS / 3));
    const reviewId = await publish("1094"); // the newest review of the product being read
    const second = await fetch(t.url(path));
    expect(await firstReviewId(await first)).not.toBe(reviewId); // read before the commit
    expect(await firstReviewId(second)).toBe(reviewId);
    expect(t.readWorkers!.answered - before).toBe(2);
  });
});

describe("read workers that die", () => {
  let t: TestServer;
  beforeAll(async () => {
    // A thread that reports ready and exits on its first job, with the job pending.
    t = await startTestServer({ readWorkers: 1, readWorkerEntry: new URL("../../test/crashing-read-thread.ts", import.meta.url) });
    await seedRealReviews(t.services, { productIds: [PRODUCT] });
  });
  afterAll(async () => t?.close());

  it("lose no request: the HTTP thread answers, and the thread is started again", async () => {
    const reference = await (await fetch(t.url(`${store}/products/shopify-${PRODUCT}/review_aggregate`), { headers: { authorization: "Bearer uncached" } })).text();
    const res = await fetch(t.url(`${store}/products/shopify-${PRODUCT}/review_aggregate`));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(reference);
    await expect.poll(() => t.readWorkers!.restarts, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => t.readWorkers!.ready, { timeout: 5000 }).toBe(1);
    const again = await fetch(t.url(`${store}/products/shopify-${PRODUCT}/reviews`));
    expect(again.status).toBe(200);
    expect(t.readWorkers!.answered).toBe(0);
  });
});

describe("read workers that hang", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ readWorkers: 1, readWorkerTimeoutMs: 300, readWorkerEntry: new URL("../../test/stuck-read-thread.ts", import.meta.url) });
    await seedRealReviews(t.services, { productIds: [PRODUCT] });
  });
  afterAll(async () => t?.close());

  it("hold no request past the job timeout: the HTTP thread answers, and the thread is replaced", async () => {
    const started = performance.now();
    const res = await fetch(t.url(`${store}/products/shopify-${PRODUCT}/review_aggregate`));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { reviewAggregate: { reviewCount: number } }).reviewAggregate.reviewCount).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
    await expect.poll(() => t.readWorkers!.restarts, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
  });
});

describe("read workers that cannot load", () => {
  it("are replaced after the restart delay, again and again, while every read is computed on the HTTP thread", async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), "chorus-read-")), "not-a-directory");
    writeFileSync(blocker, "");
    const lines: string[] = [];
    // The database path lies under a file: opening it throws in each thread as it loads.
    const workers = startReadWorkers({
      threads: 1,
      databasePath: join(blocker, "chorus.sqlite"),
      buildUrl: pathToFileURL(join(PROJECT_ROOT, "build/server/index.js")),
      restartDelayMs: 50,
      log: (l) => lines.push(l),
    });
    try {
      await expect.poll(() => workers.restarts, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
      expect(lines.some((l) => /could not load \(.*(ENOTDIR|EEXIST).*\); replacing it in 50 ms/.test(l))).toBe(true);
      expect(workers.ready).toBe(0);
      expect(
        await workers.run({ routeId: "routes/v1.stores.$storeId.review_aggregate", params: {}, url: "http://localhost/", headers: [], clientIp: "127.0.0.1", publicOrigin: "http://localhost" }),
      ).toBeNull();
    } finally {
      await workers.stop();
    }
  }, 30_000);
});

describe("one pool for read misses and the AI loop", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ cache: false }); // the reference: answers computed on the HTTP thread
    await seedRealReviews(t.services, { productIds: [PRODUCT, "862"] });
  });
  afterAll(async () => t?.close());

  it("answers reads on its read thread while the AI loop holds the other, and closes both", async () => {
    const databasePath = join(t.dir, "chorus.sqlite");
    const pool = startWorkerPool({ readThreads: 1, aiThread: true, databasePath, buildUrl: pathToFileURL(join(PROJECT_ROOT, "build/server/index.js")) });
    const lines: string[] = [];
    const ai = startAiWorkerThread({ pool: pool.piscina, databasePath, log: (l) => lines.push(l), ai: { llm: null, translation: null, sweepIntervalMs: 0 } });
    try {
      await expect.poll(() => pool.readWorkers!.ready, { timeout: 10_000 }).toBe(2); // both threads loaded the read module
      const path = `${store}/products/shopify-${PRODUCT}/review_aggregate`;
      const job = {
        routeId: "routes/v1.stores.$storeId.products.$productKey.review_aggregate",
        params: { storeId: TEST_STORE_ID, productKey: `shopify-${PRODUCT}` },
        url: `http://localhost${path}`,
        headers: [] as [string, string][],
        clientIp: "127.0.0.1",
        publicOrigin: "http://localhost",
      };
      const answers = await Promise.all(Array.from({ length: 5 }, () => pool.readWorkers!.run(job)));
      const reference = await (await fetch(t.url(path))).text();
      for (const answer of answers) {
        expect(answer?.status).toBe(200);
        expect(Buffer.from(answer!.body).toString()).toBe(reference);
      }
      expect(pool.readWorkers!.answered).toBe(5);
      expect(pool.readWorkers!.restarts).toBe(0);
    } finally {
      await ai.stop();
      await pool.close();
    }
    expect(pool.piscina.threads).toHaveLength(0);
    expect(lines.filter((l) => /failed|crashed/.test(l))).toEqual([]);
  });
});
