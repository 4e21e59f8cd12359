/**
 * Loyalty program rules (docs/loyalty.md: Endpoints, Statuses and rules, Enrolment flow, Legal policies),
 * composed from their parts into the one `services.loyalty`:
 *
 * - program.ts: the program and its settings (legal policies, rules, tiers), set up and edited;
 * - program-setup.ts: the merchant's set-up (on/off, platform secret, rules and tiers added, edited, removed);
 * - sign-in.ts: login with a platform token, customer-token authentication, activation (with tokens.ts);
 * - ledger.ts: the points ledger (earnings, redemptions, adjustments, the ledger check);
 * - storefront-reads.ts: the customer, their transactions and the rules and tiers as the storefront reads them;
 * - merchant-admin.ts: the admin's reads and customer actions;
 * - tiers.ts and shapes.ts: VIP tier maths and API shapes, pure.
 *
 * All writes run in `transaction(db, ...)` and every read-then-write takes the lock it needs (the customer's row
 * for the ledger and activation, the program's row for policy edits), so the "already enrolled" and "enough points"
 * checks see committed state on every node. Every function that reads or writes returns a promise.
 */
import type { Db } from "../db/database.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { loyaltyLedger } from "./ledger.ts";
import type { LoyaltyRepo } from "./loyalty.repo.ts";
import { loyaltyMerchantAdmin } from "./merchant-admin.ts";
import { loyaltyProgram } from "./program.ts";
import { loyaltyProgramSetup } from "./program-setup.ts";
import { loyaltySignIn } from "./sign-in.ts";
import { loyaltyStorefrontReads } from "./storefront-reads.ts";
import type { CustomerTokens } from "./tokens.ts";

export { nextPolicyVersion, type LegalPoliciesEdit, type ProgramSetup } from "./program.ts";
export type { AdminLoyaltyProgram } from "./merchant-admin.ts";
export type { AdminLoyaltyCustomer } from "./shapes.ts";

export type LoyaltyDeps = { db: Db; repo: LoyaltyRepo; stores: StoresRepo; tokens: CustomerTokens; secret: string };

/** Create the loyalty service: every part over the same connection, repo and secrets. */
export function loyaltyService(deps: LoyaltyDeps) {
  const { db, repo, stores, tokens, secret } = deps;
  const { requireProgram, ...program } = loyaltyProgram({ db, repo, stores });
  const ledger = loyaltyLedger({ db, repo, requireProgram });
  const { awardReviewEarnings } = ledger;
  return {
    ...program,
    ...loyaltySignIn({ db, repo, tokens, requireProgram, awardReviewEarnings }),
    ...loyaltyStorefrontReads({ repo, secret, requireProgram, awardReviewEarnings }),
    ...ledger,
    ...loyaltyMerchantAdmin({ db, repo, secret, program: { requireProgram, ...program }, ledger }),
    ...loyaltyProgramSetup({ db, repo, program }),
  };
}
export type LoyaltyService = ReturnType<typeof loyaltyService>;
