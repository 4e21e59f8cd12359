/**
 * Loyalty program set-up by the merchant (issue 21 item 3): turn the program on (creating it with its
 * legal policies and a fresh platform secret) and off, generate a new platform secret, and add, edit
 * and remove earning rules, redemption rules and VIP tiers. The zod schemas below are the one
 * validation of these inputs: the admin forms parse with them for per-field messages (field names are
 * the schema keys), and every service call parses again (400 naming the field).
 *
 * While a program is off, the storefront loyalty API answers 404 as for a store without a program
 * (`requireProgram` in program.ts); nothing of the program, its customers or their ledger is lost.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { isSitePath } from "../contract/loyalty.ts";
import { badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { conflict, recalculateTier } from "./ledger.ts";
import type { LoyaltyRepo, ProgramRow } from "./loyalty.repo.ts";
import type { LoyaltyProgram } from "./program.ts";

/** A number field: a number, or a form string that is one (empty → "required"). */
const numberField = (label: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim())) : v),
    z.number({ error: (i) => (i.input === undefined ? `${label} is required` : `${label} must be a number`) }).refine(Number.isFinite, `${label} must be a number`),
  );
const wholeNumber = (label: string, min: number, max: number) =>
  numberField(label).pipe(z.number().int(`${label} must be a whole number`).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`));
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
/** A checkbox: true, "on" or "true" → true; anything else (absent) → false. */
const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean());
const policyUrl = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(2000)
    .refine((v) => z.url({ protocol: /^https?$/ }).safeParse(v).success || isSitePath(v), `${label} must be an http(s) URL or a path on your site starting with /`);

export const EARNING_RULE_TYPES = ["sign-up", "points-per-spend", "review", "review-with-media", "birthday"] as const;
export const REDEMPTION_RULE_TYPES = ["fixed-amount-coupon", "percentage-coupon", "free-shipping"] as const;

/** An earning rule as the merchant adds it. `pointsPerCurrencyUnit` is required for (and only kept on) points-per-spend. */
export const earningRuleInput = z
  .object({
    type: z.enum(EARNING_RULE_TYPES, { error: "Choose a type: sign-up, points-per-spend, review, review-with-media or birthday" }),
    name: text("Name", 120),
    points: wholeNumber("Points", 0, 1_000_000),
    pointsPerCurrencyUnit: z.preprocess(
      (v) => (v === "" ? undefined : v),
      numberField("Points per currency unit").pipe(z.number().min(0, "Points per currency unit must be at least 0").max(10_000, "Points per currency unit must be at most 10000")).optional(),
    ),
    enabled: checkbox,
  })
  .superRefine((r, ctx) => {
    if (r.type === "points-per-spend" && r.pointsPerCurrencyUnit === undefined) {
      ctx.addIssue({ code: "custom", path: ["pointsPerCurrencyUnit"], message: "Points per currency unit is required for a points-per-spend rule" });
    }
  });
export type EarningRuleInput = z.input<typeof earningRuleInput>;
/** An edit of an earning rule: every field but the type. */
export const earningRuleEdit = z.object({
  name: text("Name", 120),
  points: wholeNumber("Points", 0, 1_000_000),
  pointsPerCurrencyUnit: z.preprocess(
    (v) => (v === "" ? undefined : v),
    numberField("Points per currency unit").pipe(z.number().min(0, "Points per currency unit must be at least 0").max(10_000, "Points per currency unit must be at most 10000")).optional(),
  ),
  enabled: checkbox,
});
export type EarningRuleEdit = z.input<typeof earningRuleEdit>;

/** A redemption rule: its reward is a coupon of `rewardValue` (currency units, percent, or 0 for free shipping). */
export const redemptionRuleInput = z
  .object({
    type: z.enum(REDEMPTION_RULE_TYPES, { error: "Choose a type: fixed-amount-coupon, percentage-coupon or free-shipping" }),
    name: text("Name", 120),
    pointsCost: wholeNumber("Points cost", 1, 10_000_000),
    rewardDescription: text("Reward description", 200),
    rewardValue: z.preprocess(
      (v) => (v === "" || v === undefined ? 0 : v),
      numberField("Reward value").pipe(z.number().min(0, "Reward value must be at least 0").max(1_000_000, "Reward value must be at most 1000000")),
    ),
    enabled: checkbox,
  })
  .superRefine((r, ctx) => {
    if (r.type === "percentage-coupon" && (r.rewardValue <= 0 || r.rewardValue > 100)) {
      ctx.addIssue({ code: "custom", path: ["rewardValue"], message: "A percentage coupon's value must be more than 0 and at most 100 (percent)" });
    }
    if (r.type === "fixed-amount-coupon" && r.rewardValue <= 0) {
      ctx.addIssue({ code: "custom", path: ["rewardValue"], message: "A fixed-amount coupon's value must be more than 0 (currency units)" });
    }
  });
export type RedemptionRuleInput = z.input<typeof redemptionRuleInput>;

/** A VIP tier; `perks` as a list, or a form text with one perk per line. */
export const vipTierInput = z.object({
  name: text("Name", 80),
  pointsThreshold: wholeNumber("Lifetime points needed", 0, 100_000_000),
  pointsMultiplier: numberField("Points multiplier").pipe(z.number().gt(0, "Points multiplier must be more than 0").max(10, "Points multiplier must be at most 10")),
  perks: z.preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(/\r?\n/)
            .map((p) => p.trim())
            .filter(Boolean)
        : (v ?? []),
    z.array(z.string().max(200, "Each perk must be at most 200 characters")).max(20, "At most 20 perks"),
  ),
});
export type VipTierInput = Omit<z.input<typeof vipTierInput>, "perks"> & { perks?: string | string[] };

/**
 * The legal policies as the merchant writes them when turning the program on or editing it. An empty
 * `policySentenceHtml` is made from the template, with links to the two URLs (`policyHtmlFromTemplate`).
 */
export const legalPoliciesForm = z.object({
  acceptTermsAndJoinProgramButtonText: text("Join button text", 120),
  policySentenceTemplate: text("Policy sentence template", 2000).refine(
    (t) => t.includes("{termsAndConditions}") && t.includes("{privacyPolicy}"),
    "The template must contain {termsAndConditions} and {privacyPolicy}",
  ),
  policySentenceHtml: z.string().max(4000, "The policy sentence must be at most 4000 characters").optional(),
  termsAndConditionsUrl: policyUrl("Terms and conditions URL"),
  privacyPolicyUrl: policyUrl("Privacy policy URL"),
});
export type LegalPoliciesForm = z.input<typeof legalPoliciesForm>;

/** The English defaults a new program starts from (the merchant adds the two URLs). */
export const DEFAULT_LEGAL_POLICIES = {
  acceptTermsAndJoinProgramButtonText: "Accept the terms and join our rewards program",
  policySentenceTemplate: "By joining, you agree to the {termsAndConditions} and confirm you have read our {privacyPolicy}.",
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The policy sentence HTML of a template: `{termsAndConditions}` and `{privacyPolicy}` become links to the URLs. */
export function policyHtmlFromTemplate(template: string, termsUrl: string, privacyUrl: string): string {
  return escapeHtml(template)
    .replaceAll("{termsAndConditions}", `<a href="${escapeHtml(termsUrl)}">Terms and Conditions</a>`)
    .replaceAll("{privacyPolicy}", `<a href="${escapeHtml(privacyUrl)}">Privacy Policy</a>`);
}

/** Per-field messages of a failed parse, keyed by the first path segment (the form field name). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** Parse `input` with `schema`. @throws ApiError 400 naming the first field and its message. */
function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw badRequest(`${String(issue.path[0] ?? "input")}: ${issue.message}`);
}

/** A fresh platform secret: 32 random bytes, base64url (43 characters, 256 bits). */
export const newPlatformSecret = () => randomBytes(32).toString("base64url");

/** What the admin shows of a store's program: on/off, and when the platform secret was generated (never the secret). */
export type ProgramStatus = { exists: false } | { exists: true; enabled: boolean; platformSecretGeneratedMs: number | null; policyVersion: string };

/** Create the set-up part of the loyalty service. */
export function loyaltyProgramSetup(deps: {
  db: Db;
  repo: LoyaltyRepo;
  program: Pick<LoyaltyProgram, "programRow" | "editLegalPolicies" | "validateLegalPolicies"> & { requireStore(storeId: string): Promise<void> };
}) {
  const { db, repo, program } = deps;

  const tierExists = async (storeId: string, id: string) => (await repo.vipTiers(storeId)).some((t) => t.vip_tier_id === id);

  return {
    /** The program's state for the admin. @throws 404 unknown store. */
    async programStatus(storeId: string): Promise<ProgramStatus> {
      await program.requireStore(storeId);
      const p = await repo.getProgram(storeId);
      return p ? { exists: true, enabled: p.enabled === 1, platformSecretGeneratedMs: p.platform_secret_ms, policyVersion: p.policy_version } : { exists: false };
    },

    /**
     * Turn the program on. A store without one gets it now: the legal policies (`legalPoliciesForm`;
     * the sentence HTML sanitised, or made from the template), version = today's UTC date, no rules
     * or tiers yet, and a new platform secret, returned here once (the admin shows it once).
     * A program that was turned off is turned on again as it was (its secret unchanged, `platformSecret` null).
     * @throws 400 invalid legal policies (first field named), 404 unknown store.
     */
    async turnOnProgram(storeId: string, legal: LegalPoliciesForm | undefined, nowMs = Date.now()): Promise<{ created: boolean; platformSecret: string | null }> {
      await program.requireStore(storeId);
      // Exactly-once: SERIALIZABLE (retried on conflict), so two first turn-ons (any nodes) create one program and one secret.
      return transaction(
        db,
        async () => {
          if (await repo.getProgram(storeId)) {
            await repo.setProgramEnabled(storeId, true);
            return { created: false, platformSecret: null };
          }
          if (!legal) throw badRequest("legalPolicies: the legal policies are required to turn the program on");
          const l = parse(legalPoliciesForm, legal);
          const columns = program.validateLegalPolicies({
            ...l,
            policySentenceHtml: l.policySentenceHtml?.trim() || policyHtmlFromTemplate(l.policySentenceTemplate, l.termsAndConditionsUrl, l.privacyPolicyUrl),
            version: new Date(nowMs).toISOString().slice(0, 10),
          });
          const secret = newPlatformSecret();
          await repo.upsertProgram({ store_id: storeId, platform_secret: secret, ...columns });
          await repo.setPlatformSecret(storeId, secret, nowMs);
          return { created: true, platformSecret: secret };
        },
        { isolation: "serializable" },
      );
    },

    /** Turn the program off: the storefront loyalty API answers 404 until it is on again. @throws 404 no program. */
    async turnOffProgram(storeId: string): Promise<void> {
      await program.programRow(storeId);
      await transaction(db, () => repo.setProgramEnabled(storeId, false));
    },

    /**
     * Generate a new platform secret (the old one stops verifying shopper tokens at once). Stored in
     * clear, as HS256 verification needs it. @returns the secret, to be shown once. @throws 404 no program.
     */
    async rotatePlatformSecret(storeId: string, nowMs = Date.now()): Promise<string> {
      await program.programRow(storeId);
      const secret = newPlatformSecret();
      await transaction(db, () => repo.setPlatformSecret(storeId, secret, nowMs));
      return secret;
    },

    /** Add an earning rule (last in order). One rule per type. @returns its ID. @throws 400, 404 no program, 409 type taken. */
    async addEarningRule(storeId: string, input: EarningRuleInput): Promise<string> {
      await program.programRow(storeId);
      const r = parse(earningRuleInput, input);
      return transaction(
        db,
        async () => {
          if ((await repo.earningRules(storeId)).some((e) => e.type === r.type)) throw conflict(`The program already has a ${r.type} earning rule: edit that one`, "earning_rule_type_taken");
          const id = randomUUID();
          await repo.insertEarningRule({
            earning_rule_id: id,
            store_id: storeId,
            type: r.type,
            name: r.name,
            points: r.points,
            points_per_currency_unit: r.type === "points-per-spend" ? r.pointsPerCurrencyUnit! : null,
            enabled: r.enabled ? 1 : 0,
            minimum_vip_tier_id: null,
            position: await repo.nextPosition(storeId, "earning"),
          });
          return id;
        },
        { isolation: "serializable" },
      ); // exactly-once per type: SERIALIZABLE, retried on conflict
    },

    /** Edit an earning rule's name, points, points per currency unit (points-per-spend) and enabled. @throws 400, 404. */
    async editEarningRule(storeId: string, earningRuleId: string, input: EarningRuleEdit): Promise<void> {
      const r = parse(earningRuleEdit, input);
      await transaction(db, async () => {
        const rule = (await repo.earningRules(storeId)).find((e) => e.earning_rule_id === earningRuleId);
        if (!rule) throw notFound("No earning rule with this ID", "earning_rule_not_found");
        if (rule.type === "points-per-spend" && r.pointsPerCurrencyUnit === undefined) throw badRequest("pointsPerCurrencyUnit: Points per currency unit is required for a points-per-spend rule");
        await repo.editEarningRule(storeId, earningRuleId, {
          name: r.name,
          points: r.points,
          pointsPerCurrencyUnit: rule.type === "points-per-spend" ? r.pointsPerCurrencyUnit! : null,
          enabled: r.enabled,
        });
      });
    },

    /** Remove an earning rule (points already earned stay). @throws 404. */
    async removeEarningRule(storeId: string, earningRuleId: string): Promise<void> {
      await transaction(db, async () => {
        if (!(await repo.deleteEarningRule(storeId, earningRuleId))) throw notFound("No earning rule with this ID", "earning_rule_not_found");
      });
    },

    /** Add a redemption rule (last in order). @returns its ID. @throws 400, 404 no program. */
    async addRedemptionRule(storeId: string, input: RedemptionRuleInput): Promise<string> {
      await program.programRow(storeId);
      const r = parse(redemptionRuleInput, input);
      return transaction(db, async () => {
        const id = randomUUID();
        await repo.insertRedemptionRule({
          redemption_rule_id: id,
          store_id: storeId,
          type: r.type,
          name: r.name,
          points_cost: r.pointsCost,
          reward_description: r.rewardDescription,
          reward_value: r.type === "free-shipping" ? 0 : r.rewardValue,
          enabled: r.enabled ? 1 : 0,
          minimum_vip_tier_id: null,
          position: await repo.nextPosition(storeId, "redemption"),
        });
        return id;
      });
    },

    /** Edit every field of a redemption rule but its type (`type` in the input must equal the rule's). @throws 400, 404. */
    async editRedemptionRule(storeId: string, redemptionRuleId: string, input: Omit<RedemptionRuleInput, "type">): Promise<void> {
      await transaction(db, async () => {
        const rule = await repo.getRedemptionRule(storeId, redemptionRuleId);
        if (!rule) throw notFound("No redemption rule with this ID", "redemption_rule_not_found");
        const r = parse(redemptionRuleInput, { ...input, type: rule.type });
        await repo.editRedemptionRule(storeId, redemptionRuleId, {
          name: r.name,
          pointsCost: r.pointsCost,
          rewardDescription: r.rewardDescription,
          rewardValue: r.type === "free-shipping" ? 0 : r.rewardValue,
          enabled: r.enabled,
        });
      });
    },

    /** Remove a redemption rule (coupons already issued stay valid in the ledger). @throws 404. */
    async removeRedemptionRule(storeId: string, redemptionRuleId: string): Promise<void> {
      await transaction(db, async () => {
        if (!(await repo.deleteRedemptionRule(storeId, redemptionRuleId))) throw notFound("No redemption rule with this ID", "redemption_rule_not_found");
      });
    },

    /** Add a VIP tier; every enrolled customer's tier is recalculated. @returns its ID. @throws 400, 404 no program, 409 threshold taken. */
    async addVipTier(storeId: string, input: VipTierInput): Promise<string> {
      await program.programRow(storeId);
      const t = parse(vipTierInput, input);
      return transaction(db, async () => {
        if ((await repo.vipTiers(storeId)).some((x) => x.points_threshold === t.pointsThreshold)) {
          throw conflict(`Another VIP tier already starts at ${t.pointsThreshold} points`, "vip_tier_threshold_taken");
        }
        const id = randomUUID();
        await repo.insertVipTier({
          vip_tier_id: id,
          store_id: storeId,
          name: t.name,
          points_threshold: t.pointsThreshold,
          points_multiplier: t.pointsMultiplier,
          perks_json: t.perks.length ? JSON.stringify(t.perks) : null,
        });
        for (const c of await repo.enrolledCustomerIds(storeId)) await recalculateTier(repo, storeId, c);
        return id;
      });
    },

    /** Edit a VIP tier (name, threshold, multiplier, perks); tiers recalculated. @throws 400, 404, 409 threshold taken. */
    async editVipTier(storeId: string, vipTierId: string, input: VipTierInput): Promise<void> {
      const t = parse(vipTierInput, input);
      await transaction(db, async () => {
        if (!(await tierExists(storeId, vipTierId))) throw notFound("No VIP tier with this ID", "vip_tier_not_found");
        if ((await repo.vipTiers(storeId)).some((x) => x.vip_tier_id !== vipTierId && x.points_threshold === t.pointsThreshold)) {
          throw conflict(`Another VIP tier already starts at ${t.pointsThreshold} points`, "vip_tier_threshold_taken");
        }
        await repo.editVipTier(storeId, vipTierId, { name: t.name, pointsThreshold: t.pointsThreshold, pointsMultiplier: t.pointsMultiplier, perks: t.perks });
        for (const c of await repo.enrolledCustomerIds(storeId)) await recalculateTier(repo, storeId, c);
      });
    },

    /** Remove a VIP tier: references to it are cleared and every enrolled customer's tier recalculated. @throws 404. */
    async removeVipTier(storeId: string, vipTierId: string): Promise<void> {
      await transaction(db, async () => {
        if (!(await repo.deleteVipTier(storeId, vipTierId))) throw notFound("No VIP tier with this ID", "vip_tier_not_found");
        for (const c of await repo.enrolledCustomerIds(storeId)) await recalculateTier(repo, storeId, c);
      });
    },
  };
}
export type LoyaltyProgramSetup = ReturnType<typeof loyaltyProgramSetup>;
export type { ProgramRow };
