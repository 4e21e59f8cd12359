// @vitest-environment happy-dom
/**
 * `<chorus-reviews>` in happy-dom against the real server: a review body that contains markup is
 * shown as text, never parsed as HTML (docs/api.md, Responses).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import "./chorus-reviews.ts";

let t: TestServer;
const HOSTILE = `<img src=x onerror="window.__pwned=1"><b>bold</b> & "quoted"`;

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1094"], limit: 1 });
  await t.services.reviewsData.insert({
    reviewId: crypto.randomUUID(),
    storeId: TEST_STORE_ID,
    productId: "1094",
    rating: 2,
    title: `<i>${HOSTILE}</i>`,
    body: HOSTILE,
    createdMs: Date.UTC(2026, 5, 1),
    status: "published",
    reviewerName: "<script>x</script>",
    helpfulCount: 0,
    isRecommended: false,
    languageCode: "en",
    source: "test",
    sourceKey: "hostile",
  });
});
afterAll(() => t.close());

it("renders a review's title, body and reviewer name as text, never as HTML", async () => {
  const el = document.createElement("chorus-reviews");
  el.setAttribute("store-id", TEST_STORE_ID);
  el.setAttribute("product-id", "shopify-1094");
  el.setAttribute("api-base", t.baseUrl);
  document.body.append(el);
  await expect.poll(() => el.shadowRoot?.querySelectorAll("article").length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
  const card = [...el.shadowRoot!.querySelectorAll("article")].find((a) => a.textContent?.includes("quoted"))!;
  expect(card.querySelector("[part=body]")!.textContent).toBe(HOSTILE);
  expect(card.querySelector("[part=title]")!.textContent).toBe(`<i>${HOSTILE}</i>`);
  expect(card.querySelector("[part=reviewer]")!.textContent).toBe("<script>x</script>");
  expect(card.querySelector("img, b, i, script")).toBeNull();
  expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
});
