/**
 * Admin Q&A moderation over real HTTP (the real server and Remix build, a temp SQLite file, real
 * session cookies, questions asked through the real storefront POST with real Amazon appliance Q&A
 * text): store isolation of the page and every action, CSRF, publish → storefront listing, store
 * answer → `isStoreAnswer: true`, buyer answer moderation, bulk in one POST, escaping of answer HTML.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { DATA_DIR, OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { all, sql, value } from "../db/database.ts";

let t: TestServer;
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
const ASIN = "B00004U9JP";
const PAGE_A = `/admin/stores/${A}/questions`;
const PAGE_B = `/admin/stores/${B}/questions`;
/** Real questions and answers of the shared Amazon file (the first lines, which are plain JSON). */
const real = readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8")
  .split("\n")
  .slice(0, 20)
  .map((l) => JSON.parse(l) as { question: string; answer: string; asin: string });
let alice: AdminAgent;
let bob: AdminAgent;
let asked = 0;

type Listed = { questionId: string; body: string; answers: { answerId: string; body: string; isStoreAnswer: boolean; author: { displayName: string } }[] };
const storefront = async (storeId: string): Promise<Listed[]> => (await (await fetch(t.url(`/v1/stores/${storeId}/products/shopify-${ASIN}/questions`))).json()).questions;

/** Ask a question through the storefront API; @returns its ID (pending). */
async function ask(storeId: string, body: string): Promise<string> {
  const res = await fetch(t.url(`/v1/stores/${storeId}/products/shopify-${ASIN}/questions`), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ body, displayName: "Pat", email: `pat${asked++}@example.com` }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).question.questionId;
}
const statusOf = async (id: string) => await value<string>(t.services.db, sql`SELECT status FROM questions WHERE question_id = ${id}`);
const snapshotB = async () => ({
  questions: await all(t.services.db, sql`SELECT question_id, status FROM questions WHERE store_id = ${B} ORDER BY question_id`),
  answers: await all(t.services.db, sql`SELECT answer_id, status, body FROM answers WHERE store_id = ${B} ORDER BY answer_id`),
});

let bQuestion: string;
let bAnswer: string;

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: A, name: "Store A", platform: "shopify" });
  await t.services.stores.create({ storeId: B, name: "Store B (other merchant)", platform: "shopify" });
  for (const s of [A, B]) await t.services.stores.upsertProduct({ storeId: s, productId: ASIN, name: "InSinkErator Badger 1" });
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "correct horse battery A", storeIds: [A] });
  await t.services.admin.createUser({ email: "bob@shop-b.test", password: "correct horse battery B", storeIds: [B] });
  alice = await signInAgent(t, "alice@shop-a.test", "correct horse battery A", A);
  bob = await signInAgent(t, "bob@shop-b.test", "correct horse battery B", B);
  bQuestion = await ask(B, real[10].question);
  await t.services.orders.importOrders(B, [{ orderId: "B-1", productId: ASIN, email: "lee@example.com", orderedMs: Date.now() }]);
  bAnswer = (
    await t.services.questions.answerAsBuyer({
      storeId: B,
      questionId: bQuestion,
      body: real[10].answer,
      authorName: "Lee",
      email: "lee@example.com",
      verifiedPurchase: { source: "merchant", orderId: "B-1" },
    })
  ).answerId;
}, 60_000);
afterAll(() => t.close());
beforeEach(() => t.services.submissionLimiter.reset());

describe("store isolation of the Questions section", () => {
  it("a user of store A gets 404 for store B's questions page, with none of B's questions", async () => {
    for (const path of [PAGE_B, `${PAGE_B}?status=published`, `${PAGE_B}?answers=pending`]) {
      const res = await adminGet(t, alice, path);
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(body).not.toContain(bQuestion);
      expect(body).not.toContain("Store B (other merchant)");
    }
  });

  it("the owner of store B sees B's pending question with its waiting buyer answer (200)", async () => {
    const res = await adminGet(t, bob, PAGE_B);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(bQuestion);
    expect(html).toContain(bAnswer);
    expect(html).toContain("verified buyer");
  });

  const ACTIONS: [string, () => string, () => Record<string, string | string[]>][] = [
    ["publish on B's URL", () => PAGE_B, () => ({ intent: "publish", question: bQuestion })],
    ["publish on A's URL naming B's question", () => PAGE_A, () => ({ intent: "publish", question: bQuestion })],
    ["bulk-reject on A's URL naming B's question", () => PAGE_A, () => ({ intent: "bulk-reject", question: [bQuestion] })],
    ["answer on A's URL naming B's question", () => PAGE_A, () => ({ intent: "answer", question: bQuestion, answer: "Yes it fits." })],
    ["answer-publish on A's URL naming B's answer", () => PAGE_A, () => ({ intent: "answer-publish", answer: bAnswer })],
    ["answer-reject on B's URL", () => PAGE_B, () => ({ intent: "answer-reject", answer: bAnswer })],
  ];
  it.each(ACTIONS)("%s by a user of store A: 404 and store B unchanged", async (_name, page, fields) => {
    const before = await snapshotB();
    const res = await adminPost(t, alice, page(), fields());
    expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });
});

describe("CSRF", () => {
  it("a publish form posted without the CSRF token answers 403 and changes nothing", async () => {
    const id = await ask(A, real[0].question);
    const res = await adminPost(t, alice, PAGE_A, { intent: "publish", question: id }, null);
    expect(res.status).toBe(403);
    expect(await statusOf(id)).toBe("pending");
  });

  it("a store answer posted with another session's token answers 403 and adds no answer", async () => {
    const id = await ask(A, real[1].question);
    const res = await adminPost(t, alice, PAGE_A, { intent: "answer", question: id, answer: real[1].answer }, bob.csrf);
    expect(res.status).toBe(403);
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM answers WHERE question_id = ${id}`)).toBe(0);
  });
});

describe("moderation reaches the storefront", () => {
  it("publishing a pending question makes it appear in the storefront questions listing", async () => {
    const id = await ask(A, real[2].question);
    expect((await storefront(A)).map((q) => q.questionId)).not.toContain(id);
    expect(await (await adminGet(t, alice, PAGE_A)).text()).toContain(id);
    const res = await adminPost(t, alice, PAGE_A, { intent: "publish", question: id });
    expect(res.status).toBe(200);
    expect((await storefront(A)).find((q) => q.questionId === id)?.body).toBe(real[2].question);
    expect(await (await adminGet(t, alice, PAGE_A)).text()).not.toContain(id); // left the pending queue
  });

  it("a store answer is listed on the storefront with isStoreAnswer: true and the store's name", async () => {
    const id = await ask(A, real[3].question);
    await adminPost(t, alice, PAGE_A, { intent: "publish", question: id });
    const res = await adminPost(t, alice, PAGE_A, { intent: "answer", question: id, answer: real[3].answer });
    expect(res.status).toBe(200);
    const q = (await storefront(A)).find((x) => x.questionId === id)!;
    expect(q.answers).toEqual([expect.objectContaining({ body: real[3].answer, isStoreAnswer: true, author: { displayName: "Store A" } })]);
  });

  it("an empty store answer answers 400 and adds nothing", async () => {
    const id = await ask(A, real[4].question);
    const res = await adminPost(t, alice, PAGE_A, { intent: "answer", question: id, answer: "   " });
    expect(res.status).toBe(400);
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM answers WHERE question_id = ${id}`)).toBe(0);
  });

  it("a pending buyer answer shows on the storefront only after it is published, and leaves it when rejected", async () => {
    const id = await ask(A, real[5].question);
    await t.services.questions.setQuestionStatus(A, id, "published");
    await t.services.orders.importOrders(A, [{ orderId: "A-1", productId: ASIN, email: "kim@example.com", orderedMs: Date.now() }]);
    const { answerId } = await t.services.questions.answerAsBuyer({ storeId: A, questionId: id, body: real[5].answer, authorName: "Kim", email: "kim@example.com" });
    const answersOf = async () => (await storefront(A)).find((q) => q.questionId === id)!.answers.map((a) => a.answerId);
    expect(await answersOf()).toEqual([]);
    expect(await (await adminGet(t, alice, `${PAGE_A}?status=published&answers=pending`)).text()).toContain(answerId);
    expect((await adminPost(t, alice, PAGE_A, { intent: "answer-publish", answer: answerId })).status).toBe(200);
    expect(await answersOf()).toEqual([answerId]);
    expect((await adminPost(t, alice, PAGE_A, { intent: "answer-reject", answer: answerId })).status).toBe(200);
    expect(await answersOf()).toEqual([]);
  });

  it("bulk publish changes every ticked question of the store in one POST, skipping store B's", async () => {
    const ids = [await ask(A, real[6].question), await ask(A, real[7].question)];
    const before = await snapshotB();
    const res = await adminPost(t, alice, PAGE_A, { intent: "bulk-publish", question: [...ids, bQuestion] });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("2 questions published.");
    expect(await Promise.all(ids.map(statusOf))).toEqual(["published", "published"]);
    expect(await snapshotB()).toEqual(before);
  });

  it("bulk reject removes ticked questions from the storefront", async () => {
    const id = await ask(A, real[8].question);
    await adminPost(t, alice, PAGE_A, { intent: "publish", question: id });
    expect((await adminPost(t, alice, PAGE_A, { intent: "bulk-reject", question: [id] })).status).toBe(200);
    expect((await storefront(A)).map((q) => q.questionId)).not.toContain(id);
    expect(await (await adminGet(t, alice, `${PAGE_A}?status=rejected`)).text()).toContain(id);
  });
});

describe("the page", () => {
  it("renders HTML in a store answer as escaped text", async () => {
    const id = await ask(A, real[9].question);
    await adminPost(t, alice, PAGE_A, { intent: "answer", question: id, answer: `<img src=x onerror="alert(1)"><b>Yes</b>` });
    const html = await (await adminGet(t, alice, PAGE_A)).text();
    expect(html).toContain("&lt;img src=x onerror=");
    expect(html).toContain("&lt;b&gt;Yes&lt;/b&gt;");
    expect(html).not.toContain("<b>Yes</b>");
    expect(html).not.toContain("<img src=x");
  });

  it("filters by product (with or without the platform prefix) and shows a clear empty state", async () => {
    const id = await ask(A, real[11].question);
    for (const product of [`shopify-${ASIN}`, ASIN]) expect(await (await adminGet(t, alice, `${PAGE_A}?product=${product}`)).text()).toContain(id);
    const none = await (await adminGet(t, alice, `${PAGE_A}?product=shopify-NOPE`)).text();
    expect(none).not.toContain(id);
    expect(none).toContain("Nothing waiting");
  });

  it("keyset paging: 20 per page, the next page continues without overlap, and its link keeps the filter", async () => {
    const product = "B00004U9JQ";
    await t.services.stores.upsertProduct({ storeId: A, productId: product, name: "Appliance B00004U9JQ" });
    const ids: string[] = [];
    for (const [i, r] of Array.from({ length: 23 }, (_, k) => real[k % real.length]).entries()) {
      const questionId = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      await t.services.questionsData.insertQuestion({
        questionId,
        storeId: A,
        productId: product,
        body: r.question,
        askerName: "Amazon shopper",
        status: "pending",
        createdMs: Date.UTC(2014, 0, 1 + i),
      });
      ids.push(questionId);
    }
    const first = await (await adminGet(t, alice, `${PAGE_A}?product=${product}`)).text();
    /** IDs of the page's questions in page order. */
    const onPage = (html: string) => ids.filter((id) => html.includes(`value="${id}"`)).sort((x, y) => html.indexOf(`value="${x}"`) - html.indexOf(`value="${y}"`));
    expect(onPage(first)).toEqual(ids.slice(3).reverse()); // newest first
    const next = /<a [^>]*href="([^"]*after=[^"]*)"/.exec(first)![1].replace(/&amp;/g, "&");
    expect(next).toContain(`product=${product}`);
    const second = await (await adminGet(t, alice, next)).text();
    expect(onPage(second)).toEqual(ids.slice(0, 3).reverse());
    expect(second).toContain("No more questions");
  });

  it("a bad status filter answers 400, a forged cursor answers 400", async () => {
    expect((await adminGet(t, alice, `${PAGE_A}?status=deleted`)).status).toBe(400);
    expect((await adminGet(t, alice, `${PAGE_A}?after=forged`)).status).toBe(400);
  });
});
