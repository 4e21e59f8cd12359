/**
 * Loyalty program and settings (docs/loyalty.md, Setting up the program; docs/loyalty.md, Legal policies; issue 7 item 5): the program of a store
 * (platform secret, legal policies with sanitised HTML and their version), its earning rules,
 * redemption rules and VIP tiers, as set up (demo seeder, tests) and edited by the merchant.
 */
import { randomUUID } from "node:crypto";
import { legalPoliciesInput, type LegalPoliciesInput } from "../contract/loyalty.ts";
import type { EarningRule, LegalPolicies, RedemptionRule } from "../contract/loyalty.responses.ts";
import { badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { conflict, recalculateTier } from "./ledger.ts";
import type { LoyaltyRepo, ProgramRow } from "./loyalty.repo.ts";
import { sanitizePolicyHtml } from "./policy-html.ts";

/** Program set-up (demo seeder, tests, admin). Rules and tiers are added, never replaced. */
export type ProgramSetup = {
  /** HS256 secret shared with the storefront platform (default adapter). */
  platformSecret: string;
  legalPolicies: LegalPoliciesInput;
  vipTiers?: { name: string; pointsThreshold: number; pointsMultiplier: number; perks?: string[] }[];
  earningRules?: { type: EarningRule["type"]; name: string; points: number; pointsPerCurrencyUnit?: number; enabled?: boolean; minimumVipTierName?: string }[];
  redemptionRules?: { type: RedemptionRule["type"]; name: string; pointsCost: number; rewardDescription: string; rewardValue: number; enabled?: boolean; minimumVipTierName?: string }[];
};

/** The legal policy fields a merchant edits; the version is set by `editLegalPolicies`. */
export type LegalPoliciesEdit = Omit<LegalPoliciesInput, "version" | "merchantPolicies">;

/**
 * The version after an edit of the legal policies made at `nowMs`: the UTC date `YYYY-MM-DD`, or
 * `YYYY-MM-DD.N` (N = 2, 3 ...) when the current version is already of that date.
 */
export function nextPolicyVersion(current: string, nowMs: number): string {
  const day = new Date(nowMs).toISOString().slice(0, 10);
  if (current === day) return `${day}.2`;
  const m = current.startsWith(`${day}.`) ? /^\d+$/.exec(current.slice(day.length + 1)) : null;
  return m ? `${day}.${Number(m[0]) + 1}` : day;
}

/** Create the program-and-settings part of the loyalty service. */
export function loyaltyProgram(deps: { db: Db; repo: LoyaltyRepo; stores: StoresRepo }) {
  const { db, repo, stores } = deps;

  /** @throws ApiError 404 for an unknown store. */
  async function requireStore(storeId: string): Promise<void> {
    if (!(await stores.get(storeId))) throw notFound("No store with this ID", "store_not_found");
  }

  /** The store's program row, on or off (admin). @throws ApiError 404 for an unknown store or one without a program. */
  async function programRow(storeId: string): Promise<ProgramRow> {
    await requireStore(storeId);
    const program = await repo.getProgram(storeId);
    if (!program) throw notFound("This store has no loyalty program", "loyalty_program_not_found");
    return program;
  }

  /**
   * The store's program row when the program is on (storefront API, ledger). @throws ApiError 404 for an
   * unknown store, one without a program, or one whose program the merchant turned off.
   */
  async function requireProgram(storeId: string): Promise<ProgramRow> {
    const program = await programRow(storeId);
    if (program.enabled !== 1) throw notFound("This store's loyalty program is turned off", "loyalty_program_not_found");
    return program;
  }

  function policiesOfRow(p: ProgramRow): LegalPolicies {
    return {
      acceptTermsAndJoinProgramButtonText: p.button_text,
      policySentence: { html: p.policy_html, template: p.policy_template },
      privacyPolicyUrl: p.privacy_policy_url,
      termsAndConditionsUrl: p.terms_url,
      version: p.policy_version,
      ...(p.merchant_policies_json ? { merchantPolicies: JSON.parse(p.merchant_policies_json) } : {}),
    };
  }

  const legalPoliciesOf = async (storeId: string): Promise<LegalPolicies> => policiesOfRow(await requireProgram(storeId));

  const settings = {
    requireProgram,
    programRow,
    requireStore,

    /** The legal policies whether the program is on or off (admin). @throws 404 without a program. */
    adminLegalPolicies: async (storeId: string): Promise<LegalPolicies> => policiesOfRow(await programRow(storeId)),

    /**
     * Create or update a store's program: platform secret, legal policies (HTML sanitised), and append
     * the given VIP tiers and rules. @throws ApiError 400 for invalid legal policies.
     */
    async setupProgram(storeId: string, setup: ProgramSetup): Promise<void> {
      await transaction(db, async () => {
        const legal = settings.validateLegalPolicies(setup.legalPolicies);
        await repo.upsertProgram({ store_id: storeId, platform_secret: setup.platformSecret, ...legal });
        const tierIds = new Map((await repo.vipTiers(storeId)).map((t) => [t.name, t.vip_tier_id]));
        for (const t of setup.vipTiers ?? []) {
          const id = randomUUID();
          await repo.insertVipTier({
            vip_tier_id: id,
            store_id: storeId,
            name: t.name,
            points_threshold: t.pointsThreshold,
            points_multiplier: t.pointsMultiplier,
            perks_json: t.perks ? JSON.stringify(t.perks) : null,
          });
          tierIds.set(t.name, id);
        }
        const tierOf = (name?: string) => (name ? (tierIds.get(name) ?? null) : null);
        for (const [i, r] of (setup.earningRules ?? []).entries()) {
          await repo.insertEarningRule({
            earning_rule_id: randomUUID(),
            store_id: storeId,
            type: r.type,
            name: r.name,
            points: r.points,
            points_per_currency_unit: r.pointsPerCurrencyUnit ?? null,
            enabled: r.enabled === false ? 0 : 1,
            minimum_vip_tier_id: tierOf(r.minimumVipTierName),
            position: i,
          });
        }
        for (const [i, r] of (setup.redemptionRules ?? []).entries()) {
          await repo.insertRedemptionRule({
            redemption_rule_id: randomUUID(),
            store_id: storeId,
            type: r.type,
            name: r.name,
            points_cost: r.pointsCost,
            reward_description: r.rewardDescription,
            reward_value: r.rewardValue,
            enabled: r.enabled === false ? 0 : 1,
            minimum_vip_tier_id: tierOf(r.minimumVipTierName),
            position: i,
          });
        }
      });
    },

    /** Validate legal policies and sanitise `policySentenceHtml`. @returns the program columns. @throws 400. */
    validateLegalPolicies(input: LegalPoliciesInput) {
      const parsed = legalPoliciesInput.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw badRequest(`${issue.path.join(".") || "legalPolicies"}: ${issue.message}`);
      }
      const l = parsed.data;
      return {
        button_text: l.acceptTermsAndJoinProgramButtonText,
        policy_html: sanitizePolicyHtml(l.policySentenceHtml),
        policy_template: l.policySentenceTemplate,
        privacy_policy_url: l.privacyPolicyUrl,
        terms_url: l.termsAndConditionsUrl,
        policy_version: l.version,
        merchant_policies_json: l.merchantPolicies ? JSON.stringify(l.merchantPolicies) : null,
      };
    },

    /** Merchant update of the legal policies; `policySentenceHtml` is sanitised before it is stored. @throws 400, 404. */
    async updateLegalPolicies(storeId: string, input: LegalPoliciesInput): Promise<LegalPolicies> {
      await programRow(storeId);
      const legal = settings.validateLegalPolicies(input);
      await transaction(db, async () => {
        // The secret is read in the transaction that writes it back, with the program row locked (FOR UPDATE on
        // PostgreSQL): a secret rotated meanwhile (another node) is kept.
        await repo.lockProgram(storeId);
        const program = await programRow(storeId);
        await repo.upsertProgram({ store_id: storeId, platform_secret: program.platform_secret, platform_adapter: program.platform_adapter, ...legal });
      });
      return settings.adminLegalPolicies(storeId);
    },

    /** The store's platform secret (the demo storefront signs its shoppers' tokens with it). @throws 404. */
    async platformSecret(storeId: string): Promise<string> {
      return (await programRow(storeId)).platform_secret;
    },

    /** GET /loyalty/legal_policies. @throws 404 for an unknown store or one without a program. */
    legalPolicies: legalPoliciesOf,

    /**
     * Merchant edit of an earning rule: `points` (integer ≥ 0), `pointsPerCurrencyUnit` (points per currency
     * unit ≥ 0, points-per-spend rules only; ignored for others) and `enabled`. @throws 400 bad values, 404 not this store's rule.
     */
    async updateEarningRule(storeId: string, earningRuleId: string, edit: { points: number; pointsPerCurrencyUnit?: number; enabled: boolean }): Promise<void> {
      if (!Number.isInteger(edit.points) || edit.points < 0 || edit.points > 1_000_000) throw badRequest("points must be a whole number from 0 to 1000000");
      await transaction(db, async () => {
        const rule = (await repo.earningRules(storeId)).find((r) => r.earning_rule_id === earningRuleId);
        if (!rule) throw notFound("No earning rule with this ID", "earning_rule_not_found");
        let perUnit = rule.points_per_currency_unit;
        if (rule.type === "points-per-spend") {
          const v = edit.pointsPerCurrencyUnit;
          if (v === undefined || !Number.isFinite(v) || v < 0 || v > 10_000) throw badRequest("pointsPerCurrencyUnit must be a number from 0 to 10000");
          perUnit = v;
        }
        await repo.updateEarningRule(storeId, earningRuleId, { points: edit.points, pointsPerCurrencyUnit: perUnit, enabled: edit.enabled });
      });
    },

    /** Merchant edit of a redemption rule: `pointsCost` (integer ≥ 1) and `enabled`. @throws 400, 404 not this store's rule. */
    async updateRedemptionRule(storeId: string, redemptionRuleId: string, edit: { pointsCost: number; enabled: boolean }): Promise<void> {
      if (!Number.isInteger(edit.pointsCost) || edit.pointsCost < 1 || edit.pointsCost > 10_000_000) throw badRequest("pointsCost must be a whole number from 1 to 10000000");
      await transaction(db, async () => {
        if (!(await repo.updateRedemptionRule(storeId, redemptionRuleId, edit))) throw notFound("No redemption rule with this ID", "redemption_rule_not_found");
      });
    },

    /**
     * Merchant edit of a VIP tier: `pointsThreshold` (lifetime points, integer ≥ 0, unique in the store) and
     * `pointsMultiplier` (> 0, at most 10); every enrolled customer's tier is recalculated.
     * @throws 400 bad values, 404 not this store's tier, 409 another tier has this threshold.
     */
    async updateVipTier(storeId: string, vipTierId: string, edit: { pointsThreshold: number; pointsMultiplier: number }): Promise<void> {
      if (!Number.isInteger(edit.pointsThreshold) || edit.pointsThreshold < 0 || edit.pointsThreshold > 100_000_000)
        throw badRequest("pointsThreshold must be a whole number of points from 0 to 100000000");
      if (!Number.isFinite(edit.pointsMultiplier) || edit.pointsMultiplier <= 0 || edit.pointsMultiplier > 10) throw badRequest("pointsMultiplier must be a number greater than 0 and at most 10");
      await transaction(db, async () => {
        if ((await repo.vipTiers(storeId)).some((t) => t.vip_tier_id !== vipTierId && t.points_threshold === edit.pointsThreshold)) {
          throw conflict(`Another VIP tier already starts at ${edit.pointsThreshold} points`, "vip_tier_threshold_taken");
        }
        if (!(await repo.updateVipTier(storeId, vipTierId, edit))) throw notFound("No VIP tier with this ID", "vip_tier_not_found");
        for (const id of await repo.enrolledCustomerIds(storeId)) await recalculateTier(repo, storeId, id);
      });
    },

    /**
     * Merchant edit of the legal policies: the sentence HTML is sanitised (sanitizePolicyHtml) and, when
     * anything changed, the version is bumped (`nextPolicyVersion`), so shoppers must accept the new terms
     * (activation with the old version answers 409). @returns the stored policies. @throws 400, 404.
     */
    editLegalPolicies(storeId: string, edit: LegalPoliciesEdit, nowMs = Date.now()): Promise<LegalPolicies> {
      // One transaction from reading the current version to writing the next, with the program row locked (exactly-once:
      // row lock on the program): two edits (on any nodes) never get the same version.
      return transaction(db, async () => {
        await repo.lockProgram(storeId);
        const current = await settings.adminLegalPolicies(storeId);
        const next = settings.validateLegalPolicies({ ...edit, version: current.version, merchantPolicies: current.merchantPolicies });
        const unchanged =
          next.button_text === current.acceptTermsAndJoinProgramButtonText &&
          next.policy_html === current.policySentence.html &&
          next.policy_template === current.policySentence.template &&
          next.privacy_policy_url === current.privacyPolicyUrl &&
          next.terms_url === current.termsAndConditionsUrl;
        if (unchanged) return current;
        return settings.updateLegalPolicies(storeId, { ...edit, version: nextPolicyVersion(current.version, nowMs), merchantPolicies: current.merchantPolicies });
      });
    },
  };
  return settings;
}
export type LoyaltyProgram = ReturnType<typeof loyaltyProgram>;
