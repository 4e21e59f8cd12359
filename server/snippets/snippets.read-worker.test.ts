/**
 * Snippets are declared `readsOnly`, so a server with read worker threads computes them there: the worker
 * loads the same Remix build, whose Lit elements render in that thread too (issue #25).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ readWorkers: 1 });
  await seedRealReviews(t.services, { productIds: ["1078"] });
});
afterAll(() => t.close());

it("a read worker thread renders the same snippet as the HTTP thread", async () => {
  const url = t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-1078/snippets/reviews`);
  const first = await fetch(url);
  expect(first.status).toBe(200);
  const html = await first.text();
  expect(html).toMatch(/^<chorus-reviews server-rendered /);
  expect(html).toContain('<template shadowroot="open" shadowrootmode="open">');
  expect(html.match(/data-review-id=/g)!.length).toBe(25);
  expect(t.readWorkers!.answered).toBeGreaterThan(0);
});
