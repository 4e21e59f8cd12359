/**
 * Property-based fuzzing (fast-check) of the shop-platform webhooks (issue #22 "Done when"): forged,
 * replayed and malformed deliveries to the real server answer 401, 200 `duplicate` and 400, never a 5xx,
 * and store nothing (orders, lines, products, deliveries and the loyalty ledger are byte-for-byte the same).
 */
import { createHmac, randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { all, sql } from "../server/db/database.ts";
import { seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";

const SHOP = "fuzz-shop.myshopify.com";
const SECRET = "shpss_fuzz_secret_0123456789abcdef";
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const TOPICS = ["orders/create", "orders/fulfilled", "fulfillments/create", "orders/cancelled", "products/create", "products/update", "products/delete"];

let t: TestServer;
const REPLAYED_ID = "replayed-delivery";
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: SECRET });
  // One real delivery, replayed below.
  const body = JSON.stringify({ id: 1078, title: "Tiered Linen Midi Dress", handle: "tiered-linen-midi-dress", images: [] });
  const res = await post("products/update", body, { id: REPLAYED_ID });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const sign = (body: string, secret = SECRET) => createHmac("sha256", secret).update(body).digest("base64");
function post(topic: string, body: string, opts: { id?: string; hmac?: string; shop?: string } = {}) {
  return fetch(t.url("/platforms/shopify/webhooks"), {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": opts.shop ?? SHOP,
      "x-shopify-webhook-id": opts.id ?? randomUUID(),
      "x-shopify-hmac-sha256": opts.hmac ?? sign(body),
    },
  });
}
function postSigned(body: string, opts: { ts?: number; signature?: string; id?: string } = {}) {
  const ts = String(opts.ts ?? Math.floor(Date.now() / 1000));
  return fetch(t.url(`/platforms/webhooks/${TEST_STORE_ID}`), {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-chorus-timestamp": ts,
      "x-chorus-webhook-id": opts.id ?? randomUUID(),
      "x-chorus-signature": opts.signature ?? `sha256=${createHmac("sha256", SECRET).update(`${ts}.${body}`).digest("hex")}`,
    },
  });
}

/** Everything a delivery could write, for the store: equal before and after means nothing was stored. */
const snapshot = async () => {
  const tables: unknown[] = [];
  for (const table of ["order_headers", "orders", "products", "platform_webhooks", "loyalty_transactions"]) {
    tables.push(await all(t.services.db, sql`SELECT * FROM ${sql.raw(table)} WHERE store_id = ${TEST_STORE_ID} ORDER BY 1, 2, 3`));
  }
  return JSON.stringify(tables);
};

const tally = new Map<string, number>();
/** Check the answer is a documented refusal (no 5xx, JSON error body) and count it. */
async function expectRefused(res: Response, allowed: number[], kind: string): Promise<void> {
  expect(res.status, `${kind}: status`).toBeLessThan(500);
  expect(allowed, `${kind}: ${res.status}`).toContain(res.status);
  const body = await res.json();
  if (res.status >= 400) expect(typeof body.error.description).toBe("string");
  else expect(body).toEqual({ outcome: "duplicate" });
  tally.set(`${kind} ${res.status}`, (tally.get(`${kind} ${res.status}`) ?? 0) + 1);
}

/** JSON that no topic accepts: not an object, or an object without the ID fields every payload needs. */
const malformed = fc.oneof(
  fc.string(),
  fc.json().filter((s) => {
    const v = JSON.parse(s) as unknown;
    return !(v && typeof v === "object" && !Array.isArray(v) && ("id" in v || "order_id" in v));
  }),
  fc.constantFrom("{", "[1,2", '{"id":', "null", '{"id":"12a","title":"x"}', '{"id":-1}', '{"id":1e400}', "\u0000"),
);

describe("webhook fuzzing: forged, replayed and malformed deliveries", () => {
  it("store nothing and never answer 5xx", async () => {
    const before = await snapshot();

    // Forged: any body, any signature that is not the body's HMAC with the store's secret.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOPICS),
        fc.json(),
        fc.oneof(
          fc.base64String({ maxLength: 60 }),
          fc.string({ minLength: 1, maxLength: 60 }).map((s) => s.replace(/[\r\n\0]/g, "x")),
        ),
        async (topic, body, hmac) => {
          fc.pre(hmac.trim() !== "" && hmac !== sign(body));
          await expectRefused(await post(topic, body, { hmac }), [401], "forged");
        },
      ),
      { numRuns: RUNS },
    );
    // Forged with another secret, to a known and an unknown shop.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOPICS), fc.json(), fc.boolean(), async (topic, body, knownShop) => {
        await expectRefused(await post(topic, body, { hmac: sign(body, "another-secret-0123456789"), shop: knownShop ? SHOP : "no-such-shop.myshopify.com" }), [401, 404], "forged");
      }),
      { numRuns: RUNS },
    );

    // Malformed but correctly signed.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOPICS), malformed, async (topic, body) => {
        await expectRefused(await post(topic, body), [400], "malformed");
      }),
      { numRuns: RUNS },
    );

    // Replayed: a delivery ID already applied, with any signed body.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOPICS), fc.json(), async (topic, body) => {
        await expectRefused(await post(topic, body, { id: REPLAYED_ID }), [200], "replayed");
      }),
      { numRuns: RUNS },
    );

    // Signed webhooks: stale or future timestamps, forged signatures, malformed bodies.
    const event = JSON.stringify({ type: "product.upserted", product: { productId: "1078", name: "Forged name" } });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 301, max: 10 ** 9 }), fc.boolean(), async (offset, past) => {
        await expectRefused(await postSigned(event, { ts: Math.floor(Date.now() / 1000) + (past ? -offset : offset) }), [401], "stale");
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 80 }).map((s) => s.replace(/[\r\n\0]/g, "x")),
        async (signature) => {
          fc.pre(signature.trim() !== "");
          await expectRefused(await postSigned(event, { signature }), [401], "forged-signed");
        },
      ),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(malformed, async (body) => {
        await expectRefused(await postSigned(body), [400], "malformed-signed");
      }),
      { numRuns: RUNS },
    );

    expect(await snapshot()).toBe(before);
    expect((await t.services.stores.getProduct(TEST_STORE_ID, "1078"))?.name).toBe("Tiered Linen Midi Dress");
    console.log("webhook fuzz answers:", Object.fromEntries([...tally].sort()));
    for (const kind of ["forged 401", "malformed 400", "replayed 200", "stale 401", "forged-signed 401", "malformed-signed 400"]) expect(tally.get(kind) ?? 0).toBeGreaterThan(0);
  }, 120_000);
});
