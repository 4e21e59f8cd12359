/**
 * WooCommerce as a shop platform over real HTTP (issue #38 item 2; docs/platforms.md "WooCommerce"): the connection by
 * `PATCH /enterprise/settings` (secrets write-only and sealed, the site address checked), deliveries signed as
 * WooCommerce signs them (base64 HMAC-SHA256 of the raw body) applied once, forged, unsigned and replayed ones refused
 * 401 with nothing stored, the creation ping, a completed order making a verified buyer and a review request received
 * on a real SMTP server, a refund and a cancellation taking points back, products with their identifiers, a redemption
 * creating a coupon on a stand-in WooCommerce REST API (a real HTTP server checking the Basic credentials and the body),
 * and the theme snippet of docs/platforms.md run by a real PHP whose token the server accepts.
 */
import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config.ts";
import { one, run, sql, value } from "../db/database.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { STALE_MS } from "../loyalty/platform-rewards.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";

const STORE = randomUUID();
const OTHER = randomUUID();
const PLATFORM_SECRET = "woo-platform-token-secret-0123456789";
const WEBHOOK_SECRET = "woo webhook secret: 0123456789 !@#";
const CK = "ck_0123456789abcdef0123456789abcdef01234567";
const CS = "cs_76543210fedcba9876543210fedcba9876543210";
const API_KEY = "woo-test-api-key-0123456789abcdef";
const basic = `Basic ${Buffer.from(`${STORE}:${API_KEY}`).toString("base64")}`;
const S = `/v1/stores/${STORE}`;
const DAY = 86_400_000;
const clock = Date.now();
/** A WooCommerce GMT time (no zone) `ms` from now. */
const gmt = (ms: number) => new Date(clock + ms).toISOString().slice(0, 19);
const COMPLETED = gmt(-3_600_000);

/** A stand-in for WooCommerce's REST API (coupons), a real HTTP server on a loopback port. */
type WooStandIn = { url: string; coupons: Map<string, Record<string, unknown> & { id: number }>; refusals: string[]; mode: "ok" | "error"; close(): Promise<void> };
async function startWooStandIn(): Promise<WooStandIn> {
  let next = 500;
  const expected = `Basic ${Buffer.from(`${CK}:${CS}`).toString("base64")}`;
  const send = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const state: WooStandIn = {
    url: "",
    coupons: new Map(),
    refusals: [],
    mode: "ok",
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.headers.authorization !== expected) {
      state.refusals.push(`authorization ${req.headers.authorization}`);
      return send(res, 401, { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources.", data: { status: 401 } });
    }
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (url.pathname !== "/shop/wp-json/wc/v3/coupons") return send(res, 404, { code: "rest_no_route" });
    if (req.method === "GET")
      return send(
        res,
        200,
        [...state.coupons.values()].filter((c) => c.code === url.searchParams.get("code")),
      );
    if (req.method !== "POST" || req.headers["content-type"] !== "application/json") return send(res, 400, { code: "bad_request" });
    if (state.mode === "error") return send(res, 500, { code: "internal_server_error" });
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    const problems = [
      typeof body.code === "string" && /^CHORUS-/.test(body.code) ? null : "code",
      ["percent", "fixed_cart"].includes(body.discount_type as string) ? null : "discount_type",
      typeof body.amount === "string" && /^\d+(\.\d\d)?$/.test(body.amount) ? null : "amount",
      body.usage_limit === 1 ? null : "usage_limit",
      Array.isArray(body.email_restrictions) ? null : "email_restrictions",
    ].filter(Boolean);
    if (problems.length) {
      state.refusals.push(`fields ${problems.join(", ")}`);
      return send(res, 400, { code: "rest_invalid_param", message: `Invalid parameter(s): ${problems.join(", ")}` });
    }
    const coupon = { ...body, id: next++ };
    state.coupons.set(body.code as string, coupon);
    return send(res, 201, coupon);
  }
  const server = createServer((req, res) => void handle(req, res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop`;
  return state;
}

let t: TestServer;
let smtp: TestSmtp;
let woo: WooStandIn;
beforeAll(async () => {
  smtp = await startTestSmtp();
  woo = await startWooStandIn();
  t = await startTestServer({ allowLoopbackRequests: true, mail: { smtpUrl: smtp.url, sender: "manual" }, rewards: { now: () => clock } });
  for (const storeId of [STORE, OTHER]) await t.services.stores.create({ storeId, name: "Linden & Loom", platform: "woocommerce" });
  await t.services.loyalty.setupProgram(STORE, demoProgram(PLATFORM_SECRET));
  await t.services.apiKeys.create(STORE, "woo tests", API_KEY);
  await t.services.reviewRequests.update(STORE, { enabled: true, delayDays: 0, reminderDays: null, quietHours: null });
});
afterAll(async () => {
  await t?.close();
  await woo?.close();
  await smtp?.close();
});

async function call(path: string, init: { body?: unknown; token?: string; method?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(t.url(path), { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const settings = (platform: unknown) => call("/enterprise/settings", { method: "PATCH", body: { platform }, headers: { authorization: basic } });

/** POST a delivery as WooCommerce does: the raw JSON, topic, source, delivery ID and the base64 HMAC-SHA256 of the body. */
async function deliver(topic: string, body: unknown, opts: { id?: string; secret?: string; signature?: string | null; source?: string; raw?: string } = {}) {
  const raw = opts.raw ?? JSON.stringify(body);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-wc-webhook-topic": topic,
    "x-wc-webhook-resource": topic.split(".")[0],
    "x-wc-webhook-event": topic.split(".")[1],
    "x-wc-webhook-source": opts.source ?? `${woo.url}/`,
    "x-wc-webhook-delivery-id": opts.id ?? randomUUID(),
    "x-wc-webhook-id": "7",
  };
  const signature =
    opts.signature === undefined
      ? createHmac("sha256", opts.secret ?? WEBHOOK_SECRET)
          .update(raw)
          .digest("base64")
      : opts.signature;
  if (signature !== null) headers["x-wc-webhook-signature"] = signature;
  const res = await fetch(t.url("/platforms/woocommerce/webhooks"), { method: "POST", headers, body: raw });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, contentType: res.headers.get("content-type") };
}

/** A WooCommerce Order (REST API v3 fields). */
const order = (id: number, customerId: number, status: string, lines: { productId: number; total: string; quantity?: number }[], extra: Record<string, unknown> = {}) => ({
  id,
  parent_id: 0,
  number: String(id),
  order_key: `wc_order_${id}`,
  status,
  currency: "EUR",
  date_created: gmt(-2 * DAY),
  date_created_gmt: gmt(-2 * DAY),
  date_modified_gmt: gmt(-DAY),
  date_completed_gmt: status === "completed" ? COMPLETED : null,
  customer_id: customerId,
  billing: { first_name: "Ada", last_name: "Buyer", email: "Ada.Buyer@Example.com", country: "NL" },
  total: "999.00",
  line_items: lines.map((l, i) => ({
    id: id * 10 + i,
    name: `Item ${l.productId}`,
    product_id: l.productId,
    variation_id: 0,
    quantity: l.quantity ?? 1,
    subtotal: l.total,
    total: l.total,
    price: Number(l.total),
  })),
  refunds: [],
  meta_data: [],
  ...extra,
});
/** A WooCommerce Product (REST API v3 fields). */
const product = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: "Linen Apron",
  slug: "linen-apron",
  permalink: `https://shop.example/product/linen-apron-${id}/`,
  type: "simple",
  status: "publish",
  sku: `APR-${id}`,
  global_unique_id: "4006381333931",
  images: [
    { id: 1, src: "http://insecure.example/a.jpg" },
    { id: 2, src: "https://shop.example/wp-content/uploads/apron.jpg" },
  ],
  brands: [{ id: 3, name: "Linden", slug: "linden" }],
  meta_data: [{ id: 9, key: "_mpn", value: "LA-01" }],
  ...extra,
});

const count = async (table: string) => Number(await value<number>(t.services.db, sql`SELECT COUNT(*) AS n FROM ${sql.raw(table)} WHERE store_id = ${STORE}`));
const counts = async () => ({
  orders: await count("order_headers"),
  lines: await count("orders"),
  products: await count("products"),
  deliveries: await count("platform_webhooks"),
  points: await count("loyalty_transactions"),
});

/** Sign in as WordPress user `id` with a token signed as the theme snippet signs it, and enrol. */
async function shopper(id: string) {
  const login = await call(`${S}/loyalty/login`, { body: { customerAccessToken: await signPlatformToken(PLATFORM_SECRET, { platformCustomerId: id, email: `${id}@example.test` }) } });
  expect(login.status).toBe(200);
  const version = (await t.services.loyalty.legalPolicies(STORE)).version;
  expect((await call(`${S}/loyalty/customer_activation`, { token: login.body.customerToken, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } })).status).toBe(200);
  return { token: login.body.customerToken as string, id: login.body.loyaltyCustomer.loyaltyCustomerId as string };
}
const balance = async (customerId: string) => (await t.services.loyaltyData.getCustomer(STORE, customerId))!.balance;

describe("connecting WooCommerce (PATCH /enterprise/settings)", () => {
  it("stores the site without its trailing slash and the secrets sealed; GET answers only what is set", async () => {
    const r = await settings({ type: "woocommerce", siteUrl: `${woo.url}/`, consumerKey: CK, consumerSecret: CS, webhookSecret: WEBHOOK_SECRET });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.platform.woocommerce).toMatchObject({ siteUrl: woo.url, consumerKeySet: true, consumerSecretSet: true, webhookSecretSet: true });
    expect(r.body.platform.webhookUrls.woocommerce).toMatch(/^http:\/\/[^/]+\/platforms\/woocommerce\/webhooks$/);
    const get = await call("/enterprise/settings", { headers: { authorization: basic } });
    for (const secret of [CK, CS, WEBHOOK_SECRET]) expect(JSON.stringify(get.body)).not.toContain(secret);
    const row = (await one(t.services.db, sql`SELECT * FROM platform_connections WHERE store_id = ${STORE}`)) as Record<string, string>;
    for (const secret of [CK, CS, WEBHOOK_SECRET]) expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.woo_site_url).toBe(woo.url);
  });

  it("refuses an http site that is not loopback, a malformed key, WooCommerce fields without the type (400), and another store's site (409)", async () => {
    for (const platform of [
      { type: "woocommerce", siteUrl: "http://shop.example" },
      { type: "woocommerce", siteUrl: "https://user:pw@shop.example" },
      { type: "woocommerce", siteUrl: "not a url" },
      { type: "woocommerce", consumerKey: "abc" },
      { siteUrl: "https://shop.example" },
      { type: "woocommerce", shopDomain: "x.myshopify.com" },
    ]) {
      const r = await settings(platform);
      expect(r.status, JSON.stringify(platform)).toBe(400);
      expect(typeof r.body.error.description).toBe("string");
    }
    await t.services.apiKeys.create(OTHER, "other", `${API_KEY}-other`);
    const other = await call("/enterprise/settings", {
      method: "PATCH",
      body: { platform: { type: "woocommerce", siteUrl: woo.url } },
      headers: { authorization: `Basic ${Buffer.from(`${OTHER}:${API_KEY}-other`).toString("base64")}` },
    });
    expect(other.status).toBe(409);
  });
});

describe("WooCommerce webhooks: verification", () => {
  it("answers WooCommerce's creation ping (form body, no topic, unsigned) with 200 and stores nothing", async () => {
    const before = await counts();
    const res = await fetch(t.url("/platforms/woocommerce/webhooks"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "webhook_id=7" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ outcome: "ignored" });
    expect(await counts()).toEqual(before);
  });

  it("forged, unsigned and replayed deliveries are 401 JSON and store nothing; a repeated delivery ID is a duplicate", async () => {
    const body = product(8001);
    const before = await counts();
    const forged = await deliver("product.created", body, { secret: "another secret entirely" });
    const unsigned = await deliver("product.created", body, { signature: null });
    const malformed = await deliver("product.created", body, { signature: "sha256=abc" });
    const tampered = await deliver("product.created", body, {
      raw: JSON.stringify({ ...body, name: "Forged" }),
      signature: createHmac("sha256", WEBHOOK_SECRET).update(JSON.stringify(body)).digest("base64"),
    });
    for (const r of [forged, unsigned, malformed, tampered]) {
      expect(r.status).toBe(401);
      expect(r.contentType).toMatch(/^application\/json/);
      expect(r.body.error).toMatchObject({ code: "invalid_webhook_signature" });
    }
    expect(await counts()).toEqual(before);

    const id = randomUUID();
    expect(await deliver("product.created", body, { id })).toMatchObject({ status: 200, body: { outcome: "applied" } });
    const applied = await counts();
    expect(applied.products).toBe(before.products + 1);
    // The same delivery again (WooCommerce's redelivery): duplicate, nothing changes.
    expect(await deliver("product.created", body, { id })).toMatchObject({ status: 200, body: { outcome: "duplicate" } });
    // The captured body sent again under a new delivery ID: a replay.
    await run(t.services.db, sql`UPDATE products SET name = 'Renamed by merchant' WHERE store_id = ${STORE} AND product_id = '8001'`);
    const replay = await deliver("product.created", body);
    expect(replay.status).toBe(401);
    expect(replay.body.error.description).toMatch(/replay/);
    expect(await counts()).toEqual(applied);
    expect(await value<unknown>(t.services.db, sql<Record<string, unknown>>`SELECT name FROM products WHERE store_id = ${STORE} AND product_id = '8001'`)).toBe("Renamed by merchant");
  });

  it("an unknown site is 404, a missing header 400, a malformed signed body 400, an unused topic 200 ignored", async () => {
    expect((await deliver("product.created", product(8002), { source: "https://unknown.example/" })).status).toBe(404);
    expect((await deliver("", product(8002))).status).toBe(400);
    const bad = await deliver("order.created", { id: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.description).toMatch(/^id: /);
    expect(await deliver("coupon.created", { id: 1, code: "x" })).toMatchObject({ status: 200, body: { outcome: "ignored" } });
  });
});

describe("WooCommerce webhooks: products, orders, customers", () => {
  it("product.updated sets name, permalink, the first https image, and the SKU, GTIN, brand and MPN for Google Shopping", async () => {
    expect((await deliver("product.updated", product(8100))).body).toEqual({ outcome: "applied" });
    expect(await one(t.services.db, sql`SELECT name, url, image_url FROM products WHERE store_id = ${STORE} AND product_id = '8100'`)).toEqual({
      name: "Linen Apron",
      url: "https://shop.example/product/linen-apron-8100/",
      image_url: "https://shop.example/wp-content/uploads/apron.jpg",
    });
    expect(await one(t.services.db, sql`SELECT gtin, sku, brand, mpn FROM product_identifiers WHERE store_id = ${STORE} AND product_id = '8100'`)).toEqual({
      gtin: "4006381333931",
      sku: "APR-8100",
      brand: "Linden",
      mpn: "LA-01",
    });
    // The GTIN from the meta of older WooCommerce versions; a value that is no GTIN is left out.
    await deliver(
      "product.updated",
      product(8101, {
        global_unique_id: "",
        brands: [],
        meta_data: [
          { key: "_global_unique_id", value: "012345678905" },
          { key: "_brand", value: "Loom" },
        ],
      }),
    );
    expect(await one(t.services.db, sql`SELECT gtin, brand FROM product_identifiers WHERE store_id = ${STORE} AND product_id = '8101'`)).toEqual({ gtin: "012345678905", brand: "Loom" });
    await deliver("product.updated", product(8102, { global_unique_id: "12345" }));
    expect(await value<unknown>(t.services.db, sql<Record<string, unknown>>`SELECT gtin FROM product_identifiers WHERE store_id = ${STORE} AND product_id = '8102'`)).toBeNull();
  });

  it("a completed order makes a verified buyer and a review request received on a real SMTP server; its points once", async () => {
    const me = await shopper("501");
    const start = await balance(me.id);
    await deliver("product.created", product(8200, { name: "Waffle Towel" }));
    expect((await deliver("order.created", order(9001, 501, "processing", [{ productId: 8200, total: "40.00" }]))).body).toEqual({ outcome: "applied" });
    expect(await balance(me.id)).toBe(start + 40);
    expect(await value<unknown>(t.services.db, sql<Record<string, unknown>>`SELECT status FROM order_headers WHERE store_id = ${STORE} AND order_id = '9001'`)).toBe("ordered");
    expect(await value<unknown>(t.services.db, sql<Record<string, unknown>>`SELECT source FROM order_headers WHERE store_id = ${STORE} AND order_id = '9001'`)).toBe("woocommerce-webhook");

    expect((await deliver("order.updated", order(9001, 501, "completed", [{ productId: 8200, total: "40.00" }]))).body).toEqual({ outcome: "applied" });
    expect(await one(t.services.db, sql`SELECT status, fulfilled_ms, email FROM order_headers WHERE store_id = ${STORE} AND order_id = '9001'`)).toEqual({
      status: "fulfilled",
      fulfilled_ms: Date.parse(`${COMPLETED}Z`),
      email: "ada.buyer@example.com",
    });
    expect(await balance(me.id)).toBe(start + 40); // once per order

    // The review request, sent at fulfilment + 0 days and delivered to the SMTP server.
    const request = await t.services.reviewRequests.byOrder(STORE, "9001");
    expect(request).toBeTruthy();
    expect(await t.services.reviewRequests.runDue(clock, t.baseUrl)).toMatchObject({ sent: 1 });
    expect((await t.services.mailSender.runOnce()).sent).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitFor((m) => m.to.includes("ada.buyer@example.com"));
    expect(mail.subject).toContain("Linden & Loom");
    expect(mail.html).toContain("Waffle Towel");
    // Verified buyer: the signed-in shopper's review of the product.
    const review = await call(`${S}/products/woocommerce-8200/reviews`, {
      token: me.token,
      body: { rating: 5, title: "Soft", body: "Soft and thick, dries fast.", displayName: "Ada", email: "ada.buyer@example.com" },
    });
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    expect(await value<unknown>(t.services.db, sql<Record<string, unknown>>`SELECT verified_status FROM reviews WHERE review_id = ${review.body.review.reviewId}`)).toBe("verified-buyer");
  });

  it("a refund takes points back in proportion, once per refund; status refunded takes back the rest; cancelled takes back all", async () => {
    const me = await shopper("502");
    const start = await balance(me.id);
    const lines = [{ productId: 8200, total: "100.00" }];
    await deliver("order.created", order(9002, 502, "processing", lines));
    expect(await balance(me.id)).toBe(start + 100);
    const partial = order(9002, 502, "processing", lines, { refunds: [{ id: 71, reason: "", total: "-25.00" }], date_modified_gmt: gmt(-DAY + 1000) });
    expect((await deliver("order.updated", partial)).body).toEqual({ outcome: "applied" });
    expect(await balance(me.id)).toBe(start + 75);
    await deliver("order.updated", { ...partial, date_modified_gmt: gmt(-DAY + 2000) }); // the same refund again: nothing more
    expect(await balance(me.id)).toBe(start + 75);
    await deliver("order.updated", order(9002, 502, "refunded", lines, { refunds: [{ id: 71, total: "-25.00" }], date_modified_gmt: gmt(-DAY + 3000) }));
    expect(await balance(me.id)).toBe(start);
    expect(await t.services.loyalty.checkLedger(STORE, me.id)).toMatchObject({ ok: true });

    const other = await shopper("503");
    const base = await balance(other.id);
    await deliver("order.created", order(9003, 503, "on-hold", [{ productId: 8200, total: "30.00" }]));
    expect(await balance(other.id)).toBe(base + 30);
    await deliver("order.updated", order(9003, 503, "cancelled", [{ productId: 8200, total: "30.00" }]));
    expect(await balance(other.id)).toBe(base);
    expect(await value<unknown>(t.services.db, sql<Record<string, unknown>>`SELECT status FROM order_headers WHERE store_id = ${STORE} AND order_id = '9003'`)).toBe("cancelled");
  });

  it("customer.created gives the shopper's loyalty account the customer's e-mail", async () => {
    const me = await shopper("504");
    expect((await deliver("customer.created", { id: 504, email: "New.Address@Example.com", first_name: "Ada", last_name: "Buyer", role: "customer" })).body).toEqual({ outcome: "applied" });
    expect((await t.services.loyaltyData.getCustomer(STORE, me.id))!.email).toBe("new.address@example.com");
    expect((await deliver("customer.created", { id: 99999, email: "nobody@example.com" })).body).toEqual({ outcome: "ignored" });
  });
});

describe('referrals on WooCommerce (docs/loyalty.md "Referrals")', () => {
  /** A guest order of `email` using `codes` (WooCommerce lower-cases coupon codes). */
  const friendOrder = (id: number, email: string, status: string, codes: string[], extra: Record<string, unknown> = {}) =>
    order(id, 0, status, [{ productId: 8200, total: "60.00" }], {
      billing: { first_name: "Fern", last_name: "Friend", email },
      coupon_lines: codes.map((code, i) => ({ id: id * 10 + i, code: code.toLowerCase(), discount: "6.00", discount_tax: "0.00" })),
      ...extra,
    });

  it("a friend's first order using the friend code (coupon_lines) rewards the sender once; a refund or a cancellation reverses it", async () => {
    await t.services.referrals.updateSettings(STORE, {
      enabled: true,
      friendDiscountType: "percentage-coupon",
      friendDiscountValue: 10,
      friendMinimumOrder: null,
      senderRewardType: "points",
      senderRewardValue: 500,
    });
    const sender = await shopper("701");
    const link = await t.services.referrals.createSender(STORE, "701@example.test", "https://chorus.example");
    const claim = async (email: string) => {
      const { code } = await t.services.referrals.claimFriend(link.referralSenderId, email);
      expect(woo.coupons.get(code)).toMatchObject({ discount_type: "percent", amount: "10.00", email_restrictions: [email] }); // created on the shop
      return code;
    };
    const start = await balance(sender.id);

    // Refunded: rewarded on the order, reversed by the refund the order names; the same delivery again changes nothing.
    const first = await claim("fern.friend@example.test");
    expect((await deliver("order.created", friendOrder(9701, "fern.friend@example.test", "processing", [first]))).body).toEqual({ outcome: "applied" });
    expect(await balance(sender.id)).toBe(start + 500);
    expect((await deliver("order.updated", friendOrder(9701, "fern.friend@example.test", "processing", [first], { date_modified_gmt: gmt(-DAY + 30_000) }))).body).toEqual({
      outcome: "applied",
    });
    expect(await balance(sender.id)).toBe(start + 500); // once per friend
    const refunded = friendOrder(9701, "fern.friend@example.test", "processing", [first], { refunds: [{ id: 81, total: "-10.00" }], date_modified_gmt: gmt(-DAY + 1000) });
    await deliver("order.updated", refunded);
    expect(await balance(sender.id)).toBe(start);
    await deliver("order.updated", { ...refunded, date_modified_gmt: gmt(-DAY + 2000) });
    expect(await balance(sender.id)).toBe(start);

    // Cancelled: rewarded, then reversed by the cancellation.
    const second = await claim("gus.friend@example.test");
    await deliver("order.created", friendOrder(9702, "gus.friend@example.test", "on-hold", [first, second]));
    expect(await balance(sender.id)).toBe(start + 500);
    await deliver("order.updated", friendOrder(9702, "gus.friend@example.test", "cancelled", [second]));
    expect(await balance(sender.id)).toBe(start);
    expect(await t.services.loyalty.checkLedger(STORE, sender.id)).toMatchObject({ ok: true });
    expect(await value<string>(t.services.db, sql`SELECT state FROM referral_rewards WHERE store_id = ${STORE} AND order_id = '9702'`)).toBe("reversed");
  });
});

describe("loyalty rewards as WooCommerce coupons", () => {
  const ruleOf = async (type: string) =>
    ((await call(`${S}/loyalty/redemption_rules`)).body.redemptionRules as { type: string; redemptionRuleId: string; pointsCost: number }[]).find((r) => r.type === type)!;
  const redeem = (token: string, redemptionRuleId: string) => call(`${S}/loyalty/customer/redemptions`, { body: { redemptionRuleId }, token });

  it("a redemption creates the coupon on the shop's REST API (Basic auth, usage limit 1, the shopper's e-mail, minimum, expiry) before the code is shown", async () => {
    const me = await shopper("601");
    await t.services.loyalty.adjustPoints(STORE, me.id, 5000, "Test points");
    const fixed = await ruleOf("fixed-amount-coupon");
    await t.services.platformRewards.setRewardConditions(STORE, fixed.redemptionRuleId, { minimumOrderAmount: 40, expiresAfterDays: 30 });
    const before = await balance(me.id);
    const r = await redeem(me.token, fixed.redemptionRuleId);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const reward = r.body.redemption.reward;
    expect(reward).toMatchObject({ type: "coupon", platform: "woocommerce", value: 5 });
    expect(woo.refusals).toEqual([]);
    expect(woo.coupons.get(reward.code)).toMatchObject({
      code: reward.code,
      discount_type: "fixed_cart",
      amount: "5.00",
      usage_limit: 1,
      usage_limit_per_user: 1,
      free_shipping: false,
      email_restrictions: ["601@example.test"],
      minimum_amount: "40.00",
      date_expires_gmt: new Date(clock + 30 * DAY).toISOString().slice(0, 19),
    });
    expect(await balance(me.id)).toBe(before - fixed.pointsCost);

    const pct = await redeem(me.token, (await ruleOf("percentage-coupon")).redemptionRuleId);
    expect(woo.coupons.get(pct.body.redemption.reward.code)).toMatchObject({ discount_type: "percent", amount: "10.00", date_expires_gmt: null });
    const ship = await redeem(me.token, (await ruleOf("free-shipping")).redemptionRuleId);
    expect(woo.coupons.get(ship.body.redemption.reward.code)).toMatchObject({ discount_type: "fixed_cart", amount: "0", free_shipping: true });
    expect(woo.refusals).toEqual([]);
  });

  it("the shop answering 500: 503 with Retry-After and nothing taken; the reconciler finds the coupon by code later", async () => {
    const me = await shopper("602");
    await t.services.loyalty.adjustPoints(STORE, me.id, 1000, "Test points");
    const rule = await ruleOf("fixed-amount-coupon");
    const before = await balance(me.id);
    woo.mode = "error";
    const r = await redeem(me.token, rule.redemptionRuleId);
    woo.mode = "ok";
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("30");
    expect(r.body.error.code).toBe("platform_unavailable");
    expect(await balance(me.id)).toBe(before);
    // The pending reward: the shop had no coupon with its code, so the reconciler fails it (the points stay free).
    expect(await t.services.platformRewards.runDue(clock + STALE_MS + 1)).toMatchObject({ failed: 1 });
    expect(await balance(me.id)).toBe(before);
  });

  it("a wrong REST key (the shop answers 401) is 503, nothing taken", async () => {
    const me = await shopper("603");
    await t.services.loyalty.adjustPoints(STORE, me.id, 1000, "Test points");
    expect((await settings({ type: "woocommerce", consumerSecret: "cs_wrongwrongwrongwrong" })).status).toBe(200);
    const before = await balance(me.id);
    const r = await redeem(me.token, (await ruleOf("fixed-amount-coupon")).redemptionRuleId);
    expect(r.status).toBe(503);
    expect(await balance(me.id)).toBe(before);
    expect((await settings({ type: "woocommerce", consumerSecret: CS })).status).toBe(200);
    woo.refusals.length = 0;
  });
});

describe("the theme snippet of docs/platforms.md", () => {
  it("a real PHP run of the documented snippet prints a token the server accepts at /loyalty/login", async () => {
    const doc = readFileSync(join(PROJECT_ROOT, "docs/platforms.md"), "utf8");
    const section = doc.slice(doc.indexOf("### The shopper's token (theme snippet)"));
    const snippet = [...section.matchAll(/```php\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes("add_action"))!;
    expect(snippet).toContain("hash_hmac('sha256'");
    // WordPress's functions as a signed-in customer sees them (user 4242), and the secret as wp-config.php defines it.
    const wordpress = `<?php
      function add_action($hook, $callback) { if ($hook === 'wp_footer') $callback(); }
      function is_user_logged_in() { return true; }
      function wp_get_current_user() { return (object) ['ID' => 4242, 'user_email' => 'wp.shopper@example.test']; }
      function wp_json_encode($value) { return json_encode($value); }
      define('CHORUS_PLATFORM_SECRET', ${JSON.stringify(PLATFORM_SECRET)});
    `;
    const out = execFileSync("php", ["-r", `${wordpress.replace(/^<\?php/, "")}\n${snippet}`], { encoding: "utf8" });
    const match = /<script type="application\/json" id="chorus-customer-token">("[^"]+")<\/script>/.exec(out);
    expect(match, out).not.toBeNull();
    const token = JSON.parse(match![1]) as string;
    const login = await call(`${S}/loyalty/login`, { body: { customerAccessToken: token } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(await t.services.loyaltyData.getCustomerByPlatformId(STORE, "4242")).toMatchObject({ email: "wp.shopper@example.test" });
    // Signed with another secret: refused.
    const forged = execFileSync("php", ["-r", `${wordpress.replace(/^<\?php/, "").replace(JSON.stringify(PLATFORM_SECRET), '"another-secret"')}\n${snippet}`], { encoding: "utf8" });
    const forgedToken = JSON.parse(/("[^"]+")<\/script>/.exec(forged)![1]) as string;
    expect((await call(`${S}/loyalty/login`, { body: { customerAccessToken: forgedToken } })).status).toBe(401);
  });
});
