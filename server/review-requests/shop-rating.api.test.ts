/**
 * "Rate the shop" in review requests over the real server (issue #38 item 1, docs/review-requests.md "Rate the
 * shop"): the `askShopRating` setting through `PATCH /enterprise/settings`, the hosted page's step (plain form posts,
 * no JavaScript) after the product review, the store review stored verified and linked to the request's order, once
 * per review request (a second post, and the request's other links, say "already rated"), and the merchant review
 * feed listing it with `collection_method` `after_fulfillment` beside an unsolicited one.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { all, sql } from "../db/database.ts";
import { realReviews } from "../../test/fixtures.ts";
import { parseMerchantFeed, validateMerchantFeed } from "../../test/google-merchant-reviews-schema.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";

const DAY = 86_400_000;
/** Ten days ago at 10:00 UTC (outside the default quiet hours; links sent then still work). */
const T0 = Math.floor(Date.now() / DAY) * DAY - 10 * DAY + 10 * 3_600_000;
const PUBLIC_URL = "https://reviews.example.com";
/** Each store's API key (keys are unique across stores). */
const apiKeyOf = (storeId: string) => `shop-rating-${storeId}`;

let t: TestServer;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await startTestServer({ publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, sender: "manual" } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const products = [...new Map(realReviews().map((r) => [r.productId, r])).values()].slice(0, 2);
const texts = realReviews().filter((r) => r.title && r.body.length > 60);
const basic = (storeId: string) => `Basic ${Buffer.from(`${storeId}:${apiKeyOf(storeId)}`).toString("base64")}`;

/** A store with two real products, review requests on, and an API key. */
async function newStore(): Promise<string> {
  const storeId = randomUUID();
  await t.services.stores.create({ storeId, name: "Maple & Thread", platform: "shopify", moderation: "manual" });
  for (const r of products) await t.services.stores.upsertProduct({ storeId, productId: r.productId, name: `Product ${r.productId}` });
  await t.services.reviewRequests.update(storeId, { enabled: true, delayDays: 2, reminderDays: null });
  await t.services.apiKeys.create(storeId, "tests", apiKeyOf(storeId));
  return storeId;
}

/** Fulfil an order for `email`, send its request and @returns the review links of the e-mail (one per product). */
async function reviewLinksFor(storeId: string, email: string, orderId: string): Promise<string[]> {
  await t.services.reviewRequests.orderFulfilled(
    { storeId, orderId, email, customerName: "Ada Lovelace", locale: "en", lines: products.map((p) => ({ productId: p.productId })), fulfilledMs: T0 },
    T0,
  );
  await t.services.reviewRequests.runDue(T0 + 2 * DAY, t.baseUrl);
  await t.services.mailSender.runOnce();
  const m = await smtp.waitFor((x) => x.to.includes(email));
  return [...new Set([...m.html.matchAll(/href="(http[^"?]+\/r\/[A-Za-z0-9_-]{43})(?:\?rating=\d)?"/g)].map((x) => x[1]))];
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const post = (url: string, fields: Record<string, string>) => fetch(url, { method: "POST", body: form(fields), redirect: "manual" });

/** Review the link's product on its hosted page (multipart, as the page's form sends it). @returns the thank-you page's HTML. */
async function reviewProduct(link: string): Promise<string> {
  const body = new FormData();
  for (const [k, v] of Object.entries({ rating: "5", title: texts[0].title, body: texts[0].body, displayName: "Ada L." })) body.append(k, v);
  const res = await fetch(link, { method: "POST", body, redirect: "manual" });
  expect(res.status).toBe(302);
  return (await fetch(new URL(res.headers.get("location")!, t.baseUrl))).text();
}

describe("rate the shop", () => {
  it("is off by default: no step on the thank-you page, and /r/{token}/shop does not work", async () => {
    const storeId = await newStore();
    const settings = await fetch(t.url("/enterprise/settings"), { headers: { authorization: basic(storeId) } });
    expect((await settings.json()).reviewRequests.askShopRating).toBe(false);
    const [link] = await reviewLinksFor(storeId, "off@example.com", "#7001");
    expect(await reviewProduct(link)).not.toContain("Rate Maple &amp; Thread");
    const page = await fetch(`${link}/shop`);
    expect(page.status).toBe(404);
    const refused = await post(`${link}/shop`, { rating: "5", body: "Fast delivery.", displayName: "Ada" });
    expect(refused.status).toBe(404);
    expect(await all(t.services.db, sql`SELECT review_id FROM store_reviews WHERE store_id = ${storeId}`)).toEqual([]);
  });

  it("asks after the product review, stores a verified store review once per request, and the merchant feed lists it as after_fulfillment", async () => {
    const storeId = await newStore();
    const patched = await fetch(t.url("/enterprise/settings"), {
      method: "PATCH",
      headers: { authorization: basic(storeId), "content-type": "application/json" },
      body: JSON.stringify({ reviewRequests: { askShopRating: true } }),
    });
    expect(patched.status).toBe(200);
    expect((await patched.json()).reviewRequests.askShopRating).toBe(true);
    const badPatch = await fetch(t.url("/enterprise/settings"), {
      method: "PATCH",
      headers: { authorization: basic(storeId), "content-type": "application/json" },
      body: JSON.stringify({ reviewRequests: { askShopRating: "yes" } }),
    });
    expect(badPatch.status).toBe(400);
    expect((await badPatch.json()).error.description).toMatch(/askShopRating must be true or false/);

    const email = "rater@example.com";
    const [first, second] = await reviewLinksFor(storeId, email, "#7002");
    // The thank-you page of the product review offers the step: a plain form posting to /r/{token}/shop.
    const thanks = await reviewProduct(first);
    expect(thanks).toContain("Thank you for your review!");
    expect(thanks).toContain("Rate Maple &amp; Thread");
    expect(thanks).toContain(`action="/r/${first.split("/r/")[1]}/shop"`);
    expect(thanks).toMatch(/id="shop-name-input"[^>]*value="Ada Lovelace"/);

    // No star chosen (a browser then sends no rating) and no text: 400 with the messages beside their fields, nothing stored.
    const bad = await post(`${first}/shop`, { body: "", displayName: "Ada" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="shop-rating-error" class="field-error">rating is required/);
    const noText = await post(`${first}/shop`, { rating: "4", body: " ", displayName: "Ada" });
    expect(noText.status).toBe(400);
    expect(await noText.text()).toMatch(/id="shop-body-error" class="field-error">body is required/);

    // Stored: redirect-after-POST to the thank-you state (pending under manual moderation).
    const shopText = texts[1];
    const ok = await post(`${first}/shop`, { rating: "4", title: "Quick and careful", body: shopText.body, displayName: "Ada L.", email: "someone-else@example.com" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`/r/${first.split("/r/")[1]}/shop?done=pending`);
    const done = await (await fetch(new URL(ok.headers.get("location")!, t.baseUrl))).text();
    expect(done).toContain("Thank you for rating the shop!");
    const rows = await all<Record<string, unknown>>(
      t.services.db,
      sql`SELECT s.rating, s.reviewer_email, s.reviewer_name, s.verified_status, s.order_id, s.status, r.order_id AS "requestOrder"
      FROM store_reviews s JOIN review_requests r ON r.request_id = s.request_id WHERE s.store_id = ${storeId}`,
    );
    // The order's address, never one from the form; verified by the link.
    expect(rows).toEqual([{ rating: 4, reviewer_email: email, reviewer_name: "Ada L.", verified_status: "verified-buyer", order_id: "#7002", status: "pending", requestOrder: "#7002" }]);

    // Once per review request: a second post, and the request's other product link, say "already rated".
    const again = await post(`${first}/shop`, { rating: "1", body: "Changed my mind.", displayName: "Ada" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You already rated this shop");
    const other = await fetch(`${second}/shop`);
    expect(other.status).toBe(200);
    expect(await other.text()).toContain("You already rated this shop");
    expect((await post(`${second}/shop`, { rating: "1", body: "Twice?", displayName: "Ada" })).status).toBe(409);
    expect(await reviewProduct(second)).not.toContain("Rate Maple &amp; Thread");
    expect(await all(t.services.db, sql`SELECT review_id FROM store_reviews WHERE store_id = ${storeId}`)).toHaveLength(1);

    // An unsolicited store review beside it (the storefront operation), both published.
    const unsolicited = await fetch(t.url(`/v1/stores/${storeId}/store_reviews`), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rating: 5, title: texts[2].title, body: texts[2].body, displayName: "Bo", email: "bo@example.com" }),
    });
    expect(unsolicited.status).toBe(201);
    const ids = (await all<{ review_id: string }>(t.services.db, sql`SELECT review_id FROM store_reviews WHERE store_id = ${storeId}`)).map((r) => r.review_id);
    expect(await t.services.storeReviews.setStatus(storeId, ids, "published")).toBe(2);

    const feeds = (await (await fetch(t.url("/enterprise/settings"), { headers: { authorization: basic(storeId) } })).json()).feeds as { googleMerchantReviewsUrl: string };
    const feedUrl = new URL(feeds.googleMerchantReviewsUrl);
    const res = await fetch(t.url(`${feedUrl.pathname}${feedUrl.search}`));
    expect(res.status).toBe(200);
    const xml = await res.text();
    const reviews = validateMerchantFeed(parseMerchantFeed(xml), xml).feed.reviews!.review;
    expect(reviews.map((r) => [r.reviewer_name, r.collection_method, r.ratings.overall["#text"]]).sort()).toEqual([
      ["Ada L.", "after_fulfillment", "4"],
      ["Bo", "unsolicited", "5"],
    ]);
  });
});
