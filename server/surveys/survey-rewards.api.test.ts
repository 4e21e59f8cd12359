/**
 * Survey rewards and customer profiles over real HTTP (docs/surveys.md "Rewards", "Customer profiles"; issue #36 items
 * 4-5): a channel survey's coupon is created on a stand-in Shopify Admin API once per response and stored in the
 * response's reward; a failing stand-in keeps the response, and the retry job (clock moved) creates the coupon later and
 * mails it through the outbox to a real SMTP server; one reward per e-mail address; profile answers land in the
 * customer's profile, and a date of birth in the loyalty customer's birthday. Real server and database (both engines).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { connectShopifyStandIn, startShopifyStandIn, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";
import type { LoginResponse } from "../contract/loyalty.responses.ts";
import type { Survey, SurveyResponse, SurveySubmissionResponse } from "../contract/surveys.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { RETRY_DELAYS_MS } from "./survey-rewards.ts";

const SECRET = "survey-rewards-platform-secret-0123";
const TOKEN = "shpat_survey_rewards_0123456789abcdef";
const API_KEY = "survey-rewards-api-key-0123456789abcd";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;

let t: TestServer;
let shopify: ShopifyStandIn;
let smtp: TestSmtp;
let clock = Date.now();
let survey: Survey;
let channel: string;
let seq = 0;

beforeAll(async () => {
  smtp = await startTestSmtp();
  shopify = await startShopifyStandIn({ token: TOKEN });
  t = await startTestServer({ allowLoopbackRequests: true, mail: { smtpUrl: smtp.url, sender: "manual", now: () => clock }, rewards: { now: () => clock, shopifyTimeoutMs: 1_500 } });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Survey shop", platform: "shopify" });
  await t.services.apiKeys.create(TEST_STORE_ID, "survey rewards tests", API_KEY);
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  await connectShopifyStandIn(t.services, TEST_STORE_ID, shopify, "survey-rewards.myshopify.com");
  survey = await t.services.surveys.createSurvey(TEST_STORE_ID, {
    name: "After your review",
    questions: [
      { type: "star", text: "How was writing the review?", required: true },
      { type: "profile", text: "When is your birthday?", profileAnswerType: "date-components" },
      { type: "profile", text: "Where do you live?", profileAnswerType: "location" },
      { type: "profile", text: "Your style", profileAnswerType: "single-value", options: ["Classic", "Sporty"] },
      { type: "profile", text: "Your sizes", profileAnswerType: "multi-value", options: ["S", "M", "L"] },
    ],
    channelSurveys: [{ channel: "post-review", reward: { type: "coupon", description: "10% off your next order", value: "10%" } }],
  });
  channel = survey.channelSurveys[0].channelSurveyId;
});
afterAll(async () => {
  delete process.env.SHOPIFY_ADMIN_API_URL;
  await t?.close();
  await shopify?.close();
  await smtp?.close();
});

const q = (i: number) => survey.questions[i].id;
async function submit(email: string, answers: unknown[] = [{ id: q(0), type: "star", answer: 5 }]) {
  const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/surveys/${channel}/responses`), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ answeredQuestions: answers, customer: { email } }),
  });
  return { status: res.status, body: (await res.json()) as SurveySubmissionResponse };
}
async function listed(surveyResponseId: string): Promise<SurveyResponse> {
  const res = await fetch(t.url(`/enterprise/surveys/${survey.surveyId}/responses?limit=100`), { headers: { authorization: basic } });
  const body = (await res.json()) as { surveyResponses: SurveyResponse[] };
  return body.surveyResponses.find((r) => r.surveyResponseId === surveyResponseId)!;
}

describe("a channel survey's coupon is created on the shop platform, once per response", () => {
  it("creates a single-use discount on the stand-in Shopify Admin API and stores its code in the response's reward", async () => {
    shopify.mode = "ok";
    const { status, body } = await submit(`first${++seq}@example.test`);
    expect(status).toBe(201);
    const reward = body.surveyResponse.reward!;
    expect(reward).toMatchObject({ type: "coupon", description: "10% off your next order" });
    expect(reward.value).toMatch(/^CHORUS-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(body.surveyResponse.rewardPending).toBeUndefined();
    const discount = shopify.discounts.get(reward.value)!;
    expect(discount.mutation).toBe("discountCodeBasicCreate");
    expect(discount.input).toMatchObject({ code: reward.value, usageLimit: 1, appliesOncePerCustomer: true });
    expect(JSON.stringify(discount.input.customerGets)).toContain("0.1"); // 10 % as Shopify's fraction
    expect((await listed(body.surveyResponse.surveyResponseId)).reward).toEqual(reward);
    expect((await listed(body.surveyResponse.surveyResponseId)).channel).toBe("post-review");
  });

  it("one reward per e-mail address and channel survey: a second response of the address is kept without one", async () => {
    const email = `twice${++seq}@example.test`;
    const first = await submit(email);
    const before = shopify.discounts.size;
    const second = await submit(email.toUpperCase());
    expect(first.body.surveyResponse.reward).toBeDefined();
    expect(second.status).toBe(201);
    expect(second.body.surveyResponse.reward).toBeUndefined();
    expect(second.body.surveyResponse.rewardPending).toBeUndefined();
    expect(shopify.discounts.size).toBe(before);
    expect((await listed(second.body.surveyResponse.surveyResponseId)).reward).toBeUndefined();
  });

  it("a failing platform keeps the response; the retry job creates the coupon later (clock moved) and mails it, once", async () => {
    shopify.mode = "error";
    const email = `later${++seq}@example.test`;
    const { status, body } = await submit(email);
    expect(status).toBe(201);
    expect(body.surveyResponse.reward).toBeUndefined();
    expect(body.surveyResponse.rewardPending).toBe(true);
    const id = body.surveyResponse.surveyResponseId;
    const kept = await listed(id);
    expect(kept.customer).toEqual({ email });
    expect(kept.reward).toBeUndefined();
    // Not due yet: nothing is tried.
    expect(await t.services.surveyRewards.runDue(clock)).toEqual({ created: 0, pending: 0 });
    // Due, still failing: tried once, left pending for the next attempt.
    clock += RETRY_DELAYS_MS[0] + 1;
    expect(await t.services.surveyRewards.runDue(clock)).toEqual({ created: 0, pending: 1 });
    shopify.mode = "ok";
    expect(await t.services.surveyRewards.runDue(clock)).toEqual({ created: 0, pending: 0 }); // the next attempt is later
    clock += RETRY_DELAYS_MS[1] + 1;
    expect(await t.services.surveyRewards.runDue(clock)).toEqual({ created: 1, pending: 0 });
    const reward = (await listed(id)).reward!;
    expect(reward.value).toMatch(/^CHORUS-/);
    expect(shopify.discounts.has(reward.value)).toBe(true);
    expect(await t.services.surveyRewards.runDue(clock + 86_400_000)).toEqual({ created: 0, pending: 0 }); // done: never again
    await t.services.mailSender.runOnce();
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe(`Your code from Survey shop: ${reward.value}`);
    expect(mail.text).toContain(reward.value);
    expect(mail.text).toContain("10% off your next order");
    await t.services.mailSender.runOnce();
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("a discount made before its answer was lost is found by code on the retry, not created twice", async () => {
    shopify.mode = "create-then-hang";
    const { body } = await submit(`lost${++seq}@example.test`);
    expect(body.surveyResponse.rewardPending).toBe(true);
    const created = shopify.discounts.size;
    shopify.mode = "ok";
    clock += RETRY_DELAYS_MS[0] + 1;
    expect(await t.services.surveyRewards.runDue(clock)).toEqual({ created: 1, pending: 0 });
    expect(shopify.discounts.size).toBe(created);
    expect(shopify.discounts.has((await listed(body.surveyResponse.surveyResponseId)).reward!.value)).toBe(true);
  });
});

describe("profile answers fill the customer's profile", () => {
  it("date of birth, location, single and multi value land in the profile with their response; the birthday reaches loyalty", async () => {
    shopify.mode = "ok";
    const email = `profile${++seq}@example.test`;
    const customerAccessToken = await signPlatformToken(SECRET, { platformCustomerId: `${8800000 + seq}`, email });
    const login = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/login`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken }) });
    const customerId = ((await login.json()) as LoginResponse).loyaltyCustomer.loyaltyCustomerId;
    const { status, body } = await submit(email, [
      { id: q(0), type: "star", answer: 4 },
      { id: q(1), type: "profile", answer: { type: "date-components", value: { day: 14, month: 3, year: 1990 } } },
      { id: q(2), type: "profile", answer: { type: "location", value: { countryCode: "DE", zoneCode: "BE" } } },
      { id: q(3), type: "profile", answer: { type: "single-value", value: "Sporty" } },
      { id: q(4), type: "profile", answer: { type: "multi-value", value: ["S", "M"] } },
    ]);
    expect(status).toBe(201);
    const profile = await t.services.surveyRewards.profile(TEST_STORE_ID, email);
    expect(profile.map((p) => [p.question, p.answer])).toEqual([
      ["When is your birthday?", { type: "date-components", value: { day: 14, month: 3, year: 1990 } }],
      ["Where do you live?", { type: "location", value: { countryCode: "DE", zoneCode: "BE" } }],
      ["Your sizes", { type: "multi-value", value: ["S", "M"] }],
      ["Your style", { type: "single-value", value: "Sporty" }],
    ]);
    expect(new Set(profile.map((p) => p.surveyResponseId))).toEqual(new Set([body.surveyResponse.surveyResponseId]));
    expect(profile[0]).toMatchObject({ surveyName: "After your review", channel: "post-review", profileQuestionId: survey.questions[1].profileQuestionId });
    expect((await t.services.loyaltyLifecycle.customerLifecycle(TEST_STORE_ID, customerId)).birthday).toEqual({ month: 3, day: 14 });
    // A newer answer replaces the field (here the style); the birthday, set just now, keeps its once-a-year rule.
    await submit(email, [
      { id: q(0), type: "star", answer: 5 },
      { id: q(1), type: "profile", answer: { type: "date-components", value: { day: 1, month: 6, year: 1990 } } },
      { id: q(3), type: "profile", answer: { type: "single-value", value: "Classic" } },
    ]);
    const again = await t.services.surveyRewards.profile(TEST_STORE_ID, email);
    expect(again.find((p) => p.question === "Your style")!.answer).toEqual({ type: "single-value", value: "Classic" });
    expect(again.find((p) => p.question === "Your sizes")!.answer).toEqual({ type: "multi-value", value: ["S", "M"] });
    expect((await t.services.loyaltyLifecycle.customerLifecycle(TEST_STORE_ID, customerId)).birthday).toEqual({ month: 3, day: 14 });
  });
});

describe("post-review: the review's answer names the store's post-review survey", () => {
  it("a submitted review's 201 carries postReviewSurvey while a post-review channel survey is enabled, and not once it is off", async () => {
    await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "4242", name: "Linen shirt" });
    const review = async (email: string) => {
      const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-4242/reviews`), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rating: 5, title: "Soft", body: "The linen is soft and keeps me cool.", displayName: "R. Viewer", email }),
      });
      return { status: res.status, body: (await res.json()) as { review: { reviewId: string }; postReviewSurvey?: { channelSurveyId: string } } };
    };
    const on = await review(`reviewer${++seq}@example.test`);
    expect(on.status).toBe(201);
    expect(on.body.postReviewSurvey).toEqual({ channelSurveyId: channel });
    await t.services.surveys.setChannelSurveyEnabled(TEST_STORE_ID, channel, false);
    const off = await review(`reviewer${++seq}@example.test`);
    expect(off.status).toBe(201);
    expect(off.body.postReviewSurvey).toBeUndefined();
    await t.services.surveys.setChannelSurveyEnabled(TEST_STORE_ID, channel, true);
  });
});
