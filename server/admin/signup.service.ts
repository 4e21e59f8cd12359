/**
 * Store sign-up and new stores (issue #21 item 2). Public sign-up (`/admin/signup`) is open only when
 * the instance says so (`SIGNUP=open`, server/config.ts); an instance operator (`merchant_users.is_operator`)
 * can always create stores from the admin, and any signed-in user can while sign-up is open. A new store
 * gets a random UUID and its creator as owner.
 *
 * Sign-ups are limited per client address (`addressKey`: an IPv6 /64 counts as one) with
 * rate-limiter-flexible (server/admin/window-limiter.ts: in memory on SQLite, shared by every node on
 * PostgreSQL): the count is taken before the argon2 hash, atomically, so concurrent requests cannot all
 * pass (at most `max` per window get through).
 * A form with field errors costs no quota; every attempt that reaches the e-mail check does.
 */
import { hash } from "@node-rs/argon2";
import { randomUUID } from "node:crypto";
import { ApiError } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { addressKey } from "../reviews/submission-limits.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { FieldError, newStoreSchema, parseFields, signupSchema, type NewStoreInput } from "./account-forms.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import { isUniqueViolation, type AdminRepo } from "./admin.repo.ts";
import type { AdminService } from "./admin.service.ts";
import { consumePoint, windowLimiters } from "./window-limiter.ts";

/** Default sign-ups (and new stores by non-operators) per client address per hour (`SIGNUPS_PER_IP_PER_HOUR`). */
export const DEFAULT_SIGNUP_LIMIT = { max: 5, windowMs: 60 * 60_000 };

/** 429 for too many sign-ups from one network; `retryAfterS` is for `Retry-After`. */
export class SignupThrottledError extends ApiError {
  readonly retryAfterS: number;
  constructor(retryAfterS: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
    super(429, `Too many stores were created from your network. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`, "signup_rate_limited");
    this.retryAfterS = retryAfterS;
  }
}

/** Create the sign-up service. */
export function signupService(deps: { db: Db; admin: AdminRepo; adminService: AdminService; accounts: AccountsRepo; stores: StoresRepo; now?: () => number }) {
  const { db, admin, adminService, accounts, stores } = deps;
  const now = deps.now ?? Date.now;
  let open = false;
  const windowLimiter = windowLimiters(db);
  let limiter = windowLimiter("signup", DEFAULT_SIGNUP_LIMIT);

  const throttle = async (ip: string) => {
    const wait = await consumePoint(limiter, addressKey(ip));
    if (wait) throw new SignupThrottledError(wait);
  };

  return {
    /** Open or close public sign-up and set its per-address limit (start-up configuration, tests). */
    configure(options: { open?: boolean; perAddress?: { max: number; windowMs: number } }): void {
      if (options.open !== undefined) open = options.open;
      if (options.perAddress) limiter = windowLimiter("signup", options.perAddress);
    },
    /** Whether public sign-up (`/admin/signup`) is open. */
    isOpen: () => open,
    /** Whether the user may create a store from the admin: an operator always, anyone while sign-up is open. */
    canCreateStore: async (userId: string): Promise<boolean> => open || (await accounts.isOperator(userId)),
    /** Whether the user is an instance operator. */
    isOperator: (userId: string) => accounts.isOperator(userId),
    /**
     * Make the user with this e-mail an instance operator (or not). @throws ApiError 400 for an unknown e-mail.
     */
    async setOperator(email: string, operator: boolean): Promise<void> {
      const user = await adminService.user(email);
      if (!user) throw new ApiError(400, `email: no user with e-mail ${email}`, "bad_request");
      await accounts.setOperator(user.userId, operator);
    },

    /**
     * Sign up: a new store (random UUID) and its owner, signed in. `form` holds the raw fields email,
     * password, storeName, platform, shopUrl; `ip` the client address.
     * @returns the new store's ID and the session token for the cookie.
     * @throws ApiError 404 (`signup_closed`) when sign-up is closed; FieldError (400) with a message per
     *   field (bad values, an e-mail that already has an account); SignupThrottledError (429).
     */
    async signUp(form: Record<string, unknown>, ip: string): Promise<{ storeId: string; userId: string; sessionToken: string }> {
      if (!open) throw new ApiError(404, "Sign-up is closed on this Chorus. Ask the person who runs it for an account.", "signup_closed");
      const parsed = parseFields(signupSchema, form);
      if (parsed.fieldErrors) throw new FieldError(parsed.fieldErrors);
      const input = parsed.data;
      await throttle(ip);
      const taken = () => new FieldError({ email: "An account with this e-mail already exists. Sign in, then add a store from the admin." });
      if (await admin.userByEmail(input.email)) throw taken();
      const passwordHash = await hash(input.password);
      const storeId = randomUUID();
      const userId = randomUUID();
      try {
        // Exactly-once per e-mail: the unique e-mail of merchant_users; the store, user, membership and session are one transaction.
        const sessionToken = await transaction(db, async () => {
          const t = now();
          await stores.create({ storeId, name: input.storeName, platform: input.platform, shopUrl: input.shopUrl });
          await admin.insertUser({ userId, email: input.email, passwordHash, createdMs: t });
          await accounts.addMember(userId, storeId, "owner", t);
          return adminService.openSession(userId);
        });
        return { storeId, userId, sessionToken };
      } catch (error) {
        // Two sign-ups with one e-mail at once: the second finds the first's row (UNIQUE) and nothing of it is kept.
        if (isUniqueViolation(error) && (await admin.userByEmail(input.email))) throw taken();
        throw error;
      }
    },

    /**
     * Create a store from the admin for a signed-in user, who becomes its owner. Operators are not
     * limited; others need sign-up open and count against the per-address limit.
     * @throws ApiError 403 when the user may not create stores; FieldError (400); SignupThrottledError (429).
     */
    async createStore(userId: string, form: Record<string, unknown>, ip: string): Promise<{ storeId: string }> {
      const operator = await accounts.isOperator(userId);
      if (!operator && !open) throw new ApiError(403, "Only an operator of this Chorus can create stores while sign-up is closed.", "forbidden");
      const parsed = parseFields(newStoreSchema, form);
      if (parsed.fieldErrors) throw new FieldError(parsed.fieldErrors);
      if (!operator) await throttle(ip);
      return { storeId: await this.insertStore(userId, parsed.data) };
    },

    /** Insert a store with `userId` as owner, in one transaction. @returns the new store ID. */
    async insertStore(userId: string, input: NewStoreInput): Promise<string> {
      const storeId = randomUUID();
      await transaction(db, async () => {
        await stores.create({ storeId, name: input.storeName, platform: input.platform, shopUrl: input.shopUrl });
        await accounts.addMember(userId, storeId, "owner", now());
      });
      return storeId;
    },
  };
}
export type SignupService = ReturnType<typeof signupService>;
