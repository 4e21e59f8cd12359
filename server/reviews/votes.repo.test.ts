/**
 * Votes are exactly-once across nodes without a global lock (issue #34 item 3; votes.repo.ts): two nodes (two
 * services over one database: two SQLite connections, or two PostgreSQL pools with CHORUS_TEST_POSTGRES_URL) cast
 * bursts of votes at once through the data module. One visitor's votes count once, an address's new votes on one
 * review count once, an address's new votes in the store count up to the limit and no further, and the same holds
 * for votes on questions and answers.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../test/test-databases.ts";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { isApiError } from "../contract/errors.ts";
import { sql, value } from "../db/database.ts";
import { createServices, type Services } from "../services.ts";
import { votesRepo, type VotesRepo } from "./votes.repo.ts";

const dbs = testDatabases("chorus-votes-");
let nodes: Services[];
/** Each node's votes data module, over its own database handle and limits. */
let votes: VotesRepo[];
const reviews: string[] = [];
let questionId: string;
let answerId: string;

beforeAll(async () => {
  const location = await dbs.location("votes.sqlite");
  nodes = [await createServices({ databasePath: location, mediaPath: join(dbs.dir, "media") }), await createServices({ databasePath: location, mediaPath: join(dbs.dir, "media") })];
  votes = nodes.map((node) => votesRepo(node.db, node.voteLimits.current));
  const s = nodes[0];
  await s.stores.create({ storeId: TEST_STORE_ID, name: "Votes store", platform: "shopify" });
  await s.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "858", name: "Wrap dress" });
  for (let i = 0; i < 20; i++) {
    const reviewId = crypto.randomUUID();
    await s.reviewsData.insert({
      reviewId,
      storeId: TEST_STORE_ID,
      productId: "858",
      rating: 5,
      title: `Review ${i}`,
      body: "Soft fabric, true to size.",
      createdMs: Date.now() - i,
      status: "published",
      reviewerName: "Ada",
    });
    reviews.push(reviewId);
  }
  questionId = crypto.randomUUID();
  await s.questionsData.insertQuestion({ questionId, storeId: TEST_STORE_ID, productId: "858", body: "Machine washable?", askerName: "Ann", status: "published", createdMs: Date.now() });
  answerId = crypto.randomUUID();
  await s.questionsData.insertAnswer({
    answerId,
    storeId: TEST_STORE_ID,
    questionId,
    body: "Yes, at 30 degrees.",
    authorName: "The shop",
    isStoreAnswer: true,
    verifiedStatus: "unverified",
    status: "published",
    createdMs: Date.now(),
  });
}, 120_000);
afterAll(async () => {
  for (const node of nodes ?? []) await node.close();
  await dbs.removeAll();
});

/** The outcome of each call: "ok" or the ApiError's code (429s), anything else thrown. */
async function outcomes(calls: (() => Promise<unknown>)[]): Promise<string[]> {
  return Promise.all(
    calls.map(async (call) => {
      try {
        await call();
        return "ok";
      } catch (error) {
        if (isApiError(error)) return error.code ?? String(error.status);
        throw error;
      }
    }),
  );
}
const helpful = (reviewId: string) => value<number>(nodes[0].db, sql`SELECT helpful_count FROM reviews WHERE review_id = ${reviewId}`);

describe("votes on two nodes at once", () => {
  it("40 votes of one visitor on one review, half on each node: one vote row, counted once", async () => {
    const reviewId = reviews[0]!;
    const results = await outcomes(Array.from({ length: 40 }, (_, i) => () => votes[i % 2]!.castVote(TEST_STORE_ID, reviewId, "c:visitor-1", "helpful", "a:address-1")));
    expect(results.every((r) => r === "ok")).toBe(true);
    expect(await votes[1].countVotes(TEST_STORE_ID, reviewId)).toBe(1);
    expect(await helpful(reviewId)).toBe(1);
  });

  it("40 new visitors from one address on one review, on both nodes: exactly one counted, the rest vote_limited", async () => {
    const reviewId = reviews[1]!;
    const results = await outcomes(Array.from({ length: 40 }, (_, i) => () => votes[i % 2]!.castVote(TEST_STORE_ID, reviewId, `c:rotated-${i}`, "helpful", "a:address-2")));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === "vote_limited")).toHaveLength(39);
    expect(await helpful(reviewId)).toBe(1);
  });

  it("new votes of one address on 12 reviews at once, with a store limit of 5: exactly 5 counted in all", async () => {
    const limits = { perAddressPerReview: { max: 1, windowMs: 86_400_000 }, perAddress: { max: 5, windowMs: 3_600_000 } };
    for (const node of nodes) node.voteLimits.configure(limits);
    try {
      const targets = reviews.slice(2, 14);
      const results = await outcomes(targets.map((reviewId, i) => () => votes[i % 2]!.castVote(TEST_STORE_ID, reviewId, `c:spread-${i}`, "helpful", "a:address-3")));
      expect(results.filter((r) => r === "ok")).toHaveLength(5);
      expect(results.filter((r) => r === "rate_limited")).toHaveLength(7);
      let counted = 0;
      for (const reviewId of targets) counted += (await helpful(reviewId)) ?? 0;
      expect(counted).toBe(5);
    } finally {
      for (const node of nodes) node.voteLimits.configure({ perAddress: { max: 30, windowMs: 3_600_000 } });
    }
  });

  it("question and answer votes: one per voter, one per address per item, on both nodes", async () => {
    const question = { type: "question" as const, questionId };
    const answer = { type: "answer" as const, questionId, answerId };
    // One voter (an address, as Okendo's clients vote), 20 times on each item.
    const same = await outcomes(
      [question, answer].flatMap((item) => Array.from({ length: 20 }, (_, i) => () => votes[i % 2]!.qaVote(TEST_STORE_ID, item, "a:voter-1", { vote: "helpful" }, "a:voter-1"))),
    );
    expect(same.every((r) => r === "ok")).toBe(true);
    // Rotated voters from one address: refused, the count stays.
    const rotated = await outcomes(Array.from({ length: 20 }, (_, i) => () => votes[i % 2]!.qaVote(TEST_STORE_ID, answer, `v:rotated-${i}`, { vote: "helpful" }, "a:voter-1")));
    expect(rotated.every((r) => r === "vote_limited")).toBe(true);
    expect(await value<number>(nodes[0].db, sql`SELECT helpful_count FROM questions WHERE question_id = ${questionId}`)).toBe(1);
    expect(await value<number>(nodes[0].db, sql`SELECT helpful_count FROM answers WHERE answer_id = ${answerId}`)).toBe(1);
    expect(await value<number>(nodes[0].db, sql`SELECT count(*) AS n FROM qa_votes WHERE question_id = ${questionId}`)).toBe(2);
  });
});
