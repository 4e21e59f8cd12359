/**
 * A photo over the 10 MB image limit answers 413 (docs/writes.md, "Review fields and limits"). Direct to a node only (SQLite and PostgreSQL runs;
 * test/engine-suites.ts leaves it out of the Varnish-front run): behind Varnish, Chorus still answers 413 at the
 * image's 10 MB, but Varnish 7 reads a backend's answer only after sending the whole request body, and Chorus stops
 * reading the rest, so Varnish answers 503 (a known Varnish limitation: varnishcache/varnish-cache#2332, PR #3814).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
let rows: RealReview[];
const PRODUCT = "1078";

beforeAll(async () => {
  t = await startTestServer();
  rows = await seedRealReviews(t.services, { productIds: [PRODUCT] });
});
afterAll(() => t.close());

it("a 20 MB image answers 413", async () => {
  const r = rows.filter((x) => x.body && x.title)[5]!;
  const fd = new FormData();
  for (const [k, v] of Object.entries({ rating: r.rating, title: r.title, body: r.body, displayName: "Dana", email: "dana5@example.com", isRecommended: r.recommended })) fd.append(k, String(v));
  const big = Buffer.alloc(20 * 1024 * 1024, 0x41);
  big.set([0xff, 0xd8, 0xff, 0xe0], 0);
  fd.append("media", new Blob([big as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "big.jpg");
  const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/reviews`), { method: "POST", body: fd });
  expect(res.status).toBe(413);
  const body = (await res.json()) as { error: { description: string } };
  expect(body.error.description).toMatch(/at most 10 MB/);
});
