/**
 * Loyalty program set-up for any store (issue 21 item 3) and disclosed review incentives (issue 22
 * item 4), over real HTTP and SQLite: a brand-new store without a program answers 404; turned on by
 * the set-up service, its storefront loyalty API answers at once and a shopper token signed with the
 * newly generated platform secret signs in and enrols; rules and tiers are added, edited, removed;
 * the program turned off answers 404 again and keeps everything; a review that earned points says
 * `isIncentivized: true` in the API, one that did not says false.
 */
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { isApiError } from "../contract/errors.ts";
import type { EarningRulesResponse, LegalPolicies, LoginResponse, RedemptionRulesResponse, VipTiersResponse } from "../contract/loyalty.responses.ts";
import { earningRulesResponseSchema, redemptionRulesResponseSchema, vipTiersResponseSchema } from "../contract/loyalty.responses.ts";
import { transaction } from "../db/database.ts";
import { earnForPlatformOrder } from "./ledger.ts";
import { policyHtmlFromTemplate } from "./program-setup.ts";
import { signPlatformToken } from "./tokens.ts";

let t: TestServer;
const STORE = randomUUID();
const P = `/v1/stores/${STORE}/loyalty`;
const LEGAL = {
  acceptTermsAndJoinProgramButtonText: "Join our rewards",
  policySentenceTemplate: "By joining you accept the {termsAndConditions} and the {privacyPolicy}.",
  termsAndConditionsUrl: "https://shop.example/terms",
  privacyPolicyUrl: "/pages/privacy",
};
let secret = "";

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: STORE, name: "Brand-new shop", platform: "shopify", moderation: "auto-publish-all" });
  await t.services.stores.upsertProduct({ storeId: STORE, productId: "tee-1", name: "Linen tee" });
});
afterAll(() => t.close());

async function call(path: string, init: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(t.url(path), { method: init.body !== undefined ? "POST" : "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const thrown = async (fn: () => unknown): Promise<{ status: number; message: string }> => {
  try {
    await fn();
  } catch (e) {
    if (isApiError(e)) return { status: e.status, message: e.message };
    throw e;
  }
  throw new Error("expected an ApiError");
};

async function login(platformCustomerId: string, key = secret) {
  const customerAccessToken = await signPlatformToken(key, { platformCustomerId, email: `${platformCustomerId}@shopper.example` });
  return call(`${P}/login`, { body: { customerAccessToken } });
}

describe("turning the program on for a brand-new store", () => {
  it("answers 404 before the program exists", async () => {
    expect(await t.services.loyalty.programStatus(STORE)).toEqual({ exists: false });
    for (const path of ["earning_rules", "redemption_rules", "vip_tiers", "legal_policies"]) expect((await call(`${P}/${path}`)).status).toBe(404);
  });

  it("refuses legal policies with bad fields, naming the field", async () => {
    expect(await thrown(() => t.services.loyalty.turnOnProgram(STORE, { ...LEGAL, termsAndConditionsUrl: "javascript:alert(1)" }))).toMatchObject({ status: 400, message: /^termsAndConditionsUrl: / });
    expect(await thrown(() => t.services.loyalty.turnOnProgram(STORE, { ...LEGAL, policySentenceTemplate: "no tokens" }))).toMatchObject({ status: 400, message: /^policySentenceTemplate: / });
    expect(await t.services.loyalty.programStatus(STORE)).toEqual({ exists: false });
  });

  it("creates the program with a new platform secret, and the storefront API answers at once", async () => {
    const on = await t.services.loyalty.turnOnProgram(STORE, LEGAL);
    expect(on.created).toBe(true);
    secret = on.platformSecret!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.services.loyalty.programStatus(STORE)).toMatchObject({ exists: true, enabled: true });
    expect((await call(`${P}/earning_rules`)).body).toEqual({ earningRules: [] });
    expect((await call(`${P}/redemption_rules`)).body).toEqual({ redemptionRules: [] });
    expect((await call(`${P}/vip_tiers`)).body).toEqual({ vipTiers: [] });
    const legal = (await call(`${P}/legal_policies`)).body as LegalPolicies;
    expect(legal).toMatchObject({ acceptTermsAndJoinProgramButtonText: LEGAL.acceptTermsAndJoinProgramButtonText, termsAndConditionsUrl: LEGAL.termsAndConditionsUrl });
    expect(legal.policySentence.html).toContain('<a href="https://shop.example/terms"');
    expect(legal.version).toBe(new Date().toISOString().slice(0, 10));
  });

  it("a shopper token signed with the new secret signs in and enrols; another secret is refused", async () => {
    expect((await login("stranger", "not-the-secret-of-this-store-000")).status).toBe(401);
    const l = await login("first-shopper");
    expect(l.status).toBe(200);
    const version = ((await call(`${P}/legal_policies`)).body as LegalPolicies).version;
    const a = await call(`${P}/customer_activation`, { token: (l.body as LoginResponse).customerToken, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } });
    expect(a.status).toBe(200);
    expect(a.body.loyaltyCustomer.status).toBe("enrolled");
  });

  it("turning it on again keeps the program and its secret", async () => {
    expect(await t.services.loyalty.turnOnProgram(STORE, undefined)).toEqual({ created: false, platformSecret: null });
    expect(await t.services.loyalty.platformSecret(STORE)).toBe(secret);
  });

  it("makes the policy HTML from the template with escaped URLs", () => {
    expect(policyHtmlFromTemplate("See {termsAndConditions} & {privacyPolicy}", '/t?a=1&b="2"', "/p")).toBe(
      'See <a href="/t?a=1&#38;b=&#34;2&#34;">Terms and Conditions</a> &#38; <a href="/p">Privacy Policy</a>',
    );
  });
});

describe("earning rules, redemption rules and VIP tiers", () => {
  it("adds, edits and removes earning rules; one rule per type; per-spend needs its rate", async () => {
    const s = t.services.loyalty;
    const signUp = await s.addEarningRule(STORE, { type: "sign-up", name: "Join", points: "100", enabled: "on" });
    expect((await thrown(() => s.addEarningRule(STORE, { type: "sign-up", name: "Again", points: 5, enabled: true }))).status).toBe(409);
    expect(await thrown(() => s.addEarningRule(STORE, { type: "points-per-spend", name: "Spend", points: 0, enabled: true }))).toMatchObject({ status: 400, message: /^pointsPerCurrencyUnit: / });
    expect(await thrown(() => s.addEarningRule(STORE, { type: "review", name: "", points: 5, enabled: true }))).toMatchObject({ status: 400, message: /^name: / });
    expect(await thrown(() => s.addEarningRule(STORE, { type: "review", name: "R", points: "1.5", enabled: true }))).toMatchObject({ status: 400, message: /^points: / });
    expect(await thrown(() => s.addEarningRule(STORE, { type: "nonsense" as "review", name: "R", points: 1, enabled: true }))).toMatchObject({ status: 400, message: /^type: / });
    await s.addEarningRule(STORE, { type: "points-per-spend", name: "Spend", points: 0, pointsPerCurrencyUnit: "2.5", enabled: true });
    await s.addEarningRule(STORE, { type: "review", name: "Write a review", points: 50, enabled: true });
    const media = await s.addEarningRule(STORE, { type: "review-with-media", name: "Review with a photo", points: 80, enabled: true });
    await s.editEarningRule(STORE, signUp, { name: "Join the club", points: 150, enabled: true });
    await s.removeEarningRule(STORE, media);
    expect((await thrown(() => s.removeEarningRule(STORE, media))).status).toBe(404);
    const rules = ((await call(`${P}/earning_rules`)).body as EarningRulesResponse).earningRules;
    expect(rules.map((r) => [r.type, r.name, r.points])).toEqual([
      ["sign-up", "Join the club", 150],
      ["points-per-spend", "Spend", 0],
      ["review", "Write a review", 50],
    ]);
    expect(rules[1].pointsPerCurrencyUnit).toBe(2.5);
  });

  it("adds, edits and removes redemption rules with their values checked per type", async () => {
    const s = t.services.loyalty;
    expect(await thrown(() => s.addRedemptionRule(STORE, { type: "percentage-coupon", name: "10%", pointsCost: 100, rewardDescription: "10% off", rewardValue: 150, enabled: true }))).toMatchObject({
      status: 400,
      message: /^rewardValue: /,
    });
    expect(await thrown(() => s.addRedemptionRule(STORE, { type: "fixed-amount-coupon", name: "5 off", pointsCost: 0, rewardDescription: "5 off", rewardValue: 5, enabled: true }))).toMatchObject({
      status: 400,
      message: /^pointsCost: /,
    });
    const pct = await s.addRedemptionRule(STORE, { type: "percentage-coupon", name: "10% off", pointsCost: "300", rewardDescription: "10% off your order", rewardValue: "10", enabled: "on" });
    const ship = await s.addRedemptionRule(STORE, { type: "free-shipping", name: "Free shipping", pointsCost: 200, rewardDescription: "Free shipping", rewardValue: "", enabled: true });
    await s.addRedemptionRule(STORE, { type: "fixed-amount-coupon", name: "5 off", pointsCost: 500, rewardDescription: "5 off", rewardValue: 5, enabled: true });
    await s.editRedemptionRule(STORE, pct, { name: "15% off", pointsCost: 400, rewardDescription: "15% off your order", rewardValue: 15, enabled: true });
    await s.removeRedemptionRule(STORE, ship);
    const rules = ((await call(`${P}/redemption_rules`)).body as RedemptionRulesResponse).redemptionRules;
    expect(rules.map((r) => [r.type, r.name, r.pointsCost, r.reward.value])).toEqual([
      ["percentage-coupon", "15% off", 400, 15],
      ["fixed-amount-coupon", "5 off", 500, 5],
    ]);
  });

  it("adds, edits and removes VIP tiers; members' tiers follow; thresholds are unique", async () => {
    const s = t.services.loyalty;
    const base = await s.addVipTier(STORE, { name: "Member", pointsThreshold: "0", pointsMultiplier: "1", perks: "Birthday gift\n\n Early access " });
    expect((await thrown(() => s.addVipTier(STORE, { name: "Dup", pointsThreshold: 0, pointsMultiplier: 1 }))).status).toBe(409);
    expect(await thrown(() => s.addVipTier(STORE, { name: "Bad", pointsThreshold: 10, pointsMultiplier: 0 }))).toMatchObject({ status: 400, message: /^pointsMultiplier: / });
    const gold = await s.addVipTier(STORE, { name: "Gold", pointsThreshold: 1000, pointsMultiplier: 2 });
    await s.editVipTier(STORE, gold, { name: "Gold", pointsThreshold: 1000, pointsMultiplier: 1.5, perks: ["Free returns"] });
    let tiers = ((await call(`${P}/vip_tiers`)).body as VipTiersResponse).vipTiers;
    expect(tiers.map((x) => [x.name, x.pointsThreshold, x.pointsMultiplier, x.perks])).toEqual([
      ["Member", 0, 1, ["Birthday gift", "Early access"]],
      ["Gold", 1000, 1.5, ["Free returns"]],
    ]);
    // the enrolled shopper is placed in the base tier; removing it leaves them without one
    const member = (await t.services.loyalty.customerByPlatformId(STORE, "first-shopper"))!;
    expect(member.vipTierName).toBe("Member");
    await s.removeVipTier(STORE, base);
    expect((await t.services.loyalty.customerByPlatformId(STORE, "first-shopper"))!.vipTierName).toBeUndefined();
    tiers = ((await call(`${P}/vip_tiers`)).body as VipTiersResponse).vipTiers;
    expect(tiers.map((x) => x.name)).toEqual(["Gold"]);
  });
});

describe("isIncentivized: reviews that earned points say so (issue 22 item 4)", () => {
  it("a member's review with a review earning rule comes back incentivized; a non-member's does not", async () => {
    const l = await login("reviewing-member");
    const token = (l.body as LoginResponse).customerToken;
    const version = ((await call(`${P}/legal_policies`)).body as LegalPolicies).version;
    expect((await call(`${P}/customer_activation`, { token, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } })).status).toBe(200);
    const submit = (email: string, displayName: string) =>
      call(`/v1/stores/${STORE}/products/shopify-tee-1/reviews`, { body: { rating: 5, title: "Soft and cool", body: "The linen is soft and keeps me cool on hot days.", displayName, email } });
    const mine = await submit("reviewing-member@shopper.example", "Member M.");
    const theirs = await submit("someone-else@shopper.example", "Guest G.");
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    // the points are awarded when the member's account is read; the review is marked in that transaction
    const me = await call(`${P}/customer`, { token });
    expect(me.body.loyaltyCustomer.points.balance).toBe(150 + 50); // sign-up + review (no tier: multiplier 1)
    const list = (await call(`/v1/stores/${STORE}/products/shopify-tee-1/reviews?limit=25`)).body as { reviews: { reviewId: string; isIncentivized: boolean }[] };
    const byId = new Map(list.reviews.map((r) => [r.reviewId, r.isIncentivized]));
    expect(byId.get(mine.body.review.reviewId)).toBe(true);
    expect(byId.get(theirs.body.review.reviewId)).toBe(false);
    // the store-wide listing says the same
    const all = (await call(`/v1/stores/${STORE}/reviews?limit=25`)).body as { reviews: { reviewId: string; isIncentivized: boolean }[] };
    expect(all.reviews.find((r) => r.reviewId === mine.body.review.reviewId)!.isIncentivized).toBe(true);
  });
});

describe("platform secret and turning the program off", () => {
  it("a new secret replaces the old one at once", async () => {
    const old = secret;
    secret = await t.services.loyalty.rotatePlatformSecret(STORE);
    expect(secret).not.toBe(old);
    expect((await login("first-shopper", old)).status).toBe(401);
    expect((await login("first-shopper")).status).toBe(200);
    expect(await t.services.loyalty.programStatus(STORE)).toMatchObject({ platformSecretGeneratedMs: expect.any(Number) });
  });

  it("turned off, the storefront API answers 404 and the admin still reads the program; on again, all is back", async () => {
    await t.services.loyalty.turnOffProgram(STORE);
    expect(await t.services.loyalty.hasProgram(STORE)).toBe(false);
    expect((await call(`${P}/earning_rules`)).status).toBe(404);
    expect((await call(`${P}/legal_policies`)).status).toBe(404);
    expect((await login("first-shopper")).status).toBe(404);
    expect((await t.services.loyalty.adminProgram(STORE)).earningRules).toHaveLength(3);
    // platform orders earn nothing while the program is off (and do again once it is on)
    const member = (await t.services.loyaltyData.getCustomerByPlatformId(STORE, "first-shopper"))!;
    const order = { orderId: `order-${randomUUID()}`, platformCustomerId: "first-shopper", amount: 40, label: "#1001" };
    expect(await transaction(t.services.db, () => earnForPlatformOrder(t.services.loyaltyData, STORE, order))).toBeNull();
    expect((await t.services.loyaltyData.getCustomer(STORE, member.loyalty_customer_id))!.balance).toBe(member.balance);
    await t.services.loyalty.turnOnProgram(STORE, undefined);
    expect(await transaction(t.services.db, () => earnForPlatformOrder(t.services.loyaltyData, STORE, order))).toMatchObject({ points: 100 }); // 40 × 2.5
    await t.services.loyalty.turnOffProgram(STORE);
    await t.services.loyalty.turnOnProgram(STORE, undefined);
    expect(((await call(`${P}/earning_rules`)).body as EarningRulesResponse).earningRules).toHaveLength(3);
    expect((await login("first-shopper")).status).toBe(200);
  });

  it("another store's rules and tiers are not found through this store", async () => {
    const other = randomUUID();
    await t.services.stores.create({ storeId: other, name: "Other", platform: "custom" });
    await t.services.loyalty.turnOnProgram(other, LEGAL);
    const rule = (await t.services.loyalty.adminProgram(STORE)).earningRules[0].earning_rule_id;
    expect((await thrown(() => t.services.loyalty.removeEarningRule(other, rule))).status).toBe(404);
    expect((await thrown(() => t.services.loyalty.editEarningRule(other, rule, { name: "x", points: 1, enabled: true }))).status).toBe(404);
    expect((await t.services.loyalty.adminProgram(STORE)).earningRules.map((r) => r.earning_rule_id)).toContain(rule);
  });
});

describe("bad input never breaks the set-up (property test)", () => {
  it("any form values for rules and tiers are either stored or refused with a 4xx naming the field", async () => {
    const store = randomUUID();
    await t.services.stores.create({ storeId: store, name: "Fuzz", platform: "shopify" });
    await t.services.loyalty.turnOnProgram(store, LEGAL);
    const value = fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom("", "0", "1", "-1", "1.5", "1e400", "NaN", "0x10", " 7 ", "on", "100"));
    const type = fc.constantFrom("sign-up", "points-per-spend", "review", "review-with-media", "birthday", "fixed-amount-coupon", "percentage-coupon", "free-shipping", "x", "");
    await fc.assert(
      fc.asyncProperty(type, value, value, value, value, value, async (ty, a, b, c, d, e) => {
        const s = t.services.loyalty;
        for (const call of [
          () => s.addEarningRule(store, { type: ty as "review", name: a, points: b, pointsPerCurrencyUnit: c, enabled: d }),
          () => s.addRedemptionRule(store, { type: ty as "free-shipping", name: a, pointsCost: b, rewardDescription: c, rewardValue: d, enabled: e }),
          () => s.addVipTier(store, { name: a, pointsThreshold: b, pointsMultiplier: c, perks: d }),
        ]) {
          try {
            await call();
          } catch (error) {
            if (!isApiError(error) || error.status >= 500) throw error;
            expect([400, 409]).toContain(error.status);
          }
        }
      }),
      { numRuns: 300 },
    );
    // whatever was stored is served by the storefront API as valid shapes
    const p = await t.services.loyalty.adminProgram(store);
    for (const r of p.earningRules) expect(Number.isInteger(r.points) && r.points >= 0).toBe(true);
    for (const r of p.redemptionRules) expect(Number.isInteger(r.points_cost) && r.points_cost >= 1).toBe(true);
    for (const v of p.vipTiers) expect(v.points_multiplier > 0 && v.points_multiplier <= 10).toBe(true);
    const api = (path: string) => call(`/v1/stores/${store}/loyalty/${path}`);
    for (const [path, schema] of [
      ["earning_rules", earningRulesResponseSchema],
      ["redemption_rules", redemptionRulesResponseSchema],
      ["vip_tiers", vipTiersResponseSchema],
    ] as const) {
      const r = await api(path);
      expect(r.status).toBe(200);
      expect(schema.safeParse(r.body).success).toBe(true);
    }
  });
});
