import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminGet, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { DATA_DIR, OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { isApiError } from "../contract/errors.ts";
import { sql, value } from "../db/database.ts";

let t: TestServer;
let enterpriseKey: string;
let merchant: AdminAgent;
const prefix = `/v1/stores/${TEST_STORE_ID}`;
const ASIN = "B00004U9JP";
const url = () => t.url(`${prefix}/products/shopify-${ASIN}/questions`);
/** Real questions and answers of the shared Amazon file (the first lines, which are plain JSON). */
const real = readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8")
  .split("\n")
  .slice(0, 20)
  .map((l) => JSON.parse(l) as { question: string; answer: string; asin: string });

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "bigcommerce" });
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: ASIN, name: "InSinkErator Badger 1" });
  enterpriseKey = (await t.services.apiKeys.create(TEST_STORE_ID, "orders")).key;
  await t.services.admin.createUser({ email: "owner@test-store.test", password: "correct horse battery Q", storeIds: [TEST_STORE_ID] });
  merchant = await signInAgent(t, "owner@test-store.test", "correct horse battery Q", TEST_STORE_ID);
}, 60_000);
afterAll(() => t.close());

const enterpriseAuth = () => `Basic ${Buffer.from(`${TEST_STORE_ID}:${enterpriseKey}`).toString("base64")}`;
/** The admin Questions page's line about one answer (author, "verified buyer", e-mail, status), as the merchant sees it. */
async function adminAnswerMeta(answerId: string): Promise<string> {
  const html = await (await adminGet(t, merchant, `/admin/stores/${TEST_STORE_ID}/questions?status=published&answers=pending`)).text();
  const meta = new RegExp(`id="a-${answerId}">(.*?)</p>`, "s").exec(html);
  if (!meta) throw new Error(`answer ${answerId} is not on the admin page`);
  return meta[1].replace(/<!-- -->/g, "");
}
beforeEach(() => t.services.submissionLimiter.reset());

const ask = async (body: unknown, target = url()) => {
  const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { res, body: await res.json().catch(() => null) };
};
const list = async () => (await (await fetch(url())).json()).questions as { questionId: string; body: string; answers: { body: string; isStoreAnswer: boolean; author: { displayName: string } }[] }[];

describe("ask a question (docs/writes.md, Questions and answers)", () => {
  it("answers 201 { question: { questionId, status: pending } } and is not listed until published", async () => {
    const { res, body } = await ask({ body: real[0].question, displayName: "Sam", email: "sam@example.com" });
    expect(res.status).toBe(201);
    expect(body).toEqual({ question: { questionId: expect.any(String), status: "pending" } });
    expect((await list()).map((q) => q.questionId)).not.toContain(body.question.questionId);
  });

  it("published with a store answer, it is listed with the answer marked as the store's", async () => {
    const { body } = await ask({ body: real[1].question, displayName: "Sam", email: "sam@example.com" });
    const id = body.question.questionId;
    await t.services.questions.answerAsStore({ storeId: TEST_STORE_ID, questionId: id, body: real[1].answer, authorName: "Test store" });
    await t.services.questions.setQuestionStatus(TEST_STORE_ID, id, "published");
    const q = (await list()).find((x) => x.questionId === id)!;
    expect(q.body).toBe(real[1].question);
    expect(q.answers).toEqual([expect.objectContaining({ body: real[1].answer, isStoreAnswer: true, author: { displayName: "Test store" } })]);
  });

  it("an e-mail that matches an imported order does not make a buyer's answer verified (issue #19 finding 6); it is pending until published", async () => {
    const { body } = await ask({ body: real[2].question, displayName: "Sam", email: "sam@example.com" });
    const id = body.question.questionId;
    await t.services.questions.setQuestionStatus(TEST_STORE_ID, id, "published");
    const imported = await fetch(t.url("/enterprise/orders"), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: enterpriseAuth() },
      body: JSON.stringify({ orders: [{ orderId: "O-9", productId: ASIN, email: "lee@example.com" }] }),
    });
    expect(await imported.json()).toEqual({ inserted: 1 });
    const { answerId } = await t.services.questions.answerAsBuyer({ storeId: TEST_STORE_ID, questionId: id, body: real[2].answer, authorName: "Lee", email: "LEE@example.com" });
    expect(await adminAnswerMeta(answerId)).not.toMatch(/verified buyer/);
    expect((await t.services.questionsData.getAnswer(TEST_STORE_ID, answerId))?.verified_status).toBe("unverified");
    expect((await list()).find((x) => x.questionId === id)!.answers).toEqual([]);
    await t.services.questions.setAnswerStatus(TEST_STORE_ID, answerId, "published");
    expect((await list()).find((x) => x.questionId === id)!.answers).toEqual([expect.objectContaining({ body: real[2].answer, isStoreAnswer: false })]);
  });

  it("only a proof checked by a trusted caller (verifiedPurchase) makes a buyer's answer verified-buyer; no order is needed for an unverified one", async () => {
    const { body } = await ask({ body: real[7].question, displayName: "Sam", email: "sam@example.com" });
    const id = body.question.questionId;
    await t.services.questions.setQuestionStatus(TEST_STORE_ID, id, "published");
    const input = { storeId: TEST_STORE_ID, questionId: id, body: real[7].answer, authorName: "Noor", email: "noor@example.com" };
    const proven = await t.services.questions.answerAsBuyer({ ...input, verifiedPurchase: { source: "shopper-token", orderId: "O-10" } });
    const plain = await t.services.questions.answerAsBuyer(input);
    expect(await adminAnswerMeta(proven.answerId)).toMatch(/verified buyer/);
    expect(await adminAnswerMeta(plain.answerId)).not.toMatch(/verified buyer/);
  });

  it("data functions answer 404 for another store's question", async () => {
    const id = (await t.services.questionsData.listByStatus(TEST_STORE_ID, "pending", 1))[0].question_id;
    for (const call of [
      () => t.services.questions.setQuestionStatus(OTHER_STORE_ID, id, "published"),
      () => t.services.questions.answerAsStore({ storeId: OTHER_STORE_ID, questionId: id, body: "x", authorName: "Other" }),
    ]) {
      let error: unknown;
      try {
        await call();
      } catch (e) {
        error = e;
      }
      expect(isApiError(error) && error.status).toBe(404);
    }
  });

  it.each([
    [{ displayName: "Sam", email: "sam@example.com" }, /body/],
    [{ body: "why", displayName: "Sam", email: "sam@example.com" }, /body must be at least 5 characters/],
    [{ body: "x".repeat(1001), displayName: "Sam", email: "sam@example.com" }, /body must be at most 1000/],
    [{ body: "Does it fit a 1/2 HP unit?", displayName: " ", email: "sam@example.com" }, /displayName is required/],
    [{ body: "Does it fit a 1/2 HP unit?", displayName: "Sam", email: "sam" }, /email must be a valid e-mail address/],
  ])("%j answers 400 naming the field", async (body, message) => {
    const { res, body: out } = await ask(body);
    expect(res.status).toBe(400);
    expect(out.error.description).toMatch(message);
  });

  it("a filled honeypot answers 201 and stores nothing", async () => {
    const before = await value<number>(t.services.db, sql`SELECT count(*) AS n FROM questions`);
    const { res } = await ask({ body: real[3].question, displayName: "Bot", email: "bot@example.com", website: "spam" });
    expect(res.status).toBe(201);
    expect(await value<number>(t.services.db, sql`SELECT count(*) AS n FROM questions`)).toBe(before);
  });

  it("an unknown product or another platform's prefix answers 404", async () => {
    expect((await ask({ body: real[0].question, displayName: "S", email: "s@example.com" }, t.url(`${prefix}/products/shopify-NOPE/questions`))).res.status).toBe(404);
    expect((await ask({ body: real[0].question, displayName: "S", email: "s@example.com" }, t.url(`${prefix}/products/bigcommerce-${ASIN}/questions`))).res.status).toBe(404);
  });

  it("the e-mail's questions over the limit answer 429", async () => {
    t.services.submissionLimiter.configure({ perEmail: { max: 2, windowMs: 60_000 } });
    try {
      expect((await ask({ body: real[4].question, displayName: "Kim", email: "kim@example.com" })).res.status).toBe(201);
      expect((await ask({ body: real[5].question, displayName: "Kim", email: "kim@example.com" })).res.status).toBe(201);
      expect((await ask({ body: real[6].question, displayName: "Kim", email: "kim@example.com" })).res.status).toBe(429);
    } finally {
      t.services.submissionLimiter.configure({ perEmail: { max: 5, windowMs: 3600_000 } });
    }
  });
});
