/**
 * Merchant admin authentication (issue 7 item 1): users with argon2id password hashes, store
 * memberships, cookie sessions stored as SHA-256 hashes with an absolute expiry, a per-session CSRF
 * synchroniser token, and sign-in throttling per client address + e-mail and per client address with
 * progressive back-off (issue 19; OWASP Authentication Cheat Sheet, "Login Throttling").
 */
import { hash, verify } from "@node-rs/argon2";
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { ApiError, badRequest } from "../contract/errors.ts";
import { isUniqueViolation, transaction, type Db } from "../db/database.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { AdminRepo, MemberStore } from "./admin.repo.ts";

/** Session lifetime: 12 hours from sign-in (absolute; sign in again after). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/**
 * Sign-in throttling (OWASP Authentication Cheat Sheet, "Login Throttling" and "Account Lockout": limit
 * per source, not per account, so nobody can lock the owner out; back off progressively).
 * - `free`: failed attempts a counter allows before it locks: per client address + e-mail, and per
 *   client address across all e-mails.
 * - A counter at `free` or more failures is locked for `firstLockMs` after its latest attempt, doubled
 *   for every failure past `free` (1, 2, 4, ... minutes), at most `maxLockMs`.
 * - `forgetMs`: a counter is forgotten this long after its latest attempt.
 * There is deliberately no per-e-mail limit: a correct password from an address with no failures
 * always gets through, however many other addresses failed on that e-mail.
 */
export const LOGIN_THROTTLE = {
  free: { ipEmail: 5, ip: 20 },
  firstLockMs: 60 * 1000,
  maxLockMs: 60 * 60 * 1000,
  forgetMs: 24 * 60 * 60 * 1000,
} as const;
/** Shortest accepted password. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Until when (ms) a throttle counter with `failures` failures, the latest counted at `lastMs`, refuses
 * attempts; 0 when it does not (fewer than `free` failures). Lock = firstLockMs × 2^(failures − free),
 * capped at maxLockMs, from `lastMs`.
 */
export function lockedUntilMs(failures: number, lastMs: number, free: number, throttle: { firstLockMs: number; maxLockMs: number } = LOGIN_THROTTLE): number {
  if (failures < free) return 0;
  return lastMs + Math.min(throttle.firstLockMs * 2 ** Math.min(failures - free, 30), throttle.maxLockMs);
}

/**
 * The address a throttle counter is kept for: an IPv4 address as is (also when written IPv4-mapped,
 * `::ffff:192.0.2.1`), an IPv6 address as its /64 network (`2001:db8:0:1::/64`: one subscriber usually
 * holds a whole /64, so per-address counters on single IPv6 addresses would not limit anyone), anything
 * else (`unknown`, '') trimmed and lower-cased.
 */
export function throttleAddress(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::1.2.3.4) stands for the last two groups: it never reaches the /64 prefix.
  const groups = address.includes("::") ? [...left, ...Array(Math.max(8 - left.length - right.length, 0)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** 429 for a throttled sign-in; `retryAfterS` is for the `Retry-After` header. */
export class LoginThrottledError extends ApiError {
  readonly retryAfterS: number;
  constructor(retryAfterMs: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    super(429, `Too many failed sign-ins from your network. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`, "login_rate_limited");
    this.retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

export type AdminSession = { userId: string; email: string; csrfToken: string; expiresMs: number; stores: MemberStore[] };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Normalise an e-mail for lookup (trimmed, lower-case). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Compare two strings in constant time (for tokens). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a),
    y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random password for generated accounts: 20 base64url characters (120 bits). */
export const generatePassword = () => randomBytes(15).toString("base64url");

/** Create the admin authentication service. */
export function adminService(deps: { db: Db; admin: AdminRepo; stores: StoresRepo; now?: () => number }) {
  const { db, admin, stores } = deps;
  const now = deps.now ?? Date.now;
  // Verified against when the e-mail is unknown, so both paths cost one argon2 verification.
  let dummyHash: Promise<string> | null = null;

  return {
    /**
     * Create a merchant user with access to `storeIds` (each must exist).
     * @throws ApiError 400 for a bad e-mail, a short password, an unknown store or a taken e-mail.
     */
    async createUser(input: { email: string; password: string; storeIds: string[] }): Promise<{ userId: string; email: string }> {
      const email = normaliseEmail(input.email);
      if (!EMAIL.test(email)) throw badRequest("email: must be an e-mail address");
      if (input.password.length < MIN_PASSWORD_LENGTH) throw badRequest(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
      for (const s of input.storeIds) if (!(await stores.get(s))) throw badRequest(`store: no store with ID ${s}`);
      const taken = () => badRequest(`email: a user with e-mail ${email} already exists`);
      if (await admin.userByEmail(email)) throw taken();
      const passwordHash = await hash(input.password);
      const userId = randomUUID();
      try {
        // Exactly-once per e-mail: the unique e-mail of merchant_users (a concurrent sign-up of the same address fails here).
        await transaction(db, async () => {
          await admin.insertUser({ userId, email, passwordHash, createdMs: now() });
          for (const s of input.storeIds) await admin.addMembership(userId, s, now());
        });
      } catch (error) {
        if (isUniqueViolation(error) && (await admin.userByEmail(email))) throw taken();
        throw error;
      }
      return { userId, email };
    },

    /** Give an existing user access to a store. @throws ApiError 400 when the user or store is unknown. */
    async addMembership(email: string, storeId: string): Promise<void> {
      const user = await admin.userByEmail(normaliseEmail(email));
      if (!user) throw badRequest(`email: no user with e-mail ${email}`);
      if (!(await stores.get(storeId))) throw badRequest(`store: no store with ID ${storeId}`);
      await admin.addMembership(user.userId, storeId, now());
    },

    /**
     * Replace a user's password (a change or a reset) and end every session of that user but the one
     * of `keepSessionToken` (the session that made the change, when there is one), in one transaction:
     * whoever held the old password, or a session opened with it, is out (OWASP Session Management
     * Cheat Sheet, "Renew the Session ID After Any Privilege Level Change").
     * @returns how many sessions were ended.
     * @throws ApiError 400 when the user is unknown or the password too short.
     */
    async setPassword(email: string, password: string, options: { keepSessionToken?: string } = {}): Promise<{ sessionsEnded: number }> {
      const user = await admin.userByEmail(normaliseEmail(email));
      if (!user) throw badRequest(`email: no user with e-mail ${email}`);
      if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
      const passwordHash = await hash(password);
      return transaction(db, async () => {
        await admin.setPasswordHash(user.userId, passwordHash);
        const keep = options.keepSessionToken ? sha256(options.keepSessionToken) : undefined;
        return { sessionsEnded: await admin.deleteSessionsOfUser(user.userId, keep) };
      });
    },

    userExists: async (email: string): Promise<boolean> => (await admin.userByEmail(normaliseEmail(email))) !== undefined,

    /**
     * Sign in. `ip` is the client address as known ('' or 'unknown' when not).
     *
     * Throttling (LOGIN_THROTTLE): in one transaction the counters of this address + e-mail and of this
     * address are locked (row locks, created at 0 when missing), checked and, when neither is locked out,
     * both count this attempt — before the password is verified, so concurrent attempts on any nodes cannot
     * all pass the check (at most `free` of them reach argon2). A correct password then clears the address + e-mail counter and takes its
     * count back from the address counter; a wrong one leaves it counted.
     * @returns the session token for the cookie (shown to nobody else; only its hash is stored).
     * @throws LoginThrottledError (ApiError 429, `login_rate_limited`, with `retryAfterS`) while a
     *   counter is locked — a correct password does not help then; ApiError 401 (`login_failed`) for an
     *   unknown e-mail or a wrong password (the same answer and the same argon2 cost).
     */
    async login(emailInput: string, password: string, ip: string): Promise<{ token: string; userId: string }> {
      const email = normaliseEmail(emailInput);
      const address = throttleAddress(ip);
      const t = now();
      // Forget old counters (and expired sessions) first, so the table stays bounded.
      await admin.sweep(t, t - LOGIN_THROTTLE.forgetMs);
      // Exactly-once counting: row locks on both counters (the pair first, then the address: one order everywhere).
      // A refusal throws inside the transaction, so the counters it created at 0 are rolled back.
      await transaction(db, async () => {
        const pair = await admin.lockThrottleCounter(address, email, t);
        const whole = await admin.lockThrottleCounter(address, "", t);
        // The clock is read again once the counters are locked: a concurrent attempt that held them meanwhile
        // stamped them later than `t`, and the wait it asks for is counted from now (never past the lock time).
        const at = Math.max(t, now());
        const until = Math.max(lockedUntilMs(pair.failures, pair.lastMs, LOGIN_THROTTLE.free.ipEmail), lockedUntilMs(whole.failures, whole.lastMs, LOGIN_THROTTLE.free.ip));
        if (until > at) throw new LoginThrottledError(until - at);
        await admin.countAttempt(address, email, at);
        await admin.countAttempt(address, "", at);
      });
      const user = await admin.userByEmail(email);
      dummyHash ??= hash(randomBytes(16).toString("hex"));
      const ok = await verify(user?.passwordHash ?? (await dummyHash), password).catch(() => false);
      if (!user || !ok) throw new ApiError(401, "E-mail or password is wrong.", "login_failed");
      const token = randomBytes(32).toString("base64url");
      await transaction(db, async () => {
        await admin.clearCounter(address, email);
        await admin.uncountAttempt(address, "");
        await admin.insertSession({ sessionHash: sha256(token), userId: user.userId, csrfToken: randomBytes(24).toString("base64url"), createdMs: t, expiresMs: t + SESSION_TTL_MS });
      });
      return { token, userId: user.userId };
    },

    /**
     * Open a new session for a user who proved who they are another way (a new account from sign-up, an
     * accepted invitation, a password reset); joins the caller's transaction when there is one.
     * @returns the session token for the cookie (only its hash is stored).
     */
    async openSession(userId: string): Promise<string> {
      const token = randomBytes(32).toString("base64url");
      const t = now();
      await admin.insertSession({ sessionHash: sha256(token), userId, csrfToken: randomBytes(24).toString("base64url"), createdMs: t, expiresMs: t + SESSION_TTL_MS });
      return token;
    },

    /** The user with this e-mail (normalised), without the password hash, or undefined. */
    async user(email: string): Promise<{ userId: string; email: string } | undefined> {
      const u = await admin.userByEmail(normaliseEmail(email));
      return u && { userId: u.userId, email: u.email };
    },

    /** The live session of a cookie token with the user's stores, or undefined (unknown, expired). */
    async session(token: string | undefined): Promise<AdminSession | undefined> {
      if (!token) return undefined;
      const row = await admin.session(sha256(token), now());
      if (!row) return undefined;
      return { userId: row.user_id, email: row.email, csrfToken: row.csrf_token, expiresMs: row.expires_ms, stores: await admin.storesOf(row.user_id) };
    },

    /** Whether the user belongs to the store. */
    isMember: (userId: string, storeId: string) => admin.isMember(userId, storeId),

    /** End the session of a cookie token (no-op when unknown). */
    async logout(token: string | undefined): Promise<void> {
      if (token) await admin.deleteSession(sha256(token));
    },
  };
}
export type AdminService = ReturnType<typeof adminService>;
