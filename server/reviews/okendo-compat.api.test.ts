/**
 * Okendo wire compatibility (issue #23 item 1, docs/api.md, Okendo-compatible): what
 * Okendo's published clients read is served beside our fields, over real HTTP and SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import type { ListQuestionsResponse, ListReviewMediaResponse, ListReviewsResponse, Review } from "../contract/storefront.ts";
import { run, sql } from "../db/database.ts";

let t: TestServer;
let rows: RealReview[];
const prefix = `/v1/stores/${TEST_STORE_ID}`;
const XSS = `Great fit <img src=x onerror="window.__pwned=1"> & "cosy" <script>alert(1)</script>`;
let xssReviewId: string;
let attrReviewIds: string[] = [];
let questionId: string;
let answerId: string;

/** A review of product 7001 (registered as "Okendo test tee") with attributes, published now. */
async function addReview(fields: { body: string; rating: number; recommended?: boolean | null; attributes?: unknown; ratings?: unknown; ageMs?: number }): Promise<string> {
  const reviewId = crypto.randomUUID();
  await t.services.reviewsData.insert({
    reviewId,
    storeId: TEST_STORE_ID,
    productId: "7001",
    rating: fields.rating,
    title: "A title with <b>",
    body: fields.body,
    createdMs: Date.now() - (fields.ageMs ?? 0),
    status: "published",
    reviewerName: "Ada L.",
    isRecommended: fields.recommended ?? null,
    productAttributes: fields.attributes,
  });
  if (fields.ratings) await run(t.services.db, sql`UPDATE reviews SET attributes_with_rating_json = ${JSON.stringify(fields.ratings)} WHERE review_id = ${reviewId}`);
  return reviewId;
}

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback" });
  rows = await seedRealReviews(t.services, { productIds: ["1078", "862"] });
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "7001", name: "Okendo test tee" });
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "7002", name: "No questions here" });
  const fit = (value: number) => [{ title: "Fit", type: "centered-range", value, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" }];
  attrReviewIds = [
    await addReview({ body: "Lovely", rating: 5, recommended: true, attributes: [{ title: "Size bought", type: "single-value", value: "M" }], ratings: fit(1), ageMs: 3000 }),
    await addReview({ body: "Fine", rating: 4, recommended: true, attributes: [{ title: "Size bought", type: "single-value", value: "L" }], ratings: fit(-1), ageMs: 2000 }),
    await addReview({
      body: "Meh",
      rating: 2,
      recommended: false,
      attributes: [
        { title: "Size bought", type: "single-value", value: "S" },
        { title: "Colour", type: "single-value", value: "Red" },
      ],
      ageMs: 1000,
    }),
  ];
  xssReviewId = await addReview({ body: XSS, rating: 3 });
  await run(t.services.db, sql`UPDATE reviews SET reply_body = ${"Thanks <3 & see you"}, reply_created_ms = ${Date.now()} WHERE review_id = ${xssReviewId}`);
  // One image on the first review.
  await run(
    t.services.db,
    sql`
    INSERT INTO review_media (media_id, store_id, review_id, product_id, type, status, thumbnail_url, large_url, full_size_url, position, created_ms)
    VALUES (${crypto.randomUUID()}, ${TEST_STORE_ID}, ${attrReviewIds[0]}, '7001', 'image', 'published', '/media/t.jpg', '/media/l.jpg', '/media/f.jpg', 0, ${Date.now()})`,
  );
  // A published question with a published store answer.
  const asked = await t.services.questions.askQuestion(
    { storeId: TEST_STORE_ID, productKey: "shopify-7001" },
    { body: "Does it shrink <at all>?", displayName: "Grace", email: "g@example.com" },
    "203.0.113.9",
  );
  questionId = asked.question.questionId;
  await t.services.questions.setQuestionStatus(TEST_STORE_ID, questionId, "published");
  answerId = (await t.services.questions.answerAsStore({ storeId: TEST_STORE_ID, questionId, body: "No <never> & not once", authorName: "The shop" })).answerId;
});
afterAll(() => t.close());

const get = async (path: string) => {
  const res = await fetch(t.url(path.startsWith("/stores/") ? `/v1${path}` : prefix + path));
  return { res, body: await res.json() };
};
const vote = async (path: string, voteType: unknown, ip = "198.51.100.7") => {
  const res = await fetch(t.url(prefix + path), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ voteType }),
  });
  return { res, body: await res.json() };
};

describe("aggregate fields", () => {
  it("product aggregate carries Okendo's names, the recommendation count, the product name and attribute averages", async () => {
    const { body } = await get("/products/shopify-7001/review_aggregate");
    const a = body.reviewAggregate;
    expect(a).toMatchObject({
      reviewCount: 4,
      ratingAndReviewCount: 4,
      ratingAndReviewValuesTotal: 14,
      recommendationCount: 2,
      ratingCount: 0,
      productName: "Okendo test tee",
      ratingAndReviewCountByLevel: { level1Count: 0, level2Count: 1, level3Count: 1, level4Count: 1, level5Count: 1 },
    });
    expect(a.attributeRatings).toEqual([{ title: "Fit", type: "centered-range", value: 0, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" }]);
  });

  it("recommendationCount follows moderation and edits (triggers), in every scope", async () => {
    const store = async () => (await get("/review_aggregate")).body.reviewAggregate.recommendationCount;
    const product = async () => (await get("/products/shopify-7001/review_aggregate")).body.reviewAggregate.recommendationCount;
    const s0 = await store();
    expect(s0).toBe(rows.filter((r) => r.recommended).length + 2);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, attrReviewIds[0], "pending");
    expect([await store(), await product()]).toEqual([s0 - 1, 1]);
    await run(t.services.db, sql`UPDATE reviews SET is_recommended = 1 WHERE review_id = ${attrReviewIds[2]}`);
    expect([await store(), await product()]).toEqual([s0, 2]);
    await run(t.services.db, sql`UPDATE reviews SET is_recommended = 0 WHERE review_id = ${attrReviewIds[2]}`);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, attrReviewIds[0], "published");
    expect([await store(), await product()]).toEqual([s0, 2]);
  });

  it("a product without reviews: zeros, no attribute ratings", async () => {
    const { body } = await get("/products/shopify-7002/review_aggregate");
    expect(body.reviewAggregate).toMatchObject({ ratingAndReviewCount: 0, recommendationCount: 0, productName: "No questions here" });
    expect(body.reviewAggregate.attributeRatings).toBeUndefined();
  });
});

describe("GET /reviews/{reviewId}", () => {
  it("answers one published review with its media in Okendo's shapes", async () => {
    const { res, body } = await get(`/reviews/${attrReviewIds[0]}`);
    expect(res.status).toBe(200);
    const review = body.review as Review;
    expect(review.reviewId).toBe(attrReviewIds[0]);
    expect(review.productName).toBe("Okendo test tee");
    expect(review.media[0]).toMatchObject({ type: "image", imageUrls: { largeUrl: expect.stringMatching(/\/media\/l\.jpg$/), thumbnailUrl: expect.stringMatching(/\/media\/t\.jpg$/) } });
    expect(review.media[0]!.streamId).toBe(review.media[0]!.mediaId);
  });

  it("404 for an unknown, a pending and another store's review; 404 for an unknown store", async () => {
    expect((await get(`/reviews/${crypto.randomUUID()}`)).res.status).toBe(404);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, attrReviewIds[1], "pending");
    expect((await get(`/reviews/${attrReviewIds[1]}`)).res.status).toBe(404);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, attrReviewIds[1], "published");
    expect((await fetch(t.url(`/v1/stores/00000000-0000-4000-8000-000000000000/reviews/${attrReviewIds[1]}`))).status).toBe(404);
  });
});

describe("text safe as HTML", () => {
  it("review and reply bodies come with &, <, > as entities; titles and question bodies as typed", async () => {
    const { body } = await get(`/reviews/${xssReviewId}`);
    expect(body.review.body).toBe(`Great fit &lt;img src=x onerror="window.__pwned=1"&gt; &amp; "cosy" &lt;script&gt;alert(1)&lt;/script&gt;`);
    expect(body.review.reply.body).toBe("Thanks &lt;3 &amp; see you");
    expect(body.review.title).toBe("A title with <b>");
    const list = (await get("/products/shopify-7001/reviews")).body as ListReviewsResponse;
    expect(list.reviews.find((r) => r.reviewId === xssReviewId)!.body).toBe(body.review.body);
    const questions = (await get("/products/shopify-7001/questions")).body as ListQuestionsResponse;
    expect(questions.questions[0]!.body).toBe("Does it shrink <at all>?");
    expect(questions.questions[0]!.answers[0]!.body).toBe("No &lt;never&gt; &amp; not once");
  });
});

describe("media list", () => {
  it("carries `media` beside `reviewMedia`, with Okendo's URL groups", async () => {
    const { body } = await get("/products/shopify-7001/review_media");
    const page = body as ListReviewMediaResponse;
    expect(page.media).toEqual(page.reviewMedia);
    expect(page.media[0]).toMatchObject({ type: "image", reviewId: attrReviewIds[0], imageUrls: { largeUrl: expect.any(String), thumbnailUrl: expect.any(String) } });
  });
});

describe("nextUrl relative to /v1", () => {
  it("reviews, media and questions pages link to /stores/{id}/...", async () => {
    const reviews = await get("/products/shopify-1078/reviews?limit=2");
    expect(reviews.body.nextUrl).toMatch(new RegExp(`^/stores/${TEST_STORE_ID}/products/shopify-1078/reviews\\?`));
    const next = await get(reviews.body.nextUrl);
    expect(next.res.status).toBe(200);
    expect(next.body.reviews).toHaveLength(2);
  });
});

describe("votes with Okendo's voteType", () => {
  it("review: upvote counts once per address, swap moves it, cancel withdraws it", async () => {
    const id = attrReviewIds[1];
    const before = (await get(`/reviews/${id}`)).body.review as Review;
    expect((await vote(`/reviews/${id}/vote`, "upvote")).body).toEqual({ helpfulCount: before.helpfulCount + 1, unhelpfulCount: before.unhelpfulCount });
    expect((await vote(`/reviews/${id}/vote`, "upvote")).body).toEqual({ helpfulCount: before.helpfulCount + 1, unhelpfulCount: before.unhelpfulCount });
    expect((await vote(`/reviews/${id}/vote`, "swap-to-downvote")).body).toEqual({ helpfulCount: before.helpfulCount, unhelpfulCount: before.unhelpfulCount + 1 });
    expect((await vote(`/reviews/${id}/vote`, "upvote-cancel")).body).toEqual({ helpfulCount: before.helpfulCount, unhelpfulCount: before.unhelpfulCount + 1 });
    expect((await vote(`/reviews/${id}/vote`, "downvote-cancel")).body).toEqual({ helpfulCount: before.helpfulCount, unhelpfulCount: before.unhelpfulCount });
    expect((await vote(`/reviews/${id}/vote`, "downvote", "198.51.100.8")).body.unhelpfulCount).toBe(before.unhelpfulCount + 1);
    expect(((await get(`/reviews/${id}`)).body.review as Review).unhelpfulCount).toBe(before.unhelpfulCount + 1);
  });

  it("question and answer votes show in the listing, and order `helpful desc`", async () => {
    expect((await vote(`/questions/${questionId}/vote`, "upvote")).body).toEqual({ helpfulCount: 1, unhelpfulCount: 0 });
    expect((await vote(`/questions/${questionId}/answers/${answerId}/vote`, "downvote")).body).toEqual({ helpfulCount: 0, unhelpfulCount: 1 });
    expect((await vote(`/questions/${questionId}/answers/${answerId}/vote`, "swap-to-upvote")).body).toEqual({ helpfulCount: 1, unhelpfulCount: 0 });
    const { body } = await get(`/products/shopify-7001/questions?orderBy=${encodeURIComponent("helpful desc")}`);
    const q = (body as ListQuestionsResponse).questions[0]!;
    expect(q).toMatchObject({ questionId, helpfulCount: 1, unhelpfulCount: 0, author: { displayName: "Grace" }, customer: { displayName: "Grace" } });
    expect(q.answers[0]).toMatchObject({ answerId, helpfulCount: 1, unhelpfulCount: 0 });
  });

  it("a cross-origin client may POST votes (CORS preflight allows the JSON body)", async () => {
    for (const path of [`/reviews/${attrReviewIds[0]}/vote`, `/questions/${questionId}/vote`, `/questions/${questionId}/answers/${answerId}/vote`]) {
      const res = await fetch(t.url(prefix + path), {
        method: "OPTIONS",
        headers: { origin: "https://shop.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(res.headers.get("access-control-allow-methods"), path).toMatch(/POST/);
      expect(res.headers.get("access-control-allow-headers"), path).toMatch(/content-type/i);
    }
  });

  it("bad voteType 400; unknown review, question or answer 404; an answer of another question 404", async () => {
    for (const bad of ["up", "", 1, null]) {
      const { res, body } = await vote(`/reviews/${attrReviewIds[0]}/vote`, bad);
      expect(res.status).toBe(400);
      expect(body.error.description).toMatch(/voteType/);
    }
    expect((await vote(`/reviews/${crypto.randomUUID()}/vote`, "upvote")).res.status).toBe(404);
    expect((await vote(`/questions/${crypto.randomUUID()}/vote`, "upvote")).res.status).toBe(404);
    expect((await vote(`/questions/${questionId}/answers/${crypto.randomUUID()}/vote`, "upvote")).res.status).toBe(404);
    expect((await vote(`/questions/${crypto.randomUUID()}/answers/${answerId}/vote`, "upvote")).res.status).toBe(404);
  });
});

describe("questions: aggregate and order", () => {
  it("question_aggregate counts published questions; 0 without; 404 for a foreign prefix", async () => {
    expect((await get("/products/shopify-7001/question_aggregate")).body).toEqual({ questionAggregate: { approvedQuestionCount: 1 } });
    expect((await get("/products/shopify-7002/question_aggregate")).body).toEqual({ questionAggregate: { approvedQuestionCount: 0 } });
    expect((await get("/products/bigcommerce-7001/question_aggregate")).res.status).toBe(404);
  });

  it("question orders page by votes and by date, each question exactly once", async () => {
    // Two more published questions: one voted unhelpful, one older.
    const more: string[] = [];
    for (const [i, body] of ["Machine washable?", "Does the colour fade?"].entries()) {
      const id = (await t.services.questions.askQuestion({ storeId: TEST_STORE_ID, productKey: "shopify-7001" }, { body, displayName: "Ann", email: `ann${i}@example.com` }, `203.0.113.${20 + i}`))
        .question.questionId;
      await t.services.questions.setQuestionStatus(TEST_STORE_ID, id, "published");
      more.push(id);
    }
    await run(t.services.db, sql`UPDATE questions SET created_ms = created_ms - 86400000 WHERE question_id = ${more[1]}`);
    await vote(`/questions/${more[0]}/vote`, "downvote", "198.51.100.30");
    const all = async (order: string) => {
      const out: string[] = [];
      let next: string | undefined = `/products/shopify-7001/questions?limit=1&orderBy=${encodeURIComponent(order)}`;
      while (next) {
        const { res, body } = await get(next);
        expect(res.status).toBe(200);
        out.push(...(body as ListQuestionsResponse).questions.map((q) => q.questionId));
        next = body.nextUrl;
      }
      return out;
    };
    expect(await all("helpful desc")).toEqual([questionId, more[0], more[1]]);
    expect(await all("unhelpful desc")).toEqual([more[0], questionId, more[1]]);
    expect(await all("date asc")).toEqual([more[1], questionId, more[0]]);
    expect(await all("date desc")).toEqual([more[0], questionId, more[1]]);
    expect(await all("rating desc")).toEqual([more[0], questionId, more[1]]); // no meaning for questions: newest first
    // A cursor of one order is refused by another.
    const first = (await get("/products/shopify-7001/questions?limit=1&orderBy=helpful%20desc")).body.nextUrl as string;
    const cursor = new URL(first, "http://x").searchParams.get("lastEvaluated")!;
    expect((await get(`/products/shopify-7001/questions?orderBy=unhelpful%20desc&lastEvaluated=${encodeURIComponent(cursor)}`)).res.status).toBe(400);
  });

  it("accepts every order Okendo's clients send; 400 for another", async () => {
    for (const order of ["date desc", "date asc", "helpful desc", "unhelpful desc", "rating desc", "rating asc", "has_media desc"]) {
      expect((await get(`/products/shopify-7001/questions?orderBy=${encodeURIComponent(order)}`)).res.status, order).toBe(200);
    }
    const { res, body } = await get("/products/shopify-7001/questions?orderBy=price");
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/orderBy/);
  });
});

describe("product attributes and filters", () => {
  it("GET …/attributes lists each attribute's values", async () => {
    const { body } = await get("/products/shopify-7001/attributes");
    expect(body).toEqual({
      productAttributes: [
        { title: "Colour", options: ["Red"], target: "general" },
        { title: "Size bought", options: ["L", "M", "S"], target: "general" },
      ],
    });
    expect((await get("/products/shopify-7002/attributes")).body).toEqual({ productAttributes: [] });
  });

  it("generalAttributes / shopperAttributes filter the reviews (any option of each attribute), and paging keeps the filter", async () => {
    const ids = async (qs: string) => ((await get(`/products/shopify-7001/reviews?${qs}`)).body as ListReviewsResponse).reviews.map((r) => r.reviewId);
    expect(await ids("generalAttributes=Size%20bought,M")).toEqual([attrReviewIds[0]]);
    expect(new Set(await ids("shopperAttributes=Size%20bought,M,S"))).toEqual(new Set([attrReviewIds[0], attrReviewIds[2]]));
    expect(await ids("generalAttributes=Size%20bought,M,S&generalAttributes=Colour,Red")).toEqual([attrReviewIds[2]]);
    const first = await get("/products/shopify-7001/reviews?limit=1&generalAttributes=Size%20bought,M,L");
    expect(first.body.nextUrl).toContain("generalAttributes=Size%20bought%2CM%2CL");
    const second = await get(first.body.nextUrl);
    expect(second.body.reviews.map((r: Review) => r.reviewId)).toHaveLength(1);
    expect(second.body.nextUrl).toBeUndefined();
  });

  it.each([["generalAttributes=Size"], ["shopperAttributes=,M"], ["generalAttributes=Size,,M"], [`generalAttributes=${"x".repeat(101)},M`]])("%s answers 400", async (qs) => {
    const { res, body } = await get(`/products/shopify-7001/reviews?${qs}`);
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/Attributes/);
  });
});
