import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
let key: string;
const auth = (store: string, k: string) => `Basic ${Buffer.from(`${store}:${k}`).toString("base64")}`;

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078"], limit: 5 });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "bigcommerce" });
  key = (await t.services.apiKeys.create(TEST_STORE_ID, "orders")).key;
});
afterAll(() => t.close());

const post = (body: unknown, authorization = auth(TEST_STORE_ID, key)) =>
  fetch(t.url("/enterprise/orders"), { method: "POST", headers: { "content-type": "application/json", authorization }, body: JSON.stringify(body) });

describe("POST /enterprise/orders (order lines)", () => {
  it("imports order lines; a review that only types a buyer's e-mail stays unverified (an e-mail is no proof, issue 19)", async () => {
    const res = await post({ orders: [{ orderId: "W-1", productId: "1078", email: "Ada@Example.com", dateCreated: "2026-02-01T10:00:00.000Z" }] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ inserted: 1 });
    const review = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-1078/reviews`), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rating: 5, body: "Fits perfectly.", displayName: "Ada", email: "ada@example.com" }),
    });
    const {
      review: { reviewId },
    } = await review.json();
    expect((await t.services.reviewsData.get(TEST_STORE_ID, reviewId))?.verified_status).toBe("unverified");
  });

  it("the same line again is kept once", async () => {
    const res = await post({ orders: [{ orderId: "W-1", productId: "1078", email: "ada@example.com" }] });
    expect(await res.json()).toEqual({ inserted: 0 });
  });

  it("wrong or missing credentials answer 401 without a body", async () => {
    for (const authorization of [auth(TEST_STORE_ID, "wrong-key-0123456789"), ""]) {
      const res = await post({ orders: [] }, authorization);
      expect(res.status).toBe(401);
      expect(await res.text()).toBe("");
    }
  });

  it.each([
    [{ orders: [] }, /at least 1/],
    [{ orders: [{ orderId: "W-2", productId: "1078", email: "nope" }] }, /email must be a valid e-mail address/],
    [{ orders: [{ productId: "1078", email: "a@example.com" }] }, /orderId is required/],
    [{ orders: [{ orderId: "W-3", productId: "1078", email: "a@example.com", dateCreated: "yesterday" }] }, /dateCreated/],
  ])("%j answers 400 naming the field", async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.description).toMatch(message);
  });
});
