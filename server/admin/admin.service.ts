/**
 * Merchant admin authentication (issue 7 §1): users with argon2id password hashes, store
 * memberships, cookie sessions stored as SHA-256 hashes with an absolute expiry, a per-session CSRF
 * synchroniser token, and login rate limiting on failures per e-mail + IP, per e-mail and per IP.
 */
import { hash, verify } from "@node-rs/argon2";
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { ApiError, badRequest } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { AdminRepo, MemberStore } from "./admin.repo.ts";

/** Session lifetime: 12 hours from sign-in (absolute; sign in again after). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Login rate-limit window and limits (failed attempts within the window). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_LIMITS = { emailIp: 5, email: 20, ip: 50 } as const;
/** Shortest accepted password. */
export const MIN_PASSWORD_LENGTH = 8;

export type AdminSession = { userId: string; email: string; csrfToken: string; expiresMs: number; stores: MemberStore[] };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Normalise an e-mail for lookup (trimmed, lower-case). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Compare two strings in constant time (for tokens). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
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
      for (const s of input.storeIds) if (!stores.get(s)) throw badRequest(`store: no store with ID ${s}`);
      if (admin.userByEmail(email)) throw badRequest(`email: a user with e-mail ${email} already exists`);
      const passwordHash = await hash(input.password);
      const userId = randomUUID();
      transaction(db, () => {
        admin.insertUser({ userId, email, passwordHash, createdMs: now() });
        for (const s of input.storeIds) admin.addMembership(userId, s, now());
      });
      return { userId, email };
    },

    /** Give an existing user access to a store. @throws ApiError 400 when the user or store is unknown. */
    addMembership(email: string, storeId: string): void {
      const user = admin.userByEmail(normaliseEmail(email));
      if (!user) throw badRequest(`email: no user with e-mail ${email}`);
      if (!stores.get(storeId)) throw badRequest(`store: no store with ID ${storeId}`);
      admin.addMembership(user.userId, storeId, now());
    },

    /** Replace a user's password. @throws ApiError 400 when unknown or too short. */
    async setPassword(email: string, password: string): Promise<void> {
      const user = admin.userByEmail(normaliseEmail(email));
      if (!user) throw badRequest(`email: no user with e-mail ${email}`);
      if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
      admin.setPasswordHash(user.userId, await hash(password));
    },

    userExists: (email: string) => admin.userByEmail(normaliseEmail(email)) !== undefined,

    /**
     * Sign in. `ip` is the client address as known ('' when unknown).
     * @returns the session token for the cookie (shown to nobody else; only its hash is stored).
     * @throws ApiError 429 (`login_rate_limited`) after too many recent failures — checked before the
     * password, so a correct password does not help while limited; 401 (`login_failed`) otherwise.
     */
    async login(emailInput: string, password: string, ip: string): Promise<{ token: string; userId: string }> {
      const email = normaliseEmail(emailInput);
      const t = now();
      // Forget failures (and sessions) past the window first, so the table stays bounded by the limits.
      admin.sweep(t, t - LOGIN_WINDOW_MS);
      const counts = admin.failureCounts(email, ip, t - LOGIN_WINDOW_MS);
      if (counts.emailIp >= LOGIN_LIMITS.emailIp || counts.email >= LOGIN_LIMITS.email || counts.ip >= LOGIN_LIMITS.ip) {
        throw new ApiError(429, `Too many failed sign-ins. Wait ${LOGIN_WINDOW_MS / 60_000} minutes and try again.`, "login_rate_limited");
      }
      const user = admin.userByEmail(email);
      dummyHash ??= hash(randomBytes(16).toString("hex"));
      const ok = await verify(user?.passwordHash ?? (await dummyHash), password).catch(() => false);
      if (!user || !ok) {
        admin.recordFailure(email, ip, t);
        throw new ApiError(401, "E-mail or password is wrong.", "login_failed");
      }
      const token = randomBytes(32).toString("base64url");
      transaction(db, () => {
        admin.clearFailures(email, ip);
        admin.insertSession({ sessionHash: sha256(token), userId: user.userId, csrfToken: randomBytes(24).toString("base64url"), createdMs: t, expiresMs: t + SESSION_TTL_MS });
      });
      return { token, userId: user.userId };
    },

    /** The live session of a cookie token with the user's stores, or undefined (unknown, expired). */
    session(token: string | undefined): AdminSession | undefined {
      if (!token) return undefined;
      const row = admin.session(sha256(token), now());
      if (!row) return undefined;
      return { userId: row.user_id, email: row.email, csrfToken: row.csrf_token, expiresMs: row.expires_ms, stores: admin.storesOf(row.user_id) };
    },

    /** Whether the user belongs to the store. */
    isMember: (userId: string, storeId: string) => admin.isMember(userId, storeId),

    /** End the session of a cookie token (no-op when unknown). */
    logout(token: string | undefined): void {
      if (token) admin.deleteSession(sha256(token));
    },
  };
}
export type AdminService = ReturnType<typeof adminService>;
