/**
 * The merchant admin's side of loyalty (issue 7 item 5): what it reads (the whole program, customer lists
 * keyset-paged, one customer with the ledger check) and what it does to a customer (block, status,
 * minimum VIP tier). Program edits are in program.ts, point adjustments in ledger.ts.
 */
import type { LegalPolicies, LoyaltyCustomer, LoyaltyTransaction } from "../contract/loyalty.responses.ts";
import { notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import { recalculateTier, type LoyaltyLedger } from "./ledger.ts";
import type { CustomerRow, EarningRuleRow, LoyaltyRepo, RedemptionRuleRow, VipTierRow } from "./loyalty.repo.ts";
import type { LoyaltyProgram } from "./program.ts";
import { toAdminCustomer, toCustomer, toTransaction, type AdminLoyaltyCustomer } from "./shapes.ts";

/** The program as the merchant admin edits it: every rule and tier, disabled ones included. */
export type AdminLoyaltyProgram = {
  earningRules: EarningRuleRow[];
  redemptionRules: RedemptionRuleRow[];
  vipTiers: VipTierRow[];
  legalPolicies: LegalPolicies;
};

/** Create the merchant-admin part of the loyalty service. `secret` signs customer-list cursors. */
export function loyaltyMerchantAdmin(deps: { db: Db; repo: LoyaltyRepo; secret: string; program: LoyaltyProgram; ledger: LoyaltyLedger }) {
  const { db, repo, secret, program, ledger } = deps;

  return {
    /** Whether the store has a loyalty program that is on (set up, and not turned off by the merchant). */
    async hasProgram(storeId: string): Promise<boolean> {
      return (await repo.getProgram(storeId))?.enabled === 1;
    },

    /** Every earning rule, redemption rule and VIP tier (disabled included) and the legal policies, whether the program is on or off. @throws 404 without a program. */
    async adminProgram(storeId: string): Promise<AdminLoyaltyProgram> {
      await program.programRow(storeId);
      return {
        earningRules: await repo.earningRules(storeId),
        redemptionRules: await repo.redemptionRules(storeId),
        vipTiers: await repo.vipTiers(storeId),
        legalPolicies: await program.adminLegalPolicies(storeId),
      };
    },

    /**
     * A page of the store's loyalty customers, newest first, optionally of one status or matching `search`
     * (part of the e-mail or platform customer ID). `after` is the signed cursor of the previous page.
     * @returns the customers and `next` (cursor) when there are more. @throws 400 for a bad cursor.
     */
    async adminCustomers(storeId: string, q: { status?: CustomerRow["status"]; search?: string; after?: string; limit: number }): Promise<{ customers: AdminLoyaltyCustomer[]; next?: string }> {
      const { rows, next } = await keysetPage<CustomerRow, [number, string]>({
        secret,
        context: `admin-loyalty-customers|${storeId}|${q.status ?? ""}|${q.search ?? ""}`,
        cursor: q.after,
        shape: ["number", "string"],
        limit: q.limit,
        fetch: (after, limitPlusOne) => repo.customersPage(storeId, { status: q.status, search: q.search, after, limit: limitPlusOne }),
        keyOf: (c) => [c.created_ms, c.loyalty_customer_id],
      });
      const tiers = await repo.vipTiers(storeId);
      const customers = rows.map((c) => toAdminCustomer(c, tiers));
      return next ? { customers, next } : { customers };
    },

    /**
     * One customer for the admin: the row, the newest `limit` transactions, and the ledger check.
     * @throws 404 when the store has no such customer.
     */
    async adminCustomer(
      storeId: string,
      customerId: string,
      limit = 100,
    ): Promise<{ customer: AdminLoyaltyCustomer; transactions: LoyaltyTransaction[]; ledger: { ok: boolean; balance: number; sum: number } }> {
      const c = await repo.getCustomer(storeId, customerId);
      if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
      return {
        customer: toAdminCustomer(c, await repo.vipTiers(storeId)),
        transactions: (await repo.transactionsPage(storeId, customerId, Number.MAX_SAFE_INTEGER, limit)).map(toTransaction),
        ledger: await ledger.checkLedger(storeId, customerId),
      };
    },

    /**
     * Merchant block / unblock. A blocked customer earns and redeems nothing and the widget shows the
     * blocked state; unblocking restores `enrolled` when the customer had enrolled before, else `pending`.
     * @throws 404 when the store has no such customer.
     */
    setCustomerBlocked(storeId: string, customerId: string, blocked: boolean): Promise<CustomerRow["status"]> {
      return transaction(db, async () => {
        const c = await repo.lockCustomer(storeId, customerId); // row lock on the customer: the status is read and written as one step
        if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
        const status = blocked ? "blocked" : c.enrolled_ms !== null ? "enrolled" : "pending";
        if (status !== c.status) await repo.setStatus(storeId, customerId, status);
        if (status === "enrolled") await recalculateTier(repo, storeId, customerId);
        return status;
      });
    },

    /** Set a customer's status (merchant action: block, unblock to pending). */
    async setStatus(storeId: string, customerId: string, status: "pending" | "blocked"): Promise<void> {
      await transaction(db, () => repo.setStatus(storeId, customerId, status));
    },

    /** Set a customer's minimum VIP tier by name (null clears); the tier is recalculated. */
    async setMinimumVipTier(storeId: string, customerId: string, tierName: string | null): Promise<void> {
      await transaction(db, async () => {
        const tier = tierName === null ? null : (await repo.vipTiers(storeId)).find((t) => t.name === tierName);
        if (tierName !== null && !tier) throw notFound(`No VIP tier named ${tierName}`);
        await repo.lockCustomer(storeId, customerId); // row lock on the customer before the tier is recalculated
        await repo.setMinimumTier(storeId, customerId, tier?.vip_tier_id ?? null);
        await recalculateTier(repo, storeId, customerId);
      });
    },

    /** The customer (by platform customer ID) as the API shows them, or undefined. */
    async customerByPlatformId(storeId: string, platformCustomerId: string): Promise<(LoyaltyCustomer & { email?: string }) | undefined> {
      const c = await repo.getCustomerByPlatformId(storeId, platformCustomerId);
      return c && { ...toCustomer(c, await repo.vipTiers(storeId)), ...(c.email ? { email: c.email } : {}) };
    },
  };
}
export type LoyaltyMerchantAdmin = ReturnType<typeof loyaltyMerchantAdmin>;
