/**
 * Helpful votes over real HTTP (docs/writes.md, Helpful votes; issue #19 finding 5): one vote per visitor per review,
 * visitors are values the server signed, and votes are limited per client address. The server stands
 * behind a trusted loopback proxy, so each test names its client address in X-Forwarded-For.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { one, sql, value, values } from "../db/database.ts";
import { DEFAULT_VOTE_LIMITS } from "./submission-limits.ts";

let t: TestServer;
const prefix = `/v1/stores/${TEST_STORE_ID}`;
let reviewIds: string[];
let nextReview = 0;
/** A review no earlier test voted on. */
const freshReview = () => reviewIds[nextReview++]!;
let nextAddress = 0;
/** A client address no earlier test used. */
const freshAddress = () => `198.51.100.${++nextAddress}`;
const SIGNED = /^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/;

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback" });
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "bigcommerce" });
  reviewIds = (await values(t.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} ORDER BY created_ms DESC`)) as string[];
  expect(reviewIds.length).toBeGreaterThanOrEqual(60);
});
afterAll(() => t.close());

const counts = async (id: string) => (await one(t.services.db, sql`SELECT helpful_count AS h, unhelpful_count AS u FROM reviews WHERE review_id = ${id}`)) as { h: number; u: number };
const vote = async (id: string, body: unknown, address: string, headers: Record<string, string> = {}, store = prefix) => {
  const res = await fetch(t.url(`${store}/reviews/${id}/votes`), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address, ...headers },
    body: JSON.stringify(body),
  });
  return { res, body: await res.json().catch(() => null) };
};
/** A signed visitor ID, as the widget holds one after its first vote (a vote from its own address on a review of its own). */
const signedVisitor = async () => (await vote(freshReview(), { vote: "helpful" }, freshAddress())).body.visitorId as string;

describe("helpful votes (docs/writes.md, Helpful votes)", () => {
  it("a helpful vote adds one and answers 200 { helpfulCount, unhelpfulCount, visitorId } with a signed visitorId", async () => {
    const id = freshReview();
    const before = await counts(id);
    const { res, body } = await vote(id, { vote: "helpful" }, freshAddress());
    expect(res.status).toBe(200);
    expect(body).toEqual({ helpfulCount: before.h + 1, unhelpfulCount: before.u, visitorId: expect.stringMatching(SIGNED) });
  });

  it("repeating the same vote with the answered visitorId changes nothing, from any address", async () => {
    const id = freshReview();
    const first = await vote(id, { vote: "helpful" }, freshAddress());
    const again = await vote(id, { vote: "helpful", visitorId: first.body.visitorId }, freshAddress());
    expect(again.res.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it("switching the vote moves it from helpful to unhelpful (one's own vote is never limited)", async () => {
    const id = freshReview();
    const address = freshAddress();
    const before = await counts(id);
    const first = await vote(id, { vote: "helpful" }, address);
    const { res, body } = await vote(id, { vote: "unhelpful", visitorId: first.body.visitorId }, address);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ helpfulCount: before.h, unhelpfulCount: before.u + 1 });
  });

  it("without visitorId the server sets a signed HttpOnly visitor cookie and recognises it", async () => {
    const id = freshReview();
    const address = freshAddress();
    const before = await counts(id);
    const first = await vote(id, { vote: "helpful" }, address);
    const cookie = first.res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^chorus_visitor=[^;]+\.[^;]+; Path=\/v1\/stores\/.+; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    expect(first.body.visitorId).toBe(cookie.split(";")[0].slice("chorus_visitor=".length));
    const again = await vote(id, { vote: "helpful" }, address, { cookie: cookie.split(";")[0] });
    expect(again.res.status).toBe(200);
    expect(again.res.headers.get("set-cookie")).toBeNull();
    expect(again.body.helpfulCount).toBe(before.h + 1);
  });

  it("a tampered visitor cookie is a new visitor: refused from the same address, counted from another", async () => {
    const id = freshReview();
    const address = freshAddress();
    const first = await vote(id, { vote: "helpful" }, address);
    const value = first.res.headers.get("set-cookie")!.split(";")[0];
    // Change the value's first character (to another one: replacing it by a fixed character left it as it was when it already was that one).
    const tampered = value.replace(/^chorus_visitor=(.)/, (_, c: string) => `chorus_visitor=${c === "0" ? "1" : "0"}`);
    const sameAddress = await vote(id, { vote: "helpful" }, address, { cookie: tampered });
    expect(sameAddress.res.status).toBe(429);
    expect(sameAddress.body.error.code).toBe("vote_limited");
    expect(Number(sameAddress.res.headers.get("retry-after"))).toBeGreaterThan(0); // when to try again (RFC 9110, section 10.2.3)
    const other = await vote(id, { vote: "helpful" }, freshAddress(), { cookie: tampered });
    expect(other.res.status).toBe(200);
    expect(other.res.headers.get("set-cookie")).not.toBeNull();
    expect(other.body.helpfulCount).toBe(first.body.helpfulCount + 1);
  });

  it("50 concurrent votes from one visitor count once", async () => {
    const id = freshReview();
    const address = freshAddress();
    const visitorId = (await vote(freshReview(), { vote: "helpful" }, address)).body.visitorId;
    const before = await counts(id);
    const results = await Promise.all(Array.from({ length: 50 }, () => vote(id, { vote: "helpful", visitorId }, address)));
    expect(results.map((r) => r.res.status)).toEqual(Array(50).fill(200));
    expect(await counts(id)).toEqual({ h: before.h + 1, u: before.u });
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM review_votes WHERE review_id = ${id}`)).toBe(1);
  });

  it("50 concurrent votes alternating helpful/unhelpful from one visitor leave exactly one vote", async () => {
    const id = freshReview();
    const address = freshAddress();
    const visitorId = await signedVisitor();
    const before = await counts(id);
    await Promise.all(Array.from({ length: 50 }, (_, i) => vote(id, { vote: i % 2 ? "unhelpful" : "helpful", visitorId }, address)));
    const after = await counts(id);
    expect(after.h - before.h + (after.u - before.u)).toBe(1);
  });

  it.each([
    [{ vote: "love" }, /vote must be helpful or unhelpful/],
    [{}, /vote must be helpful or unhelpful/],
    [{ vote: "helpful", visitorId: "short" }, /visitorId must be 8 to 128/],
    [{ vote: "helpful", visitorId: 42 }, /visitorId must be a string/],
  ])("%j answers 400", async (body, message) => {
    const { res, body: out } = await vote(reviewIds[0], body, freshAddress());
    expect(res.status).toBe(400);
    expect(out.error.description).toMatch(message);
  });

  it("a pending review, an unknown review and another store's review answer 404", async () => {
    const pending = freshReview();
    await t.services.reviewsData.setStatus(TEST_STORE_ID, pending, "pending");
    expect((await vote(pending, { vote: "helpful" }, freshAddress())).res.status).toBe(404);
    expect((await vote("no-such-review", { vote: "helpful" }, freshAddress())).res.status).toBe(404);
    expect((await vote(freshReview(), { vote: "helpful" }, freshAddress(), {}, `/v1/stores/${OTHER_STORE_ID}`)).res.status).toBe(404);
  });

  it("a GET on the votes resource answers 405", async () => {
    const res = await fetch(t.url(`${prefix}/reviews/${reviewIds[0]}/votes`));
    expect(res.status).toBe(405);
  });
});

describe("vote stuffing (issue #19 finding 5)", () => {
  it("1,000 concurrent helpful votes with rotated visitorIds from one address move the count by exactly one", async () => {
    const id = freshReview();
    const address = freshAddress();
    const before = await counts(id);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => vote(id, i % 2 ? { vote: "helpful", visitorId: `rotated-visitor-${i}-${crypto.randomUUID()}` } : { vote: "helpful" }, address)),
    );
    const ms = performance.now() - started;
    const statuses = results.map((r) => r.res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(999);
    const refused = results.find((r) => r.res.status === 429)!.body.error;
    expect(refused).toMatchObject({ code: "vote_limited", description: expect.stringMatching(/^A vote on this review from this network was already counted: try again in \d+ seconds$/) });
    expect(await counts(id)).toEqual({ h: before.h + 1, u: before.u });
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM review_votes WHERE review_id = ${id} AND address_hash IS NOT NULL`)).toBe(1);
    console.log(`1,000 concurrent rotated-ID votes from one address: 1 counted, 999 refused, ${Math.round(ms)} ms`);
  });

  it("a client-made visitorId is not believed: the answer carries a new signed one, and a forged signature is a new visitor too", async () => {
    const address = freshAddress();
    const made = await vote(freshReview(), { vote: "helpful", visitorId: "my-own-visitor-id-123" }, address);
    expect(made.res.status).toBe(200);
    expect(made.body.visitorId).toMatch(SIGNED);
    const [uuid] = made.body.visitorId.split(".");
    const forged = await vote(freshReview(), { vote: "helpful", visitorId: `${uuid}.${"A".repeat(43)}` }, address);
    expect(forged.res.status).toBe(200);
    expect(forged.body.visitorId).not.toBe(`${uuid}.${"A".repeat(43)}`);
    expect(forged.body.visitorId).not.toBe(made.body.visitorId);
  });

  it("the same signed visitor is one visitor with or without the cookie (a widget on another origin)", async () => {
    const id = freshReview();
    const address = freshAddress();
    const before = await counts(id);
    const first = await vote(id, { vote: "helpful" }, address);
    const viaBody = await vote(id, { vote: "unhelpful", visitorId: first.body.visitorId }, address);
    expect(viaBody.res.status).toBe(200);
    expect(await counts(id)).toEqual({ h: before.h, u: before.u + 1 });
  });

  it(`at most ${DEFAULT_VOTE_LIMITS.perAddress.max} new votes per address per hour, also when sent concurrently (limit configurable)`, async () => {
    const max = 5;
    t.services.voteLimits.configure({ perAddress: { max, windowMs: 3_600_000 } });
    try {
      const address = freshAddress();
      const targets = Array.from({ length: max + 8 }, freshReview);
      const before = await Promise.all(targets.map(counts));
      const results = await Promise.all(targets.map((id) => vote(id, { vote: "helpful" }, address)));
      expect(results.filter((r) => r.res.status === 200)).toHaveLength(max);
      const refused = results.filter((r) => r.res.status === 429);
      expect(refused).toHaveLength(8);
      expect(refused[0].body.error).toMatchObject({ code: "rate_limited", description: expect.stringMatching(/^Too many votes from this network: try again in \d+ seconds$/) });
      const after = await Promise.all(targets.map(counts));
      const moved = targets.reduce((sum, _, i) => sum + after[i].h - before[i].h, 0);
      expect(moved).toBe(max);
      // Another address is not affected.
      expect((await vote(targets[targets.length - 1], { vote: "helpful" }, freshAddress())).res.status).toBe(200);
    } finally {
      t.services.voteLimits.configure(DEFAULT_VOTE_LIMITS);
    }
  });

  it("rotating the low 64 bits of an IPv6 address is the same address", async () => {
    const id = freshReview();
    const before = await counts(id);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(id, { vote: "helpful" }, `2001:db8:5:5::${(i + 1).toString(16)}`)));
    expect(results.filter((r) => r.res.status === 200)).toHaveLength(1);
    expect((await counts(id)).h).toBe(before.h + 1);
    expect((await vote(id, { vote: "helpful" }, "2001:db8:5:6::1")).res.status).toBe(200); // another /64
  });
});
