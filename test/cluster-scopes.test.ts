/**
 * Two nodes over one database (issue #34 item 3: content-scope numbering without a shared row): two real HTTP servers
 * (test/server.ts `startTestServer`, the second over the first's database, each with its own services, pool,
 * response cache and content-scope watcher) and a third with the response cache off, whose answers are the truth.
 * On PostgreSQL (`npm run test:postgres`, env CHORUS_TEST_POSTGRES_URL) each node hears the other's commits as
 * notifications (server/db/content-scopes.ts); on SQLite both follow the one file's log.
 *
 * - Interleaved concurrent writes on both nodes (reviews published, helpful votes) with reads on both: once the
 *   writes stop and 1 s passes, every node's answer for every product and listing equals the uncached answer.
 * - One visitor's helpful vote on one review, sent 20 times at once, half to each node, counts once.
 *
 * Loyalty activation, redemptions, order points, submission and survey limits and queue claims across nodes are
 * test/cluster-loyalty.test.ts, test/cluster-limits.test.ts and test/queues-two-nodes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { one, sql, value, values } from "../server/db/database.ts";
import { seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";

const S = TEST_STORE_ID;
const PRODUCTS = ["1078", "862", "1094", "872"];
const store = `/v1/stores/${S}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let a: TestServer;
let b: TestServer;
/** Same database, response cache off: what a node must answer. */
let truth: TestServer;
let groups: string[];

beforeAll(async () => {
  a = await startTestServer({ trustedProxies: "loopback" });
  const databasePath = a.services.databasePath;
  b = await startTestServer({ databasePath, trustedProxies: "loopback" });
  truth = await startTestServer({ databasePath, cache: false, trustedProxies: "loopback" });
  await seedRealReviews(a.services, { productIds: PRODUCTS, limit: 400 });
  groups = [...new Set(await values<string>(a.services.db, sql`SELECT group_id FROM products WHERE store_id = ${S} AND group_id IS NOT NULL ORDER BY group_id`))];
}, 240_000);
afterAll(async () => {
  await truth?.close();
  await b?.close();
  await a?.close();
}, 60_000);

/** Every storefront read whose answer the writes below change: per product, per group and store-wide. */
const readPaths = () => [
  ...PRODUCTS.flatMap((p) => [`${store}/products/shopify-${p}/reviews`, `${store}/products/shopify-${p}/review_aggregate`, `${store}/products/shopify-${p}/reviews?orderBy=helpful%20desc`]),
  ...groups.flatMap((g) => [`${store}/collections/${g}/reviews`, `${store}/collections/${g}/review_aggregate`]),
  `${store}/reviews`,
  `${store}/review_aggregate`,
];

/** GET `path` on `node`: status and body text. */
const get = async (node: TestServer, path: string) => {
  const res = await fetch(node.url(path));
  return { status: res.status, body: await res.text() };
};

/** POST a helpful vote on `reviewId` to `node` from client `address`. */
const vote = async (node: TestServer, reviewId: string, address: string, visitorId?: string) => {
  const res = await fetch(node.url(`${store}/reviews/${reviewId}/votes`), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ vote: "helpful", ...(visitorId ? { visitorId } : {}) }),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as { visitorId?: string } | null };
};

describe("content scopes across two nodes with their response caches on", () => {
  it("after concurrent writes and reads on both nodes stop, within 1 s every node answers every read as the uncached server does", async () => {
    const paths = readPaths();
    // Warm both caches.
    const warm = new Map<string, string>();
    for (const node of [a, b]) {
      for (const path of paths) {
        const answer = await get(node, path);
        expect(answer.status, path).toBe(200);
        warm.set(path, answer.body);
      }
    }
    const reviewIds = await values<string>(a.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${S} AND status = 'published' ORDER BY created_ms DESC`);
    const before = (await value<number>(a.services.db, sql`SELECT count(*) FROM reviews WHERE store_id = ${S} AND status = 'published'`))!;

    let writing = true;
    let published = 0;
    let votes = 0;
    let reads = 0;
    const nodes = [a, b];
    /** Node i's writer: publishes reviews through its own services and sends votes to its own HTTP server, alternately. */
    const writer = async (i: number) => {
      const node = nodes[i]!;
      for (let n = 0; n < 30; n++) {
        const productId = PRODUCTS[(n + i) % PRODUCTS.length]!;
        if (n % 2 === 0) {
          await node.services.reviewsData.insert({
            reviewId: crypto.randomUUID(),
            storeId: S,
            productId,
            rating: 1 + ((n + i) % 5),
            title: `Node ${i} review ${n}`,
            body: "Soft fabric, true to size.",
            createdMs: Date.now(),
            status: "published",
            reviewerName: `Node ${i}`,
          });
          published++;
        } else {
          // A new visitor from an address of its own (the per-address limits stay out of the way).
          const res = await vote(node, reviewIds[(n * 7 + i * 13) % reviewIds.length]!, `198.51.${100 + i}.${n}`);
          expect(res.status).toBe(200);
          votes++;
        }
      }
    };
    /** A reader on each node: every path, over and over, while the writers run (each answer may be cached). */
    const reader = async (node: TestServer) => {
      while (writing) {
        for (const path of paths) {
          if (!writing) break;
          await get(node, path);
          reads++;
        }
      }
    };
    const readers = [reader(a), reader(b), reader(a), reader(b)];
    await Promise.all([writer(0), writer(1)]);
    writing = false;
    await Promise.all(readers);
    expect(published).toBe(30);
    expect(votes).toBe(30);
    expect(reads).toBeGreaterThan(0);
    expect((await value<number>(a.services.db, sql`SELECT count(*) FROM reviews WHERE store_id = ${S} AND status = 'published'`))! - before).toBe(30);

    await sleep(1_000);
    const wrong: string[] = [];
    const changed: string[] = [];
    for (const path of paths) {
      const expected = await get(truth, path);
      expect(expected.status, path).toBe(200);
      if (expected.body !== warm.get(path)) changed.push(path);
      for (const [name, node] of [
        ["a", a],
        ["b", b],
      ] as const) {
        // Twice: a stale entry would be served again; a fresh computation would equal the truth.
        for (let k = 0; k < 2; k++) if ((await get(node, path)).body !== expected.body) wrong.push(`node ${name}: ${path}`);
      }
    }
    expect(wrong).toEqual([]);
    // Every answer changed since the caches were warmed (each product got new reviews), so a kept entry would have shown.
    expect(changed).toEqual(paths);
  }, 180_000);

  it("one visitor's helpful vote, sent 20 times at once, half to each node, counts once", async () => {
    // A review nobody voted on yet, and a signed visitor ID, as the widget holds one after its first vote (on another review).
    const reviewId = crypto.randomUUID();
    await a.services.reviewsData.insert({
      reviewId,
      storeId: S,
      productId: "862",
      rating: 5,
      title: "Lovely",
      body: "Soft fabric, true to size.",
      createdMs: Date.now(),
      status: "published",
      reviewerName: "Ada",
    });
    const other = (await value<string>(a.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${S} AND review_id <> ${reviewId} AND status = 'published' LIMIT 1`))!;
    const address = "203.0.113.77";
    const visitorId = (await vote(a, other, address)).body!.visitorId!;
    expect(visitorId).toMatch(/^[0-9a-f-]{36}\./);
    const counts = () => one<{ h: number; u: number }>(a.services.db, sql`SELECT helpful_count AS h, unhelpful_count AS u FROM reviews WHERE review_id = ${reviewId}`);
    const beforeCounts = (await counts())!;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(i % 2 ? b : a, reviewId, address, visitorId)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await counts()).toEqual({ h: beforeCounts.h + 1, u: beforeCounts.u });
    expect(await value<number>(a.services.db, sql`SELECT count(*) FROM review_votes WHERE review_id = ${reviewId}`)).toBe(1);
    // Both nodes answer the review's product with the new count, after 1 s at most.
    await sleep(1_000);
    const productId = (await value<string>(a.services.db, sql`SELECT product_id FROM reviews WHERE review_id = ${reviewId}`))!;
    const path = `${store}/products/shopify-${productId}/reviews?orderBy=helpful%20desc`;
    const expected = (await get(truth, path)).body;
    expect((await get(a, path)).body).toBe(expected);
    expect((await get(b, path)).body).toBe(expected);
  }, 60_000);
});
