/**
 * Accounts SQL (migration 074): instance operators, membership roles, the team of a store, team
 * invitations and password resets. Prepared statements only; invitation and reset tokens are looked up
 * by their SHA-256 hash (server/admin/account-tokens.ts). Every team query names the store.
 */
import type { Db } from "../db/database.ts";
import type { Role } from "./roles.ts";

/** A member of a store's team, with when they joined (ms). */
export type TeamMember = { userId: string; email: string; role: Role; joinedMs: number };
/** A team invitation as the team page and the accept page read it. */
export type Invite = {
  inviteId: string; storeId: string; email: string; role: Role; createdMs: number; expiresMs: number;
  usedMs: number | null; revokedMs: number | null;
};
/** A password reset link's row. */
export type PasswordReset = { userId: string; createdMs: number; expiresMs: number; usedMs: number | null };

type InviteRow = { invite_id: string; store_id: string; email: string; role: Role; created_ms: number; expires_ms: number; used_ms: number | null; revoked_ms: number | null };
const toInvite = (r: InviteRow): Invite => ({
  inviteId: r.invite_id, storeId: r.store_id, email: r.email, role: r.role, createdMs: r.created_ms, expiresMs: r.expires_ms, usedMs: r.used_ms, revokedMs: r.revoked_ms,
});

/** Create the accounts data module over `db`. */
export function accountsRepo(db: Db) {
  return {
    /** Whether the user is an instance operator (false for an unknown user). */
    isOperator(userId: string): boolean {
      return db.prepare<[string], { is_operator: number }>("SELECT is_operator FROM merchant_users WHERE user_id = ?").get(userId)?.is_operator === 1;
    },
    /** Make the user an instance operator or not. @returns whether a user was changed. */
    setOperator(userId: string, operator: boolean): boolean {
      return db.prepare("UPDATE merchant_users SET is_operator = ? WHERE user_id = ?").run(operator ? 1 : 0, userId).changes === 1;
    },
    /** The e-mail of a user, or undefined. */
    userEmail(userId: string): string | undefined {
      return db.prepare<[string], { email: string }>("SELECT email FROM merchant_users WHERE user_id = ?").get(userId)?.email;
    },
    /** The user's role in the store, or undefined when not a member. */
    roleOf(userId: string, storeId: string): Role | undefined {
      return db.prepare<[string, string], { role: Role }>("SELECT role FROM store_memberships WHERE user_id = ? AND store_id = ?").get(userId, storeId)?.role;
    },
    /** Add a membership with a role; an existing membership keeps its role. @returns whether one was added. */
    addMember(userId: string, storeId: string, role: Role, createdMs: number): boolean {
      return db.prepare("INSERT INTO store_memberships (user_id, store_id, created_ms, role) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING").run(userId, storeId, createdMs, role).changes === 1;
    },
    /** The store's team: owners first, then by e-mail. */
    members(storeId: string): TeamMember[] {
      return db
        .prepare<[string], { user_id: string; email: string; role: Role; created_ms: number }>(
          `SELECT m.user_id, u.email, m.role, m.created_ms FROM store_memberships m JOIN merchant_users u ON u.user_id = m.user_id
           WHERE m.store_id = ? ORDER BY m.role = 'owner' DESC, u.email`,
        )
        .all(storeId)
        .map((r) => ({ userId: r.user_id, email: r.email, role: r.role, joinedMs: r.created_ms }));
    },
    /** How many owners the store has. */
    ownerCount(storeId: string): number {
      return db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM store_memberships WHERE store_id = ? AND role = 'owner'").get(storeId)!.n;
    },
    /** Remove a membership. @returns whether one was removed. */
    removeMember(userId: string, storeId: string): boolean {
      return db.prepare("DELETE FROM store_memberships WHERE user_id = ? AND store_id = ?").run(userId, storeId).changes === 1;
    },
    /** Whether a user with this (normalised) e-mail belongs to the store. */
    isMemberByEmail(email: string, storeId: string): boolean {
      return db.prepare("SELECT 1 FROM store_memberships m JOIN merchant_users u ON u.user_id = m.user_id WHERE u.email = ? AND m.store_id = ?").get(email, storeId) !== undefined;
    },

    insertInvite(i: { inviteId: string; storeId: string; email: string; role: Role; tokenHash: string; invitedBy: string; createdMs: number; expiresMs: number }): void {
      db.prepare(
        `INSERT INTO admin_invites (invite_id, store_id, email, role, token_hash, invited_by, created_ms, expires_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(i.inviteId, i.storeId, i.email, i.role, i.tokenHash, i.invitedBy, i.createdMs, i.expiresMs);
    },
    /** The invitation with this token hash (any state), or undefined. */
    inviteByHash(tokenHash: string): Invite | undefined {
      const r = db.prepare<[string], InviteRow>("SELECT * FROM admin_invites WHERE token_hash = ?").get(tokenHash);
      return r && toInvite(r);
    },
    /** The store's invitations still open at `nowMs` (not used, revoked or expired), newest first. */
    pendingInvites(storeId: string, nowMs: number): Invite[] {
      return db
        .prepare<[string, number], InviteRow>(
          "SELECT * FROM admin_invites WHERE store_id = ? AND used_ms IS NULL AND revoked_ms IS NULL AND expires_ms > ? ORDER BY created_ms DESC, invite_id",
        )
        .all(storeId, nowMs)
        .map(toInvite);
    },
    /** Revoke one open invitation of the store. @returns whether one was revoked. */
    revokeInvite(storeId: string, inviteId: string, nowMs: number): boolean {
      return db.prepare("UPDATE admin_invites SET revoked_ms = ? WHERE store_id = ? AND invite_id = ? AND used_ms IS NULL AND revoked_ms IS NULL").run(nowMs, storeId, inviteId).changes === 1;
    },
    /** Revoke every open invitation of the store for this e-mail (a newer one replaces them). */
    revokeInvitesFor(storeId: string, email: string, nowMs: number): number {
      return db.prepare("UPDATE admin_invites SET revoked_ms = ? WHERE store_id = ? AND email = ? AND used_ms IS NULL AND revoked_ms IS NULL").run(nowMs, storeId, email).changes;
    },
    /**
     * Mark the invitation used, only when it is still open at `nowMs` (the single-use check and the use
     * in one statement). @returns whether it was (false: used, revoked or expired meanwhile).
     */
    useInvite(inviteId: string, nowMs: number): boolean {
      return db.prepare("UPDATE admin_invites SET used_ms = ? WHERE invite_id = ? AND used_ms IS NULL AND revoked_ms IS NULL AND expires_ms > ?").run(nowMs, inviteId, nowMs).changes === 1;
    },

    insertReset(r: { tokenHash: string; userId: string; createdMs: number; expiresMs: number }): void {
      db.prepare("INSERT INTO admin_password_resets (token_hash, user_id, created_ms, expires_ms) VALUES (?, ?, ?, ?)").run(r.tokenHash, r.userId, r.createdMs, r.expiresMs);
    },
    /** The reset with this token hash (any state), or undefined. */
    resetByHash(tokenHash: string): PasswordReset | undefined {
      const r = db.prepare<[string], { user_id: string; created_ms: number; expires_ms: number; used_ms: number | null }>(
        "SELECT user_id, created_ms, expires_ms, used_ms FROM admin_password_resets WHERE token_hash = ?",
      ).get(tokenHash);
      return r && { userId: r.user_id, createdMs: r.created_ms, expiresMs: r.expires_ms, usedMs: r.used_ms };
    },
    /** Mark a reset used, only when still open at `nowMs`. @returns whether it was. */
    useReset(tokenHash: string, nowMs: number): boolean {
      return db.prepare("UPDATE admin_password_resets SET used_ms = ? WHERE token_hash = ? AND used_ms IS NULL AND expires_ms > ?").run(nowMs, tokenHash, nowMs).changes === 1;
    },
    /** Close every other open reset link of the user (a password was just set). */
    closeResetsOf(userId: string, nowMs: number): void {
      db.prepare("UPDATE admin_password_resets SET used_ms = ? WHERE user_id = ? AND used_ms IS NULL").run(nowMs, userId);
    },
    /** Forget reset links expired before `beforeMs` and invitations expired before it (bounded tables). */
    sweep(beforeMs: number): void {
      db.prepare("DELETE FROM admin_password_resets WHERE expires_ms <= ?").run(beforeMs);
      db.prepare("DELETE FROM admin_invites WHERE expires_ms <= ?").run(beforeMs);
    },
  };
}
export type AccountsRepo = ReturnType<typeof accountsRepo>;
