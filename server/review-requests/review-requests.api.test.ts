/**
 * Review requests over the real server (issue #22 "Done when", review-request part): settings, an order
 * fulfilled, the scheduler's clock moved forward (no sleeps), the request received on a real SMTP server,
 * a second run sends nothing, the one reminder, unsubscribe by RFC 8058 one-click POST, cancellation,
 * already-reviewed products skipped, quiet hours, a restart, and the hosted review page (/r/{token}) writing
 * a verified-buyer review with a photo, once per product.
 */
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { one, run, sql, value } from "../db/database.ts";
import { createServices } from "../services.ts";
import { realReviews } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../../test/smtp.ts";
import type { ReviewRequestSettingsPatch } from "./settings.ts";
import { postShopifyWebhook } from "../../test/shopify-webhook.ts";

const DAY = 86_400_000;
/** Ten days ago at 10:00 UTC (outside the default quiet hours, 21:00–08:00 UTC; links sent since then still work). */
const T0 = Math.floor(Date.now() / DAY) * DAY - 10 * DAY + 10 * 3_600_000;

let t: TestServer;
let smtp: TestSmtp;
/** Two real products (IDs and class names from the shared clothing reviews). */
const real = [
  ...new Map(
    realReviews()
      .filter((r) => r.className)
      .map((r) => [r.productId, r]),
  ).values(),
].slice(0, 3);

// One SMTP server for the file (every test mails its own addresses); one server and database per test, so
// each test's schedule holds only its own requests.
beforeAll(async () => {
  smtp = await startTestSmtp();
});
beforeEach(async () => {
  t = await startTestServer({ mail: { smtpUrl: smtp.url, sender: "manual" } });
});
afterEach(async () => {
  await t?.close();
});
afterAll(async () => {
  await smtp?.close();
});

/** A new store with the real products and review requests on (delay 2 days, reminder 3 days later). */
async function newStore(patch: Partial<ReviewRequestSettingsPatch> = {}, moderation: "manual" | "auto-publish-all" = "manual"): Promise<string> {
  const storeId = randomUUID();
  await t.services.stores.create({ storeId, name: "Maple & Thread", platform: "shopify", moderation });
  for (const r of real) await t.services.stores.upsertProduct({ storeId, productId: r.productId, name: `${r.className} #${r.productId}`, imageUrl: `/media/demo/${r.productId}.jpg` });
  await t.services.reviewRequests.update(storeId, { enabled: true, delayDays: 2, reminderDays: 3, ...patch });
  return storeId;
}

const fulfil = async (storeId: string, email: string, extra: { orderId?: string; fulfilledMs?: number; products?: string[] } = {}) =>
  t.services.reviewRequests.orderFulfilled(
    {
      storeId,
      orderId: extra.orderId ?? `#${Math.floor(Math.random() * 1e9)}`,
      email,
      customerName: "Ada Lovelace",
      locale: "en-GB",
      lines: (extra.products ?? real.slice(0, 2).map((r) => r.productId)).map((productId) => ({ productId })),
      fulfilledMs: extra.fulfilledMs ?? T0,
    },
    extra.fulfilledMs ?? T0,
  ); // recorded at fulfilment time (the clock), so the stale-order rule does not apply

const runDue = (nowMs: number) => t.services.reviewRequests.runDue(nowMs, t.baseUrl);
/** Deliver what the outbox holds; @returns how many messages went out. */
const deliver = async () => (await t.services.mailSender.runOnce()).sent;
const received = (to: string) => smtp.messages.filter((m) => m.to.includes(to));
/** The review links of a received message (without ?rating), in product order. */
const reviewLinks = (m: ReceivedMail) => [...new Set([...m.html.matchAll(/href="(http[^"?]+\/r\/[A-Za-z0-9_-]{43})(?:\?rating=\d)?"/g)].map((x) => x[1]))];
const unsubscribeLink = (m: ReceivedMail) => /^<([^>]+)>$/.exec(m.headers.get("list-unsubscribe") ?? "")![1];

describe("the schedule", () => {
  it("sends the request once at fulfilment + delay, on a real SMTP server, then the one reminder, then nothing", async () => {
    const storeId = await newStore();
    const to = "ada.schedule@example.com";
    const request = (await fulfil(storeId, to, { orderId: "#1001" }))!;
    expect(request).toMatchObject({ status: "scheduled", dueMs: T0 + 2 * DAY });

    expect((await runDue(T0 + 2 * DAY - 1)).sent).toBe(0);
    expect(await deliver()).toBe(0);
    expect(await runDue(T0 + 2 * DAY)).toMatchObject({ sent: 1 });
    expect(await deliver()).toBe(1);
    const m = await smtp.waitFor((x) => x.to.includes(to));
    expect(m.subject).toBe("How do you like your order from Maple & Thread?");
    expect(m.text).toContain("Hi Ada Lovelace,");
    expect(m.text).toContain("Thank you for your order #1001 at Maple & Thread.");
    for (const r of real.slice(0, 2)) expect(m.html).toContain(`${r.className} #${r.productId}`);
    expect(m.html).not.toContain(`${real[2].className} #${real[2].productId}`);
    const links = reviewLinks(m);
    expect(links).toHaveLength(2);
    for (const link of links) for (const n of [1, 2, 3, 4, 5]) expect(m.html).toContain(`href="${link}?rating=${n}"`);
    expect(m.html).toContain(`src="${t.baseUrl}/media/demo/${real[0].productId}.jpg"`);
    // RFC 8058: the unsubscribe URL in List-Unsubscribe and the one-click marker; the same link in the body.
    expect(m.headers.get("list-unsubscribe")).toMatch(new RegExp(`^<${t.baseUrl}/u/[A-Za-z0-9_-]{43}/one-click>$`));
    expect(m.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(m.html).toContain(`href="${unsubscribeLink(m).replace(/\/one-click$/, "")}"`);

    // A second run at the same (or a later) time sends nothing; neither does the sender.
    expect((await runDue(T0 + 2 * DAY)).sent).toBe(0);
    expect((await runDue(T0 + 4 * DAY)).sent).toBe(0);
    expect(await deliver()).toBe(0);
    expect(received(to)).toHaveLength(1);

    // The reminder: 3 days after the request.
    expect((await runDue(T0 + 5 * DAY)).sent).toBe(1);
    expect(await deliver()).toBe(1);
    const reminder = await smtp.waitFor((x) => x.to.includes(to) && x.subject.startsWith("Reminder:"));
    expect(reminder.subject).toBe("Reminder: How do you like your order from Maple & Thread?");
    expect((await runDue(T0 + 30 * DAY)).sent).toBe(0);
    expect(await deliver()).toBe(0);
    expect(received(to)).toHaveLength(2);
    expect(await t.services.reviewRequests.byOrder(storeId, "#1001")).toMatchObject({ status: "completed", next_step: null });

    // One request per order: the same order fulfilled again (e.g. a second fulfilment webhook) changes nothing.
    expect((await fulfil(storeId, to, { orderId: "#1001", fulfilledMs: T0 + 40 * DAY }))!.requestId).toBe(request.requestId);
  });

  it("a store with requests off records nothing; an order of unknown products records nothing", async () => {
    const storeId = await newStore({ enabled: false });
    expect(await fulfil(storeId, "off@example.com")).toBeNull();
    const on = await newStore();
    expect(await fulfil(on, "unknown@example.com", { products: ["no-such-product"] })).toBeNull();
  });

  it("respects quiet hours in the store's time zone, and postpones a step that falls due inside them", async () => {
    // 20:00 UTC is 21:00 in Paris (UTC+1 in March): quiet until 08:00 Paris = 07:00 UTC the next day.
    const storeId = await newStore({ delayDays: 0, reminderDays: null, quietHours: { startHour: 21, endHour: 8 }, timeZone: "Europe/Paris" });
    const evening = Date.UTC(2026, 2, 2, 20, 0, 0);
    expect((await fulfil(storeId, "night@example.com", { fulfilledMs: evening }))!.dueMs).toBe(Date.UTC(2026, 2, 3, 7, 0, 0));
    // Settings changed after scheduling: a run inside the new quiet hours postpones instead of sending.
    const other = await newStore({ delayDays: 0, reminderDays: null, quietHours: null });
    await fulfil(other, "later@example.com", { fulfilledMs: evening });
    await t.services.reviewRequests.update(other, { quietHours: { startHour: 19, endHour: 7 } });
    expect(await runDue(evening + 60_000)).toMatchObject({ sent: 0 });
    expect(await t.services.reviewRequests.nextDueMs()).not.toBeNull();
    expect(await runDue(Date.UTC(2026, 2, 3, 7, 0, 0))).toMatchObject({ sent: 2 });
    await deliver();
    await smtp.waitFor((x) => x.to.includes("later@example.com"));
  });

  it("a request that cannot be sent is stopped with the reason and does not hold up the others", async () => {
    const storeId = await newStore({ reminderDays: null });
    await fulfil(storeId, "broken@example.com", { orderId: "#6001" });
    await fulfil(storeId, "fine@example.com", { orderId: "#6002" });
    // An address the mail module refuses (written around orderFulfilled's own check, as an old row could be).
    await run(t.services.db, sql`UPDATE review_requests SET email = 'not an address' WHERE store_id = ${storeId} AND order_id = '#6001'`);
    expect(await runDue(T0 + 2 * DAY)).toMatchObject({ sent: 1, failed: 1 });
    expect(await t.services.reviewRequests.byOrder(storeId, "#6001")).toMatchObject({ status: "skipped", next_step: null, skip_reason: expect.stringMatching(/^failed: mail.enqueue/) });
    expect(await runDue(T0 + 3 * DAY)).toMatchObject({ sent: 0, failed: 0 });
    await deliver();
    await smtp.waitFor((x) => x.to.includes("fine@example.com"));
  });

  it("survives a restart, and two processes on one database send each step once", async () => {
    const storeId = await newStore({ reminderDays: null });
    const to = "restart@example.com";
    await fulfil(storeId, to);
    // A second server process over the same database file (a restart, or two instances).
    const second = await createServices({ databasePath: t.services.databasePath, mediaPath: t.services.mediaPath, mail: { smtpUrl: smtp.url } });
    try {
      expect((await second.reviewRequests.runDue(T0 + 2 * DAY, t.baseUrl)).sent).toBe(1);
      expect((await runDue(T0 + 2 * DAY)).sent).toBe(0);
      expect((await second.mailSender.runOnce()).sent + (await deliver())).toBe(1);
    } finally {
      await second.close();
    }
    await smtp.waitFor((x) => x.to.includes(to));
    expect(received(to)).toHaveLength(1);
  });
});

describe("from the shop's Shopify webhooks", () => {
  const SHOP = "maple-thread.myshopify.com";
  const SECRET = "shpss_review_requests_0123456789abcdef";
  /** POST a Shopify webhook signed with the store's app secret (X-Shopify-Hmac-Sha256 over the raw body). */
  const shopify = async (topic: string, body: unknown) => {
    const res = await postShopifyWebhook(t.url, { shop: SHOP, secret: SECRET, topic, body });
    expect(res.status, `${topic}: ${await res.text()}`).toBe(200);
  };
  const order = (id: number, productId: number) => ({
    id,
    name: `#${id}`,
    email: "Grace@Example.com",
    created_at: new Date(Date.now() - 2 * DAY).toISOString(),
    cancelled_at: null,
    fulfillment_status: null,
    currency: "USD",
    subtotal_price: "80.00",
    total_price: "80.00",
    customer_locale: "en",
    customer: { id: 42, first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
    line_items: [{ id: id * 10, product_id: productId, variant_id: productId * 100, title: "Tiered Linen Midi Dress - M", price: "80.00", quantity: 1 }],
    fulfillments: [],
  });

  it("orders/fulfilled schedules the request; it is received with the product's real name and picture; orders/cancelled stops another", async () => {
    const storeId = await newStore({ delayDays: 2, reminderDays: null, quietHours: null });
    await t.services.platforms.updateSettings(storeId, { shopDomain: SHOP, appSecret: SECRET });
    const image = "https://cdn.shopify.com/s/files/1/0001/products/linen-dress.jpg";
    await shopify("products/create", { id: 880001, title: "Tiered Linen Midi Dress", handle: "tiered-linen-midi-dress", image: { src: image }, images: [{ src: image }] });
    const fulfilledAt = Date.now() - 3_600_000;
    for (const id of [900001, 900002]) {
      await shopify("orders/create", order(id, 880001));
      await shopify("orders/fulfilled", { ...order(id, 880001), fulfillment_status: "fulfilled", fulfillments: [{ created_at: new Date(fulfilledAt).toISOString(), status: "success" }] });
    }
    await shopify("orders/cancelled", { ...order(900002, 880001), cancelled_at: new Date().toISOString() });
    expect(await t.services.reviewRequests.byOrder(storeId, "900001")).toMatchObject({ status: "scheduled", due_ms: fulfilledAt + 2 * DAY, email: "grace@example.com" });
    expect(await t.services.reviewRequests.byOrder(storeId, "900002")).toMatchObject({ status: "cancelled", next_step: null });

    expect((await runDue(fulfilledAt + 2 * DAY - 1)).sent).toBe(0);
    expect((await runDue(fulfilledAt + 2 * DAY)).sent).toBe(1);
    expect(await deliver()).toBe(1);
    const m = await smtp.waitFor((x) => x.to.includes("grace@example.com"));
    expect(m.text).toContain("Hi Grace Hopper,");
    expect(m.text).toContain("Thank you for your order #900001 at Maple & Thread.");
    expect(m.html).toContain("Tiered Linen Midi Dress");
    expect(m.html).toContain(`src="${image}"`);
    expect((await runDue(fulfilledAt + 30 * DAY)).sent).toBe(0);
    expect(received("grace@example.com")).toHaveLength(1);
  });
});

describe("stops", () => {
  it("the one-click unsubscribe (POST, no sign-in, no CSRF token) stops the reminder and further requests", async () => {
    const storeId = await newStore();
    const to = "unsub@example.com";
    await fulfil(storeId, to, { orderId: "#2001" });
    await runDue(T0 + 2 * DAY);
    await deliver();
    const m = await smtp.waitFor((x) => x.to.includes(to));
    const url = unsubscribeLink(m);

    // GET (the header's link or the footer's) shows a confirm page and changes nothing (mail scanners open links).
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.url).toBe(url.replace(/\/one-click$/, ""));
    expect(await page.text()).toContain("Unsubscribe from review requests?");
    expect((await t.services.reviewRequests.byOrder(storeId, "#2001"))!.next_step).toBe("reminder");

    // RFC 8058 one-click: what mail apps POST, from their own servers (any Origin, or none).
    const post = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.example.net" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    expect(post.status).toBe(200);
    expect(await post.text()).toBe("Unsubscribed: u***@example.com gets no more review requests from Maple & Thread.\n");
    expect(await t.services.reviewRequests.byOrder(storeId, "#2001")).toMatchObject({ next_step: null, skip_reason: "unsubscribed" });
    expect((await runDue(T0 + 5 * DAY)).sent).toBe(0);
    expect(await deliver()).toBe(0);
    // Idempotent; and a later order of the same address gets no request.
    expect((await fetch(url, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(200);
    expect(await fulfil(storeId, "UNSUB@example.com", { orderId: "#2002", fulfilledMs: T0 + 6 * DAY })).toMatchObject({ status: "skipped", dueMs: null });
    expect((await runDue(T0 + 20 * DAY)).sent).toBe(0);
    expect(received(to)).toHaveLength(1);
    // Another store's requests to the same address are not affected.
    const other = await newStore();
    expect(await fulfil(other, to, { fulfilledMs: T0 })).toMatchObject({ status: "scheduled" });

    // Unknown and malformed tokens: 404 pages, never 500.
    // The confirm page's own button (a same-origin form post) says so too.
    const confirm = await fetch(url.replace(/\/one-click$/, ""), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: t.baseUrl } });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("You are unsubscribed");
    for (const bad of ["/u/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/u/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/one-click", "/u/short"]) {
      expect((await fetch(t.url(bad))).status).toBe(404);
      expect((await fetch(t.url(bad), { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(404);
    }
    // After the shopper's erasure the unsubscribe holds, though the store no longer keeps the address (docs/privacy.md).
    await t.services.privacy.erase(storeId, to, "test");
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM review_request_unsubscribes WHERE store_id = ${storeId} AND email = ${to}`)).toBe(0);
    expect(await fulfil(storeId, to, { orderId: "#2003", fulfilledMs: T0 + 7 * DAY })).toMatchObject({ status: "skipped", dueMs: null });
  });

  it("cancellation before the request sends nothing; after it, no reminder and the links stop working", async () => {
    const storeId = await newStore();
    await fulfil(storeId, "cancel1@example.com", { orderId: "#3001" });
    expect(await t.services.reviewRequests.orderCancelled(storeId, "#3001")).toBe(true);
    expect(await t.services.reviewRequests.orderCancelled(storeId, "#3001")).toBe(false);
    expect((await runDue(T0 + 10 * DAY)).sent).toBe(0);

    await fulfil(storeId, "cancel2@example.com", { orderId: "#3002" });
    await runDue(T0 + 2 * DAY);
    await deliver();
    const m = await smtp.waitFor((x) => x.to.includes("cancel2@example.com"));
    await t.services.reviewRequests.orderCancelled(storeId, "#3002");
    expect((await runDue(T0 + 10 * DAY)).sent).toBe(0);
    expect(await deliver()).toBe(0);
    const link = await fetch(reviewLinks(m)[0]);
    expect(link.status).toBe(410);
    expect(await link.text()).toContain("This review link has expired");
    expect(received("cancel1@example.com")).toHaveLength(0);
    expect(received("cancel2@example.com")).toHaveLength(1);
  });

  it("skips products the shopper already reviewed, and the whole request when all are", async () => {
    const storeId = await newStore();
    const review = (email: string, productId: string) =>
      t.services.reviewsData.insert({
        reviewId: randomUUID(),
        storeId,
        productId,
        rating: 5,
        title: "",
        body: realReviews()[0].body,
        createdMs: T0,
        status: "pending",
        reviewerName: "Ada",
        reviewerEmail: email,
      });
    await review("some@example.com", real[0].productId);
    await fulfil(storeId, "Some@Example.com", { orderId: "#4001" });
    await review("all@example.com", real[0].productId);
    await review("all@example.com", real[1].productId);
    await fulfil(storeId, "all@example.com", { orderId: "#4002" });
    expect(await runDue(T0 + 2 * DAY)).toMatchObject({ sent: 1, skipped: 1 });
    await deliver();
    const m = await smtp.waitFor((x) => x.to.includes("some@example.com"));
    expect(reviewLinks(m)).toHaveLength(1);
    expect(m.html).toContain(`${real[1].className} #${real[1].productId}`);
    expect(m.html).not.toContain(`${real[0].className} #${real[0].productId}`);
    expect(await t.services.reviewRequests.byOrder(storeId, "#4002")).toMatchObject({ status: "skipped", skip_reason: "already-reviewed" });
    expect(received("all@example.com")).toHaveLength(0);
  });
});

describe("the hosted review page", () => {
  const photo = () =>
    sharp({ create: { width: 640, height: 480, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .toBuffer();
  const text = realReviews().find((r) => r.title && r.body.length > 80)!;

  it("opens with the product and rating, writes a verified-buyer review with a photo once per product, and counts the funnel", async () => {
    const storeId = await newStore({ reminderDays: 3 }, "auto-publish-all");
    const to = "page@example.com";
    await fulfil(storeId, to, { orderId: "#5001" });
    await runDue(T0 + 2 * DAY);
    await deliver();
    const m = await smtp.waitFor((x) => x.to.includes(to));
    const [link] = reviewLinks(m);
    const product = real[0];

    const page = await fetch(`${link}?rating=4`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain(`Review ${product.className} #${product.productId}`);
    expect(html).toMatch(/<input type="radio" name="rating" required="" checked="" value="4"\/>/);
    expect(html.match(/checked=""/g)).toHaveLength(1);
    expect(html).toContain(`src="/media/demo/${product.productId}.jpg"`);

    // A field error: 400 with the message next to the field, nothing stored.
    const empty = new FormData();
    empty.append("rating", "4");
    empty.append("body", "");
    empty.append("media", new Blob([], { type: "application/octet-stream" }), ""); // a file input left empty, as browsers send it
    const bad = await fetch(link, { method: "POST", body: empty });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="body-error" class="field-error">body is required/);

    // A photo over 10 MB: 413 with the reason on the page (the connection then closes), nothing stored.
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(await photo());
    const tooBig = new FormData();
    for (const [k, v] of Object.entries({ rating: "4", body: text.body })) tooBig.append(k, v);
    tooBig.append("media", new Blob([big], { type: "image/jpeg" }), "huge.jpg");
    const refused = await fetch(link, { method: "POST", body: tooBig });
    expect(refused.status).toBe(413);
    expect(refused.headers.get("connection")).toBe("close");
    expect(await refused.text()).toContain(`id="media-error" class="field-error">media[0] (huge.jpg) is too large: images may be at most 10 MB`);

    const form = new FormData();
    for (const [k, v] of Object.entries({ rating: "4", title: text.title, body: text.body, displayName: "Ada L.", isRecommended: "true" })) form.append(k, v);
    form.append("media", new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }), "front.jpg");
    const posted = await fetch(link, { method: "POST", body: form, redirect: "manual" });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`/r/${link.split("/r/")[1]}?done=published`);
    const thanks = await fetch(new URL(posted.headers.get("location")!, t.baseUrl));
    expect(await thanks.text()).toContain("Thank you for your review!");

    // Listed on the storefront as a verified buyer, with its photo, under the order's address.
    const listed = (await (await fetch(t.url(`/v1/stores/${storeId}/products/shopify-${product.productId}/reviews`))).json()) as { reviews: { title: string; media: unknown[] }[] };
    expect(listed.reviews).toHaveLength(1);
    expect(listed.reviews[0]).toMatchObject({ title: text.title, reviewer: { displayName: "Ada L.", isVerified: true, verifiedStatus: "verified-buyer" } });
    expect(listed.reviews[0].media).toHaveLength(1);
    const row = await one(t.services.db, sql`SELECT reviewer_email, verified_status, status FROM reviews WHERE store_id = ${storeId}`);
    expect(row).toEqual({ reviewer_email: to, verified_status: "verified-buyer", status: "published" });

    // Single use per product: a second submission is refused, the page says so.
    const again = await fetch(link, { method: "POST", body: form });
    expect(again.status).toBe(410);
    const used = await fetch(link);
    expect(await used.text()).toContain("You already reviewed this product");

    // The reminder asks only about the product not reviewed yet.
    await runDue(T0 + 5 * DAY);
    await deliver();
    const reminder = await smtp.waitFor((x) => x.to.includes(to) && x.subject.startsWith("Reminder:"));
    expect(reviewLinks(reminder)).toHaveLength(1);
    expect(reminder.html).not.toContain(`${product.className} #${product.productId}`);

    // Funnel: 1 sent, 1 opened, 1 reviewed (on the days they happened).
    const funnel = await t.services.reviewRequests.funnel(storeId, 400);
    expect(funnel.totals).toEqual({ sent: 1, opened: 1, reviewed: 1 });
    expect(funnel.days.find((d) => d.sent)!.day).toBe(new Date(T0 + 2 * DAY).toISOString().slice(0, 10));
  });

  it("a manual-moderation store keeps the review pending; unknown and malformed tokens are 404 pages", async () => {
    const storeId = await newStore({ reminderDays: null }, "manual");
    await fulfil(storeId, "manual@example.com");
    await runDue(T0 + 2 * DAY);
    await deliver();
    const [link] = reviewLinks(await smtp.waitFor((x) => x.to.includes("manual@example.com")));
    const form = new FormData();
    for (const [k, v] of Object.entries({ rating: "2", body: text.body })) form.append(k, v);
    const posted = await fetch(link, { method: "POST", body: form, redirect: "manual" });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toMatch(/\?done=pending$/);
    expect(await one(t.services.db, sql`SELECT verified_status, status, reviewer_name FROM reviews WHERE store_id = ${storeId}`)).toEqual({
      verified_status: "verified-buyer",
      status: "pending",
      reviewer_name: "Ada Lovelace",
    });
    for (const bad of ["/r/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/r/x", "/r/preview?rating=9"]) {
      const res = await fetch(t.url(bad));
      expect(res.status, bad).toBe(404);
      expect(await res.text()).toContain("This link does not work");
      expect((await fetch(t.url(bad), { method: "POST", body: form })).status, bad).toBe(404);
    }
  });
});

describe("settings", () => {
  it("validates a change with messages naming the field, and keeps English as the fallback template", async () => {
    const storeId = await newStore();
    const refused = async (patch: unknown) => {
      try {
        await t.services.reviewRequests.update(storeId, patch);
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(await refused({ delayDays: -1 })).toBe("delayDays must be a whole number of days from 0 to 365");
    expect(await refused({ reminderDays: 0 })).toBe("reminderDays must be a whole number of days from 1 to 365, or null");
    expect(await refused({ quietHours: { startHour: 8, endHour: 8 } })).toMatch(/startHour and endHour must differ/);
    expect(await refused({ timeZone: "Mars/Olympus" })).toMatch(/IANA time zone/);
    expect(await refused({ templates: { en: null } })).toMatch(/must keep an en/);
    expect(await refused({ templates: { fr: { subject: "Votre avis {{prix}}", body: "x" } } })).toMatch(/unknown placeholder \{\{prix\}\}/);
    expect(await refused({ colour: "red" })).toMatch(/colour/);
    const saved = await t.services.reviewRequests.update(storeId, { templates: { fr: { subject: "Votre avis sur {{storeName}}", body: "Bonjour {{customerName}}" } } });
    expect(Object.keys(saved.templates).sort()).toEqual(["en", "fr"]);
    expect((await t.services.reviewRequests.get(storeId)).delayDays).toBe(2);
  });
});
