/**
 * Merchant users, store memberships, admin sessions and sign-in throttle counters: all their SQL
 * (migrations 050 and 070). Bound parameters only, every function returns a promise; sessions are looked up by the SHA-256 hash of the
 * cookie token.
 */
import { all, forUpdate, one, run, sql, type Db } from "../db/database.ts";
import type { Role } from "./roles.ts";

export type MerchantUser = { userId: string; email: string; createdMs: number };
export type SessionRow = { session_hash: string; user_id: string; csrf_token: string; created_ms: number; expires_ms: number; email: string };
/** A store the user belongs to, with the user's role there (docs/admin.md "Who may do what"). */
export type MemberStore = { storeId: string; name: string; role: Role };
/** A sign-in throttle counter: attempts not (yet) proven right, and when the latest was counted (ms). */
export type ThrottleCounter = { failures: number; lastMs: number };

/**
 * Whether `error` is a UNIQUE violation (the same code on both engines: server/db/errors.ts). Which constraint it
 * was is for the caller to establish by a read after the rollback (e.g. "does a user with this e-mail exist now?"):
 * the engines word the message differently.
 */
export { isUniqueViolation } from "../db/database.ts";

/** Create the admin data module over `db`. */
export function adminRepo(db: Db) {
  return {
    /** The user with this (normalised) e-mail, with its password hash, or undefined. */
    async userByEmail(email: string) {
      const r = await one<{ user_id: string; email: string; password_hash: string; created_ms: number }>(
        db,
        sql`SELECT user_id, email, password_hash, created_ms FROM merchant_users WHERE email = ${email}`,
      );
      return r && { userId: r.user_id, email: r.email, passwordHash: r.password_hash, createdMs: r.created_ms };
    },
    /** Insert a user. @throws on a duplicate e-mail (UNIQUE). */
    async insertUser(u: { userId: string; email: string; passwordHash: string; createdMs: number }): Promise<void> {
      await run(db, sql`INSERT INTO merchant_users (user_id, email, password_hash, created_ms) VALUES (${u.userId}, ${u.email}, ${u.passwordHash}, ${u.createdMs})`);
    },
    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await run(db, sql`UPDATE merchant_users SET password_hash = ${passwordHash} WHERE user_id = ${userId}`);
    },
    /** Add a membership (no-op when present). */
    async addMembership(userId: string, storeId: string, createdMs: number): Promise<void> {
      await run(db, sql`INSERT INTO store_memberships (user_id, store_id, created_ms) VALUES (${userId}, ${storeId}, ${createdMs}) ON CONFLICT DO NOTHING`);
    },
    /** Stores the user belongs to, by name, with the user's role in each. */
    async storesOf(userId: string): Promise<MemberStore[]> {
      const rows = await all<{ store_id: string; name: string; role: Role }>(
        db,
        sql`SELECT s.store_id, s.name, m.role FROM store_memberships m JOIN stores s ON s.store_id = m.store_id WHERE m.user_id = ${userId} ORDER BY s.name, s.store_id`,
      );
      return rows.map((r) => ({ storeId: r.store_id, name: r.name, role: r.role }));
    },
    async isMember(userId: string, storeId: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS one FROM store_memberships WHERE user_id = ${userId} AND store_id = ${storeId}`)) !== undefined;
    },
    async insertSession(s: { sessionHash: string; userId: string; csrfToken: string; createdMs: number; expiresMs: number }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO admin_sessions (session_hash, user_id, csrf_token, created_ms, expires_ms)
        VALUES (${s.sessionHash}, ${s.userId}, ${s.csrfToken}, ${s.createdMs}, ${s.expiresMs})`,
      );
    },
    /** The unexpired session with this token hash (and its user's e-mail), or undefined. */
    session(sessionHash: string, nowMs: number): Promise<SessionRow | undefined> {
      return one<SessionRow>(
        db,
        sql`SELECT s.session_hash, s.user_id, s.csrf_token, s.created_ms, s.expires_ms, u.email
        FROM admin_sessions s JOIN merchant_users u ON u.user_id = s.user_id WHERE s.session_hash = ${sessionHash} AND s.expires_ms > ${nowMs}`,
      );
    },
    async deleteSession(sessionHash: string): Promise<void> {
      await run(db, sql`DELETE FROM admin_sessions WHERE session_hash = ${sessionHash}`);
    },
    /** End every session of a user but the one with hash `keepSessionHash` (when given). @returns how many ended. */
    async deleteSessionsOfUser(userId: string, keepSessionHash?: string): Promise<number> {
      // '' matches no session (hashes are 64 hex digits): then every session of the user ends.
      return (await run(db, sql`DELETE FROM admin_sessions WHERE user_id = ${userId} AND session_hash <> ${keepSessionHash ?? ""}`)).changes;
    },
    /** Remove expired sessions and throttle counters whose latest attempt is at or before `countersBeforeMs`. */
    async sweep(nowMs: number, countersBeforeMs: number): Promise<void> {
      await run(db, sql`DELETE FROM admin_sessions WHERE expires_ms <= ${nowMs}`);
      await run(db, sql`DELETE FROM admin_login_failures WHERE last_ms <= ${countersBeforeMs}`);
    },
    /** The throttle counter of an address + e-mail (`email` '' = the whole address), or undefined. */
    async throttleCounter(ip: string, email: string): Promise<ThrottleCounter | undefined> {
      const r = await one<{ failures: number; last_ms: number }>(db, sql`SELECT failures, last_ms FROM admin_login_failures WHERE ip = ${ip} AND email = ${email}`);
      return r && { failures: r.failures, lastMs: r.last_ms };
    },
    /**
     * The throttle counter of an address + e-mail, created at 0 failures when missing and locked until the
     * transaction ends (PostgreSQL `FOR UPDATE`; SQLite's write transaction holds the write lock): the check and
     * the count of an attempt are one step on every node. Call inside `transaction(db, …)`.
     */
    async lockThrottleCounter(ip: string, email: string, nowMs: number): Promise<ThrottleCounter> {
      await run(db, sql`INSERT INTO admin_login_failures (ip, email, failures, last_ms) VALUES (${ip}, ${email}, 0, ${nowMs}) ON CONFLICT (ip, email) DO NOTHING`);
      const r = (await one<{ failures: number; last_ms: number }>(db, sql`SELECT failures, last_ms FROM admin_login_failures WHERE ip = ${ip} AND email = ${email}${forUpdate(db)}`))!;
      return { failures: r.failures, lastMs: r.last_ms };
    },
    /** Count one attempt on a counter (created at 1) and stamp it `nowMs`. */
    async countAttempt(ip: string, email: string, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO admin_login_failures (ip, email, failures, last_ms) VALUES (${ip}, ${email}, 1, ${nowMs})
         ON CONFLICT (ip, email) DO UPDATE SET failures = admin_login_failures.failures + 1, last_ms = excluded.last_ms`,
      );
    },
    /** Take one counted attempt back (it proved right); never below 0. */
    async uncountAttempt(ip: string, email: string): Promise<void> {
      await run(db, sql`UPDATE admin_login_failures SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END WHERE ip = ${ip} AND email = ${email}`);
    },
    /** Forget a counter. */
    async clearCounter(ip: string, email: string): Promise<void> {
      await run(db, sql`DELETE FROM admin_login_failures WHERE ip = ${ip} AND email = ${email}`);
    },
  };
}
export type AdminRepo = ReturnType<typeof adminRepo>;
