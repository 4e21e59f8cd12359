/**
 * The review and question submission limit per client address groups IPv6 by /64 (`addressKey`), as the
 * vote and survey limits do: rotating the low 64 bits of one subscriber's addresses does not buy new
 * quota (issue #19 follow-up). Over real HTTP, behind a trusted loopback proxy so each request names its
 * client address in X-Forwarded-For.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DATA_DIR, seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
let rows: RealReview[];
const PER_ADDRESS = 3;
const PRODUCT = "1078";
const APPLIANCE = "B00004U9JP";
const reviewsPath = `/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/reviews`;
const questionsPath = `/v1/stores/${TEST_STORE_ID}/products/shopify-${APPLIANCE}/questions`;
/** Real questions of the shared Amazon file (its first lines are plain JSON). */
const realQuestions = readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8")
  .split("\n")
  .slice(0, 20)
  .map((l) => (JSON.parse(l) as { question: string }).question);
let sent = 0;

/** A real review of the file under a new e-mail each time, so only the address limit can refuse it. */
function review() {
  const r = rows.filter((x) => x.body && x.title)[sent % 20];
  return { rating: r.rating, title: r.title, body: r.body, displayName: "Dana", email: `dana${sent++}@example.com` };
}
const question = () => ({ body: realQuestions[sent % realQuestions.length], displayName: "Sam", email: `sam${sent++}@example.com` });

async function post(path: string, address: string, body: unknown) {
  const res = await fetch(t.url(path), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback" });
  rows = await seedRealReviews(t.services, { productIds: [PRODUCT] });
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: APPLIANCE, name: "InSinkErator Badger 1" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.services.submissionLimiter.reset();
  t.services.submissionLimiter.configure({ perIp: { max: PER_ADDRESS, windowMs: 3_600_000 }, perEmail: { max: 1000, windowMs: 3_600_000 } });
});

describe.each([
  ["reviews", reviewsPath, review],
  ["questions", questionsPath, question],
])("%s: the per-address submission limit", (_, path, body) => {
  it("rotating the low 64 bits of an IPv6 address does not buy more quota; the next /64 is someone else", async () => {
    const statuses = [];
    for (let i = 1; i <= PER_ADDRESS + 2; i++) statuses.push((await post(path, `2001:db8:5:6:${i.toString(16)}::${i.toString(16)}`, body())).status);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(201), 429, 429]);
    const refused = await post(path, "2001:db8:5:6:ffff:ffff:ffff:fffe", body());
    expect(refused.body.error).toMatchObject({ code: "rate_limited", description: expect.stringMatching(/from this network/) });
    expect((await post(path, "2001:db8:5:7::1", body())).status).toBe(201);
  });

  it("an IPv4 address and the same address written IPv4-mapped share one quota; another IPv4 address has its own", async () => {
    for (let i = 0; i < PER_ADDRESS - 1; i++) expect((await post(path, "203.0.113.40", body())).status).toBe(201);
    expect((await post(path, "::ffff:203.0.113.40", body())).status).toBe(201);
    expect((await post(path, "203.0.113.40", body())).status).toBe(429);
    expect((await post(path, "203.0.113.41", body())).status).toBe(201);
  });
});
