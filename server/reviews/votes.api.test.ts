import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
const prefix = `/v1/stores/${TEST_STORE_ID}`;
let reviewIds: string[];

beforeAll(async () => {
  t = await startTestServer();
  seedRealReviews(t.services, { productIds: ["1078"] });
  t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "bigcommerce" });
  reviewIds = t.services.db.prepare("SELECT review_id FROM reviews WHERE store_id = ? ORDER BY created_ms DESC LIMIT 10").pluck().all(TEST_STORE_ID) as string[];
});
afterAll(() => t.close());

const counts = (id: string) => t.services.db.prepare("SELECT helpful_count AS h, unhelpful_count AS u FROM reviews WHERE review_id = ?").get(id) as { h: number; u: number };
const vote = async (id: string, body: unknown, headers: Record<string, string> = {}, store = prefix) => {
  const res = await fetch(t.url(`${store}/reviews/${id}/votes`), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { res, body: await res.json().catch(() => null) };
};

describe("helpful votes (decisions.md §3)", () => {
  it("a helpful vote adds one and answers 200 { helpfulCount, unhelpfulCount }", async () => {
    const id = reviewIds[0];
    const before = counts(id);
    const { res, body } = await vote(id, { vote: "helpful", visitorId: "visitor-aaaa-1" });
    expect(res.status).toBe(200);
    expect(body).toEqual({ helpfulCount: before.h + 1, unhelpfulCount: before.u });
  });

  it("repeating the same vote changes nothing", async () => {
    const id = reviewIds[1];
    const first = await vote(id, { vote: "helpful", visitorId: "visitor-bbbb-1" });
    const again = await vote(id, { vote: "helpful", visitorId: "visitor-bbbb-1" });
    expect(again.body).toEqual(first.body);
  });

  it("switching the vote moves it from helpful to unhelpful", async () => {
    const id = reviewIds[2];
    const before = counts(id);
    await vote(id, { vote: "helpful", visitorId: "visitor-cccc-1" });
    const { body } = await vote(id, { vote: "unhelpful", visitorId: "visitor-cccc-1" });
    expect(body).toEqual({ helpfulCount: before.h, unhelpfulCount: before.u + 1 });
  });

  it("without visitorId the server sets a signed HttpOnly visitor cookie and recognises it", async () => {
    const id = reviewIds[3];
    const before = counts(id);
    const first = await vote(id, { vote: "helpful" });
    const cookie = first.res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^chorus_visitor=[^;]+\.[^;]+; Path=\/v1\/stores\/.+; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    const again = await vote(id, { vote: "helpful" }, { cookie: cookie.split(";")[0] });
    expect(again.res.headers.get("set-cookie")).toBeNull();
    expect(again.body.helpfulCount).toBe(before.h + 1);
  });

  it("a tampered visitor cookie counts as a new visitor", async () => {
    const id = reviewIds[4];
    const first = await vote(id, { vote: "helpful" });
    const value = first.res.headers.get("set-cookie")!.split(";")[0];
    // Change the value's first character (to another one: replacing it by a fixed character left it as it was when it already was that one).
    const tampered = value.replace(/^chorus_visitor=(.)/, (_, c: string) => `chorus_visitor=${c === "0" ? "1" : "0"}`);
    const second = await vote(id, { vote: "helpful" }, { cookie: tampered });
    expect(second.res.headers.get("set-cookie")).not.toBeNull();
    expect(second.body.helpfulCount).toBe(first.body.helpfulCount + 1);
  });

  it("50 concurrent votes from one visitor count once", async () => {
    const id = reviewIds[5];
    const before = counts(id);
    const results = await Promise.all(Array.from({ length: 50 }, () => vote(id, { vote: "helpful", visitorId: "visitor-concurrent-1" })));
    expect(results.every((r) => r.res.status === 200)).toBe(true);
    expect(counts(id)).toEqual({ h: before.h + 1, u: before.u });
    expect(t.services.db.prepare("SELECT count(*) FROM review_votes WHERE review_id = ?").pluck().get(id)).toBe(1);
  });

  it("50 concurrent votes alternating helpful/unhelpful from one visitor leave exactly one vote", async () => {
    const id = reviewIds[6];
    const before = counts(id);
    await Promise.all(Array.from({ length: 50 }, (_, i) => vote(id, { vote: i % 2 ? "unhelpful" : "helpful", visitorId: "visitor-concurrent-2" })));
    const after = counts(id);
    expect(after.h - before.h + (after.u - before.u)).toBe(1);
  });

  it.each([
    [{ vote: "love" }, /vote must be helpful or unhelpful/],
    [{}, /vote must be helpful or unhelpful/],
    [{ vote: "helpful", visitorId: "short" }, /visitorId must be 8 to 128/],
    [{ vote: "helpful", visitorId: 42 }, /visitorId must be a string/],
  ])("%j answers 400", async (body, message) => {
    const { res, body: out } = await vote(reviewIds[7], body);
    expect(res.status).toBe(400);
    expect(out.error.description).toMatch(message);
  });

  it("a pending review, an unknown review and another store's review answer 404", async () => {
    const pending = reviewIds[8];
    t.services.reviewsData.setStatus(TEST_STORE_ID, pending, "pending");
    expect((await vote(pending, { vote: "helpful", visitorId: "visitor-dddd-1" })).res.status).toBe(404);
    expect((await vote("no-such-review", { vote: "helpful", visitorId: "visitor-dddd-1" })).res.status).toBe(404);
    expect((await vote(reviewIds[9], { vote: "helpful", visitorId: "visitor-dddd-1" }, {}, `/v1/stores/${OTHER_STORE_ID}`)).res.status).toBe(404);
  });

  it("a GET on the votes resource answers 405", async () => {
    const res = await fetch(t.url(`${prefix}/reviews/${reviewIds[0]}/votes`));
    expect(res.status).toBe(405);
  });
});
