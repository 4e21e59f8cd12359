/**
 * The demo store's loyalty program (appended to DEMO_SEEDERS): VIP tiers, earning rules of all five
 * types, redemption rules of all three types, legal policies, and three demo shoppers with platform
 * customer IDs `demo-pending`, `demo-enrolled` (with earning and redemption history) and `demo-blocked`.
 *
 * The platform secret is DEMO_PLATFORM_SECRET when set on the first start, otherwise random; it is
 * stored in the database (never in the repository), and the demo storefront page signs its shoppers'
 * platform tokens with it, as a real storefront platform would.
 */
import { randomBytes } from "node:crypto";
import { transaction } from "../db/database.ts";
import type { DemoSeeder } from "../demo/seeder.ts";
import type { ProgramSetup } from "./loyalty.service.ts";

/** The demo shoppers (platform customer IDs) and their e-mails. */
export const DEMO_SHOPPERS = [
  { platformCustomerId: "demo-pending", email: "pending.shopper@demo.chorus.test", label: "Pat (signed in, not yet a member)" },
  { platformCustomerId: "demo-enrolled", email: "enrolled.shopper@demo.chorus.test", label: "Eli (member with points)" },
  { platformCustomerId: "demo-blocked", email: "blocked.shopper@demo.chorus.test", label: "Bo (blocked from the program)" },
] as const;

/** The demo storefront's enrolment channel / partner ID. */
export const DEMO_PARTNER_ID = "chorus-demo-storefront";

/** The demo program (also used by tests that want a realistic program). */
export function demoProgram(platformSecret: string): ProgramSetup {
  return {
    platformSecret,
    legalPolicies: {
      acceptTermsAndJoinProgramButtonText: "Accept the terms and join Chorus Rewards",
      policySentenceHtml:
        'By joining, you agree to the <a href="/demo/loyalty?policy=terms">Chorus Rewards Terms and Conditions</a> and confirm you have read our <a href="/demo/loyalty?policy=privacy">Privacy Policy</a>.',
      policySentenceTemplate: "By joining, you agree to the {termsAndConditions} and confirm you have read our {privacyPolicy}.",
      termsAndConditionsUrl: "/demo/loyalty?policy=terms",
      privacyPolicyUrl: "/demo/loyalty?policy=privacy",
      version: "2026-11-01",
    },
    vipTiers: [
      { name: "Bronze", pointsThreshold: 0, pointsMultiplier: 1, perks: ["Members-only offers"] },
      { name: "Silver", pointsThreshold: 500, pointsMultiplier: 1.25, perks: ["25% more points on every order", "Early access to sales"] },
      { name: "Gold", pointsThreshold: 1500, pointsMultiplier: 1.5, perks: ["50% more points on every order", "Free returns"] },
    ],
    earningRules: [
      { type: "sign-up", name: "Join the program", points: 100 },
      { type: "points-per-spend", name: "Shop with us", points: 0, pointsPerCurrencyUnit: 1 },
      { type: "review", name: "Write a review", points: 50 },
      { type: "review-with-media", name: "Write a review with a photo or video", points: 100 },
      { type: "birthday", name: "Celebrate your birthday", points: 150 },
    ],
    redemptionRules: [
      { type: "free-shipping", name: "Free shipping", pointsCost: 300, rewardDescription: "Free shipping on your next order", rewardValue: 0 },
      { type: "fixed-amount-coupon", name: "$5 off", pointsCost: 500, rewardDescription: "$5 off your next order", rewardValue: 5 },
      { type: "percentage-coupon", name: "10% off", pointsCost: 800, rewardDescription: "10% off your next order", rewardValue: 10 },
    ],
  };
}

/** The seeder for the demo store `storeId` (demo.ts appends `loyaltyDemoSeeder(DEMO_STORE_ID)`). */
export const loyaltyDemoSeeder = (storeId: string): DemoSeeder => ({
  name: "loyalty",
  async run({ services, config, log }) {
    const { loyalty, loyaltyData } = services;
    // One SERIALIZABLE transaction (retried on conflict): two nodes seeding at once (npm run cluster) create one program and redeem once.
    await transaction(services.db, () => seed(), { isolation: "serializable" });
    log("Loyalty demo shoppers ready: demo-pending, demo-enrolled, demo-blocked.");

    async function seed(): Promise<void> {
      if (!(await loyaltyData.getProgram(storeId))) {
        await loyalty.setupProgram(storeId, demoProgram(config.DEMO_PLATFORM_SECRET ?? randomBytes(32).toString("base64url")));
        log(`Loyalty demo program created (platform secret ${config.DEMO_PLATFORM_SECRET ? "from DEMO_PLATFORM_SECRET" : "random, stored in the database"}).`);
      }
      for (const s of DEMO_SHOPPERS) {
        await loyaltyData.insertCustomer({ loyaltyCustomerId: crypto.randomUUID(), storeId, platformCustomerId: s.platformCustomerId, email: s.email });
      }
      const enrolled = (await loyaltyData.getCustomerByPlatformId(storeId, "demo-enrolled"))!;
      if (enrolled.status === "pending") {
        await loyalty.activate(storeId, enrolled.loyalty_customer_id, { enrollmentChannel: DEMO_PARTNER_ID, legalPoliciesVersionAccepted: "2026-11-01" }, null);
        await loyalty.earnForOrder(storeId, { customer: { platformCustomerId: "demo-enrolled" }, orderId: "demo-order-1001", amount: 249.5 });
        await loyalty.earnForOrder(storeId, { customer: { platformCustomerId: "demo-enrolled" }, orderId: "demo-order-1002", amount: 689 });
        const freeShipping = (await loyaltyData.redemptionRules(storeId)).find((r) => r.type === "free-shipping");
        if (freeShipping) await loyalty.redeem(storeId, enrolled.loyalty_customer_id, freeShipping.redemption_rule_id);
      }
      const blocked = (await loyaltyData.getCustomerByPlatformId(storeId, "demo-blocked"))!;
      if (blocked.status !== "blocked") await loyalty.setStatus(storeId, blocked.loyalty_customer_id, "blocked");
    }
  },
});
