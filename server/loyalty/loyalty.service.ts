/**
 * Loyalty program rules (interface.md §2.5, §3 rules 1–4, §4.3 flow steps 1–5, §5; decisions.md §4).
 *
 * - Login exchanges a storefront platform token (verified by the store's platform adapter) for a
 *   customer token; the first login creates the loyalty customer as `pending`.
 * - Activation: `pending` → `enrolled`, sign-up points and the initial VIP tier in one transaction.
 * - Points change only by appending ledger transactions (earning, redemption, adjustment); the
 *   customer's balance is the sum of their transactions (triggers of migration 040 keep and check it).
 * - Earning multiplies by the customer's VIP tier multiplier (sign-up points excepted); the tier is
 *   recalculated after each earning from lifetime earned points (never below the minimum VIP tier).
 *
 * All writes run in `transaction(db, ...)` (IMMEDIATE), so concurrent requests serialise and the
 * "already enrolled" and "enough points" checks see committed state.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  legalPoliciesInput, type CustomerActivationBody, type EarningRule, type EarningRulesResponse, type LegalPolicies, type LegalPoliciesInput,
  type LoginResponse, type LoyaltyCustomer, type LoyaltyTransaction, type OrderEarningBody, type OrderEarningResponse, type RedemptionResponse,
  type RedemptionRule, type RedemptionRulesResponse, type TransactionsResponse, type VipTier, type VipTiersResponse,
} from "../contract/loyalty.ts";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { CustomerRow, EarningRuleRow, LoyaltyRepo, RedemptionRuleRow, TransactionRow, VipTierRow } from "./loyalty.repo.ts";
import { sanitizePolicyHtml } from "./policy-html.ts";
import { bearerToken, hs256PlatformAdapter, type CustomerTokens, type PlatformAdapter } from "./tokens.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";

export type LoyaltyDeps = { db: Db; repo: LoyaltyRepo; stores: StoresRepo; tokens: CustomerTokens; secret: string };

/** Program set-up (demo seeder, tests, admin). Rules and tiers are added, never replaced. */
export type ProgramSetup = {
  /** HS256 secret shared with the storefront platform (default adapter). */
  platformSecret: string;
  legalPolicies: LegalPoliciesInput;
  vipTiers?: { name: string; pointsThreshold: number; pointsMultiplier: number; perks?: string[] }[];
  earningRules?: { type: EarningRule["type"]; name: string; points: number; pointsPerCurrencyUnit?: number; enabled?: boolean; minimumVipTierName?: string }[];
  redemptionRules?: { type: RedemptionRule["type"]; name: string; pointsCost: number; rewardDescription: string; rewardValue: number; enabled?: boolean; minimumVipTierName?: string }[];
};

/** A loyalty customer as the merchant admin lists them (issue 7 §5). */
export type AdminLoyaltyCustomer = {
  loyaltyCustomerId: string; platformCustomerId: string; email: string | null; status: CustomerRow["status"]; balance: number;
  lifetimePoints: number; vipTierName: string | null; dateEnrolled: string | null; dateCreated: string;
};
/** The program as the merchant admin edits it: every rule and tier, disabled ones included. */
export type AdminLoyaltyProgram = {
  earningRules: EarningRuleRow[]; redemptionRules: RedemptionRuleRow[]; vipTiers: VipTierRow[]; legalPolicies: LegalPolicies;
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

const forbidden = (description: string, code: string) => new ApiError(403, description, code);
const conflict = (description: string, code: string) => new ApiError(409, description, code);

/** A coupon code: `CHORUS-` + 12 characters of Crockford base32 (60 random bits). */
function newCouponCode(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = randomBytes(12);
  let out = "";
  for (const b of bytes) out += alphabet[b & 31];
  return `CHORUS-${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

function toTransaction(r: TransactionRow): LoyaltyTransaction {
  return {
    transactionId: r.transaction_id, type: r.type, points: r.points, balanceAfter: r.balance_after, description: r.description,
    ...(r.earning_rule_id ? { earningRuleId: r.earning_rule_id } : {}),
    ...(r.redemption_rule_id ? { redemptionRuleId: r.redemption_rule_id } : {}),
    dateCreated: iso(r.created_ms),
  };
}

/** Create the loyalty service. */
export function loyaltyService(deps: LoyaltyDeps) {
  const { db, repo, stores, tokens, secret } = deps;

  function requireProgram(storeId: string) {
    if (!stores.get(storeId)) throw notFound("No store with this ID", "store_not_found");
    const program = repo.getProgram(storeId);
    if (!program) throw notFound("This store has no loyalty program", "loyalty_program_not_found");
    return program;
  }

  function adapterFor(storeId: string): PlatformAdapter {
    const program = requireProgram(storeId);
    // Only the embedded adapter exists today; other platforms register here by `platform_adapter`.
    return hs256PlatformAdapter(program.platform_secret);
  }

  const tierById = (tiers: VipTierRow[], id: string | null) => (id ? tiers.find((t) => t.vip_tier_id === id) : undefined);

  /** The tier a customer with `lifetime` earned points belongs to, never below `minimumTierId`. */
  function tierFor(tiers: VipTierRow[], lifetime: number, minimumTierId: string | null): VipTierRow | undefined {
    let tier: VipTierRow | undefined;
    for (const t of tiers) if (t.points_threshold <= lifetime) tier = t; // tiers are sorted by threshold
    const minimum = tierById(tiers, minimumTierId);
    if (minimum && (!tier || minimum.points_threshold > tier.points_threshold)) tier = minimum;
    return tier;
  }

  function toCustomer(c: CustomerRow, tiers = repo.vipTiers(c.store_id)): LoyaltyCustomer {
    const tier = tierById(tiers, c.vip_tier_id);
    const minimum = tierById(tiers, c.minimum_vip_tier_id);
    return {
      loyaltyCustomerId: c.loyalty_customer_id, status: c.status, points: { balance: c.balance },
      ...(tier ? { vipTierName: tier.name } : {}), ...(minimum ? { minimumVipTierName: minimum.name } : {}),
    };
  }

  function toAdminCustomer(c: CustomerRow, tiers: VipTierRow[]): AdminLoyaltyCustomer {
    return {
      loyaltyCustomerId: c.loyalty_customer_id, platformCustomerId: c.platform_customer_id, email: c.email, status: c.status, balance: c.balance,
      lifetimePoints: c.lifetime_points, vipTierName: tierById(tiers, c.vip_tier_id)?.name ?? null,
      dateEnrolled: c.enrolled_ms ? iso(c.enrolled_ms) : null, dateCreated: iso(c.created_ms),
    };
  }

  /** Multiplier of the customer's current tier (1 without a tier: pending customers). */
  function multiplierOf(c: CustomerRow, tiers: VipTierRow[]): number {
    return c.status === "enrolled" ? (tierById(tiers, c.vip_tier_id)?.points_multiplier ?? 1) : 1;
  }

  /** Whether a rule limited to `minimumTierId` is open to the customer. */
  function tierAllows(c: CustomerRow, tiers: VipTierRow[], minimumTierId: string | null): boolean {
    if (!minimumTierId) return true;
    const needed = tierById(tiers, minimumTierId);
    const has = c.status === "enrolled" ? tierById(tiers, c.vip_tier_id) : undefined;
    return !!needed && !!has && has.points_threshold >= needed.points_threshold;
  }

  /**
   * Append an earning inside the caller's transaction and recalculate the VIP tier.
   * @returns the new transaction row.
   */
  function appendEarning(storeId: string, customerId: string, points: number, description: string, extra: { earningRuleId?: string; awardKey?: string; orderId?: string }): TransactionRow {
    const c = repo.getCustomer(storeId, customerId)!;
    const transactionId = randomUUID();
    repo.insertTransaction({
      transactionId, storeId, loyaltyCustomerId: customerId, type: "earning", points, balanceAfter: c.balance + points, description,
      earningRuleId: extra.earningRuleId, awardKey: extra.awardKey, orderId: extra.orderId, createdMs: Date.now(),
    });
    recalculateTier(storeId, customerId);
    return repo.getTransaction(storeId, transactionId)!;
  }

  /** Recalculate an enrolled customer's tier (pending and blocked customers are not placed in tiers). */
  function recalculateTier(storeId: string, customerId: string): void {
    const c = repo.getCustomer(storeId, customerId)!;
    if (c.status !== "enrolled") return;
    const tier = tierFor(repo.vipTiers(storeId), c.lifetime_points, c.minimum_vip_tier_id);
    if ((tier?.vip_tier_id ?? null) !== c.vip_tier_id) repo.setTier(storeId, customerId, tier?.vip_tier_id ?? null);
  }

  function legalPoliciesOf(storeId: string): LegalPolicies {
    const p = requireProgram(storeId);
    return {
      acceptTermsAndJoinProgramButtonText: p.button_text,
      policySentence: { html: p.policy_html, template: p.policy_template },
      privacyPolicyUrl: p.privacy_policy_url,
      termsAndConditionsUrl: p.terms_url,
      version: p.policy_version,
      ...(p.merchant_policies_json ? { merchantPolicies: JSON.parse(p.merchant_policies_json) } : {}),
    };
  }

  const service = {
    /**
     * Create or update a store's program: platform secret, legal policies (HTML sanitised), and append
     * the given VIP tiers and rules. @throws ApiError 400 for invalid legal policies.
     */
    setupProgram(storeId: string, setup: ProgramSetup): void {
      transaction(db, () => {
        const legal = service.validateLegalPolicies(setup.legalPolicies);
        repo.upsertProgram({ store_id: storeId, platform_secret: setup.platformSecret, ...legal });
        const tierIds = new Map(repo.vipTiers(storeId).map((t) => [t.name, t.vip_tier_id]));
        for (const t of setup.vipTiers ?? []) {
          const id = randomUUID();
          repo.insertVipTier({ vip_tier_id: id, store_id: storeId, name: t.name, points_threshold: t.pointsThreshold, points_multiplier: t.pointsMultiplier, perks_json: t.perks ? JSON.stringify(t.perks) : null });
          tierIds.set(t.name, id);
        }
        const tierOf = (name?: string) => (name ? (tierIds.get(name) ?? null) : null);
        (setup.earningRules ?? []).forEach((r, i) =>
          repo.insertEarningRule({
            earning_rule_id: randomUUID(), store_id: storeId, type: r.type, name: r.name, points: r.points, points_per_currency_unit: r.pointsPerCurrencyUnit ?? null,
            enabled: r.enabled === false ? 0 : 1, minimum_vip_tier_id: tierOf(r.minimumVipTierName), position: i,
          }),
        );
        (setup.redemptionRules ?? []).forEach((r, i) =>
          repo.insertRedemptionRule({
            redemption_rule_id: randomUUID(), store_id: storeId, type: r.type, name: r.name, points_cost: r.pointsCost, reward_description: r.rewardDescription,
            reward_value: r.rewardValue, enabled: r.enabled === false ? 0 : 1, minimum_vip_tier_id: tierOf(r.minimumVipTierName), position: i,
          }),
        );
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
        button_text: l.acceptTermsAndJoinProgramButtonText, policy_html: sanitizePolicyHtml(l.policySentenceHtml), policy_template: l.policySentenceTemplate,
        privacy_policy_url: l.privacyPolicyUrl, terms_url: l.termsAndConditionsUrl, policy_version: l.version,
        merchant_policies_json: l.merchantPolicies ? JSON.stringify(l.merchantPolicies) : null,
      };
    },

    /** Merchant update of the legal policies; `policySentenceHtml` is sanitised before it is stored. @throws 400, 404. */
    updateLegalPolicies(storeId: string, input: LegalPoliciesInput): LegalPolicies {
      const program = requireProgram(storeId);
      const legal = service.validateLegalPolicies(input);
      transaction(db, () => repo.upsertProgram({ store_id: storeId, platform_secret: program.platform_secret, platform_adapter: program.platform_adapter, ...legal }));
      return legalPoliciesOf(storeId);
    },

    /** The store's platform secret (the demo storefront signs its shoppers' tokens with it). @throws 404. */
    platformSecret(storeId: string): string {
      return requireProgram(storeId).platform_secret;
    },

    /** GET /loyalty/legal_policies. @throws 404 for an unknown store or one without a program. */
    legalPolicies: legalPoliciesOf,

    /**
     * POST /loyalty/login: verify the platform token, find or create (`pending`) the customer, catch up
     * review earnings, issue the customer token. @throws 401 (bad/expired/foreign/alg-none token), 404.
     */
    async login(storeId: string, customerAccessToken: string): Promise<LoginResponse> {
      const identity = await adapterFor(storeId).verify(customerAccessToken);
      const customerId = transaction(db, () => {
        repo.insertCustomer({ loyaltyCustomerId: randomUUID(), storeId, platformCustomerId: identity.platformCustomerId, email: identity.email });
        const c = repo.getCustomerByPlatformId(storeId, identity.platformCustomerId)!;
        if (identity.email && identity.email !== c.email) repo.updateEmail(storeId, c.loyalty_customer_id, identity.email);
        return c.loyalty_customer_id;
      });
      service.awardReviewEarnings(storeId, customerId);
      const customer = repo.getCustomer(storeId, customerId)!;
      return { customerToken: await tokens.issue(storeId, customerId), loyaltyCustomer: toCustomer(customer) };
    },

    /**
     * The customer of an `Authorization: Bearer` header, or null when no header was sent.
     * @throws 401 when the header is malformed, the token invalid/expired/of another store, or the customer gone.
     */
    async authenticate(storeId: string, authorization: string | null): Promise<CustomerRow | null> {
      requireProgram(storeId);
      const token = bearerToken(authorization);
      if (token === null) return null;
      const id = await tokens.verify(storeId, token);
      const c = repo.getCustomer(storeId, id);
      if (!c) throw new ApiError(401, "The customer token is not valid: no such loyalty customer at this store", "invalid_customer_token");
      return c;
    },

    /** Like authenticate, but the header is required. @throws 401 when missing. */
    async requireCustomer(storeId: string, authorization: string | null): Promise<CustomerRow> {
      const c = await service.authenticate(storeId, authorization);
      if (!c) throw new ApiError(401, "This endpoint needs the customer token: send Authorization: Bearer <customerToken> from POST /loyalty/login", "customer_token_required");
      return c;
    },

    /**
     * POST /loyalty/customer_activation (interface.md §4.3 step 4–5, decisions.md §4).
     * @param partnerId the `service-partner-id` header, or null. @throws 400 partner mismatch, 403 blocked, 409 stale version.
     */
    activate(storeId: string, customerId: string, body: CustomerActivationBody, partnerId: string | null): { loyaltyCustomer: LoyaltyCustomer } {
      if (partnerId !== null && partnerId !== body.enrollmentChannel) {
        throw badRequest("The service-partner-id header must equal enrollmentChannel when it is sent", "partner_mismatch");
      }
      return transaction(db, () => {
        const c = repo.getCustomer(storeId, customerId)!;
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        if (c.status === "enrolled") return { loyaltyCustomer: toCustomer(c) }; // nothing awarded twice
        const program = requireProgram(storeId);
        if (body.legalPoliciesVersionAccepted !== program.policy_version) {
          throw conflict(`legalPoliciesVersionAccepted is not the current version of the legal policies (${program.policy_version}): show the current terms again`, "stale_legal_policies_version");
        }
        if (!repo.enrol(storeId, customerId, body.enrollmentChannel, body.legalPoliciesVersionAccepted, null)) {
          return { loyaltyCustomer: toCustomer(repo.getCustomer(storeId, customerId)!) };
        }
        const signUp = repo.earningRules(storeId).find((r) => r.type === "sign-up" && r.enabled === 1);
        if (signUp && !repo.hasAward(storeId, customerId, "sign-up")) {
          appendEarning(storeId, customerId, signUp.points, signUp.name, { earningRuleId: signUp.earning_rule_id, awardKey: "sign-up" });
        }
        recalculateTier(storeId, customerId); // the initial VIP tier, also when no sign-up points are given
        return { loyaltyCustomer: toCustomer(repo.getCustomer(storeId, customerId)!) };
      });
    },

    /** GET /loyalty/customer (review earnings caught up first). */
    customer(storeId: string, customerId: string): { loyaltyCustomer: LoyaltyCustomer } {
      service.awardReviewEarnings(storeId, customerId);
      return { loyaltyCustomer: toCustomer(repo.getCustomer(storeId, customerId)!) };
    },

    /** GET /loyalty/customer/transactions: newest first, keyset-paged. @throws 400 bad cursor. */
    transactions(storeId: string, customerId: string, query: { limit: number; lastEvaluated?: string }): TransactionsResponse {
      service.awardReviewEarnings(storeId, customerId);
      const context = `loyalty-transactions|${storeId}|${customerId}`;
      const before = query.lastEvaluated ? (decodeCursor(secret, context, query.lastEvaluated, ["number"])[0] as number) : Number.MAX_SAFE_INTEGER;
      const rows = repo.transactionsPage(storeId, customerId, before, query.limit + 1);
      const page = rows.slice(0, query.limit);
      const out: TransactionsResponse = { transactions: page.map(toTransaction) };
      if (rows.length > query.limit) {
        const cursor = encodeCursor(secret, context, [page[page.length - 1].seq]);
        out.nextUrl = `/loyalty/customer/transactions?limit=${query.limit}&lastEvaluated=${encodeURIComponent(cursor)}`;
      }
      return out;
    },

    /** GET /loyalty/earning_rules: general (no customer) or tailored (multiplier applied, isAvailable). */
    earningRules(storeId: string, customer: CustomerRow | null): EarningRulesResponse {
      requireProgram(storeId);
      const tiers = repo.vipTiers(storeId);
      const m = customer ? multiplierOf(customer, tiers) : 1;
      const rules = repo.earningRules(storeId).filter((r) => r.enabled === 1);
      return {
        earningRules: rules.map((r: EarningRuleRow): EarningRule => ({
          earningRuleId: r.earning_rule_id, type: r.type, name: r.name,
          points: r.type === "sign-up" ? r.points : Math.floor(r.points * m),
          ...(r.points_per_currency_unit !== null ? { pointsPerCurrencyUnit: Math.round(r.points_per_currency_unit * m * 1000) / 1000 } : {}),
          ...(customer
            ? { isAvailable: customer.status !== "blocked" && tierAllows(customer, tiers, r.minimum_vip_tier_id) && !(r.type === "sign-up" && customer.status === "enrolled") }
            : {}),
        })),
      };
    },

    /** GET /loyalty/redemption_rules: general, or tailored with isAvailable (enrolled, tier, enough points). */
    redemptionRules(storeId: string, customer: CustomerRow | null): RedemptionRulesResponse {
      requireProgram(storeId);
      const tiers = repo.vipTiers(storeId);
      return {
        redemptionRules: repo.redemptionRules(storeId).filter((r) => r.enabled === 1).map((r: RedemptionRuleRow): RedemptionRule => ({
          redemptionRuleId: r.redemption_rule_id, type: r.type, name: r.name, pointsCost: r.points_cost,
          reward: { type: "coupon", description: r.reward_description, value: r.reward_value },
          ...(customer
            ? { isAvailable: customer.status === "enrolled" && tierAllows(customer, tiers, r.minimum_vip_tier_id) && customer.balance >= r.points_cost }
            : {}),
        })),
      };
    },

    /** GET /loyalty/vip_tiers: general, or tailored with isAvailable = the customer has reached the tier. */
    vipTiers(storeId: string, customer: CustomerRow | null): VipTiersResponse {
      requireProgram(storeId);
      const tiers = repo.vipTiers(storeId);
      const current = customer?.status === "enrolled" ? tierById(tiers, customer.vip_tier_id) : undefined;
      return {
        vipTiers: tiers.map((t): VipTier => ({
          vipTierId: t.vip_tier_id, name: t.name, pointsThreshold: t.points_threshold, pointsMultiplier: t.points_multiplier,
          ...(t.perks_json ? { perks: JSON.parse(t.perks_json) as string[] } : {}),
          ...(customer ? { isAvailable: !!current && current.points_threshold >= t.points_threshold } : {}),
        })),
      };
    },

    /**
     * POST /loyalty/customer/redemptions. @throws 403 not enrolled / rule not open to the tier,
     * 404 unknown rule, 409 insufficient points. @returns the coupon, recorded with the transaction.
     */
    redeem(storeId: string, customerId: string, redemptionRuleId: string): RedemptionResponse {
      return transaction(db, () => {
        const c = repo.getCustomer(storeId, customerId)!;
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        if (c.status !== "enrolled") throw forbidden("Join the loyalty program before redeeming points", "customer_not_enrolled");
        const rule = repo.getRedemptionRule(storeId, redemptionRuleId);
        if (!rule || rule.enabled !== 1) throw notFound("No redemption rule with this redemptionRuleId", "redemption_rule_not_found");
        if (!tierAllows(c, repo.vipTiers(storeId), rule.minimum_vip_tier_id)) throw forbidden("This reward needs a higher VIP tier", "vip_tier_required");
        if (c.balance < rule.points_cost) {
          throw conflict(`Not enough points: this reward costs ${rule.points_cost} points and the balance is ${c.balance}`, "insufficient_points");
        }
        const transactionId = randomUUID();
        const code = newCouponCode();
        repo.insertTransaction({
          transactionId, storeId, loyaltyCustomerId: customerId, type: "redemption", points: -rule.points_cost, balanceAfter: c.balance - rule.points_cost,
          description: `Redeemed: ${rule.name}`, redemptionRuleId: rule.redemption_rule_id, couponCode: code, createdMs: Date.now(),
        });
        return { redemption: { transactionId, reward: { type: "coupon", code, description: rule.reward_description, value: rule.reward_value } } };
      });
    },

    /**
     * POST /enterprise/loyalty/earning_transactions: points for an order, with the tier multiplier,
     * idempotent per (store, orderId). @returns created=false with the first transaction for a repeat.
     * @throws 404 unknown customer, 403 blocked, 409 no enabled points-per-spend rule.
     */
    earnForOrder(storeId: string, body: OrderEarningBody): { created: boolean; body: OrderEarningResponse } {
      requireProgram(storeId);
      return transaction(db, () => {
        const existing = repo.getTransactionByOrder(storeId, body.orderId);
        if (existing) {
          return { created: false, body: { transaction: toTransaction(existing), loyaltyCustomer: toCustomer(repo.getCustomer(storeId, existing.loyalty_customer_id)!) } };
        }
        const c = body.customer.platformCustomerId !== undefined
          ? repo.getCustomerByPlatformId(storeId, body.customer.platformCustomerId)
          : repo.getCustomerByEmail(storeId, body.customer.email!);
        if (!c) throw notFound("No loyalty customer matches customer (they join by signing in to the loyalty program first)", "loyalty_customer_not_found");
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        const rule = repo.earningRules(storeId).find((r) => r.type === "points-per-spend" && r.enabled === 1);
        if (!rule || rule.points_per_currency_unit === null) throw conflict("The program has no enabled points-per-spend earning rule", "no_earning_rule");
        const points = Math.floor(body.amount * rule.points_per_currency_unit * multiplierOf(c, repo.vipTiers(storeId)) + 1e-9);
        const tx = appendEarning(storeId, c.loyalty_customer_id, points, `Order ${body.orderId}`, { earningRuleId: rule.earning_rule_id, orderId: body.orderId });
        return { created: true, body: { transaction: toTransaction(tx), loyaltyCustomer: toCustomer(repo.getCustomer(storeId, c.loyalty_customer_id)!) } };
      });
    },

    /**
     * Idempotent catch-up of review earnings: for each published review whose reviewer e-mail is the
     * customer's (one customer, or every customer of the store), award the `review-with-media` rule when
     * the review has published media (else the `review` rule), times the tier multiplier. At most one
     * award per (customer, review) (unique award key), so repeated calls award nothing twice. Blocked
     * customers earn nothing. Called on login and on customer reads. @returns the number of awards.
     */
    awardReviewEarnings(storeId: string, loyaltyCustomerId?: string): number {
      const ids = loyaltyCustomerId ? [loyaltyCustomerId] : repo.customersWithEmail(storeId);
      let awarded = 0;
      for (const id of ids) {
        const c = repo.getCustomer(storeId, id);
        if (!c || !c.email || c.status === "blocked") continue;
        if (repo.unawardedReviews(storeId, c.email, id).length === 0) continue; // read-only fast path: no write, no cache invalidation
        awarded += transaction(db, () => {
          const rules = repo.earningRules(storeId).filter((r) => r.enabled === 1);
          const review = rules.find((r) => r.type === "review");
          const withMedia = rules.find((r) => r.type === "review-with-media") ?? review;
          let n = 0;
          for (const r of repo.unawardedReviews(storeId, c.email!, id)) {
            const rule = r.media_count > 0 ? withMedia : review;
            if (!rule) continue;
            const fresh = repo.getCustomer(storeId, id)!;
            const points = Math.floor(rule.points * multiplierOf(fresh, repo.vipTiers(storeId)));
            appendEarning(storeId, id, points, r.product_name ? `Review of ${r.product_name}` : "Review", { earningRuleId: rule.earning_rule_id, awardKey: `review:${r.review_id}` });
            n++;
          }
          return n;
        });
      }
      return awarded;
    },

    // ---- merchant admin (issue 7 §5) ----

    /** Every earning rule, redemption rule and VIP tier (disabled included) and the legal policies. @throws 404 without a program. */
    adminProgram(storeId: string): AdminLoyaltyProgram {
      requireProgram(storeId);
      return { earningRules: repo.earningRules(storeId), redemptionRules: repo.redemptionRules(storeId), vipTiers: repo.vipTiers(storeId), legalPolicies: legalPoliciesOf(storeId) };
    },

    /**
     * Merchant edit of an earning rule: `points` (integer ≥ 0), `pointsPerCurrencyUnit` (points per currency
     * unit ≥ 0, points-per-spend rules only; ignored for others) and `enabled`. @throws 400 bad values, 404 not this store's rule.
     */
    updateEarningRule(storeId: string, earningRuleId: string, edit: { points: number; pointsPerCurrencyUnit?: number; enabled: boolean }): void {
      if (!Number.isInteger(edit.points) || edit.points < 0 || edit.points > 1_000_000) throw badRequest("points must be a whole number from 0 to 1000000");
      transaction(db, () => {
        const rule = repo.earningRules(storeId).find((r) => r.earning_rule_id === earningRuleId);
        if (!rule) throw notFound("No earning rule with this ID", "earning_rule_not_found");
        let perUnit = rule.points_per_currency_unit;
        if (rule.type === "points-per-spend") {
          const v = edit.pointsPerCurrencyUnit;
          if (v === undefined || !Number.isFinite(v) || v < 0 || v > 10_000) throw badRequest("pointsPerCurrencyUnit must be a number from 0 to 10000");
          perUnit = v;
        }
        repo.updateEarningRule(storeId, earningRuleId, { points: edit.points, pointsPerCurrencyUnit: perUnit, enabled: edit.enabled });
      });
    },

    /** Merchant edit of a redemption rule: `pointsCost` (integer ≥ 1) and `enabled`. @throws 400, 404 not this store's rule. */
    updateRedemptionRule(storeId: string, redemptionRuleId: string, edit: { pointsCost: number; enabled: boolean }): void {
      if (!Number.isInteger(edit.pointsCost) || edit.pointsCost < 1 || edit.pointsCost > 10_000_000) throw badRequest("pointsCost must be a whole number from 1 to 10000000");
      transaction(db, () => {
        if (!repo.updateRedemptionRule(storeId, redemptionRuleId, edit)) throw notFound("No redemption rule with this ID", "redemption_rule_not_found");
      });
    },

    /**
     * Merchant edit of a VIP tier: `pointsThreshold` (lifetime points, integer ≥ 0, unique in the store) and
     * `pointsMultiplier` (> 0, at most 10); every enrolled customer's tier is recalculated.
     * @throws 400 bad values, 404 not this store's tier, 409 another tier has this threshold.
     */
    updateVipTier(storeId: string, vipTierId: string, edit: { pointsThreshold: number; pointsMultiplier: number }): void {
      if (!Number.isInteger(edit.pointsThreshold) || edit.pointsThreshold < 0 || edit.pointsThreshold > 100_000_000) throw badRequest("pointsThreshold must be a whole number of points from 0 to 100000000");
      if (!Number.isFinite(edit.pointsMultiplier) || edit.pointsMultiplier <= 0 || edit.pointsMultiplier > 10) throw badRequest("pointsMultiplier must be a number greater than 0 and at most 10");
      transaction(db, () => {
        if (repo.vipTiers(storeId).some((t) => t.vip_tier_id !== vipTierId && t.points_threshold === edit.pointsThreshold)) {
          throw conflict(`Another VIP tier already starts at ${edit.pointsThreshold} points`, "vip_tier_threshold_taken");
        }
        if (!repo.updateVipTier(storeId, vipTierId, edit)) throw notFound("No VIP tier with this ID", "vip_tier_not_found");
        for (const id of repo.enrolledCustomerIds(storeId)) recalculateTier(storeId, id);
      });
    },

    /**
     * Merchant edit of the legal policies: the sentence HTML is sanitised (sanitizePolicyHtml) and, when
     * anything changed, the version is bumped (`nextPolicyVersion`), so shoppers must accept the new terms
     * (activation with the old version answers 409). @returns the stored policies. @throws 400, 404.
     */
    editLegalPolicies(storeId: string, edit: LegalPoliciesEdit, nowMs = Date.now()): LegalPolicies {
      const current = legalPoliciesOf(storeId);
      const next = service.validateLegalPolicies({ ...edit, version: current.version, merchantPolicies: current.merchantPolicies });
      const unchanged = next.button_text === current.acceptTermsAndJoinProgramButtonText && next.policy_html === current.policySentence.html
        && next.policy_template === current.policySentence.template && next.privacy_policy_url === current.privacyPolicyUrl && next.terms_url === current.termsAndConditionsUrl;
      if (unchanged) return current;
      return service.updateLegalPolicies(storeId, { ...edit, version: nextPolicyVersion(current.version, nowMs), merchantPolicies: current.merchantPolicies });
    },

    /**
     * A page of the store's loyalty customers, newest first, optionally of one status or matching `search`
     * (part of the e-mail or platform customer ID). `after` is the signed cursor of the previous page.
     * @returns the customers and `next` (cursor) when there are more. @throws 400 for a bad cursor.
     */
    adminCustomers(storeId: string, q: { status?: CustomerRow["status"]; search?: string; after?: string; limit: number }): { customers: AdminLoyaltyCustomer[]; next?: string } {
      const context = `admin-loyalty-customers|${storeId}|${q.status ?? ""}|${q.search ?? ""}`;
      const after = q.after ? (decodeCursor(secret, context, q.after, ["number", "string"]) as [number, string]) : undefined;
      const rows = repo.customersPage(storeId, { status: q.status, search: q.search, after, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const tiers = repo.vipTiers(storeId);
      const customers = page.map((c) => toAdminCustomer(c, tiers));
      const last = page[page.length - 1];
      return rows.length > q.limit ? { customers, next: encodeCursor(secret, context, [last.created_ms, last.loyalty_customer_id]) } : { customers };
    },

    /**
     * One customer for the admin: the row, the newest `limit` transactions, and the ledger check.
     * @throws 404 when the store has no such customer.
     */
    adminCustomer(storeId: string, customerId: string, limit = 100): { customer: AdminLoyaltyCustomer; transactions: LoyaltyTransaction[]; ledger: { ok: boolean; balance: number; sum: number } } {
      const c = repo.getCustomer(storeId, customerId);
      if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
      return {
        customer: toAdminCustomer(c, repo.vipTiers(storeId)),
        transactions: repo.transactionsPage(storeId, customerId, Number.MAX_SAFE_INTEGER, limit).map(toTransaction),
        ledger: service.checkLedger(storeId, customerId),
      };
    },

    /**
     * Merchant block / unblock. A blocked customer earns and redeems nothing and the widget shows the
     * blocked state; unblocking restores `enrolled` when the customer had enrolled before, else `pending`.
     * @throws 404 when the store has no such customer.
     */
    setCustomerBlocked(storeId: string, customerId: string, blocked: boolean): CustomerRow["status"] {
      return transaction(db, () => {
        const c = repo.getCustomer(storeId, customerId);
        if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
        const status = blocked ? "blocked" : c.enrolled_ms !== null ? "enrolled" : "pending";
        if (status !== c.status) repo.setStatus(storeId, customerId, status);
        if (status === "enrolled") recalculateTier(storeId, customerId);
        return status;
      });
    },

    /** A merchant adjustment (signed points). @throws 409 when it would make the balance negative. */
    adjustPoints(storeId: string, customerId: string, points: number, description: string): LoyaltyTransaction {
      return transaction(db, () => {
        const c = repo.getCustomer(storeId, customerId);
        if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
        if (!Number.isInteger(points) || points === 0) throw badRequest("points must be a non-zero integer");
        if (c.balance + points < 0) throw conflict(`Not enough points: the balance is ${c.balance}`, "insufficient_points");
        const transactionId = randomUUID();
        repo.insertTransaction({ transactionId, storeId, loyaltyCustomerId: customerId, type: "adjustment", points, balanceAfter: c.balance + points, description, createdMs: Date.now() });
        if (points > 0) recalculateTier(storeId, customerId);
        return toTransaction(repo.getTransaction(storeId, transactionId)!);
      });
    },

    /** Set a customer's status (merchant action: block, unblock to pending). */
    setStatus(storeId: string, customerId: string, status: "pending" | "blocked"): void {
      transaction(db, () => repo.setStatus(storeId, customerId, status));
    },

    /** Set a customer's minimum VIP tier by name (null clears); the tier is recalculated. */
    setMinimumVipTier(storeId: string, customerId: string, tierName: string | null): void {
      transaction(db, () => {
        const tier = tierName === null ? null : repo.vipTiers(storeId).find((t) => t.name === tierName);
        if (tierName !== null && !tier) throw notFound(`No VIP tier named ${tierName}`);
        repo.setMinimumTier(storeId, customerId, tier?.vip_tier_id ?? null);
        recalculateTier(storeId, customerId);
      });
    },

    /** The customer (by platform customer ID) as the API shows them, or undefined. */
    customerByPlatformId(storeId: string, platformCustomerId: string): (LoyaltyCustomer & { email?: string }) | undefined {
      const c = repo.getCustomerByPlatformId(storeId, platformCustomerId);
      return c && { ...toCustomer(c), ...(c.email ? { email: c.email } : {}) };
    },

    /**
     * The data-layer ledger check: true when the stored balance equals the sum of the customer's
     * transactions and the last `balanceAfter`, and no transaction left a negative balance.
     */
    checkLedger(storeId: string, customerId: string): { ok: boolean; balance: number; sum: number } {
      const r = repo.ledgerCheck(storeId, customerId);
      if (!r) return { ok: true, balance: 0, sum: 0 };
      return { ok: r.balance === r.sum && r.balance === (r.last ?? 0) && r.negative === 0, balance: r.balance, sum: r.sum };
    },
  };
  return service;
}
export type LoyaltyService = ReturnType<typeof loyaltyService>;
