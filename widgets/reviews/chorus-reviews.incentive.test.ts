// @vitest-environment happy-dom
/**
 * `<chorus-reviews>` discloses incentives (issue 22 item 4) against the real server: a review whose
 * reviewer received points for it (`isIncentivized: true`, set when the loyalty points were awarded)
 * shows "Received a reward for this review"; one without an incentive shows nothing of the kind.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { REVIEWS_TEXTS } from "../../server/contract/widget-strings/reviews.ts";
import "./chorus-reviews.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "tee", name: "Linen tee" });
  for (const [key, incentivized] of [
    ["rewarded", true],
    ["plain", false],
  ] as const) {
    await t.services.reviewsData.insert({
      reviewId: crypto.randomUUID(),
      storeId: TEST_STORE_ID,
      productId: "tee",
      rating: 5,
      title: `A ${key} review`,
      body: "Soft linen, true to size.",
      createdMs: Date.UTC(2026, 5, 1),
      status: "published",
      reviewerName: key,
      helpfulCount: 0,
      isIncentivized: incentivized,
      languageCode: "en",
      source: "test",
      sourceKey: key,
    });
  }
});
afterAll(() => t.close());

it("shows the incentive note on an incentivized review only", async () => {
  expect(REVIEWS_TEXTS["reviews.incentivized"]).toBe("Received a reward for this review");
  const el = document.createElement("chorus-reviews");
  el.setAttribute("store-id", TEST_STORE_ID);
  el.setAttribute("product-id", "shopify-tee");
  el.setAttribute("api-base", t.baseUrl);
  document.body.append(el);
  await expect.poll(() => el.shadowRoot?.querySelectorAll("article").length ?? 0, { timeout: 10_000 }).toBe(2);
  const card = (title: string) => [...el.shadowRoot!.querySelectorAll("article")].find((a) => a.textContent?.includes(title))!;
  expect(card("A rewarded review").querySelector("[part=incentive-note]")?.textContent).toBe("Received a reward for this review");
  expect(card("A plain review").querySelector("[part=incentive-note]")).toBeNull();
});
