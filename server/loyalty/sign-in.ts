/**
 * Shopper sign-in and enrolment (docs/loyalty.md, Enrolment flow; docs/loyalty.md, Endpoints): login exchanges a
 * storefront platform token (verified by the store's platform adapter, tokens.ts) for a customer token,
 * and the first login creates the loyalty customer as `pending`; requests then authenticate with that
 * token; activation turns `pending` into `enrolled` with sign-up points and the initial VIP tier in one
 * transaction.
 */
import { randomUUID } from "node:crypto";
import type { CustomerActivationBody } from "../contract/loyalty.ts";
import type { LoginResponse, LoyaltyCustomer } from "../contract/loyalty.responses.ts";
import { ApiError, badRequest } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { appendEarning, conflict, forbidden, recalculateTier } from "./ledger.ts";
import type { CustomerRow, LoyaltyRepo, ProgramRow } from "./loyalty.repo.ts";
import { toCustomer } from "./shapes.ts";
import { bearerToken, hs256PlatformAdapter, type CustomerTokens, type PlatformAdapter } from "./tokens.ts";

/**
 * Create the sign-in part of the loyalty service. `requireProgram` answers 404 for a store without a
 * program; `awardReviewEarnings` catches up review earnings at login (ledger.ts).
 */
export function loyaltySignIn(deps: {
  db: Db;
  repo: LoyaltyRepo;
  tokens: CustomerTokens;
  requireProgram: (storeId: string) => Promise<ProgramRow>;
  awardReviewEarnings: (storeId: string, loyaltyCustomerId?: string) => Promise<number>;
}) {
  const { db, repo, tokens, requireProgram, awardReviewEarnings } = deps;

  async function adapterFor(storeId: string): Promise<PlatformAdapter> {
    const program = await requireProgram(storeId);
    // Only the embedded adapter exists today; other platforms register here by `platform_adapter`.
    return hs256PlatformAdapter(program.platform_secret);
  }

  const signIn = {
    /**
     * POST /loyalty/login: verify the platform token, find or create (`pending`) the customer, catch up
     * review earnings, issue the customer token. @throws 401 (bad/expired/foreign/alg-none token), 404.
     */
    async login(storeId: string, customerAccessToken: string): Promise<LoginResponse> {
      const identity = await (await adapterFor(storeId)).verify(customerAccessToken);
      const customerId = await transaction(db, async () => {
        // Exactly-once: the unique (store, platform customer ID) with ON CONFLICT DO NOTHING creates one customer.
        await repo.insertCustomer({ loyaltyCustomerId: randomUUID(), storeId, platformCustomerId: identity.platformCustomerId, email: identity.email });
        const c = (await repo.getCustomerByPlatformId(storeId, identity.platformCustomerId))!;
        if (identity.email && identity.email !== c.email) await repo.updateEmail(storeId, c.loyalty_customer_id, identity.email);
        return c.loyalty_customer_id;
      });
      await awardReviewEarnings(storeId, customerId);
      const customer = (await repo.getCustomer(storeId, customerId))!;
      return { customerToken: await tokens.issue(storeId, customerId), loyaltyCustomer: toCustomer(customer, await repo.vipTiers(storeId)) };
    },

    /**
     * The customer of an `Authorization: Bearer` header, or null when no header was sent.
     * @throws 401 when the header is malformed, the token invalid/expired/of another store, or the customer gone.
     */
    async authenticate(storeId: string, authorization: string | null): Promise<CustomerRow | null> {
      await requireProgram(storeId);
      const token = bearerToken(authorization);
      if (token === null) return null;
      const id = await tokens.verify(storeId, token);
      const c = await repo.getCustomer(storeId, id);
      if (!c) throw new ApiError(401, "The customer token is not valid: no such loyalty customer at this store", "invalid_customer_token");
      return c;
    },

    /** Like authenticate, but the header is required. @throws 401 when missing. */
    async requireCustomer(storeId: string, authorization: string | null): Promise<CustomerRow> {
      const c = await signIn.authenticate(storeId, authorization);
      if (!c) throw new ApiError(401, "This endpoint needs the customer token: send Authorization: Bearer <customerToken> from POST /loyalty/login", "customer_token_required");
      return c;
    },

    /**
     * POST /loyalty/customer_activation (docs/loyalty.md, Enrolment flow; docs/loyalty.md, Endpoints).
     * @param partnerId the `service-partner-id` header, or null. @throws 400 partner mismatch, 403 blocked, 409 stale version.
     */
    async activate(storeId: string, customerId: string, body: CustomerActivationBody, partnerId: string | null): Promise<{ loyaltyCustomer: LoyaltyCustomer }> {
      if (partnerId !== null && partnerId !== body.enrollmentChannel) {
        throw badRequest("The service-partner-id header must equal enrollmentChannel when it is sent", "partner_mismatch");
      }
      return transaction(db, async () => {
        // Exactly-once: row lock on the customer (concurrent activations on any node run one after another), the
        // conditional pending → enrolled update, and the unique sign-up award key.
        const c = (await repo.lockCustomer(storeId, customerId))!;
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        if (c.status === "enrolled") return { loyaltyCustomer: toCustomer(c, await repo.vipTiers(storeId)) }; // nothing awarded twice
        const program = await requireProgram(storeId);
        if (body.legalPoliciesVersionAccepted !== program.policy_version) {
          throw conflict(`legalPoliciesVersionAccepted is not the current version of the legal policies (${program.policy_version}): show the current terms again`, "stale_legal_policies_version");
        }
        if (!(await repo.enrol(storeId, customerId, body.enrollmentChannel, body.legalPoliciesVersionAccepted, null))) {
          return { loyaltyCustomer: toCustomer((await repo.getCustomer(storeId, customerId))!, await repo.vipTiers(storeId)) };
        }
        const signUp = (await repo.earningRules(storeId)).find((r) => r.type === "sign-up" && r.enabled === 1);
        if (signUp && !(await repo.hasAward(storeId, customerId, "sign-up"))) {
          await appendEarning(repo, storeId, customerId, signUp.points, signUp.name, { earningRuleId: signUp.earning_rule_id, awardKey: "sign-up" });
        }
        await recalculateTier(repo, storeId, customerId); // the initial VIP tier, also when no sign-up points are given
        return { loyaltyCustomer: toCustomer((await repo.getCustomer(storeId, customerId))!, await repo.vipTiers(storeId)) };
      });
    },
  };
  return signIn;
}
export type LoyaltySignIn = ReturnType<typeof loyaltySignIn>;
