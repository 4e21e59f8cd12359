/**
 * Erasure leaves no bytes (docs/privacy.md "What stays on disk"), over real HTTP against the real server with a
 * real SQLite file: four shoppers, each with distinctive e-mail, name and texts (a review with a photo, a question,
 * a survey response, an order, an e-mail, webhook events; one also a data request, whose notice to the store's
 * members names them), whose product's AI summary quotes their review (a local
 * language-model stub quotes what it is given). Each is erased by another path (admin form, enterprise API,
 * Shopify `customers/redact`, Shopify `shop/redact`); then the raw bytes of the `.sqlite`, `-wal` and `-shm` files and
 * of every file under MEDIA_PATH hold none of their values, their photo folders are gone, and their product's AI
 * content is withdrawn (the product has fallen below the AI review floor, so nothing is regenerated). A shopper of
 * another store is the control: their values are still found, so the search works.
 * On PostgreSQL (CHORUS_TEST_POSTGRES_URL) the files are the server's: every row of every table is read instead.
 */
import { createHmac } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAgent, adminPost } from "../../test/admin-http.ts";
import { OTHER_STORE_ID, realReviews, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { all, dialect, run, sql, value, values } from "../db/database.ts";
import { erasedAddressKey } from "../shared/erased-address.ts";
import { DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS, NPS_SURVEY } from "../surveys/surveys.demo.ts";

const KEY = "erasure-bytes-api-key-0123456789abcdef";
const SHOP = "erasure-bytes.myshopify.com";
const APP_SECRET = "erasure-bytes-app-secret-0123456789";
const PATHS = ["admin", "enterprise", "customersRedact", "shopRedact"] as const;
type Path = (typeof PATHS)[number] | "control";

/**
 * A shopper's distinctive values (each found nowhere else), and the product they review. `word` is in their review
 * and survey answer: the full-text indexes keep it as a token, and FTS5 stores a token after the prefix it shares
 * with the one before it (never more than `xq` and one letter here), so its tail from the fourth letter is searched.
 */
type Shopper = { email: string; name: string; title: string; sentence: string; word: string; question: string; reason: string; productId: string; storeId: string; mediaIds: string[] };
const shopperOf = (tag: string, productId: string, storeId: string): Shopper => ({
  email: `${tag}.vexmoor@example.com`,
  name: `Ysolde ${tag}vexmoor`,
  title: `Quorvex ${tag} kelpwhistle`,
  sentence: `Zimbrolux ${tag} fandangle xq${tag}glorbik`,
  word: `xq${tag}glorbik`,
  question: `Does the plimsquash ${tag} gorble?`,
  reason: `Grobnitz ${tag} wimbleton xq${tag}glorbik`,
  productId,
  storeId,
  mediaIds: [],
});
/** The values searched for (the control shopper, of a store without a survey, has no survey answer). */
const valuesOf = (s: Shopper) => [s.email, s.name, s.title, s.sentence, s.word.slice(3), s.question, ...(s.storeId === TEST_STORE_ID ? [s.reason] : [])];

let t: TestServer;
let llm: Server;
const shoppers = {} as Record<Path, Shopper>;
const basic = (store: string, key: string) => `Basic ${Buffer.from(`${store}:${key}`).toString("base64")}`;

/** Occurrences of `needle` in `bytes`, ignoring ASCII case (full-text indexes keep words lower-cased). */
function occurrences(bytes: Buffer, needle: string): number {
  const hay = asciiLower(bytes);
  const pin = Buffer.from(needle.toLowerCase());
  let n = 0;
  for (let at = hay.indexOf(pin); at !== -1; at = hay.indexOf(pin, at + 1)) n++;
  return n;
}
const asciiLower = (b: Buffer) => {
  const out = Buffer.from(b);
  for (let i = 0; i < out.length; i++) if (out[i] >= 0x41 && out[i] <= 0x5a) out[i] += 0x20;
  return out;
};
/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)])) : [];

const sqlite = () => dialect(t.services.db) === "sqlite";
/** The database's files (SQLite: the file, its WAL and shared-memory index) and every media file. */
function storedFiles(): string[] {
  const db = t.services.db.location;
  return [db, `${db}-wal`, `${db}-shm`].filter(existsSync).concat(filesUnder(t.services.mediaPath));
}
/** Occurrences of each value in the raw bytes of every stored file (SQLite), or in every row of every table (PostgreSQL). */
async function countOnDisk(needles: string[]): Promise<Record<string, number>> {
  const blobs: Buffer[] = [];
  if (sqlite()) blobs.push(...storedFiles().map((f) => readFileSync(f)));
  else {
    for (const table of await values<string>(t.services.db, sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)) {
      blobs.push(Buffer.from(JSON.stringify(await all(t.services.db, sql`SELECT * FROM ${sql.id(table)}`))));
    }
  }
  return Object.fromEntries(needles.map((v) => [v, blobs.reduce((n, b) => n + occurrences(b, v), 0)]));
}
const zeros = (values: string[]) => Object.fromEntries(values.map((v) => [v, 0]));

const photo = (colour: string) =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

/** Seed one shopper through the storefront API (review with a photo, question) and the data modules (survey response in the test store, order, mail). */
async function seedShopper(s: Shopper) {
  await t.services.submissionLimiter.reset();
  const text = realReviews().find((r) => r.productId === "1094" && r.body)!;
  const fd = new FormData();
  for (const [k, v] of Object.entries({ rating: text.rating, title: s.title, body: `${s.sentence}. ${text.body}`, displayName: s.name, email: s.email })) fd.append(k, String(v));
  fd.append("media", new Blob([new Uint8Array(await photo("#3b7"))], { type: "image/jpeg" }), "p.jpg");
  const review = await fetch(t.url(`/v1/stores/${s.storeId}/products/shopify-${s.productId}/reviews`), { method: "POST", body: fd });
  expect(review.status).toBe(201);
  const reviewId = (await review.json()).review.reviewId;
  s.mediaIds = (await values(t.services.db, sql`SELECT media_id FROM review_media WHERE review_id = ${reviewId}`)) as string[];
  expect(s.mediaIds).toHaveLength(1);
  const question = await fetch(t.url(`/v1/stores/${s.storeId}/products/shopify-${s.productId}/questions`), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ body: s.question, displayName: s.name, email: s.email }),
  });
  expect(question.status).toBe(201);
  if (s.storeId === TEST_STORE_ID)
    await t.services.surveys.importResponses(s.storeId, [
      {
        channelSurveyId: DEMO_CHANNEL_IDS.npsEmail,
        createdMs: Date.now(),
        customer: { email: s.email },
        answeredQuestions: [
          { id: NPS_SURVEY.questions[0].id, type: "nps", answer: 9, answerNpsCategory: "promoter" },
          { id: DEMO_QUESTION_IDS.reason, type: "text", answer: s.reason },
        ],
      },
    ]);
  await t.services.orders.importOrders(s.storeId, [{ orderId: `O-${s.email}`, productId: s.productId, email: s.email, orderedMs: Date.now() - 86_400_000 }]);
  // Unsubscribed from review requests (kept after the erasure under the address's hash).
  await run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${s.storeId}, ${s.email}, ${Date.now()})`);
  await t.services.mail.enqueue({ storeId: s.storeId, kind: "review-request", to: s.email, subject: `How was it, ${s.name}?`, html: `<p>Hello ${s.name}</p>`, text: `Hello ${s.name}` });
}

/** Products of the real file with `n` reviews each, not 1094 (whose text the shoppers write). */
function productsWith(n: number, count: number): string[] {
  const per = new Map<string, number>();
  for (const r of realReviews()) if (r.productId) per.set(r.productId, (per.get(r.productId) ?? 0) + 1);
  return [...per]
    .filter(([id, c]) => c === n && id !== "1094")
    .map(([id]) => id)
    .slice(0, count);
}
const REAL_PER_PRODUCT = 5;
const products = productsWith(REAL_PER_PRODUCT, 5);

beforeAll(async () => {
  // The language model: it quotes every shopper sentence among the review excerpts it is given; `/v1/hooks`
  // receives the outgoing webhooks.
  llm = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/v1/hooks") return void res.end("ok");
      const facts = JSON.parse(JSON.parse(body).messages[1].content) as { reviewExcerpts: string[] };
      const quotes = facts.reviewExcerpts.flatMap((e) => [...e.matchAll(/Zimbrolux \S+ fandangle \S+glorbik/g)].map((m) => m[0]));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: `Shoppers like it. One wrote "${quotes.join('", "')}".` } }] }));
    });
  });
  await new Promise<void>((r) => llm.listen(0, "127.0.0.1", r));
  const llmUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
  // Each shopper's review brings their product to the AI floor exactly; erasing it takes the product below.
  const floor = REAL_PER_PRODUCT + 1;
  t = await startTestServer({
    webhooks: { allowInsecure: true },
    ai: { minReviews: floor, keywordsMinReviews: floor, llm: { baseUrl: llmUrl, model: "stub", timeoutMs: 5_000, retries: 0, backoffMs: 0 } },
  });
  expect(products).toHaveLength(5);
  await seedRealReviews(t.services, { productIds: products.slice(0, 4) });
  await seedRealReviews(t.services, { storeId: OTHER_STORE_ID, productIds: [products[4]] });
  for (const store of [TEST_STORE_ID, OTHER_STORE_ID]) {
    await t.services.stores.updateSettings(store, { moderation: "auto-publish-all", aiAutoPublish: true });
    await t.services.webhooks.create(store, { url: `${llmUrl}/hooks`, eventTypes: ["review.created", "review.updated", "survey_response.created"] });
  }
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY); // survey IDs are global: one store has the survey
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", KEY);
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
  await t.services.admin.createUser({ email: "owner@erasure-bytes.test", password: "owner password 123", storeIds: [TEST_STORE_ID] });

  PATHS.forEach((p, i) => (shoppers[p] = shopperOf(p.toLowerCase(), products[i], TEST_STORE_ID)));
  shoppers.control = shopperOf("control", products[4], OTHER_STORE_ID);
  for (const s of Object.values(shoppers)) {
    await seedShopper(s);
    // The product's AI content quotes the shopper's review.
    const generated = await t.services.ai.generate(s.storeId, { type: "product", id: s.productId });
    expect(generated.status).toBe("generated");
    const summary = await (await fetch(t.url(`/v1/stores/${s.storeId}/products/shopify-${s.productId}/reviews_summary`))).json();
    expect(summary.reviewsSummary.body).toContain(s.sentence);
  }
  await t.services.webhookDelivery.runDue(Date.now()); // event bodies built (with the shoppers' values) and sent
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => llm?.close(r));
});

/** Send a Shopify privacy webhook, signed with the app secret. */
const shopify = (topic: string, body: unknown) => {
  const raw = JSON.stringify(body);
  return fetch(t.url("/platforms/shopify/webhooks"), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": SHOP,
      "x-shopify-webhook-id": crypto.randomUUID(),
      "x-shopify-hmac-sha256": createHmac("sha256", APP_SECRET).update(raw).digest("base64"),
    },
    body: raw,
  });
};

const ERASE: Record<(typeof PATHS)[number], (s: Shopper) => Promise<Response>> = {
  admin: async (s) => {
    const agent = await signInAgent(t, "owner@erasure-bytes.test", "owner password 123", TEST_STORE_ID);
    return adminPost(t, agent, `/admin/stores/${TEST_STORE_ID}/privacy`, { intent: "erase", email: s.email, confirm: s.email });
  },
  enterprise: (s) =>
    fetch(t.url("/enterprise/customers/erasure"), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: basic(TEST_STORE_ID, KEY) },
      body: JSON.stringify({ email: s.email }),
    }),
  customersRedact: async (s) => {
    // First a data request: the store's members get a notice naming the address (it must go with the erasure).
    expect((await shopify("customers/data_request", { shop_domain: SHOP, customer: { id: 4242, email: s.email }, data_request: { id: 77 } })).status).toBe(200);
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM mail_outbox WHERE kind = 'privacy-request' AND text LIKE ${`%${s.email}%`}`)).toBe(1);
    return shopify("customers/redact", { shop_domain: SHOP, customer: { id: 4242, email: s.email }, orders_to_redact: [] });
  },
  shopRedact: () => shopify("shop/redact", { shop_domain: SHOP }),
};

describe("erasure leaves no bytes", () => {
  it("before any erasure every shopper's values are on disk (the search finds them)", async () => {
    for (const s of Object.values(shoppers)) {
      const counts = await countOnDisk(valuesOf(s));
      console.log(`before erasure, ${s.email}: ${JSON.stringify(counts)}`);
      for (const [value, n] of Object.entries(counts)) expect(n, value).toBeGreaterThan(0);
    }
  });

  for (const path of PATHS) {
    it(`${path}: the shopper's values are in no byte of the database files or media, their photo is gone, their AI content withdrawn`, async () => {
      const s = shoppers[path];
      const res = await ERASE[path](s);
      expect(res.status).toBe(200);
      const counts = await countOnDisk(valuesOf(s));
      console.log(`after ${path} erasure, ${s.email}: ${JSON.stringify(counts)}`);
      expect(counts).toEqual(zeros(valuesOf(s)));
      for (const id of s.mediaIds) expect(existsSync(join(t.services.mediaPath, s.storeId, id))).toBe(false);
      // Still unsubscribed, under the address's hash (review-requests.repo.ts isUnsubscribed looks it up).
      expect(await value<number>(t.services.db, sql`SELECT count(*) FROM review_request_unsubscribes WHERE store_id = ${s.storeId} AND email = ${erasedAddressKey(s.email)}`)).toBe(1);
      // The summary that quoted them is withdrawn at once (the product is below the floor: nothing regenerated).
      const product = `/v1/stores/${s.storeId}/products/shopify-${s.productId}`;
      expect(await (await fetch(t.url(`${product}/reviews_summary`))).json()).toEqual({});
      expect(await (await fetch(t.url(`${product}/reviews_keywords`))).json()).toEqual({});
      expect((await t.services.ai.generate(s.storeId, { type: "product", id: s.productId })).status).toBe("skipped");

      // The control shopper (another store) is still there, byte for byte, with their photo and summary.
      const control = await countOnDisk(valuesOf(shoppers.control));
      for (const [value, n] of Object.entries(control)) expect(n, value).toBeGreaterThan(0);
      for (const id of shoppers.control.mediaIds) expect(statSync(join(t.services.mediaPath, OTHER_STORE_ID, id)).isDirectory()).toBe(true);
      const summary = await (await fetch(t.url(`/v1/stores/${OTHER_STORE_ID}/products/shopify-${shoppers.control.productId}/reviews_summary`))).json();
      expect(summary.reviewsSummary.body).toContain(shoppers.control.sentence);
    });
  }
});
