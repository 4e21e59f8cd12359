/**
 * Security checks (issue 8, OWASP API Top 10 items that apply to the storefront reviews API):
 * cross-store access, injection strings, oversized and slow headers.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078"] });
  // Store B: same platform, an existing group name, no data of store A.
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "shopify" });
});
afterAll(() => t.close());

const SCOPED_PATHS = [
  "/reviews",
  "/review_aggregate",
  "/review_media",
  "/products/shopify-1078/reviews",
  "/products/shopify-1078/review_aggregate",
  "/products/shopify-1078/review_media",
  "/products/shopify-1078/questions",
  "/collections/dresses/reviews",
  "/collections/dresses/review_aggregate",
  "/collections/dresses/review_media",
  "/collections/dresses/questions",
];

describe("cross-store access", () => {
  it.each(SCOPED_PATHS)("store B sees none of store A's data at %s", async (path) => {
    const mine = await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}${path}`))).text();
    const res = await fetch(t.url(`/v1/stores/${OTHER_STORE_ID}${path}`));
    const theirs = await res.text();
    expect(res.status).toBeLessThan(500);
    if (path.startsWith("/collections"))
      expect(res.status).toBe(404); // the group is store A's
    else expect(res.status).toBe(200);
    // No review ID of store A appears in store B's answer.
    const ids = [...mine.matchAll(/"reviewId":"([0-9a-f-]{36})"/g)].map((m) => m[1]);
    for (const id of ids) expect(theirs).not.toContain(id);
    if (path.endsWith("review_aggregate") && res.status === 200) expect(JSON.parse(theirs).reviewAggregate.reviewCount).toBe(0);
  });

  it("a cursor from store A is rejected by store B", async () => {
    const page = await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/reviews?limit=1`))).json();
    const cursor = new URL(page.nextUrl, "http://x").searchParams.get("lastEvaluated")!;
    const res = await fetch(t.url(`/v1/stores/${OTHER_STORE_ID}/reviews?lastEvaluated=${encodeURIComponent(cursor)}`));
    expect(res.status).toBe(400);
  });
});

describe("injection", () => {
  const payloads = ["' OR '1'='1", "1; DROP TABLE reviews; --", "shopify-1078' --", '" OR ""="', "1078) UNION SELECT reviewer_email FROM reviews --"];
  it.each(payloads)("SQL in path and query parameters changes nothing and leaks nothing: %s", async (payload) => {
    const before = await t.services.reviewsData.countByStatus(TEST_STORE_ID);
    for (const path of [
      `/v1/stores/${encodeURIComponent(payload)}/reviews`,
      `/v1/stores/${TEST_STORE_ID}/products/${encodeURIComponent(`shopify-${payload}`)}/reviews`,
      `/v1/stores/${TEST_STORE_ID}/collections/${encodeURIComponent(payload)}/reviews`,
      `/v1/stores/${TEST_STORE_ID}/reviews?orderBy=${encodeURIComponent(payload)}&locale=${encodeURIComponent(payload)}`,
    ]) {
      const res = await fetch(t.url(path));
      expect([200, 400, 404]).toContain(res.status);
      const body = await res.json();
      if (res.status === 200) expect(body.reviews ?? []).toEqual([]);
    }
    expect(await t.services.reviewsData.countByStatus(TEST_STORE_ID)).toEqual(before);
  });
});

describe("headers", () => {
  it("a huge header is refused with 431, and the server keeps serving", async () => {
    const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/reviews?limit=1`), { headers: { "x-big": "a".repeat(64 * 1024) } }).catch((e) => e);
    if (res instanceof Response) expect(res.status).toBe(431);
    expect((await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/reviews?limit=1`))).status).toBe(200);
  });

  it("a slow client sending headers byte by byte does not block other requests", async () => {
    const { port } = new URL(t.baseUrl);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {});
    socket.write("GET /v1/stores/x/reviews HTTP/1.1\r\nHost: x\r\n");
    const timer = setInterval(() => socket.write("X-Slow: a\r\n"), 50);
    try {
      const started = Date.now();
      const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/review_aggregate`));
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      clearInterval(timer);
      socket.destroy();
    }
  });
});
