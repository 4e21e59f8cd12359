/**
 * No review waits forever (docs/admin.md "Held reviews") over real HTTP against the real server: the held-review
 * job run with a moved clock (`publishHeld(nowMs)`, what the job's loop calls), the rejection reason (admin form,
 * service, CSV export), the moderation queue's age and auto-publish date, and the `moderation` section of
 * `GET/PATCH /enterprise/settings`. Runs on SQLite and on PostgreSQL (vitest.postgres.config.ts).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { decodeHtmlText } from "../../widgets/internal/html-text.ts";
import { parse } from "csv-parse/sync";
import { sql, value } from "../db/database.ts";

const S = TEST_STORE_ID;
const API_KEY = "held-reviews-test-key-0123456789abcdef";
const basic = `Basic ${Buffer.from(`${S}:${API_KEY}`).toString("base64")}`;
const DAY = 86_400_000;
let t: TestServer;
let admin: AdminAgent;
let productId: string;
let texts: { title: string; body: string }[];
const T0 = Date.now();

beforeAll(async () => {
  t = await startTestServer();
  const rows = await seedRealReviews(t.services, { storeId: S, limit: 60 });
  productId = rows[0].productId;
  texts = rows.filter((r) => r.title && r.body).map((r) => ({ title: r.title, body: r.body }));
  await t.services.apiKeys.create(S, "tests", API_KEY);
  await t.services.admin.createUser({ email: "owner@held.test", password: "held reviews password", storeIds: [S] });
  admin = await signInAgent(t, "owner@held.test", "held reviews password", S);
});
afterAll(() => t?.close());

let next = 0;
/** A pending review of `productId` with the text of a real review, written `ageDays` days before T0. */
async function pending(rating: number, ageDays: number): Promise<{ id: string; title: string }> {
  const { title, body } = texts[next++ % texts.length];
  const id = randomUUID();
  await t.services.reviewsData.insert({ reviewId: id, storeId: S, productId, rating, title, body, createdMs: T0 - ageDays * DAY, status: "pending", reviewerName: "Held shopper" });
  return { id, title };
}
const status = async (id: string) => (await value(t.services.db, sql`SELECT status FROM reviews WHERE review_id = ${id}`)) as string;
/** The fields these tests read from the storefront, settings and error answers. */
type AnswerBody = {
  reviews: unknown;
  reviewAggregate: unknown;
  moderation: { newReviews: string; publishHeldAfterDays: number | null };
  error: { description: string };
};
const json = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(t.url(path), init);
  return { status: res.status, body: (await res.json()) as AnswerBody };
};
const storefront = async () =>
  (await json(`/v1/stores/${S}/products/shopify-${productId}/reviews?orderBy=${encodeURIComponent("date desc")}&limit=25`)).body.reviews as { reviewId: string; rating: number }[];
const aggregate = async () => (await json(`/v1/stores/${S}/products/shopify-${productId}/review_aggregate`)).body.reviewAggregate as { reviewCount: number; averageRating: number };
const settings = (body?: unknown) =>
  json(
    "/enterprise/settings",
    body === undefined ? { headers: { authorization: basic } } : { method: "PATCH", headers: { authorization: basic, "content-type": "application/json" }, body: JSON.stringify(body) },
  );
/** An admin page's HTML as text, without React's text separators. */
const page = async (path: string) => decodeHtmlText(await (await adminGet(t, admin, `/admin/stores/${S}${path}`)).text()).replace(/<!-- -->/g, "");
const post = (fields: Record<string, string | string[]>, path = "/reviews") => adminPost(t, admin, `/admin/stores/${S}${path}`, fields);

describe("the held-review job", () => {
  it("publishes a 2-star review pending longer than 14 days (storefront and aggregate follow), once; leaves a rejected and a younger one", async () => {
    const old = await pending(2, 15);
    const rejected = await pending(1, 20);
    const young = await pending(2, 13);
    expect((await post({ intent: "reject", review: rejected.id, reason: "spam" })).status).toBe(200);
    const before = await aggregate();
    expect((await storefront()).map((r) => r.reviewId)).not.toContain(old.id);

    expect(await t.services.moderation.publishHeld(T0)).toBe(1);
    expect(await status(old.id)).toBe("published");
    expect(await status(rejected.id)).toBe("rejected");
    expect(await status(young.id)).toBe("pending");
    expect((await storefront()).find((r) => r.reviewId === old.id)?.rating).toBe(2);
    const after = await aggregate();
    expect(after.reviewCount).toBe(before.reviewCount + 1);
    expect(after.averageRating).toBeLessThan(before.averageRating);

    // Idempotent: a second run (another node, or the next tick) publishes nothing more.
    expect(await t.services.moderation.publishHeld(T0)).toBe(0);
    expect((await aggregate()).reviewCount).toBe(after.reviewCount);

    // Two days later the younger one is due; the rejected one never is.
    expect(await t.services.moderation.publishHeld(T0 + 2 * DAY)).toBe(1);
    expect(await status(young.id)).toBe("published");
    expect(await status(rejected.id)).toBe("rejected");

    // The admin shows it was published automatically.
    const html = await page(`/reviews?status=published`);
    expect(html).toContain("Published automatically after 14 days");
  });

  it("publishes nothing while the store has turned it off, and after the store's own number of days once on", async () => {
    expect((await settings({ moderation: { publishHeldAfterDays: false } })).status).toBe(200);
    const old = await pending(1, 200);
    expect(await t.services.moderation.publishHeld(T0 + 365 * DAY)).toBe(0);
    expect(await status(old.id)).toBe("pending");
    expect((await storefront()).map((r) => r.reviewId)).not.toContain(old.id);

    expect((await settings({ moderation: { publishHeldAfterDays: 30 } })).status).toBe(200);
    const recent = await pending(3, 20);
    expect(await t.services.moderation.publishHeld(T0)).toBe(1); // the 200-day-old one; the 20-day-old one waits for 30
    expect(await status(old.id)).toBe("published");
    expect(await status(recent.id)).toBe("pending");
    expect(await t.services.moderation.publishHeld(T0 + 10 * DAY)).toBe(1);
    expect(await status(recent.id)).toBe("published");
    expect((await settings({ moderation: { publishHeldAfterDays: 14 } })).status).toBe(200);
  });
});

describe("rejection reasons", () => {
  it("a rejection without a valid reason is refused (admin form 400, service 400) and changes nothing", async () => {
    const r = await pending(2, 1);
    const refused: Record<string, string | string[]>[] = [
      { intent: "reject", review: r.id },
      { intent: "reject", review: r.id, reason: "boring" },
      { intent: "bulk-reject", review: [r.id] },
    ];
    for (const fields of refused) {
      const res = await post(fields);
      expect(res.status).toBe(400);
      expect(decodeHtmlText(await res.text())).toContain("say why the review is rejected");
      expect(await status(r.id)).toBe("pending");
    }
    await expect(t.services.moderation.setStatus(S, [r.id], "rejected")).rejects.toThrow(expect.objectContaining({ status: 400 }));
    expect(await status(r.id)).toBe("pending");
  });

  it("the reason is kept with the review, shown in the admin and exported in the reviews CSV", async () => {
    const other = await pending(1, 2);
    const spam = await pending(2, 2);
    expect((await post({ intent: "reject", review: other.id, reason: "other", reasonNote: "Talks about a different shop" })).status).toBe(200);
    expect((await post({ intent: "bulk-reject", review: [spam.id], reason: "spam" })).status).toBe(200);
    expect(await status(other.id)).toBe("rejected");

    const html = await page(`/reviews?status=rejected`);
    expect(html).toContain("Rejected: Other (Talks about a different shop)");
    expect(html).toContain("Rejected: Spam");

    const csv = await (await fetch(t.url("/enterprise/exports/reviews.csv?status=rejected"), { headers: { authorization: basic } })).text();
    // Read as a spreadsheet does (quoted fields may hold commas and line breaks).
    const rows = (text: string) => parse(text, { bom: true, columns: true }) as Record<string, string>[];
    const row = (text: string, id: string) => rows(text).find((r) => r.reviewId === id)!;
    expect(Object.keys(rows(csv)[0]!)).toContain("rejectionReason");
    expect(row(csv, other.id).rejectionReason).toBe("other");
    expect(row(csv, other.id).rejectionNote).toBe("Talks about a different shop");
    expect(row(csv, spam.id).rejectionReason).toBe("spam");

    // Publishing a rejected review later clears its reason.
    expect((await post({ intent: "publish", review: spam.id })).status).toBe(200);
    const again = await (await fetch(t.url("/enterprise/exports/reviews.csv?status=published"), { headers: { authorization: basic } })).text();
    expect(row(again, spam.id).rejectionReason).toBe("");
  });
});

describe("the moderation queue", () => {
  it("shows each pending review's age and when it will be published automatically", async () => {
    const r = await pending(2, 3);
    const due = new Date(T0 - 3 * DAY + 14 * DAY).toISOString().slice(0, 10);
    const html = await page(`/reviews?status=pending&rating=2`);
    const item = html.slice(html.indexOf(`value="${r.id}"`));
    expect(item.slice(0, 3000)).toMatch(new RegExp(`Waiting 3 days\\. Published automatically on <time[^>]*>${due}</time>`));
  });

  it("the moderation form saves the days, refuses bad values, and turns it off only when chosen", async () => {
    expect((await post({ intent: "moderation", moderation: "manual", heldReviews: "publish", publishHeldAfterDays: "21" })).status).toBe(200);
    expect((await settings()).body.moderation).toEqual({ newReviews: "manual", publishHeldAfterDays: 21 });
    for (const days of ["0", "366", "2.5", "", "x"]) {
      const res = await post({ intent: "moderation", moderation: "manual", heldReviews: "publish", publishHeldAfterDays: days });
      expect(res.status).toBe(400);
      expect((await settings()).body.moderation.publishHeldAfterDays).toBe(21);
    }
    expect((await post({ intent: "moderation", moderation: "manual", heldReviews: "never", publishHeldAfterDays: "21" })).status).toBe(200);
    expect((await settings()).body.moderation.publishHeldAfterDays).toBeNull();
    const html = await page(`/reviews`);
    expect(html).toContain("16 CFR 465.7");
    expect(html).toContain("Not published automatically");
    expect((await post({ intent: "moderation", moderation: "manual", heldReviews: "publish", publishHeldAfterDays: "14" })).status).toBe(200);
  });
});

describe("GET/PATCH /enterprise/settings: the moderation section", () => {
  it("round-trips; null and false turn it off; bad values are 400 JSON and change nothing", async () => {
    expect((await settings()).body.moderation).toEqual({ newReviews: "manual", publishHeldAfterDays: 14 });
    const patched = await settings({ moderation: { newReviews: "auto-publish-4-5", publishHeldAfterDays: 7 } });
    expect(patched.status).toBe(200);
    expect((await settings()).body.moderation).toEqual({ newReviews: "auto-publish-4-5", publishHeldAfterDays: 7 });
    expect((await settings({ moderation: { publishHeldAfterDays: null } })).status).toBe(200);
    expect((await settings()).body.moderation.publishHeldAfterDays).toBeNull();
    expect((await settings({ moderation: { publishHeldAfterDays: 365 } })).status).toBe(200);

    for (const bad of [0, 366, 1.5, -3, "14", true, [], { days: 3 }]) {
      const res = await settings({ moderation: { publishHeldAfterDays: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error.description).toMatch(/publishHeldAfterDays/);
    }
    for (const body of [{ moderation: { newReviews: "sometimes" } }, { moderation: { unknown: 1 } }, { moderation: 14 }]) expect((await settings(body)).status).toBe(400);
    expect((await settings()).body.moderation).toEqual({ newReviews: "auto-publish-4-5", publishHeldAfterDays: 365 });

    const openapi = (await json("/enterprise/openapi.json")).body;
    expect(JSON.stringify(openapi)).toContain("publishHeldAfterDays");
    await settings({ moderation: { newReviews: "manual", publishHeldAfterDays: 14 } });
  });
});
