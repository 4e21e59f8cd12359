/**
 * Klaviyo over real HTTP (issue #38 item 3, docs/klaviyo.md): a stand-in Klaviyo (a real HTTP server on loopback,
 * reached through the outgoing-request guard with ALLOW_LOOPBACK_REQUESTS and KLAVIYO_API_URL) receives every event
 * type from the real write paths with the documented shape and headers, and the profile properties; the private key
 * is write-only and sealed; a 429 is retried after its Retry-After (moved clock, no sleeping); nothing is lost across
 * a restart or a crash after a claim, and a job is sent once; an erasure sends Klaviyo's profile deletion request.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { all, run, sql, transaction, value } from "../db/database.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { createServices } from "../services.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS, NPS_SURVEY } from "../surveys/surveys.demo.ts";
import { rewardPlatformFor } from "../../test/shopify-admin-stand-in.ts";
import { KLAVIYO_METRICS, KLAVIYO_REVISION, PROFILE_PROPERTIES } from "./klaviyo-requests.ts";
import { LEASE_MS, MAX_RETRY_AFTER_MS } from "./klaviyo-sender.ts";
import { klaviyoRepo } from "./klaviyo.repo.ts";
import { erasedAddressKey } from "../shared/erased-address.ts";

const API_KEY = "klaviyo-test-api-key-0123456789abcdef";
const PLATFORM_SECRET = "klaviyo-test-platform-secret-0123456789";
const PRIVATE_KEY = "pk_0123456789abcdef0123456789abcdef01";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const S = `/v1/stores/${TEST_STORE_ID}`;

type Received = { path: string; headers: IncomingMessage["headers"]; body: { data: { type: string; attributes: Record<string, unknown> } } };

/** Klaviyo's documented request bodies (developers.klaviyo.com, revision 2024-10-15), transcribed. */
const profileRef = z.object({ data: z.object({ type: z.literal("profile"), attributes: z.object({ email: z.email() }).strict() }).strict() }).strict();
const eventDocument = z
  .object({
    data: z
      .object({
        type: z.literal("event"),
        attributes: z
          .object({
            properties: z.record(z.string(), z.unknown()),
            time: z.iso.datetime(),
            unique_id: z.string().min(1),
            metric: z.object({ data: z.object({ type: z.literal("metric"), attributes: z.object({ name: z.string() }).strict() }).strict() }).strict(),
            profile: profileRef,
          })
          .strict(),
      })
      .strict(),
  })
  .strict();
const profileImportDocument = z
  .object({
    data: z.object({ type: z.literal("profile"), attributes: z.object({ email: z.email(), properties: z.record(z.string(), z.unknown()) }).strict() }).strict(),
  })
  .strict();
const deletionDocument = z
  .object({
    data: z.object({ type: z.literal("data-privacy-deletion-job"), attributes: z.object({ profile: profileRef }).strict() }).strict(),
  })
  .strict();

let t: TestServer;
let clock = Date.now() + 60_000;
let klaviyo: ReturnType<typeof standIn>;
let shopify: Awaited<ReturnType<typeof rewardPlatformFor>>;

/** The stand-in Klaviyo: records each request; `answer` decides the status and headers (default 202). */
function standIn() {
  const received: Received[] = [];
  type Answer = { status: number; headers?: Record<string, string> };
  let answer: (r: Received) => Answer = () => ({ status: 202 });
  let server: Server;
  return {
    received,
    get url() {
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    setAnswer(fn: (r: Received) => Answer) {
      answer = fn;
    },
    up: () =>
      new Promise<void>((resolve) => {
        server = createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => {
            const r: Received = { path: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Received["body"] };
            received.push(r);
            const a = answer(r);
            res.writeHead(a.status, { "content-type": "application/vnd.api+json", ...a.headers });
            res.end(a.status >= 400 ? JSON.stringify({ errors: [{ status: a.status, title: "Stand-in error", detail: `answered ${a.status}` }] }) : "");
          });
        });
        server.listen(0, "127.0.0.1", () => resolve());
      }),
    down: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function api(path: string, init: { method?: string; body?: unknown; auth?: boolean; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.auth === false ? {} : { authorization: basic }), ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(t.url(path), { method: init.method ?? (init.body !== undefined ? "POST" : "GET"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

const runDue = () => t.services.klaviyoSender.runDue(clock);
const outbox = () =>
  all<{ job_id: string; kind: string; name: string; email: string; status: string; attempts: number }>(
    t.services.db,
    sql`SELECT job_id, kind, name, email, status, attempts FROM klaviyo_outbox ORDER BY seq`,
  );
const events = (name: string) =>
  klaviyo.received.filter((r) => r.path === "/api/events/" && (r.body.data.attributes.metric as { data: { attributes: { name: string } } }).data.attributes.name === name);

beforeAll(async () => {
  klaviyo = standIn();
  await klaviyo.up();
  process.env.KLAVIYO_API_URL = klaviyo.url;
  t = await startTestServer({ allowLoopbackRequests: true, webhooks: { now: () => clock, delivery: "manual" } });
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(PLATFORM_SECRET));
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  shopify = await rewardPlatformFor(t.services, TEST_STORE_ID);
});
afterAll(async () => {
  await t?.close();
  await klaviyo?.down();
  await shopify?.close();
  delete process.env.KLAVIYO_API_URL;
});
// Jobs are due at the database's clock when they are written (the triggers'); the queue's clock stays a minute ahead of it.
beforeEach(() => {
  clock = Math.max(clock, Date.now() + 60_000);
});
afterEach(() => {
  klaviyo.received.length = 0;
  klaviyo.setAnswer(() => ({ status: 202 }));
});

describe("the private API key (PATCH/GET /enterprise/settings marketing.klaviyo)", () => {
  it("is write-only and sealed; a bad key is a 400 JSON error; until it is set no job is stored", async () => {
    expect((await api("/enterprise/settings")).body.marketing).toEqual({ klaviyo: { privateApiKeySet: false } });
    // Not connected: a review with an address stores no Klaviyo job.
    const before = await api(`${S}/products/shopify-1078/reviews`, {
      auth: false,
      body: { rating: 5, title: "Lovely", body: "Soft fabric, true to size.", displayName: "Bea", email: "bea@example.com" },
    });
    expect(before.status).toBe(201);
    expect(await outbox()).toEqual([]);

    for (const bad of ["sk_live_123456789", "pk_", "pk_ with spaces 1234", 42]) {
      const res = await api("/enterprise/settings", { method: "PATCH", body: { marketing: { klaviyo: { privateApiKey: bad } } } });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.description).toMatch(/privateApiKey/);
    }
    expect((await api("/enterprise/settings", { method: "PATCH", body: { marketing: { klaviyo: { privateApiKey: PRIVATE_KEY } } } })).status).toBe(200);
    const got = await api("/enterprise/settings");
    expect(got.body.marketing).toEqual({ klaviyo: { privateApiKeySet: true } });
    expect(got.text).not.toContain(PRIVATE_KEY.slice(3));
    const stored = await value<string>(t.services.db, sql`SELECT api_key_sealed FROM klaviyo_accounts WHERE store_id = ${TEST_STORE_ID}`);
    expect(stored).toBeTruthy();
    expect(stored).not.toContain(PRIVATE_KEY.slice(3));
    // The OpenAPI document declares the section.
    const doc = (await (await fetch(t.url("/enterprise/openapi.json"))).json()) as { components: { schemas: Record<string, unknown> } };
    expect(JSON.stringify(doc.components.schemas.MarketingSettings)).toContain("privateApiKeySet");
    expect(JSON.stringify(doc.components.schemas.StoreSettingsPatch)).toContain("privateApiKey");
  });
});

describe("every event type, from the real write paths, with the documented shape and headers", () => {
  it("sends Submitted Review, Submitted Question, Answered Survey, Loyalty Points Earned, Redeemed Reward, Loyalty Tier Changed, Unsubscribed From Review Requests and profile properties", async () => {
    const review = await api(`${S}/products/shopify-1078/reviews`, {
      auth: false,
      body: { rating: 4, title: "Good", body: "Fits well and washes nicely.", displayName: "Ann", email: "ann@example.com" },
    });
    expect(review.status).toBe(201);
    const question = await api(`${S}/products/shopify-1078/questions`, { auth: false, body: { body: "Does it run small in the shoulders?", displayName: "Ann", email: "ann@example.com" } });
    expect(question.status).toBe(201);
    expect(
      (
        await api(`${S}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`, {
          auth: false,
          body: { answeredQuestions: [{ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: 9 }], customer: { email: "ann@example.com" } },
        })
      ).status,
    ).toBe(201);
    const token = await signPlatformToken(PLATFORM_SECRET, { platformCustomerId: "kl-1", email: "ann@example.com" });
    const login = await api(`${S}/loyalty/login`, { auth: false, body: { customerAccessToken: token } });
    expect(login.status).toBe(200);
    const bearer = { authorization: `Bearer ${login.body.customerToken}` };
    const version = (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
    expect((await api(`${S}/loyalty/customer_activation`, { auth: false, headers: bearer, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } })).status).toBe(200);
    expect((await api("/enterprise/loyalty/earning_transactions", { body: { customer: { platformCustomerId: "kl-1" }, orderId: "kl-order-1", amount: 600 } })).status).toBe(201);
    const rules = (await api(`${S}/loyalty/redemption_rules`, { auth: false })).body.redemptionRules as { redemptionRuleId: string; pointsCost: number }[];
    const rule = rules.find((r) => r.pointsCost === 300)!;
    const redeemed = await api(`${S}/loyalty/customer/redemptions`, { auth: false, headers: bearer, body: { redemptionRuleId: rule.redemptionRuleId } });
    expect(redeemed.status, redeemed.text).toBe(201);
    await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'ann@example.com', ${clock})`));

    const report = await runDue();
    expect(report.failed + report.retried + report.skipped).toBe(0);
    for (const r of klaviyo.received) {
      expect(r.headers.authorization).toBe(`Klaviyo-API-Key ${PRIVATE_KEY}`);
      expect(r.headers.revision).toBe(KLAVIYO_REVISION);
      expect(r.headers["content-type"]).toBe("application/vnd.api+json");
      expect(r.headers.accept).toBe("application/vnd.api+json");
    }
    const sentNames = new Set(klaviyo.received.filter((r) => r.path === "/api/events/").map((r) => eventDocument.parse(r.body).data.attributes.metric.data.attributes.name));
    expect([...sentNames].sort()).toEqual([...KLAVIYO_METRICS].sort());
    for (const r of klaviyo.received.filter((x) => x.path === "/api/events/")) {
      expect(eventDocument.parse(r.body).data.attributes.profile.data.attributes.email).toBe("ann@example.com");
    }
    const reviewId = review.body.review?.reviewId ?? review.body.reviewId;
    expect(events("Submitted Review").map((r) => r.body.data.attributes.properties)).toEqual([
      expect.objectContaining({
        ReviewId: reviewId,
        Rating: 4,
        Title: "Good",
        Verified: false,
        HasMedia: false,
        ProductId: "1078",
        ProductName: expect.any(String),
      }),
    ]);
    expect(events("Submitted Question")[0]!.body.data.attributes.properties).toMatchObject({ Question: "Does it run small in the shoulders?", ProductId: "1078" });
    expect(events("Answered Survey")[0]!.body.data.attributes.properties).toMatchObject({ NPSScore: 9, NPSCategory: "promoter" });
    expect(events("Loyalty Points Earned").map((r) => (r.body.data.attributes.properties as { Points: number }).Points)).toContain(600);
    expect(events("Redeemed Reward")[0]!.body.data.attributes.properties).toMatchObject({ PointsSpent: 300, RewardCode: redeemed.body.redemption.reward.code });
    expect(events("Loyalty Tier Changed").map((r) => r.body.data.attributes.properties)).toContainEqual({ PreviousTier: "Bronze", Tier: "Silver" });
    // unique_id is the job's ID: one per event, never reused.
    const ids = klaviyo.received.filter((r) => r.path === "/api/events/").map((r) => eventDocument.parse(r.body).data.attributes.unique_id);
    expect(new Set(ids).size).toBe(ids.length);

    const profiles = klaviyo.received.filter((r) => r.path === "/api/profile-import/").map((r) => profileImportDocument.parse(r.body).data.attributes);
    expect(profiles.length).toBeGreaterThan(0);
    const latest = profiles.at(-1)!;
    const balance = await value<number>(t.services.db, sql`SELECT balance FROM loyalty_customers WHERE platform_customer_id = 'kl-1'`);
    expect(latest).toMatchObject({
      email: "ann@example.com",
      properties: { [PROFILE_PROPERTIES.pointsBalance]: balance, [PROFILE_PROPERTIES.tier]: "Silver", [PROFILE_PROPERTIES.lastReviewDate]: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    expect(latest.properties).not.toHaveProperty(PROFILE_PROPERTIES.referralLink); // no referral link known

    // The delivery log lists them, delivered.
    const log = await t.services.klaviyo.log(TEST_STORE_ID);
    expect(log.length).toBe(klaviyo.received.length);
    expect(new Set(log.map((l) => l.status))).toEqual(new Set(["delivered"]));
    // A second pass sends nothing again.
    klaviyo.received.length = 0;
    expect(await runDue()).toMatchObject({ delivered: 0, retried: 0 });
    expect(klaviyo.received).toHaveLength(0);
  });
});

describe("retries (moved clock, no sleeping)", () => {
  it("a 429 is retried after its Retry-After, not before; a 5xx backs off; a 400 fails at once", async () => {
    let calls = 0;
    klaviyo.setAnswer(() => (++calls === 1 ? { status: 429, headers: { "retry-after": "120" } } : { status: 202 }));
    await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'rate@example.com', ${clock})`));
    expect(await runDue()).toMatchObject({ retried: 1, delivered: 0 });
    const [queued] = await t.services.klaviyo.log(TEST_STORE_ID, 1);
    expect(queued).toMatchObject({ status: "queued", lastStatusCode: 429, nextAttempt: new Date(clock + 120_000).toISOString() });
    clock += 119_000;
    expect(await runDue()).toMatchObject({ retried: 0, delivered: 0 });
    expect(calls).toBe(1);
    clock += 1_000;
    expect(await runDue()).toMatchObject({ delivered: 1 });
    expect(calls).toBe(2);

    // An HTTP-date Retry-After far away is bounded; a 503 is retried after the backoff; a 400 is failed.
    klaviyo.setAnswer(() => ({ status: 429, headers: { "retry-after": new Date(clock + 10 * 3_600_000).toUTCString() } }));
    await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'date@example.com', ${clock})`));
    expect(await runDue()).toMatchObject({ retried: 1 });
    expect((await t.services.klaviyo.log(TEST_STORE_ID, 1))[0]!.nextAttempt).toBe(new Date(clock + MAX_RETRY_AFTER_MS).toISOString());
    klaviyo.setAnswer(() => ({ status: 503 }));
    clock += MAX_RETRY_AFTER_MS;
    expect(await runDue()).toMatchObject({ retried: 1 });
    klaviyo.setAnswer(() => ({ status: 400 }));
    clock += 3_600_000;
    expect(await runDue()).toMatchObject({ failed: 1 });
    const [failed] = await t.services.klaviyo.log(TEST_STORE_ID, 1);
    expect(failed).toMatchObject({ status: "failed", attempts: 3, lastStatusCode: 400, lastError: "answered 400: answered 400" });
  });
});

describe("nothing lost across a restart, each job sent once", () => {
  it("a job queued while no sender runs is delivered once by the next start; a claim left by a crash is sent after its lease", async () => {
    await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'restart@example.com', ${clock})`));
    // "Stop" this node before delivery (its sender never runs), start another over the same database.
    const second = await createServices({ databasePath: t.databasePath, mediaPath: join(t.dir, "media"), allowLoopbackRequests: true, klaviyo: { now: () => clock } });
    try {
      expect(await second.klaviyoSender.runDue(clock)).toMatchObject({ delivered: 1 });
      expect(await runDue()).toMatchObject({ delivered: 0 });
      expect(await second.klaviyoSender.runDue(clock)).toMatchObject({ delivered: 0 });
      expect(klaviyo.received.filter((r) => (r.body.data.attributes.profile as { data: { attributes: { email: string } } } | undefined)?.data.attributes.email === "restart@example.com")).toHaveLength(
        1,
      );

      // A node claims a job and dies before sending: the lease keeps others off until it runs out, then one sends it.
      await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'crash@example.com', ${clock})`));
      const claimed = await transaction(second.db, () => klaviyoRepo(second.db).claimDue(clock, clock + LEASE_MS, 20));
      expect(claimed.map((c) => c.email)).toEqual(["crash@example.com"]);
      expect(await runDue()).toMatchObject({ delivered: 0 });
      clock += LEASE_MS;
      const [a, b] = await Promise.all([runDue(), second.klaviyoSender.runDue(clock)]);
      expect(a.delivered + b.delivered).toBe(1);
      expect(klaviyo.received.filter((r) => (r.body.data.attributes.profile as { data: { attributes: { email: string } } } | undefined)?.data.attributes.email === "crash@example.com")).toHaveLength(
        1,
      );
    } finally {
      await second.close();
    }
  });
});

describe("erasure", () => {
  it("deletes the shopper's jobs and sends Klaviyo's profile deletion request", async () => {
    await api(`${S}/products/shopify-1078/reviews`, { auth: false, body: { rating: 3, title: "Fine", body: "It is fine for the price.", displayName: "Cy", email: "cy@example.com" } });
    expect((await outbox()).filter((j) => j.email === "cy@example.com").length).toBeGreaterThan(0);
    const erased = await api("/enterprise/customers/erasure", { body: { email: "cy@example.com" } });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.erasure.klaviyoJobs).toBe(2); // the review's event and its profile update, never sent
    expect((await outbox()).filter((j) => j.email === "cy@example.com").map((j) => j.kind)).toEqual(["deletion"]);
    await runDue();
    expect(klaviyo.received.map((r) => r.path)).toEqual(["/api/data-privacy-deletion-jobs/"]);
    expect(deletionDocument.parse(klaviyo.received[0]!.body).data.attributes.profile.data.attributes.email).toBe("cy@example.com");
    expect(klaviyo.received[0]!.headers.authorization).toBe(`Klaviyo-API-Key ${PRIVATE_KEY}`);
    // Once sent, the address leaves the outbox's log (its hashed key stays).
    expect((await outbox()).filter((j) => j.email === "cy@example.com")).toEqual([]);
    expect((await t.services.klaviyo.log(TEST_STORE_ID, 1))[0]).toMatchObject({ kind: "deletion", status: "delivered", email: erasedAddressKey("cy@example.com") });
  });

  it("disconnecting (privateApiKey null) drops queued jobs and stores no more", async () => {
    await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'late@example.com', ${clock})`));
    expect((await api("/enterprise/settings", { method: "PATCH", body: { marketing: { klaviyo: { privateApiKey: null } } } })).status).toBe(200);
    expect((await api("/enterprise/settings")).body.marketing).toEqual({ klaviyo: { privateApiKeySet: false } });
    expect((await outbox()).filter((j) => j.email === "late@example.com")).toEqual([]);
    await transaction(t.services.db, () => run(t.services.db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${TEST_STORE_ID}, 'later@example.com', ${clock})`));
    expect((await outbox()).filter((j) => j.email === "later@example.com")).toEqual([]);
  });
});
