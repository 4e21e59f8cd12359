/**
 * Every CSV export round-trips over real HTTP (docs/exports.md "The files"): rows whose texts hold line breaks
 * of each kind (CRLF, bare LF, bare CR), quotes, commas, tabs, edge spaces, formulas and unicode (fixed traps,
 * generated strings and the real review file's texts) are written through the repos and services, each export
 * is downloaded (enterprise API and admin, and the admin's survey export), and the file read back as a
 * spreadsheet reads it (csv-parse with every line break a record delimiter outside quotes; Python's csv module)
 * has one record per row and every text field equal to what was written, with the formula guard's `'`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { guarded, NASTY_TEXTS, nastyText, readCsvPython, readCsvStrict } from "../../test/csv-readers.ts";
import { realReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { moderationRepo } from "../admin/moderation.repo.ts";
import { transaction } from "../db/database.ts";
import { normaliseEmail, ordersRepo } from "../orders/orders.repo.ts";

const A = TEST_STORE_ID;
const API_KEY = "exports-roundtrip-api-key-0123456789abcdef";
const basic = `Basic ${Buffer.from(`${A}:${API_KEY}`).toString("base64")}`;
const SURVEY_ID = "5a5a5a5a-0000-4000-8000-000000000001";
const Q1 = "5a5a5a5a-0000-4000-8000-000000000011";
const Q2 = "5a5a5a5a-0000-4000-8000-000000000012";
const CHANNEL = "5a5a5a5a-0000-4000-8000-000000000021";
const SURVEY_QUESTIONS = ['Why?\nTell us, "honestly"', "=SUM(1)\t"];
const CHANNEL_DESCRIPTION = 'Link,\r\nwith "quotes" ';

/** The texts written into every export: the fixed traps, generated strings and real review texts with line breaks. */
const texts = [
  ...new Set(
    [
      ...NASTY_TEXTS,
      ...fc.sample(nastyText(), { numRuns: 80, seed: 33 }),
      ...realReviews()
        .flatMap((r) => [r.title, r.body])
        .filter((s) => /[\r\n]/.test(s))
        .slice(0, 40),
    ]
      .map((s) => s.replaceAll("\u0000", ""))
      .filter((s) => s.trim() !== ""),
  ),
];
const text = (i: number) => texts[i % texts.length];

let t: TestServer;
let alice: AdminAgent;
/** Expected rows of each export, by the value of its ID column: column → the text written. */
const expected = new Map<string, Map<string, Record<string, string>>>();
const expect_ = (name: string, id: string, fields: Record<string, string>) => {
  if (!expected.has(name)) expected.set(name, new Map());
  expected.get(name)!.set(id, fields);
};

beforeAll(async () => {
  t = await startTestServer();
  const s = t.services;
  await s.stores.create({ storeId: A, name: "Round-trip store", platform: "shopify" });
  await s.stores.upsertProduct({ storeId: A, productId: "1078", name: 'Dress, "blue"\nsize M' });
  await s.apiKeys.create(A, "tests", API_KEY);
  await s.admin.createUser({ email: "alice@shop-a.test", password: "correct horse battery A", storeIds: [A] });
  alice = await signInAgent(t, "alice@shop-a.test", "correct horse battery A", A);
  const base = Date.UTC(2026, 0, 1);
  const moderation = moderationRepo(s.db);
  const orders = ordersRepo(s.db);

  // Reviews: the traps, then 600 real reviews (more than one export batch of 500) with their own texts.
  const reviews = [
    ...texts.map((x, i) => ({ title: x, body: text(i + 1), reviewerName: text(i + 2), reply: text(i + 3) as string | null })),
    ...realReviews()
      .slice(0, 600)
      .map((r) => ({ title: r.title, body: r.body, reviewerName: "Anonymous shopper", reply: null })),
  ];
  await transaction(s.db, async () => {
    for (const [i, r] of reviews.entries()) {
      const reviewId = crypto.randomUUID();
      await s.reviewsData.insert({
        reviewId,
        storeId: A,
        productId: "1078",
        rating: 1 + (i % 5),
        title: r.title,
        body: r.body,
        createdMs: base + i,
        status: "published",
        reviewerName: r.reviewerName,
      });
      if (r.reply !== null) await moderation.setReply(A, reviewId, r.reply, base);
      expect_("reviews", reviewId, { productName: 'Dress, "blue"\nsize M', title: r.title, body: r.body, reviewerName: r.reviewerName, reply: r.reply ?? "" });
    }
  });

  // Questions with a published store answer.
  await transaction(s.db, async () => {
    for (const [i, x] of texts.entries()) {
      const questionId = crypto.randomUUID();
      await s.questionsData.insertQuestion({ questionId, storeId: A, productId: "1078", body: x, askerName: text(i + 1), status: "published", createdMs: base + i });
      await s.questionsData.insertAnswer({
        answerId: crypto.randomUUID(),
        storeId: A,
        questionId,
        body: text(i + 2),
        authorName: "Store",
        isStoreAnswer: true,
        verifiedStatus: "unverified",
        status: "published",
        createdMs: base + i,
      });
      expect_("questions", questionId, { body: x, askerName: text(i + 1), storeAnswer: text(i + 2) });
    }
  });

  // Loyalty customers (enrolled through a channel named by the text) and one customer's ledger of adjustments.
  await transaction(s.db, async () => {
    for (const [i, x] of texts.entries()) {
      const loyaltyCustomerId = crypto.randomUUID();
      await s.loyaltyData.insertCustomer({ loyaltyCustomerId, storeId: A, platformCustomerId: x, email: text(i + 1) });
      await s.loyaltyData.enrol(A, loyaltyCustomerId, text(i + 2), "v1", null);
      expect_("loyalty_customers", loyaltyCustomerId, { platformCustomerId: x, email: text(i + 1).toLowerCase(), enrollmentChannel: text(i + 2) });
    }
    const ledger = crypto.randomUUID();
    await s.loyaltyData.insertCustomer({ loyaltyCustomerId: ledger, storeId: A, platformCustomerId: "ledger", email: "ledger@example.com" });
    expect_("loyalty_customers", ledger, { platformCustomerId: "ledger", email: "ledger@example.com", status: "pending" });
    for (const [i, x] of texts.entries()) {
      const transactionId = crypto.randomUUID();
      await s.loyaltyData.insertTransaction({
        transactionId,
        storeId: A,
        loyaltyCustomerId: ledger,
        type: "adjustment",
        points: 1,
        balanceAfter: i + 1,
        description: x,
        orderId: text(i + 1),
        couponCode: text(i + 2),
        createdMs: base + i,
      });
      expect_("loyalty_transactions", transactionId, { description: x, orderId: text(i + 1), couponCode: text(i + 2), points: "1", balanceAfter: String(i + 1) });
    }
  });

  // Orders, one line each.
  await transaction(s.db, async () => {
    for (const [i, x] of texts.entries()) {
      const orderId = `order-${i}`;
      await orders.upsertOrder(
        A,
        {
          orderId,
          orderName: x,
          email: text(i + 1),
          platformCustomerId: text(i + 2),
          customerName: text(i + 3),
          locale: null,
          currency: text(i + 4),
          subtotal: 12.5,
          orderedMs: base + i,
          source: text(i + 5),
          lines: [{ productId: "1078", variantId: text(i + 6), title: text(i + 7), price: 12.5, quantity: 1 }],
        },
        base,
      );
      expect_("orders", orderId, {
        orderName: x,
        email: normaliseEmail(text(i + 1)),
        platformCustomerId: text(i + 2),
        customerName: text(i + 3),
        currency: text(i + 4),
        source: text(i + 5),
        productId: "shopify-1078",
        variantId: text(i + 6),
        title: text(i + 7),
      });
    }
  });

  // A survey whose question texts and channel description are traps too, one response per text.
  await s.surveys.createSurvey(A, {
    surveyId: SURVEY_ID,
    name: "Round trip",
    dateCreated: "2026-01-01T00:00:00.000Z",
    questions: SURVEY_QUESTIONS.map((q, i) => ({ id: [Q1, Q2][i], type: "text" as const, text: q })),
    channelSurveys: [{ channelSurveyId: CHANNEL, channel: "shareable-link", description: CHANNEL_DESCRIPTION }],
  });
  const responses = texts.map((x, i) => ({
    surveyResponseId: crypto.randomUUID(),
    channelSurveyId: CHANNEL,
    createdMs: base + i,
    answeredQuestions: [
      { id: Q1, type: "text", answer: x },
      { id: Q2, type: "text", answer: text(i + 1) },
    ],
  }));
  expect(await s.surveys.importResponses(A, responses)).toBe(responses.length);
  for (const [i, r] of responses.entries()) {
    expect_("survey", r.surveyResponseId!, { channelSurveyDescription: CHANNEL_DESCRIPTION, [SURVEY_QUESTIONS[0]]: text(i), [SURVEY_QUESTIONS[1]]: text(i + 1) });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** GET `path` with `headers`: 200 and `text/csv`, the body's bytes. */
async function download(path: string, headers: Record<string, string>): Promise<Uint8Array> {
  const res = await fetch(t.url(path), { headers });
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Read `bytes` strictly with both readers and check them against the expected rows of `name`: as many
 * records as rows (+ the header), and each expected field equal to the written text with the formula guard.
 * @returns the records as objects by header name.
 */
function checkRoundTrip(name: string, bytes: Uint8Array, idColumn: string, headerOf: (h: string) => string = (h) => h) {
  const records = readCsvStrict(bytes);
  const rows = expected.get(name)!;
  expect(records.length - 1, `${records.length - 1} rows read from ${rows.size} written`).toBe(rows.size);
  expect(readCsvPython(bytes), "Python's csv module reads the same records").toEqual(records);
  const [header, ...body] = records;
  const byId = new Map(body.map((r) => [r[header.indexOf(idColumn)], r]));
  let fields = 0;
  for (const [id, want] of rows) {
    const got = byId.get(id);
    expect(got, `${name} row ${id}`).toBeDefined();
    for (const [column, value] of Object.entries(want)) {
      const at = header.indexOf(headerOf(column));
      expect(at, `${name} column ${column}`).toBeGreaterThanOrEqual(0);
      expect(got![at], `${name} ${id} ${column}`).toBe(guarded(value));
      fields++;
    }
  }
  return fields;
}

describe("every export reads back field for field", () => {
  it.each([
    ["reviews", "reviewId"],
    ["questions", "questionId"],
    ["loyalty_customers", "loyaltyCustomerId"],
    ["loyalty_transactions", "transactionId"],
    ["orders", "orderId"],
  ])("%s: the enterprise API and the admin download", async (name, idColumn) => {
    const enterprise = await download(`/enterprise/exports/${name}.csv`, { authorization: basic });
    const fields = checkRoundTrip(name, enterprise, idColumn);
    expect(fields).toBeGreaterThan(texts.length * 2);
    const admin = await download(`/admin/stores/${A}/exports/${name}.csv`, { cookie: alice.cookie });
    checkRoundTrip(name, admin, idColumn);
  });

  it("survey responses (admin export): question texts in the header, answers and the channel description", async () => {
    const bytes = await download(`/admin/stores/${A}/surveys/export.csv?survey=${SURVEY_ID}&archived=all`, { cookie: alice.cookie });
    checkRoundTrip("survey", bytes, "surveyResponseId", (h) => (SURVEY_QUESTIONS.includes(h) ? guarded(h) : h));
  });
});
