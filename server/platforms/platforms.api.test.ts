/**
 * Shop-platform webhooks over real HTTP (issue #22 items 1, 3, 4, 5): Shopify-format deliveries signed
 * with the store's app secret, products named from them in the storefront API, orders stored once,
 * points awarded once and reversed on cancellation, verified buyers by signed-in shopper only, the
 * signed-webhook endpoint, and the settings API.
 */
import { createHmac, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import type { FulfilledOrder, ReviewRequestsReceiver } from "./platforms.service.ts";
import { all, one, run, sql, value } from "../db/database.ts";

const SHOP = "chorus-test.myshopify.com";
const APP_SECRET = "shpss_test_0123456789abcdef0123456789";
const PLATFORM_SECRET = "platform-token-secret-0123456789abcdef";
const API_KEY = "platform-test-api-key-0123456789abcdef";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const S = `/v1/stores/${TEST_STORE_ID}`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(PLATFORM_SECRET));
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
});
afterAll(() => t.close());

/** POST a Shopify webhook: `body` signed with `secret` (default: the store's app secret) unless `hmac` is given. */
async function shopify(topic: string, body: unknown, opts: { id?: string; secret?: string; hmac?: string; shop?: string; raw?: string } = {}) {
  const raw = opts.raw ?? JSON.stringify(body);
  const headers = {
    "content-type": "application/json",
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": opts.shop ?? SHOP,
    "x-shopify-webhook-id": opts.id ?? randomUUID(),
    "x-shopify-hmac-sha256":
      opts.hmac ??
      createHmac("sha256", opts.secret ?? APP_SECRET)
        .update(raw)
        .digest("base64"),
  };
  const res = await fetch(t.url("/platforms/shopify/webhooks"), { method: "POST", headers, body: raw });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers };
}

/** POST a signed webhook (Chorus JSON) to the store. */
async function signed(body: unknown, opts: { id?: string; secret?: string; timestampS?: number; storeId?: string } = {}) {
  const raw = JSON.stringify(body);
  const ts = String(opts.timestampS ?? Math.floor(Date.now() / 1000));
  const signature = `sha256=${createHmac("sha256", opts.secret ?? APP_SECRET)
    .update(`${ts}.${raw}`)
    .digest("hex")}`;
  const res = await fetch(t.url(`/platforms/webhooks/${opts.storeId ?? TEST_STORE_ID}`), {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/json", "x-chorus-signature": signature, "x-chorus-webhook-id": opts.id ?? randomUUID(), "x-chorus-timestamp": ts },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A Shopify Order payload (fields as Shopify documents them). */
const order = (id: number, customerId: number | null, lines: { productId: number; price: string; quantity?: number }[], extra: Record<string, unknown> = {}) => ({
  id,
  name: `#${id}`,
  email: "Buyer@Example.com",
  created_at: "2026-11-20T10:00:00-05:00",
  cancelled_at: null,
  fulfillment_status: null,
  currency: "USD",
  subtotal_price: lines.reduce((s, l) => s + Number(l.price) * (l.quantity ?? 1), 0).toFixed(2),
  total_price: "999.00",
  customer_locale: "en",
  customer: customerId === null ? null : { id: customerId, first_name: "Ada", last_name: "Buyer", email: "buyer@example.com" },
  line_items: lines.map((l, i) => ({ id: id * 10 + i, product_id: l.productId, variant_id: l.productId * 100, title: `Item ${l.productId}`, price: l.price, quantity: l.quantity ?? 1 })),
  fulfillments: [],
  ...extra,
});

const count = async (table: string) => Number(await value<number>(t.services.db, sql`SELECT COUNT(*) AS n FROM ${sql.raw(table)} WHERE store_id = ${TEST_STORE_ID}`));
const counts = async () => ({
  orders: await count("order_headers"),
  lines: await count("orders"),
  products: await count("products"),
  deliveries: await count("platform_webhooks"),
  points: await count("loyalty_transactions"),
});

async function call(path: string, init: { body?: unknown; token?: string; method?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(t.url(path), { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Sign in as platform customer `id` (and enrol): the customer token and loyalty customer. */
async function shopper(id: string, enrol = true) {
  const login = await call(`${S}/loyalty/login`, { body: { customerAccessToken: await signPlatformToken(PLATFORM_SECRET, { platformCustomerId: id, email: `${id}@example.test` }) } });
  expect(login.status).toBe(200);
  if (enrol) {
    const version = (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
    expect((await call(`${S}/loyalty/customer_activation`, { token: login.body.customerToken, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } })).status).toBe(200);
  }
  return { token: login.body.customerToken as string, id: login.body.loyaltyCustomer.loyaltyCustomerId as string };
}
const balance = async (customerId: string) => (await t.services.loyaltyData.getCustomer(TEST_STORE_ID, customerId))!.balance;

describe("Shopify product webhooks", () => {
  it("products/update gives a product its real name, URL and image in the storefront API", async () => {
    const before = await call(`${S}/products/shopify-1078/reviews?limit=1`);
    expect(before.body.reviews[0].productName).toBe("Dresses #1078");
    const r = await shopify("products/update", {
      id: 1078,
      title: "Tiered Linen Midi Dress",
      handle: "tiered-linen-midi-dress",
      status: "active",
      image: { src: "https://cdn.shopify.com/s/files/1/0001/products/linen-dress.jpg" },
      images: [{ src: "https://cdn.shopify.com/s/files/1/0001/products/linen-dress.jpg" }],
    });
    expect(r).toMatchObject({ status: 200, body: { outcome: "applied" } });
    const review = (await call(`${S}/products/shopify-1078/reviews?limit=1`)).body.reviews[0];
    expect(review).toMatchObject({
      productName: "Tiered Linen Midi Dress",
      productUrl: `https://${SHOP}/products/tiered-linen-midi-dress`,
      productImageUrl: "https://cdn.shopify.com/s/files/1/0001/products/linen-dress.jpg",
    });
    // The product keeps its review group (collections still list its reviews).
    expect((await t.services.stores.getProduct(TEST_STORE_ID, "1078"))!.groupId).toBe("dresses");
  });

  it("products/create adds a product; products/delete keeps it (and its reviews) without a page link", async () => {
    expect((await shopify("products/create", { id: 555001, title: "Wool Scarf", handle: "wool-scarf", images: [] })).status).toBe(200);
    expect(await t.services.stores.getProduct(TEST_STORE_ID, "555001")).toMatchObject({ name: "Wool Scarf", url: `https://${SHOP}/products/wool-scarf` });
    expect((await shopify("products/delete", { id: 555001 })).status).toBe(200);
    expect(await t.services.stores.getProduct(TEST_STORE_ID, "555001")).toMatchObject({ name: "Wool Scarf", url: undefined });
  });
});

describe("Shopify order webhooks: stored once, points once, reversed on cancellation", () => {
  it("orders/create stores the order and its lines and awards points-per-spend to the enrolled customer", async () => {
    const me = await shopper("7001");
    const afterSignUp = await balance(me.id);
    const delivery = randomUUID();
    const body = order(900001, 7001, [
      { productId: 1078, price: "60.00", quantity: 2 },
      { productId: 862, price: "15.50" },
    ]);
    expect((await shopify("orders/create", body, { id: delivery })).body).toEqual({ outcome: "applied" });
    const header = (await t.services.ordersData.getOrder(TEST_STORE_ID, "900001"))!;
    expect(header).toMatchObject({
      order_name: "#900001",
      email: "buyer@example.com",
      platform_customer_id: "7001",
      customer_name: "Ada Buyer",
      status: "ordered",
      subtotal: 135.5,
      source: "shopify-webhook",
    });
    expect(header.ordered_ms).toBe(Date.parse("2026-11-20T15:00:00Z"));
    expect((await t.services.ordersData.lines(TEST_STORE_ID, "900001")).map((l) => [l.product_id, l.quantity, l.price])).toEqual([
      ["1078", 2, 60],
      ["862", 1, 15.5],
    ]);
    // A line's unknown product is named from the line until its product webhook arrives.
    expect((await t.services.stores.getProduct(TEST_STORE_ID, "862"))?.name).toBe("Item 862");
    // 135.50 × 1 point per unit × Bronze multiplier 1 = 135.
    expect(await balance(me.id)).toBe(afterSignUp + 135);

    // The same delivery again: 200, nothing changes.
    const before = await counts();
    expect((await shopify("orders/create", body, { id: delivery })).body).toEqual({ outcome: "duplicate" });
    // Another delivery of the same order (Shopify retries with a new ID on some topics): still stored once, points once.
    expect((await shopify("orders/create", body)).body).toEqual({ outcome: "applied" });
    expect({ ...(await counts()), deliveries: before.deliveries }).toEqual(before);
    expect(await balance(me.id)).toBe(afterSignUp + 135);
    expect((await t.services.loyalty.checkLedger(TEST_STORE_ID, me.id)).ok).toBe(true);
  });

  it("orders/fulfilled marks it fulfilled once and tells review requests after commit; orders/cancelled reverses the points", async () => {
    const me = await shopper("7002");
    const base = await balance(me.id);
    const calls: (FulfilledOrder | string)[] = [];
    const receiver: ReviewRequestsReceiver = { orderFulfilled: (o) => calls.push(o), orderCancelled: (s, id) => calls.push(`cancelled ${s} ${id}`) };
    const body = order(900002, 7002, [{ productId: 1078, price: "80.00" }]);
    const raw = (o: unknown) => Buffer.from(JSON.stringify(o));
    const hmacOf = (b: Buffer) => createHmac("sha256", APP_SECRET).update(b).digest("base64");
    const deliver = (topic: string, o: unknown, id = randomUUID()) => t.services.platforms.receiveShopify({ topic, hmac: hmacOf(raw(o)), shopDomain: SHOP, webhookId: id }, raw(o), receiver);

    expect(await deliver("orders/create", body)).toBe("applied");
    expect(await balance(me.id)).toBe(base + 80);
    const fulfilled = { ...body, fulfillment_status: "fulfilled", fulfillments: [{ created_at: "2026-11-21T09:30:00Z", status: "success" }] };
    expect(await deliver("orders/fulfilled", fulfilled)).toBe("applied");
    expect(await deliver("orders/fulfilled", fulfilled)).toBe("applied"); // a second delivery: no second call
    expect(calls).toEqual([
      {
        storeId: TEST_STORE_ID,
        orderId: "900002",
        email: "buyer@example.com",
        customerName: "Ada Buyer",
        locale: "en",
        lines: [{ productId: "1078" }],
        fulfilledMs: Date.parse("2026-11-21T09:30:00Z"),
      },
    ]);
    expect(await t.services.ordersData.getOrder(TEST_STORE_ID, "900002")).toMatchObject({ status: "fulfilled", fulfilled_ms: Date.parse("2026-11-21T09:30:00Z") });

    // The cancellation reverses the 80 points, once (the second delivery over HTTP).
    const cancelled = { ...body, cancelled_at: "2026-11-22T08:00:00Z" };
    expect(await deliver("orders/cancelled", cancelled)).toBe("applied");
    expect((await shopify("orders/cancelled", cancelled)).body).toEqual({ outcome: "applied" });
    expect(await balance(me.id)).toBe(base);
    expect(await t.services.ordersData.getOrder(TEST_STORE_ID, "900002")).toMatchObject({ status: "cancelled", cancelled_ms: Date.parse("2026-11-22T08:00:00Z") });
    const tx = (await call(`${S}/loyalty/customer/transactions`, { token: me.token })).body.transactions;
    expect(tx.slice(0, 2).map((x: { type: string; points: number }) => [x.type, x.points])).toEqual([
      ["adjustment", -80],
      ["earning", 80],
    ]);
    expect((await t.services.loyalty.checkLedger(TEST_STORE_ID, me.id)).ok).toBe(true);
    // A cancelled order never earns again (a late orders/create delivery).
    expect(await deliver("orders/create", body)).toBe("applied");
    expect(await balance(me.id)).toBe(base);
    expect(calls).toEqual([expect.anything(), `cancelled ${TEST_STORE_ID} 900002`]);
  });

  it("over HTTP, a fulfilment records the order's review request and a cancellation cancels it (server/review-requests)", async () => {
    await t.services.reviewRequests.update(TEST_STORE_ID, { enabled: true, delayDays: 1 });
    const body = order(900010, null, [{ productId: 1078, price: "30.00" }], { created_at: new Date(Date.now() - 3_600_000).toISOString() });
    expect((await shopify("orders/create", body)).status).toBe(200);
    expect(await t.services.reviewRequests.byOrder(TEST_STORE_ID, "900010")).toBeUndefined();
    const fulfilled = { ...body, fulfillment_status: "fulfilled", fulfillments: [{ created_at: new Date().toISOString(), status: "success" }] };
    expect((await shopify("orders/fulfilled", fulfilled)).status).toBe(200);
    expect(await t.services.reviewRequests.byOrder(TEST_STORE_ID, "900010")).toMatchObject({ email: "buyer@example.com", status: "scheduled" });
    expect((await shopify("orders/cancelled", { ...body, cancelled_at: new Date().toISOString() })).status).toBe(200);
    expect((await t.services.reviewRequests.byOrder(TEST_STORE_ID, "900010"))?.status).toBe("cancelled");
    await t.services.reviewRequests.update(TEST_STORE_ID, { enabled: false });
  });

  it("the VIP multiplier applies; pending (not enrolled) customers and guests earn nothing", async () => {
    const silver = await shopper("7003");
    await run(
      t.services.db,
      sql`UPDATE loyalty_customers SET vip_tier_id = (SELECT vip_tier_id FROM loyalty_vip_tiers WHERE store_id = ${TEST_STORE_ID} AND name = 'Silver') WHERE loyalty_customer_id = ${silver.id}`,
    );
    const b = await balance(silver.id);
    expect((await shopify("orders/create", order(900003, 7003, [{ productId: 1078, price: "100.00" }]))).status).toBe(200);
    expect(await balance(silver.id)).toBe(b + 125);
    const pending = await shopper("7004", false);
    expect((await shopify("orders/create", order(900004, 7004, [{ productId: 1078, price: "100.00" }]))).status).toBe(200);
    expect(await balance(pending.id)).toBe(0);
    const before = await count("loyalty_transactions");
    expect((await shopify("orders/create", order(900005, null, [{ productId: 1078, price: "100.00" }]))).status).toBe(200);
    expect(await count("loyalty_transactions")).toBe(before);
  });
});

describe("verified buyers (issue #22 item 3)", () => {
  const submit = (token: string | undefined, email = "buyer@example.com") =>
    call(`${S}/products/shopify-1078/reviews`, { token, body: { rating: 5, title: "Lovely", body: "Fits well and the colour is as shown.", displayName: "Ada", email } });
  const statusOf = async (reviewId: string) => ((await one(t.services.db, sql`SELECT verified_status FROM reviews WHERE review_id = ${reviewId}`)) as { verified_status: string }).verified_status;

  it("a signed-in shopper whose platform customer ordered the product writes a verified-buyer review", async () => {
    const me = await shopper("7101", false);
    expect((await shopify("orders/create", order(910001, 7101, [{ productId: 1078, price: "10.00" }]))).status).toBe(200);
    const r = await submit(me.token);
    expect(r.status).toBe(201);
    expect(await statusOf(r.body.review.reviewId)).toBe("verified-buyer");
  });

  it("a signed-in shopper without an order of the product, or whose only order was cancelled, is unverified", async () => {
    const other = await shopper("7102", false);
    expect((await shopify("orders/create", order(910002, 7102, [{ productId: 862, price: "10.00" }]))).status).toBe(200);
    const r = await submit(other.token);
    expect(await statusOf(r.body.review.reviewId)).toBe("unverified");
    const cancelledBuyer = await shopper("7103", false);
    expect((await shopify("orders/cancelled", order(910003, 7103, [{ productId: 1078, price: "10.00" }], { cancelled_at: "2026-11-21T00:00:00Z" }))).status).toBe(200);
    expect(await statusOf((await submit(cancelledBuyer.token)).body.review.reviewId)).toBe("unverified");
  });

  it("an e-mail that matches an order never verifies on its own", async () => {
    // buyer@example.com is the e-mail of every order above.
    expect(await t.services.ordersData.isVerifiedBuyer(TEST_STORE_ID, "buyer@example.com", "1078")).toBe(true);
    const r = await submit(undefined, "Buyer@Example.com");
    expect(r.status).toBe(201);
    expect(await statusOf(r.body.review.reviewId)).toBe("unverified");
  });

  it("an invalid customer token is a 401, not a silent unverified review", async () => {
    expect((await submit("not-a-token.x.y")).status).toBe(401);
  });
});

describe("refused deliveries store nothing", () => {
  it("bad signature 401, unknown shop 404, malformed signed body 400, missing topic/shop/ID headers 400, unknown topic 200 ignored", async () => {
    const before = await counts();
    const body = order(920001, 7001, [{ productId: 1078, price: "10.00" }]);
    expect((await shopify("orders/create", body, { secret: "another-secret-0123456789" })).status).toBe(401);
    expect((await shopify("orders/create", body, { hmac: "not base64 at all" })).status).toBe(401);
    expect((await shopify("orders/create", body, { shop: "unknown-shop.myshopify.com" })).status).toBe(404);
    const malformed = await shopify("orders/create", { ...body, line_items: "nope" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.description).toMatch(/line_items/);
    expect((await shopify("orders/create", null, { raw: "{not json" })).status).toBe(400);
    const missing = await fetch(t.url("/platforms/shopify/webhooks"), {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-hmac-sha256": createHmac("sha256", APP_SECRET).update("{}").digest("base64") },
      body: "{}",
    });
    expect(missing.status).toBe(400); // no topic, shop or delivery ID
    expect(await counts()).toEqual(before);
    expect((await shopify("customers/create", { id: 1 })).body).toEqual({ outcome: "ignored" });
    expect({ ...(await counts()), deliveries: before.deliveries }).toEqual(before);
  });

  it("a Shopify delivery without a valid HMAC header (missing, empty, malformed base64, wrong) is 401 JSON and stores nothing, whatever the shop", async () => {
    const before = await counts();
    const body = order(920002, 7002, [{ productId: 1078, price: "12.00" }]);
    const raw = JSON.stringify(body);
    const right = createHmac("sha256", APP_SECRET).update(raw).digest("base64");
    const send = async (hmac: string | undefined, shop = SHOP) => {
      const headers: Record<string, string> = { "content-type": "application/json", "x-shopify-topic": "orders/create", "x-shopify-shop-domain": shop, "x-shopify-webhook-id": randomUUID() };
      if (hmac !== undefined) headers["x-shopify-hmac-sha256"] = hmac;
      const res = await fetch(t.url("/platforms/shopify/webhooks"), { method: "POST", headers, body: raw });
      return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
    };
    const refused = [
      undefined,
      "",
      "   ",
      "not base64 at all",
      right.slice(0, -2),
      `${right}AA==`,
      right.replace(/=$/, ""),
      Buffer.from("x".repeat(32)).toString("hex"),
      createHmac("sha256", "another-secret-0123456789").update(raw).digest("base64"),
      createHmac("sha256", APP_SECRET).update(`${raw} `).digest("base64"),
    ];
    for (const hmac of refused) {
      const res = await send(hmac);
      expect(res.status, JSON.stringify(hmac)).toBe(401);
      expect(res.type).toContain("application/json");
      expect(res.body).toEqual({ error: { description: expect.stringMatching(/X-Shopify-Hmac-Sha256/), code: "invalid_webhook_signature" } });
    }
    // Unverifiable is 401 even for a shop not connected here (a well-formed but unknown signer is 404, above).
    expect((await send(undefined, "unknown-shop.myshopify.com")).status).toBe(401);
    expect(await counts()).toEqual(before);
    expect((await send(right)).status).toBe(200);
    expect((await counts()).orders).toBe(before.orders + 1);
  });

  it("a body over 1 MB is 413 before it is read", async () => {
    const res = await fetch(t.url("/platforms/shopify/webhooks"), {
      method: "POST",
      body: "x".repeat(1024 * 1024 + 1),
      headers: { "content-type": "application/json", "x-shopify-topic": "orders/create", "x-shopify-shop-domain": SHOP, "x-shopify-webhook-id": "big", "x-shopify-hmac-sha256": "x" },
    });
    expect(res.status).toBe(413);
  });
});

describe("signed webhooks (other platforms)", () => {
  const created = (orderId: string) => ({
    type: "order.created",
    order: { orderId, name: `W-${orderId}`, email: "woo@example.com", customerId: "woo-1", subtotal: 42, dateCreated: "2026-11-20T12:00:00Z", lines: [{ productId: "1078", quantity: 1, price: 42 }] },
  });

  it("applies an order and a product once; stale timestamps, bad signatures and unknown stores are refused", async () => {
    const id = randomUUID();
    expect(await signed(created("w-1"), { id })).toEqual({ status: 200, body: { outcome: "applied" } });
    expect(await signed(created("w-1"), { id })).toEqual({ status: 200, body: { outcome: "duplicate" } });
    expect(await t.services.ordersData.getOrder(TEST_STORE_ID, "w-1")).toMatchObject({ order_name: "W-w-1", platform_customer_id: "woo-1", source: "signed-webhook", status: "ordered" });
    expect((await signed({ type: "order.fulfilled", order: created("w-1").order, dateFulfilled: "2026-11-21T12:00:00Z" })).status).toBe(200);
    expect((await t.services.ordersData.getOrder(TEST_STORE_ID, "w-1"))?.status).toBe("fulfilled");
    expect(
      (await signed({ type: "product.upserted", product: { productId: "w-prod", name: "Linen Shirt", url: "https://shop.example/linen-shirt", imageUrl: "https://shop.example/linen.jpg" } })).status,
    ).toBe(200);
    expect(await t.services.stores.getProduct(TEST_STORE_ID, "w-prod")).toMatchObject({ name: "Linen Shirt", url: "https://shop.example/linen-shirt", imageUrl: "https://shop.example/linen.jpg" });

    const before = await counts();
    expect((await signed(created("w-2"), { timestampS: Math.floor(Date.now() / 1000) - 301 })).status).toBe(401);
    expect((await signed(created("w-2"), { secret: "wrong-secret-0123456789" })).status).toBe(401);
    expect((await signed(created("w-2"), { storeId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    expect((await signed({ type: "order.created", order: { orderId: "w-3" } })).status).toBe(400);
    expect((await signed({ type: "order.teleported" })).status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it("a missing, empty or malformed signature or timestamp is 401 JSON and stores nothing", async () => {
    const before = await counts();
    const raw = JSON.stringify(created("w-4"));
    const ts = String(Math.floor(Date.now() / 1000));
    const good = `sha256=${createHmac("sha256", APP_SECRET).update(`${ts}.${raw}`).digest("hex")}`;
    const cases: Record<string, string | undefined>[] = [
      { signature: undefined, timestamp: ts },
      { signature: "", timestamp: ts },
      { signature: "sha256=", timestamp: ts },
      { signature: good.slice(0, -1), timestamp: ts },
      { signature: good.replace("sha256=", "sha1="), timestamp: ts },
      { signature: `sha256=${"z".repeat(64)}`, timestamp: ts },
      { signature: good, timestamp: undefined },
      { signature: good, timestamp: "" },
      { signature: good, timestamp: "yesterday" },
      { signature: good, timestamp: String(Number(ts) + 1) },
    ];
    for (const c of cases) {
      const headers: Record<string, string> = { "content-type": "application/json", "x-chorus-webhook-id": randomUUID() };
      if (c.signature !== undefined) headers["x-chorus-signature"] = c.signature;
      if (c.timestamp !== undefined) headers["x-chorus-timestamp"] = c.timestamp;
      const res = await fetch(t.url(`/platforms/webhooks/${TEST_STORE_ID}`), { method: "POST", headers, body: raw });
      expect(res.status, JSON.stringify(c)).toBe(401);
      expect((await res.json()).error.code).toBe("invalid_webhook_signature");
    }
    expect(await counts()).toEqual(before);
  });
});

describe("GET/PATCH /enterprise/settings", () => {
  it("shows the platform section without the secret; rotating the secret changes which signatures pass", async () => {
    const get = await call("/enterprise/settings", { headers: { authorization: basic } });
    expect(get.status).toBe(200);
    expect(get.body.platform).toMatchObject({
      platform: "shopify",
      shopDomain: SHOP,
      appSecretSet: true,
      webhookUrls: { shopify: expect.stringMatching(/^http:\/\/localhost:\d+\/platforms\/shopify\/webhooks$/), signed: expect.stringMatching(new RegExp(`/platforms/webhooks/${TEST_STORE_ID}$`)) },
    });
    expect(JSON.stringify(get.body)).not.toContain(APP_SECRET);
    expect(JSON.stringify(await all(t.services.db, sql`SELECT * FROM platform_connections`))).not.toContain(APP_SECRET);

    expect((await call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body: { platform: { shopDomain: "not a domain" } } })).status).toBe(400);
    expect((await call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body: { platform: { appSecret: "short" } } })).status).toBe(400);
    expect((await call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body: { nonsense: {} } })).status).toBe(400);
    expect((await call("/enterprise/settings", { method: "PATCH", body: { platform: {} } })).status).toBe(401);

    const rotated = "shpss_rotated_secret_abcdef0123456789";
    const patch = await call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body: { platform: { appSecret: rotated, shopDomain: "Chorus-Test.myshopify.com" } } });
    expect(patch.status).toBe(200);
    expect(patch.body.platform).toMatchObject({ shopDomain: SHOP, appSecretSet: true });
    const product = { id: 1078, title: "Tiered Linen Midi Dress", handle: "tiered-linen-midi-dress", images: [] };
    expect((await shopify("products/update", product)).status).toBe(401);
    expect((await shopify("products/update", product, { secret: rotated })).status).toBe(200);
    // Sections of other modules, through the same endpoint; a PATCH with one bad section changes nothing.
    const both = await call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body: { reviewRequests: { delayDays: 3 }, widgets: { colors: { accent: "#112233" } } } });
    expect(both.status).toBe(200);
    expect(both.body.reviewRequests.delayDays).toBe(3);
    expect(both.body.widgets.colors.accent).toBe("#112233");
    const bad = await call("/enterprise/settings", {
      method: "PATCH",
      headers: { authorization: basic },
      body: { platform: { shopDomain: "elsewhere.myshopify.com" }, reviewRequests: { delayDays: 9999 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.description).toMatch(/delayDays/);
    expect((await call("/enterprise/settings", { headers: { authorization: basic } })).body.platform.shopDomain).toBe(SHOP);
    // Put the first secret back for the other tests' helpers.
    expect((await call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body: { platform: { appSecret: APP_SECRET } } })).status).toBe(200);
  });
});
