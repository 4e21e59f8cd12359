import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import type { ListReviewsResponse, Review } from "../contract/storefront.ts";
import { all, sql, value, values } from "../db/database.ts";
import { createKeywordEngine } from "./keywords.ts";
import type { SummaryClaim } from "./summary.ts";

// Real products of the clothing file: 1088 and 1093 have exactly 30 reviews (both "Dresses"), 1106 has 5.
const P30 = "1088";
const P30B = "1093";
const FEW = "1106";
const GROUP = "dresses";
const prefix = `/v1/stores/${TEST_STORE_ID}`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: [P30, P30B, FEW] });
});
afterAll(() => t.close());

/** GET a path under the store prefix, or a `nextUrl` (relative to `/v1`: `/stores/...`). */
const get = async (path: string) => {
  const res = await fetch(t.url(path.startsWith("/stores/") ? `/v1${path}` : prefix + path));
  return { status: res.status, body: await res.json() };
};
const product = (id: string) => ({ type: "product" as const, id });
const reviewIdsOf = (productId: string) => values<string>(t.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} AND product_id = ${productId} ORDER BY review_id`);
const setAutoPublish = (on: boolean) => t.services.stores.updateSettings(TEST_STORE_ID, { aiAutoPublish: on });

describe("availability thresholds (docs/ai.md, Availability and publish flow)", () => {
  it("29 published reviews: nothing is generated and both endpoints answer {}", async () => {
    await setAutoPublish(true);
    const one = (await reviewIdsOf(P30))[0];
    await t.services.reviewsData.setStatus(TEST_STORE_ID, one, "pending");
    const r = await t.services.ai.generate(TEST_STORE_ID, product(P30));
    expect(r).toMatchObject({ status: "skipped", reviewCount: 29 });
    expect(await get(`/products/shopify-${P30}/reviews_summary`)).toEqual({ status: 200, body: {} });
    expect(await get(`/products/shopify-${P30}/reviews_keywords`)).toEqual({ status: 200, body: {} });
    await t.services.reviewsData.setStatus(TEST_STORE_ID, one, "published");
  });

  it("30 published reviews: summary and keywords are generated and served in the documented shapes", async () => {
    const r = await t.services.ai.generate(TEST_STORE_ID, product(P30));
    expect(r.status).toBe("generated");
    const s = await get(`/products/shopify-${P30}/reviews_summary`);
    expect(s.status).toBe(200);
    expect(Object.keys(s.body.reviewsSummary).sort()).toEqual(["body", "contributingReviewCount", "dateGenerated", "datePublished"]);
    expect(s.body.reviewsSummary.contributingReviewCount).toBe(30);
    expect(s.body.reviewsSummary.body).toMatch(/^Average rating: \d\.\d out of 5 from 30 reviews\./);
    expect(new Date(s.body.reviewsSummary.dateGenerated).toISOString()).toBe(s.body.reviewsSummary.dateGenerated);
    const k = await get(`/products/shopify-${P30}/reviews_keywords`);
    expect(k.body.reviewsKeywords.keywordTopics.length).toBeGreaterThan(0);
    for (const topic of k.body.reviewsKeywords.keywordTopics) {
      expect(Object.keys(topic).sort()).toEqual(["keywords", "topic"]);
      for (const kw of topic.keywords) expect(Object.keys(kw).sort()).toEqual(["name", "occurrences"]);
    }
  });

  it("a product with 5 reviews, an unknown product and an ungenerated product answer {}; an unknown store 404", async () => {
    expect((await t.services.ai.generate(TEST_STORE_ID, product(FEW))).status).toBe("skipped");
    for (const id of [FEW, "does-not-exist", P30B]) {
      expect((await get(`/products/shopify-${id}/reviews_summary`)).body).toEqual({});
      expect((await get(`/products/shopify-${id}/reviews_keywords`)).body).toEqual({});
    }
    const res = await fetch(t.url(`/v1/stores/00000000-0000-4000-8000-000000000000/products/shopify-${P30}/reviews_summary`));
    expect(res.status).toBe(404);
    expect((await get(`/products/bigcommerce-${P30}/reviews_summary`)).status).toBe(404);
  });
});

describe("occurrences and claims are exact", () => {
  it("every keyword's occurrences equals a direct count of the product's stored reviews in which the engine finds it", async () => {
    const { body } = await get(`/products/shopify-${P30}/reviews_keywords`);
    const engine = createKeywordEngine();
    const stored = await all<{ review_id: string; title: string; body: string; rating: number }>(
      t.services.db,
      sql`SELECT review_id, title, body, rating FROM reviews WHERE store_id = ${TEST_STORE_ID} AND product_id = ${P30} AND status = 'published'`,
    );
    const found = stored.map((r) => new Set(engine.analyse(r.title, r.body, r.rating).map((m) => m.keyword)));
    for (const topic of body.reviewsKeywords.keywordTopics) {
      for (const kw of topic.keywords) {
        expect(found.filter((s) => s.has(kw.name)).length, kw.name).toBe(kw.occurrences);
        const counted = await value<number>(
          t.services.db,
          sql`SELECT count(*) AS n FROM ai_review_keywords k JOIN reviews r ON r.review_id = k.review_id WHERE k.store_id = ${TEST_STORE_ID} AND r.product_id = ${P30} AND r.status = 'published' AND k.keyword = ${kw.name}`,
        );
        expect(counted, kw.name).toBe(kw.occurrences);
      }
    }
  });

  it("each praise/complaint claim keeps its supporting review IDs and its percentage matches them", async () => {
    const [v] = await t.services.ai.versions(TEST_STORE_ID, product(P30));
    const claims = JSON.parse(v.claims_json) as SummaryClaim[];
    const ids = new Set(await reviewIdsOf(P30));
    const polar = claims.filter((c) => c.kind !== "aggregate");
    expect(polar.length).toBeGreaterThan(0);
    for (const c of polar) {
      expect(c.reviewIds.length).toBeGreaterThan(0);
      for (const id of c.reviewIds) expect(ids.has(id)).toBe(true);
      expect(c.sharePercent).toBe(Math.round((c.reviewIds.length / 30) * 100));
      expect(v.summary_body).toContain(`${c.sharePercent}% of reviews`);
    }
  });

  it("list reviews with keyword= returns exactly the reviews in which it was identified, keyset-paged", async () => {
    const { body } = await get(`/products/shopify-${P30}/reviews_keywords`);
    const kw = body.reviewsKeywords.keywordTopics[0].keywords[0] as { name: string; occurrences: number };
    const seen: Review[] = [];
    let next: string | undefined = `/products/shopify-${P30}/reviews?limit=3&keyword=${encodeURIComponent(kw.name.toUpperCase())}`;
    while (next) {
      const page = (await get(next)).body as ListReviewsResponse;
      seen.push(...page.reviews);
      next = page.nextUrl;
      if (next) expect(next).toContain(`keyword=${encodeURIComponent(kw.name)}`);
    }
    expect(seen.length).toBe(kw.occurrences);
    expect(new Set(seen.map((r) => r.reviewId)).size).toBe(seen.length);
    const engine = createKeywordEngine();
    for (const r of seen) expect(engine.analyse(r.title, r.body, r.rating).map((m) => m.keyword)).toContain(kw.name);
    expect((await get(`/products/shopify-${P30}/reviews?keyword=no-such-keyword`)).body.reviews).toEqual([]);
    expect((await get(`/products/shopify-${P30}/reviews?keyword=`)).status).toBe(400);
  });
});

describe("publish flow", () => {
  it("auto-publish off: a new version is stored with dateGenerated but the endpoint keeps the published one until approval", async () => {
    await setAutoPublish(false);
    const before = (await get(`/products/shopify-${P30}/reviews_summary`)).body.reviewsSummary;
    const r = await t.services.ai.generate(TEST_STORE_ID, product(P30));
    if (r.status !== "generated") throw new Error("expected a version");
    expect(r.version.published_ms).toBeNull();
    expect((await get(`/products/shopify-${P30}/reviews_summary`)).body.reviewsSummary.dateGenerated).toBe(before.dateGenerated);

    await t.services.ai.approve(TEST_STORE_ID, r.version.version_id);
    const after = (await get(`/products/shopify-${P30}/reviews_summary`)).body.reviewsSummary;
    expect(after.dateGenerated).toBe(new Date(r.version.generated_ms).toISOString());
    expect(Date.parse(after.datePublished)).toBeGreaterThanOrEqual(r.version.generated_ms);
  });

  it("auto-publish off: one approval rule, summary and keywords both {} until the version is approved, then both served", async () => {
    const r = await t.services.ai.generate(TEST_STORE_ID, product(P30B));
    if (r.status !== "generated") throw new Error("expected a version");
    expect((await get(`/products/shopify-${P30B}/reviews_summary`)).body).toEqual({});
    expect((await get(`/products/shopify-${P30B}/reviews_keywords`)).body).toEqual({});
    await t.services.ai.approve(TEST_STORE_ID, r.version.version_id);
    expect((await get(`/products/shopify-${P30B}/reviews_summary`)).body.reviewsSummary.contributingReviewCount).toBe(30);
    expect((await get(`/products/shopify-${P30B}/reviews_keywords`)).body.reviewsKeywords.keywordTopics.length).toBeGreaterThan(0);
    // a newer unapproved version hides neither: both stay those of the approved one
    const keywords = (await get(`/products/shopify-${P30B}/reviews_keywords`)).body;
    const newer = await t.services.ai.generate(TEST_STORE_ID, product(P30B));
    expect(newer.status === "generated" && newer.version.published_ms).toBeNull();
    expect((await get(`/products/shopify-${P30B}/reviews_keywords`)).body).toEqual(keywords);
    expect((await get(`/products/shopify-${P30B}/reviews_summary`)).body.reviewsSummary.dateGenerated).toBe(new Date(r.version.generated_ms).toISOString());
  });

  it("a keywords-only version (between the keywords and the summary threshold) also waits for approval, and can be approved", async () => {
    t.services.aiConfig.minReviews = 1000;
    try {
      const r = await t.services.ai.generate(TEST_STORE_ID, product(P30));
      if (r.status !== "generated") throw new Error("expected a version");
      expect(r.version.summary_body).toBeNull();
      expect(r.version.published_ms).toBeNull();
      const approved = await t.services.ai.approve(TEST_STORE_ID, r.version.version_id);
      expect(approved.published_ms).not.toBeNull();
    } finally {
      t.services.aiConfig.minReviews = 30;
    }
  });

  it("approving a version of another store answers 404", async () => {
    const [v] = await t.services.ai.versions(TEST_STORE_ID, product(P30B));
    await expect(t.services.ai.approve("99999999-8888-4777-8666-555555555555", v.version_id)).rejects.toThrow(/not found/);
  });
});

describe("group-level content (docs/ai.md, Answers)", () => {
  it("off: the product's own content; on: the group's content for every product of the group", async () => {
    await setAutoPublish(true);
    await t.services.ai.generate(TEST_STORE_ID, product(P30));
    const own = (await get(`/products/shopify-${P30}/reviews_summary`)).body.reviewsSummary;
    expect(own.contributingReviewCount).toBe(30);

    await t.services.stores.setGroupContent(TEST_STORE_ID, GROUP, true);
    expect((await get(`/products/shopify-${P30}/reviews_summary`)).body).toEqual({}); // group not generated yet
    const r = await t.services.ai.generate(TEST_STORE_ID, { type: "group", id: GROUP });
    expect(r.status).toBe("generated");
    for (const id of [P30, P30B, FEW]) {
      const s = (await get(`/products/shopify-${id}/reviews_summary`)).body.reviewsSummary;
      expect(s.contributingReviewCount).toBe(65);
      expect(s.body).toMatch(/ from 65 reviews\./);
      expect((await get(`/products/shopify-${id}/reviews_keywords`)).body.reviewsKeywords.keywordTopics.length).toBeGreaterThan(0);
    }
    await t.services.stores.setGroupContent(TEST_STORE_ID, GROUP, false);
    expect((await get(`/products/shopify-${P30}/reviews_summary`)).body.reviewsSummary.contributingReviewCount).toBe(30);
    expect((await get(`/products/shopify-${FEW}/reviews_summary`)).body).toEqual({});
  });
});

describe("regeneration trigger (published reviews grew by the configured fraction, default 20%)", () => {
  it("queues nothing below +20% and queues the product at +20%; the worker regenerates it", async () => {
    await setAutoPublish(true);
    const ids = await reviewIdsOf(P30B);
    // P30B: set to 25 published, generate, then grow
    for (const id of ids.slice(0, 5)) await t.services.reviewsData.setStatus(TEST_STORE_ID, id, "pending");
    t.services.aiConfig.minReviews = 20;
    t.services.aiConfig.keywordsMinReviews = 20;
    try {
      await t.services.ai.generate(TEST_STORE_ID, product(P30B));
      await t.services.aiWorker.runUntilIdle();
      await t.services.ai.sweep();
      await t.services.aiWorker.runUntilIdle(); // settle every other due scope
      expect(await t.services.ai.sweep()).toBe(0);
      for (const id of ids.slice(0, 4)) await t.services.reviewsData.setStatus(TEST_STORE_ID, id, "published"); // 29 = +16%
      expect(await t.services.ai.sweep()).toBe(0);
      await t.services.reviewsData.setStatus(TEST_STORE_ID, ids[4], "published"); // 30 = +20%
      expect(await t.services.ai.sweep()).toBe(1);
      expect((await t.services.aiData.listJobs(TEST_STORE_ID)).filter((j) => j.status === "queued").map((j) => j.scope_id)).toEqual([P30B]);
      // Another node (here: a claim under another worker identity) runs it: a sweep meanwhile does not queue it again.
      const running = (await t.services.aiData.claimNext(Date.now(), Date.now() + 60_000, "another node"))!;
      expect(running.scope_id).toBe(P30B);
      expect(await t.services.ai.sweep()).toBe(0);
      expect((await t.services.aiData.listJobs(TEST_STORE_ID)).filter((j) => j.status === "queued")).toEqual([]);
      expect(await t.services.aiData.failJob(running, "handed back", Date.now(), 0, false)).toBe(true); // queued again, due at once
      expect(await t.services.aiWorker.runUntilIdle()).toBe(1);
      expect((await get(`/products/shopify-${P30B}/reviews_summary`)).body.reviewsSummary.contributingReviewCount).toBe(30);
    } finally {
      t.services.aiConfig.minReviews = 30;
      t.services.aiConfig.keywordsMinReviews = 30;
    }
  });
});
