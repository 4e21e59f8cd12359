/**
 * Outgoing webhooks over real HTTP (issue #24 item 2, docs/webhooks.md): a real local receiver in
 * loopback mode (ALLOW_INSECURE_WEBHOOKS), every event type emitted by the real write paths, delivered,
 * and verified with the exact snippet of docs/webhooks.md; retries with a moved clock (no sleeping);
 * disabling after repeated failure; replay; secret rotation; a rolled-back write emits nothing; SSRF
 * refusals; the enterprise API's bad input.
 */
import fc from "fast-check";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { all, one, run, sql, transaction, value } from "../db/database.ts";
import { z } from "zod";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { PROJECT_ROOT } from "../config.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { WEBHOOK_EVENT_TYPES } from "../contract/webhooks.ts";
import { loyaltyCustomerSchema, loyaltyTransactionSchema } from "../contract/loyalty.responses.ts";
import { reviewSchema } from "../contract/storefront.responses.ts";
import { surveyResponseSchema } from "../contract/surveys.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS, NPS_SURVEY } from "../surveys/surveys.demo.ts";
import { MAX_ATTEMPTS, MAX_RESPONSE_BYTES, postOnce, RETRY_DELAYS_MS } from "./delivery.ts";
import { checkWebhookUrl } from "./url-guard.ts";
import { ALWAYS_REFUSED, LOOPBACK_FORMS, startLoopbackListeners, type LoopbackListeners } from "../../test/ssrf-forms.ts";

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

type Received = { headers: IncomingMessage["headers"]; raw: Buffer; body: { eventId: string; eventType: string; storeId: string; dateCreated: string; data: Record<string, Record<string, unknown>> } };
type Verify = (raw: Buffer | string, header: string | undefined, secret: string, opts?: { toleranceSeconds?: number; nowSeconds?: number }) => boolean;

const API_KEY = "webhooks-test-api-key-0123456789abcdef";
const PLATFORM_SECRET = "webhooks-test-platform-secret-0123456789";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const S = `/v1/stores/${TEST_STORE_ID}`;

let t: TestServer;
let clock = Date.UTC(2026, 4, 1, 12);
let verify: Verify;

/** A real HTTP receiver on a loopback port; `answer` decides the status; `down()`/`up()` close and reopen it on the same port. */
function receiver() {
  const received: Received[] = [];
  type Answer = { status: number; headers?: Record<string, string> };
  let answer: (r: Received) => Answer | Promise<Answer> = () => ({ status: 204 });
  let server: Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const raw = Buffer.concat(chunks);
          const r = { headers: req.headers, raw, body: JSON.parse(raw.toString("utf8")) } as Received;
          received.push(r);
          void Promise.resolve(answer(r)).then((a) => {
            res.writeHead(a.status, a.headers);
            res.end("ok");
          });
        });
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const handle = {
    received,
    get url() {
      return `http://127.0.0.1:${port}/hooks`;
    },
    setAnswer(fn: typeof answer) {
      answer = fn;
    },
    up: listen,
    down: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(handle);
  return handle;
}

async function api(path: string, init: { method?: string; body?: unknown; auth?: boolean; headers?: Record<string, string>; server?: TestServer } = {}) {
  const headers: Record<string, string> = { ...(init.auth === false ? {} : { authorization: basic }), ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch((init.server ?? t).url(path), {
    method: init.method ?? (init.body !== undefined ? "POST" : "GET"),
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const runDue = () => t.services.webhookDelivery.runDue(clock);
const eventCount = async () => (await value<number>(t.services.db, sql`SELECT count(*) AS n FROM webhook_events`))!;

async function subscribe(url: string, eventTypes: readonly string[] = WEBHOOK_EVENT_TYPES) {
  const r = await api("/enterprise/webhook_subscriptions", { body: { url, eventTypes, description: "test receiver" } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { subscription: { subscriptionId: string; status: string; secretPrefix: string }; secret: string };
}

beforeAll(async () => {
  t = await startTestServer({ webhooks: { allowInsecure: true, now: () => clock, delivery: "manual" } });
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(PLATFORM_SECRET));
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  await t.services.admin.createUser({ email: "owner@shop.test", password: "owner password 1", storeIds: [TEST_STORE_ID] });
  // The verification snippet exactly as docs/webhooks.md shows it (the one js block), imported as a module.
  const doc = readFileSync(join(PROJECT_ROOT, "docs/webhooks.md"), "utf8");
  const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks).toHaveLength(1);
  const file = join(t.dir, "verify-snippet.mjs");
  writeFileSync(file, blocks[0]);
  verify = ((await import(pathToFileURL(file).href)) as { verifyChorusSignature: Verify }).verifyChorusSignature;
});
afterAll(async () => {
  await t?.close();
});
// Each test starts without subscriptions and with its receivers closed, whatever the previous one left.
const open: { down(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of await t.services.webhooks.list(TEST_STORE_ID)) await t.services.webhooks.remove(TEST_STORE_ID, s.subscriptionId);
  await Promise.all(open.splice(0).map((r) => r.down().catch(() => {})));
});

describe("every event type, delivered and verified with the documented snippet", () => {
  it("emits each event from the real write paths and delivers it signed", async () => {
    const hook = receiver();
    await hook.up();
    const { subscription, secret } = await subscribe(hook.url);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(subscription.secretPrefix)).toBe(true);

    // review.created (storefront submission), review.updated (moderation), review.deleted.
    const submitted = await api(`${S}/products/shopify-1078/reviews`, {
      auth: false,
      body: { rating: 4, title: "Good", body: "Fits well and washes nicely.", displayName: "Ann", email: "ann@example.com" },
    });
    expect(submitted.status).toBe(201);
    const reviewId = (submitted.body as { review?: { reviewId: string }; reviewId?: string }).review?.reviewId ?? (submitted.body as { reviewId: string }).reviewId;
    expect(reviewId).toBeTruthy();
    await transaction(t.services.db, () => t.services.reviewsData.setStatus(TEST_STORE_ID, reviewId, "published"));
    // survey_response.created
    expect((await api(`${S}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`, { auth: false, body: { answeredQuestions: [{ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: 9 }] } })).status).toBe(201);
    // loyalty_customer.created (first sign-in), .updated and loyalty_earning_transaction.created (enrolment with sign-up points),
    // more points from an order, then loyalty_redemption_transaction.created.
    const token = await signPlatformToken(PLATFORM_SECRET, { platformCustomerId: "hook-1", email: "hook-1@example.test" });
    const login = await api(`${S}/loyalty/login`, { auth: false, body: { customerAccessToken: token } });
    expect(login.status).toBe(200);
    const bearer = { authorization: `Bearer ${login.body.customerToken}` };
    const version = (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
    expect((await api(`${S}/loyalty/customer_activation`, { auth: false, headers: bearer, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } })).status).toBe(200);
    expect((await api("/enterprise/loyalty/earning_transactions", { body: { customer: { platformCustomerId: "hook-1" }, orderId: "hook-order-1", amount: 400 } })).status).toBe(201);
    const rules = (await api(`${S}/loyalty/redemption_rules`, { auth: false })).body.redemptionRules as { redemptionRuleId: string; pointsCost: number }[];
    const rule = rules.find((r) => r.pointsCost === 300)!;
    // The subscription takes loyalty_reward.created too, so the store's rewards are created by its answer (sent at once,
    // before the code is shown: docs/loyalty.md "Rewards at checkout").
    const redeemed = await api(`${S}/loyalty/customer/redemptions`, { auth: false, headers: bearer, body: { redemptionRuleId: rule.redemptionRuleId } });
    expect(redeemed.status).toBe(201);
    expect(hook.received.find((r) => r.body.eventType === "loyalty_reward.created")?.body.data.reward).toMatchObject({
      code: redeemed.body.redemption.reward.code,
      usageLimit: 1,
      platformCustomerId: "hook-1",
    });
    // referral.friend_rewarded (a friend's discount, created through the shop's answer to loyalty_reward.created) and
    // referral.sender_rewarded (the friend's first order uses the code: 50 points for hook-1), docs/loyalty.md "Referrals".
    await t.services.referrals.updateSettings(TEST_STORE_ID, {
      enabled: true,
      friendDiscountType: "percentage-coupon",
      friendDiscountValue: 10,
      friendMinimumOrder: null,
      senderRewardType: "points",
      senderRewardValue: 50,
    });
    const sender = await api(`${S}/referral_senders`, { auth: false, body: { email: "hook-1@example.test" } });
    expect(sender.status).toBe(200);
    const friend = await t.services.referrals.claimFriend(sender.body.referralSenderId, "hook-friend@example.test");
    expect(
      await t.services.platforms.applyEvent(TEST_STORE_ID, "hook-referral-order", {
        kind: "order",
        fulfilledMs: null,
        cancelledMs: null,
        order: {
          orderId: "hook-referral-1",
          orderName: "#R1",
          email: "hook-friend@example.test",
          platformCustomerId: "hook-friend",
          customerName: null,
          locale: null,
          currency: "USD",
          subtotal: 40,
          orderedMs: clock,
          source: "test",
          lines: [{ productId: "1078", variantId: null, title: null, price: 40, quantity: 1 }],
          discountCodes: [friend.code],
        },
      }),
    ).toBe("applied");
    // The queue dispatches (builds the bodies of) these events, as its loop does within a second; then review.deleted.
    const report = await runDue();
    await transaction(t.services.db, () => run(t.services.db, sql`DELETE FROM reviews WHERE review_id = ${reviewId}`));
    const report2 = await runDue();
    expect(report.failed + report.retried + report2.failed + report2.retried).toBe(0);
    const types = new Set(hook.received.map((r) => r.body.eventType));
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());

    for (const r of hook.received) {
      // Verified with the documented snippet, on the raw bytes, at the queue's clock.
      expect(verify(r.raw, r.headers["chorus-signature"] as string, secret, { nowSeconds: Math.floor(clock / 1000) })).toBe(true);
      // A wrong secret, a changed body, or an old timestamp fail.
      expect(verify(r.raw, r.headers["chorus-signature"] as string, `${secret}x`, { nowSeconds: Math.floor(clock / 1000) })).toBe(false);
      expect(verify(Buffer.concat([r.raw, Buffer.from(" ")]), r.headers["chorus-signature"] as string, secret, { nowSeconds: Math.floor(clock / 1000) })).toBe(false);
      expect(verify(r.raw, r.headers["chorus-signature"] as string, secret, { nowSeconds: Math.floor(clock / 1000) + 301 })).toBe(false);
      expect(r.headers["chorus-signature"]).toMatch(new RegExp(`^t=${Math.floor(clock / 1000)},v1=[0-9a-f]{64}$`));
      expect(r.headers["chorus-event-type"]).toBe(r.body.eventType);
      expect(r.headers["chorus-event-id"]).toBe(r.body.eventId);
      expect(r.headers["chorus-delivery-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(r.body.storeId).toBe(TEST_STORE_ID);
      expect(Number.isNaN(Date.parse(r.body.dateCreated))).toBe(false);
    }
    // Each event once, in commit order per resource.
    expect(new Set(hook.received.map((r) => r.body.eventId)).size).toBe(hook.received.length);
    const of = (type: string) => hook.received.filter((r) => r.body.eventType === type).map((r) => r.body.data);
    expect(of("review.created")[0].review).toMatchObject({ reviewId, productId: "shopify-1078", rating: 4, title: "Good", reviewer: { displayName: "Ann", email: "ann@example.com" } });
    expect(of("review.updated").some((d) => d.review.reviewId === reviewId)).toBe(true);
    expect(of("review.deleted")).toEqual([{ review: { reviewId, productId: "shopify-1078" } }]);
    expect(of("survey_response.created")[0].surveyResponse).toMatchObject({ surveyId: NPS_SURVEY.surveyId, channelSurveyId: DEMO_CHANNEL_IDS.npsEmail });
    expect(of("loyalty_customer.created")[0].loyaltyCustomer).toMatchObject({ platformCustomerId: "hook-1", email: "hook-1@example.test" });
    expect(of("loyalty_customer.updated").length).toBeGreaterThanOrEqual(3); // enrolled, earned, redeemed
    expect(of("loyalty_earning_transaction.created").map((d) => d.transaction.points)).toEqual([100, 400, 50]);
    expect(of("referral.friend_rewarded")[0].referral).toMatchObject({ code: friend.code, friendEmail: "hook-friend@example.test", platform: "webhook" });
    expect(of("referral.sender_rewarded")[0].referral).toMatchObject({
      friendCode: friend.code,
      senderEmail: "hook-1@example.test",
      orderId: "hook-referral-1",
      reward: { type: "points", value: 50 },
    });
    expect(of("loyalty_redemption_transaction.created")[0].transaction).toMatchObject({ type: "redemption", points: -300, loyaltyCustomerId: login.body.loyaltyCustomer.loyaltyCustomerId });

    // Each resource in the API's shape (the response schemas), with the documented additions.
    const strictly = <T extends z.ZodObject>(schema: T, extra: z.ZodRawShape) => schema.extend(extra).strict();
    for (const d of [...of("review.created"), ...of("review.updated")]) {
      const r = strictly(reviewSchema, { status: z.enum(["pending", "published", "rejected"]), reviewer: reviewSchema.shape.reviewer.extend({ email: z.string().optional() }).strict() }).safeParse(
        d.review,
      );
      expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    }
    for (const d of of("survey_response.created")) expect(surveyResponseSchema.safeParse(d.surveyResponse).success).toBe(true);
    for (const d of [...of("loyalty_customer.created"), ...of("loyalty_customer.updated")]) {
      const r = strictly(loyaltyCustomerSchema, { platformCustomerId: z.string(), email: z.string().optional(), lifetimePoints: z.int() }).safeParse(d.loyaltyCustomer);
      expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    }
    for (const d of [...of("loyalty_earning_transaction.created"), ...of("loyalty_redemption_transaction.created")]) {
      const r = strictly(loyaltyTransactionSchema, { loyaltyCustomerId: z.string() }).safeParse(d.transaction);
      expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    }

    // And against the event schemas of the enterprise OpenAPI document (`webhooks`).
    const doc = (await (await fetch(t.url("/enterprise/openapi.json"))).json()) as {
      components: unknown;
      webhooks: Record<string, { post: { requestBody: { content: { "application/json": { schema: object } } } } }>;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const r of hook.received) {
      const validate = ajv.compile({ ...doc.webhooks[r.body.eventType].post.requestBody.content["application/json"].schema, components: doc.components });
      expect(validate(r.body), `${r.body.eventType}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }

    // The delivery log: one delivered attempt each, with status code and latency.
    // (loyalty_reward.created is sent at once by the redemption, not queued: its outcome is the reward's, docs/loyalty.md.)
    const log = await t.services.webhooks.deliveries(TEST_STORE_ID, { limit: 200 });
    expect(log.length).toBe(hook.received.filter((r) => r.body.eventType !== "loyalty_reward.created").length);
    for (const d of log) {
      expect(d).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 204 });
      expect(d.attemptLog).toHaveLength(1);
      expect(d.attemptLog[0].latency_ms).toBeGreaterThanOrEqual(0);
    }
    // Nothing left: a second pass sends nothing.
    expect(await runDue()).toMatchObject({ dispatched: 0, delivered: 0 });
    expect(hook.received.length).toBe(log.length + 2); // and the two loyalty_reward.created (the redemption's, the friend's), sent at once

    // Replay: a new delivery of the same event (same Chorus-Event-Id), verified again.
    const first = log[log.length - 1];
    await t.services.webhooks.replay(TEST_STORE_ID, first.delivery_id);
    await runDue();
    const replayed = hook.received[hook.received.length - 1];
    expect(replayed.body.eventId).toBe(first.event_id);
    expect(replayed.headers["chorus-delivery-id"]).not.toBe(first.delivery_id);
    expect(verify(replayed.raw, replayed.headers["chorus-signature"] as string, secret, { nowSeconds: Math.floor(clock / 1000) })).toBe(true);

    // Rotation: deliveries are then signed with the new secret only.
    const rotated = await api(`/enterprise/webhook_subscriptions/${subscription.subscriptionId}/rotate_secret`, { method: "POST" });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    await t.services.webhooks.replay(TEST_STORE_ID, first.delivery_id);
    await runDue();
    const afterRotation = hook.received[hook.received.length - 1];
    expect(verify(afterRotation.raw, afterRotation.headers["chorus-signature"] as string, rotated.body.secret, { nowSeconds: Math.floor(clock / 1000) })).toBe(true);
    expect(verify(afterRotation.raw, afterRotation.headers["chorus-signature"] as string, secret, { nowSeconds: Math.floor(clock / 1000) })).toBe(false);

    expect((await api(`/enterprise/webhook_subscriptions/${subscription.subscriptionId}`, { method: "DELETE" })).status).toBe(200);
    await hook.down();
  });
});

describe("outbox in the transaction of the change", () => {
  it("a rolled-back write emits nothing; the same write committed emits one event", async () => {
    const hook = receiver();
    await hook.up();
    const { subscription } = await subscribe(hook.url, ["loyalty_customer.created"]);
    const before = await eventCount();
    const insert = (id: string) => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: id, storeId: TEST_STORE_ID, platformCustomerId: id, email: null });
    await expect(
      transaction(t.services.db, async () => {
        await insert("rolled-back-1");
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await eventCount()).toBe(before);
    await runDue();
    expect(hook.received).toHaveLength(0);

    await transaction(t.services.db, () => insert("committed-1"));
    expect(await eventCount()).toBe(before + 1);
    await runDue();
    expect(hook.received.map((r) => r.body.data.loyaltyCustomer.loyaltyCustomerId)).toEqual(["committed-1"]);
    await api(`/enterprise/webhook_subscriptions/${subscription.subscriptionId}`, { method: "DELETE" });
    await hook.down();
  });

  it("helpful votes change no review for webhooks (no review.updated); a reply does", async () => {
    const hook = receiver();
    await hook.up();
    await subscribe(hook.url, ["review.updated"]);
    const reviewId = (await value<unknown>(t.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} AND status = 'published' LIMIT 1`)) as string;
    const before = await eventCount();
    const vote = await api(`${S}/reviews/${reviewId}/votes`, { auth: false, body: { vote: "helpful" } });
    expect(vote.status).toBe(200);
    expect(await eventCount()).toBe(before);
    await transaction(t.services.db, () => run(t.services.db, sql`UPDATE reviews SET reply_body = 'Thank you!', reply_created_ms = ${clock} WHERE review_id = ${reviewId}`));
    expect(await eventCount()).toBe(before + 1);
    await runDue();
    expect(hook.received.map((r) => r.body.data.review.reply)).toEqual([{ body: "Thank you!", dateCreated: new Date(clock).toISOString() }]);
  });

  it("a store without a subscription to the event type stores no event", async () => {
    const before = await eventCount();
    await transaction(t.services.db, () => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "nobody-listens", storeId: TEST_STORE_ID, platformCustomerId: "nobody-listens", email: null }));
    expect(await eventCount()).toBe(before);
  });
});

describe("retries (moved clock, no sleeping)", () => {
  it("receiver down then up: delivered exactly once after retries", async () => {
    const hook = receiver();
    await hook.up();
    const { subscription } = await subscribe(hook.url, ["loyalty_customer.created"]);
    await hook.down();
    await transaction(t.services.db, () => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "retry-1", storeId: TEST_STORE_ID, platformCustomerId: "retry-1", email: null }));
    expect(await runDue()).toMatchObject({ dispatched: 1, retried: 1, delivered: 0 });
    clock += RETRY_DELAYS_MS[0] - 1_000;
    expect(await runDue()).toMatchObject({ retried: 0, delivered: 0 }); // not due yet
    clock += 1_000;
    expect(await runDue()).toMatchObject({ retried: 1, delivered: 0 });
    await hook.up();
    clock += RETRY_DELAYS_MS[1];
    expect(await runDue()).toMatchObject({ delivered: 1 });
    clock += 2 * 86_400_000;
    expect(await runDue()).toMatchObject({ delivered: 0, retried: 0 });
    expect(hook.received.map((r) => r.body.data.loyaltyCustomer.loyaltyCustomerId)).toEqual(["retry-1"]);
    const [d] = await t.services.webhooks.deliveries(TEST_STORE_ID, { limit: 1 });
    expect(d).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 204 });
    expect(d.attemptLog.map((a) => a.status_code)).toEqual([null, null, 204]);
    expect(d.attemptLog[0].error).toMatch(/ECONNREFUSED/);
    expect(await t.services.webhooks.get(TEST_STORE_ID, subscription.subscriptionId)).toMatchObject({ status: "enabled", consecutiveFailures: 0 });
    await api(`/enterprise/webhook_subscriptions/${subscription.subscriptionId}`, { method: "DELETE" });
    await hook.down();
  });

  it("fails for about a day, then the subscription is disabled with a reason; enabling it again resets it", async () => {
    const hook = receiver();
    hook.setAnswer(() => ({ status: 500 }));
    await hook.up();
    const { subscription } = await subscribe(hook.url, ["loyalty_customer.created"]);
    const id = subscription.subscriptionId;
    await transaction(t.services.db, () => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "fail-1", storeId: TEST_STORE_ID, platformCustomerId: "fail-1", email: null }));
    const start = clock;
    await runDue();
    for (const delay of RETRY_DELAYS_MS) {
      clock += delay;
      await runDue();
    }
    expect(hook.received).toHaveLength(MAX_ATTEMPTS);
    expect(clock - start).toBeGreaterThan(20 * 3_600_000);
    expect(clock - start).toBeLessThan(30 * 3_600_000);
    const [d] = await t.services.webhooks.deliveries(TEST_STORE_ID, { limit: 1 });
    expect(d).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, last_status_code: 500 });
    const got = await api("/enterprise/webhook_subscriptions");
    const sub = (got.body.subscriptions as { subscriptionId: string; status: string; disabledReason?: string }[]).find((s) => s.subscriptionId === id)!;
    expect(sub.status).toBe("disabled");
    expect(sub.disabledReason).toMatch(/8 failed delivery attempts in a row/);
    // The team is e-mailed (through the mail outbox, in the transaction that disabled it), once.
    const mails = (await all(t.services.db, sql`SELECT to_address, subject, text FROM mail_outbox WHERE kind = 'webhook-disabled' AND store_id = ${TEST_STORE_ID}`)) as {
      to_address: string;
      subject: string;
      text: string;
    }[];
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: "owner@shop.test", subject: `Webhook disabled: ${hook.url}` });
    expect(mails[0].text).toContain(`/admin/stores/${TEST_STORE_ID}/webhooks`);
    expect(mails[0].text).toContain("answered 500");
    // Disabled: no new events are stored for it, nothing is sent.
    const before = await eventCount();
    await transaction(t.services.db, () => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "fail-2", storeId: TEST_STORE_ID, platformCustomerId: "fail-2", email: null }));
    expect(await eventCount()).toBe(before);
    // A replay to a disabled subscription is refused.
    await expect(t.services.webhooks.replay(TEST_STORE_ID, d.delivery_id)).rejects.toThrow(/disabled/);
    const enabled = await api(`/enterprise/webhook_subscriptions/${id}`, { method: "PUT", body: { status: "enabled" } });
    expect(enabled.body.subscription).toMatchObject({ status: "enabled", consecutiveFailures: 0 });
    expect(enabled.body.subscription.disabledReason).toBeUndefined();
    await api(`/enterprise/webhook_subscriptions/${id}`, { method: "DELETE" });
    await hook.down();
  });

  it("a subscription deleted while its delivery is in flight: the pass ends cleanly and records nothing", async () => {
    const hook = receiver();
    await hook.up();
    const { subscription } = await subscribe(hook.url, ["loyalty_customer.created"]);
    hook.setAnswer(async () => {
      await t.services.webhooks.remove(TEST_STORE_ID, subscription.subscriptionId);
      return { status: 204 };
    });
    await transaction(t.services.db, () => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "deleted-mid-1", storeId: TEST_STORE_ID, platformCustomerId: "deleted-mid-1", email: null }));
    expect(await runDue()).toMatchObject({ dispatched: 1, delivered: 0, retried: 0 });
    expect(hook.received).toHaveLength(1);
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM webhook_deliveries WHERE subscription_id = ${subscription.subscriptionId}`)).toBe(0);
  });

  it("a redirect is not followed: the attempt fails with its status and the target is never called", async () => {
    const hook = receiver();
    hook.setAnswer((r) => (r.headers["x-followed"] ? { status: 204 } : { status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } }));
    await hook.up();
    const { subscription } = await subscribe(hook.url, ["loyalty_customer.created"]);
    await transaction(t.services.db, () => t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "redirect-1", storeId: TEST_STORE_ID, platformCustomerId: "redirect-1", email: null }));
    expect(await runDue()).toMatchObject({ retried: 1, delivered: 0 });
    expect(hook.received).toHaveLength(1);
    const [d] = await t.services.webhooks.deliveries(TEST_STORE_ID, { limit: 1 });
    expect(d).toMatchObject({ status: "queued", last_status_code: 302 });
    expect(d.last_error).toMatch(/redirects are not followed/);
    await api(`/enterprise/webhook_subscriptions/${subscription.subscriptionId}`, { method: "DELETE" });
    await hook.down();
  });
});

describe("retention and erasure", () => {
  it("keeps events and their log 30 days once sent, and forgets the events that mention an erased address", async () => {
    const hook = receiver();
    await hook.up();
    await subscribe(hook.url, ["loyalty_customer.created"]);
    await transaction(t.services.db, async () => {
      await t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "keep-1", storeId: TEST_STORE_ID, platformCustomerId: "keep-1", email: "keep@example.com" });
      await t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: "erase-1", storeId: TEST_STORE_ID, platformCustomerId: "erase-1", email: "erase.me@example.com" });
    });
    await runDue();
    expect(hook.received).toHaveLength(2);
    const mentions = async (email: string) => (await value<number>(t.services.db, sql`SELECT count(*) AS n FROM webhook_events WHERE payload_json LIKE ${`%${email}%`}`))!;
    expect(await mentions("erase.me@example.com")).toBe(1);
    expect(await t.services.webhooks.forgetEmail(TEST_STORE_ID, "Erase.Me@example.com")).toBe(1);
    expect(await mentions("erase.me@example.com")).toBe(0);
    expect(await mentions("keep@example.com")).toBe(1);
    expect(await t.services.webhooks.forgetEmail(TEST_STORE_ID, "%")).toBe(0); // a pattern character matches only itself
    // 30 days later the sweep deletes what was sent, with its log.
    const events = await eventCount();
    clock += 31 * 86_400_000;
    await runDue();
    expect(await eventCount()).toBeLessThan(events);
    expect(await mentions("keep@example.com")).toBe(0);
    expect(
      await value<number>(
        t.services.db,
        sql`SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.seq = a.delivery_seq WHERE d.store_id = ${TEST_STORE_ID} AND a.attempted_ms < ${clock - 30 * 86_400_000}`,
      ),
    ).toBe(0);
  });
});

describe("bulk writes", () => {
  it("2,000 reviews imported in one transaction: 2,000 events, each delivered once", async () => {
    const hook = receiver();
    await hook.up();
    await subscribe(hook.url, ["review.created"]);
    const started = performance.now();
    await transaction(t.services.db, async () => {
      for (let i = 0; i < 2_000; i++) {
        await t.services.reviewsData.insert({
          reviewId: crypto.randomUUID(),
          storeId: TEST_STORE_ID,
          productId: "1078",
          rating: 1 + (i % 5),
          title: `Bulk ${i}`,
          body: "Imported in bulk.",
          createdMs: Date.UTC(2025, 0, 1) + i,
          status: "published",
          reviewerName: "Importer",
          source: "bulk-test",
          sourceKey: String(i),
        });
      }
    });
    const inserted = performance.now();
    const report = await runDue();
    const done = performance.now();
    expect(report).toMatchObject({ dispatched: 2_000, delivered: 2_000, retried: 0, failed: 0 });
    expect(new Set(hook.received.map((r) => r.body.data.review.title)).size).toBe(2_000);
    console.log(`bulk: 2,000 reviews inserted with their events in ${Math.round(inserted - started)} ms; dispatched and delivered in ${Math.round(done - inserted)} ms`);
  }, 60_000);
});

describe("bounded answers", () => {
  it("reads at most MAX_RESPONSE_BYTES of an endless answer and moves on", async () => {
    let written = 0;
    const endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(256 * 1024, 97);
      const pump = () => {
        while (!res.destroyed && written < 200 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    try {
      const started = performance.now();
      const outcome = await postOnce(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/`, "{}", {}, true);
      expect(outcome).toMatchObject({ statusCode: 200, error: null });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(written).toBeLessThan(50 * 1024 * 1024); // the connection was dropped, not drained
      expect(MAX_RESPONSE_BYTES).toBe(64 * 1024);
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  });
});

describe("SSRF rules", () => {
  it("refuses private, loopback, link-local and reserved targets, other schemes and credentials", async () => {
    for (const url of [
      "https://10.0.0.5/hook",
      "https://172.16.1.1/hook",
      "https://192.168.1.10/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:10.0.0.1]/",
      "https://224.0.0.1/",
      "ftp://example.com/",
      "file:///etc/passwd",
      "https://user:pass@example.com/",
      "not a url",
    ]) {
      const r = await api("/enterprise/webhook_subscriptions", { body: { url, eventTypes: ["review.created"] } });
      expect(r.status, url).toBe(400);
      expect(r.body.error.description, url).toMatch(/^url: /);
    }
  });

  it("without ALLOW_INSECURE_WEBHOOKS: no http, no loopback (by address or by name), checked again when connecting", async () => {
    await expect(checkWebhookUrl("http://127.0.0.1:8080/hook", false)).rejects.toThrow(/https/);
    await expect(checkWebhookUrl("https://127.0.0.1/hook", false)).rejects.toThrow(/loopback/);
    await expect(checkWebhookUrl("https://[::1]/hook", false)).rejects.toThrow(/::1 is a loopback address/);
    await expect(checkWebhookUrl("https://localhost/hook", false)).rejects.toThrow(/loopback/);
    await expect(checkWebhookUrl("http://10.0.0.1/hook", true)).rejects.toThrow(/loopback/); // the flag allows loopback only
    const hook = receiver();
    await hook.up();
    // The delivery path checks too: a loopback target without the flag is refused before any request.
    const outcome = await postOnce(hook.url, "{}", {}, false);
    expect(outcome).toMatchObject({ statusCode: null });
    expect(outcome.error).toMatch(/refused/);
    expect(hook.received).toHaveLength(0);
    await hook.down();
  });
});

describe("SSRF: every spelling of an internal target, over real HTTP (the forms of test/ssrf-forms.ts)", () => {
  let listeners: LoopbackListeners;
  let guarded: TestServer; // without ALLOW_LOOPBACK_REQUESTS
  beforeAll(async () => {
    listeners = await startLoopbackListeners();
    guarded = await startTestServer({ webhooks: { now: () => clock, delivery: "manual" } });
    await guarded.services.stores.create({ storeId: TEST_STORE_ID, name: "Guarded webhooks", platform: "shopify" });
    await guarded.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  }, 60_000);
  afterAll(async () => {
    await guarded?.close();
    await listeners?.close();
  });

  it("without ALLOW_LOOPBACK_REQUESTS: subscribing answers 400 for each (https and http), the delivery refuses each, and no connection arrives", async () => {
    for (const host of [...LOOPBACK_FORMS, ...ALWAYS_REFUSED]) {
      for (const scheme of ["https", "http"]) {
        const url = `${scheme}://${host}:${listeners.port}/hooks`;
        const r = await api("/enterprise/webhook_subscriptions", { server: guarded, body: { url, eventTypes: ["review.created"] } });
        expect(r.status, url).toBe(400);
        expect(r.body.error.description, url).toMatch(scheme === "https" ? /^url: .*not on the public internet$/ : /^url: url must use https:\/\/$/);
        const outcome = await postOnce(url, "{}", {}, false);
        expect(outcome.statusCode, url).toBeNull();
        expect(outcome.error, url).toMatch(/^refused: /);
      }
    }
    // A name whose DNS answer is loopback (or turns loopback: rebinding) is refused when subscribing and when delivering.
    const rebinding = () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]);
    await expect(checkWebhookUrl(`https://rebind.example:${listeners.port}/hooks`, false, rebinding)).rejects.toThrow(
      /^url: the host name rebind\.example resolves to 127\.0\.0\.1 is a loopback address/,
    );
    expect((await postOnce(`https://rebind.example:${listeners.port}/hooks`, "{}", {}, false, rebinding)).error).toMatch(/^refused: the host name rebind\.example resolves to 127\.0\.0\.1/);
    expect(await guarded.services.webhooks.list(TEST_STORE_ID)).toEqual([]);
    expect(listeners.connections()).toBe(0);
  }, 60_000);

  it("with the switch, loopback receivers are allowed but every other internal form is still 400", async () => {
    for (const host of ALWAYS_REFUSED) {
      const r = await api("/enterprise/webhook_subscriptions", { body: { url: `https://${host}/hooks`, eventTypes: ["review.created"] } });
      expect(r.status, host).toBe(400);
      expect(r.body.error.description, host).toMatch(/not on the public internet$/);
    }
    for (const host of LOOPBACK_FORMS) {
      if (host.startsWith("[::1]") && !listeners.ipv6) continue;
      const r = await api("/enterprise/webhook_subscriptions", { body: { url: `http://${host}:${listeners.port}/hooks`, eventTypes: ["review.created"] } });
      expect(r.status, host).toBe(201);
    }
    expect(listeners.connections()).toBe(0); // subscribing checks, it never calls the receiver
  });
});

describe("enterprise API: bad input", () => {
  it("answers clear 4xx JSON errors, never 500", async () => {
    const list = "/enterprise/webhook_subscriptions";
    expect((await api(list, { auth: false })).status).toBe(401);
    const cases: [string, { method?: string; body?: unknown; headers?: Record<string, string> }, number, RegExp][] = [
      [list, { body: { url: "https://93.184.215.14/hook", eventTypes: [] } }, 400, /eventTypes/],
      [list, { body: { url: "https://93.184.215.14/hook", eventTypes: ["review.nope"] } }, 400, /eventTypes/],
      [list, { body: { url: "https://93.184.215.14/hook", eventTypes: ["review.created", "review.created"] } }, 400, /repeat/],
      [list, { body: { url: "https://93.184.215.14/hook", eventTypes: ["review.created"], extra: 1 } }, 400, /extra|unrecognized|Unrecognized/],
      [list, { body: { eventTypes: ["review.created"] } }, 400, /url/],
      [list, { body: "{not json" }, 400, /JSON|json/],
      [list, { body: "x", headers: { "content-type": "text/plain" } }, 415, /.+/],
      [list, { body: { url: `https://93.184.215.14/${"a".repeat(20_000)}`, eventTypes: ["review.created"] } }, 413, /.+/],
      [`${list}/not-a-uuid`, { method: "PUT", body: {} }, 400, /subscriptionId/],
      [`${list}/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11`, { method: "PUT", body: { description: "x" } }, 404, /subscription/],
      [`${list}/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11`, { method: "DELETE" }, 404, /subscription/],
      [`${list}/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11/rotate_secret`, { method: "POST" }, 404, /subscription/],
      [`${list}/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11`, { method: "PUT", body: { status: "paused" } }, 400, /status/],
    ];
    for (const [path, init, status, message] of cases) {
      const r = await api(path, init);
      expect(r.status, `${init.method ?? "POST"} ${path.slice(0, 80)} ${JSON.stringify(init.body)?.slice(0, 80)}`).toBe(status);
      expect(r.body.error.description).toMatch(message);
    }
  });

  it("hostile bodies and IDs never answer 5xx", async () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.constantFrom("https://[::1]/", "https://0x7f000001/", "https://2130706433/", "https://127.1/", "javascript:alert(1)", "https://example.com:99999/"),
    );
    const body = fc.oneof(fc.json(), fc.dictionary(fc.constantFrom("url", "eventTypes", "description", "status", "x"), value));
    const id = fc.oneof(fc.string({ minLength: 1 }).map(encodeURIComponent), fc.uuid());
    await fc.assert(
      fc.asyncProperty(body, id, fc.constantFrom("POST", "PUT"), async (b, sid, method) => {
        const path = method === "POST" ? "/enterprise/webhook_subscriptions" : `/enterprise/webhook_subscriptions/${sid}`;
        const r = await api(path, { method, body: typeof b === "string" ? b : b });
        expect(r.status, `${method} ${path} ${JSON.stringify(b).slice(0, 200)}`).toBeLessThan(500);
        if (r.status >= 400) expect(r.body.error.description).toBeTruthy();
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 100) },
    );
    // Whatever was accepted passed the URL rules: only public https or loopback (the test server allows it).
    for (const s of await t.services.webhooks.list(TEST_STORE_ID)) expect(s.url).toMatch(/^(https:\/\/|http:\/\/(127\.|localhost|\[::1\]))/);
  }, 60_000);

  it("the secret is never shown after create: listings carry only its prefix; it is stored encrypted", async () => {
    const hook = receiver();
    await hook.up();
    const { subscription, secret } = await subscribe(hook.url, ["review.created"]);
    const listed = await api("/enterprise/webhook_subscriptions");
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const stored = await one(t.services.db, sql`SELECT * FROM webhook_subscriptions WHERE subscription_id = ${subscription.subscriptionId}`);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(12));
    await api(`/enterprise/webhook_subscriptions/${subscription.subscriptionId}`, { method: "DELETE" });
    await hook.down();
  });
});
