/**
 * Merchant users, store memberships, admin sessions and sign-in throttle counters: all their SQL
 * (migrations 050 and 070). Prepared statements only; sessions are looked up by the SHA-256 hash of the
 * cookie token.
 */
import type { Db } from "../db/database.ts";
import type { Role } from "./roles.ts";

export type MerchantUser = { userId: string; email: string; createdMs: number };
export type SessionRow = { session_hash: string; user_id: string; csrf_token: string; created_ms: number; expires_ms: number; email: string };
/** A store the user belongs to, with the user's role there (docs/admin.md "Who may do what"). */
export type MemberStore = { storeId: string; name: string; role: Role };
/** A sign-in throttle counter: attempts not (yet) proven right, and when the latest was counted (ms). */
export type ThrottleCounter = { failures: number; lastMs: number };

/**
 * Whether `error` is a UNIQUE violation (better-sqlite3's code `SQLITE_CONSTRAINT_UNIQUE`; the PostgreSQL
 * driver gives SQLSTATE 23505 the same code). Which constraint it was is for the caller to establish by a
 * read after the rollback (e.g. "does a user with this e-mail exist now?"): the engines word the message differently.
 */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE";

/** Create the admin data module over `db`. */
export function adminRepo(db: Db) {
  const byEmail = db.prepare<[string], { user_id: string; email: string; password_hash: string; created_ms: number }>(
    "SELECT user_id, email, password_hash, created_ms FROM merchant_users WHERE email = ?",
  );
  const session = db.prepare<[string, number], SessionRow>(
    `SELECT s.session_hash, s.user_id, s.csrf_token, s.created_ms, s.expires_ms, u.email
     FROM admin_sessions s JOIN merchant_users u ON u.user_id = s.user_id WHERE s.session_hash = ? AND s.expires_ms > ?`,
  );
  const stores = db.prepare<[string], { store_id: string; name: string; role: Role }>(
    `SELECT s.store_id, s.name, m.role FROM store_memberships m JOIN stores s ON s.store_id = m.store_id WHERE m.user_id = ? ORDER BY s.name, s.store_id`,
  );
  const member = db.prepare<[string, string], { 1: number }>("SELECT 1 FROM store_memberships WHERE user_id = ? AND store_id = ?");
  const counter = db.prepare<[string, string], { failures: number; last_ms: number }>(
    "SELECT failures, last_ms FROM admin_login_failures WHERE ip = ? AND email = ?",
  );

  return {
    /** The user with this (normalised) e-mail, with its password hash, or undefined. */
    userByEmail(email: string) {
      const r = byEmail.get(email);
      return r && { userId: r.user_id, email: r.email, passwordHash: r.password_hash, createdMs: r.created_ms };
    },
    /** Insert a user. @throws on a duplicate e-mail (UNIQUE). */
    insertUser(u: { userId: string; email: string; passwordHash: string; createdMs: number }): void {
      db.prepare("INSERT INTO merchant_users (user_id, email, password_hash, created_ms) VALUES (?, ?, ?, ?)").run(u.userId, u.email, u.passwordHash, u.createdMs);
    },
    setPasswordHash(userId: string, passwordHash: string): void {
      db.prepare("UPDATE merchant_users SET password_hash = ? WHERE user_id = ?").run(passwordHash, userId);
    },
    /** Add a membership (no-op when present). */
    addMembership(userId: string, storeId: string, createdMs: number): void {
      db.prepare("INSERT INTO store_memberships (user_id, store_id, created_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").run(userId, storeId, createdMs);
    },
    /** Stores the user belongs to, by name, with the user's role in each. */
    storesOf(userId: string): MemberStore[] {
      return stores.all(userId).map((r) => ({ storeId: r.store_id, name: r.name, role: r.role }));
    },
    isMember(userId: string, storeId: string): boolean {
      return member.get(userId, storeId) !== undefined;
    },
    insertSession(s: { sessionHash: string; userId: string; csrfToken: string; createdMs: number; expiresMs: number }): void {
      db.prepare("INSERT INTO admin_sessions (session_hash, user_id, csrf_token, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)").run(
        s.sessionHash, s.userId, s.csrfToken, s.createdMs, s.expiresMs,
      );
    },
    /** The unexpired session with this token hash (and its user's e-mail), or undefined. */
    session(sessionHash: string, nowMs: number): SessionRow | undefined {
      return session.get(sessionHash, nowMs);
    },
    deleteSession(sessionHash: string): void {
      db.prepare("DELETE FROM admin_sessions WHERE session_hash = ?").run(sessionHash);
    },
    /** End every session of a user but the one with hash `keepSessionHash` (when given). @returns how many ended. */
    deleteSessionsOfUser(userId: string, keepSessionHash?: string): number {
      // '' matches no session (hashes are 64 hex digits): then every session of the user ends.
      return db.prepare("DELETE FROM admin_sessions WHERE user_id = ? AND session_hash <> ?").run(userId, keepSessionHash ?? "").changes;
    },
    /** Remove expired sessions and throttle counters whose latest attempt is at or before `countersBeforeMs`. */
    sweep(nowMs: number, countersBeforeMs: number): void {
      db.prepare("DELETE FROM admin_sessions WHERE expires_ms <= ?").run(nowMs);
      db.prepare("DELETE FROM admin_login_failures WHERE last_ms <= ?").run(countersBeforeMs);
    },
    /** The throttle counter of an address + e-mail (`email` '' = the whole address), or undefined. */
    throttleCounter(ip: string, email: string): ThrottleCounter | undefined {
      const r = counter.get(ip, email);
      return r && { failures: r.failures, lastMs: r.last_ms };
    },
    /** Count one attempt on a counter (created at 1) and stamp it `nowMs`. */
    countAttempt(ip: string, email: string, nowMs: number): void {
      db.prepare(
        `INSERT INTO admin_login_failures (ip, email, failures, last_ms) VALUES (?, ?, 1, ?)
         ON CONFLICT (ip, email) DO UPDATE SET failures = admin_login_failures.failures + 1, last_ms = excluded.last_ms`,
      ).run(ip, email, nowMs);
    },
    /** Take one counted attempt back (it proved right); never below 0. */
    uncountAttempt(ip: string, email: string): void {
      db.prepare("UPDATE admin_login_failures SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END WHERE ip = ? AND email = ?").run(ip, email);
    },
    /** Forget a counter. */
    clearCounter(ip: string, email: string): void {
      db.prepare("DELETE FROM admin_login_failures WHERE ip = ? AND email = ?").run(ip, email);
    },
  };
}
export type AdminRepo = ReturnType<typeof adminRepo>;
