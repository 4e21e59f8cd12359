/**
 * Accounts SQL (migration 074): instance operators, membership roles, the team of a store, team
 * invitations and password resets. Bound parameters only; every function returns a promise; invitation and reset tokens are looked up
 * by their SHA-256 hash (server/admin/account-tokens.ts). Every team query names the store.
 */
import { all, forUpdate, one, run, sql, value, type Db } from "../db/database.ts";
import type { Role } from "./roles.ts";

/** A member of a store's team, with when they joined (ms). */
export type TeamMember = { userId: string; email: string; role: Role; joinedMs: number };
/** A team invitation as the team page and the accept page read it. */
export type Invite = {
  inviteId: string;
  storeId: string;
  email: string;
  role: Role;
  createdMs: number;
  expiresMs: number;
  usedMs: number | null;
  revokedMs: number | null;
};
/** A password reset link's row. */
export type PasswordReset = { userId: string; createdMs: number; expiresMs: number; usedMs: number | null };

type InviteRow = { invite_id: string; store_id: string; email: string; role: Role; created_ms: number; expires_ms: number; used_ms: number | null; revoked_ms: number | null };
const toInvite = (r: InviteRow): Invite => ({
  inviteId: r.invite_id,
  storeId: r.store_id,
  email: r.email,
  role: r.role,
  createdMs: r.created_ms,
  expiresMs: r.expires_ms,
  usedMs: r.used_ms,
  revokedMs: r.revoked_ms,
});

/** Create the accounts data module over `db`. */
export function accountsRepo(db: Db) {
  const changes = async (q: Parameters<typeof run>[1]): Promise<number> => (await run(db, q)).changes;
  return {
    /** Whether the user is an instance operator (false for an unknown user). */
    async isOperator(userId: string): Promise<boolean> {
      return (await value<number>(db, sql`SELECT is_operator FROM merchant_users WHERE user_id = ${userId}`)) === 1;
    },
    /** Make the user an instance operator or not. @returns whether a user was changed. */
    async setOperator(userId: string, operator: boolean): Promise<boolean> {
      return (await changes(sql`UPDATE merchant_users SET is_operator = ${operator ? 1 : 0} WHERE user_id = ${userId}`)) === 1;
    },
    /** The e-mail of a user, or undefined. */
    userEmail(userId: string): Promise<string | undefined> {
      return value<string>(db, sql`SELECT email FROM merchant_users WHERE user_id = ${userId}`);
    },
    /** The user's role in the store, or undefined when not a member. */
    roleOf(userId: string, storeId: string): Promise<Role | undefined> {
      return value<Role>(db, sql`SELECT role FROM store_memberships WHERE user_id = ${userId} AND store_id = ${storeId}`);
    },
    /** Add a membership with a role; an existing membership keeps its role. @returns whether one was added. */
    async addMember(userId: string, storeId: string, role: Role, createdMs: number): Promise<boolean> {
      return (await changes(sql`INSERT INTO store_memberships (user_id, store_id, created_ms, role) VALUES (${userId}, ${storeId}, ${createdMs}, ${role}) ON CONFLICT DO NOTHING`)) === 1;
    },
    /** The store's team: owners first, then by e-mail. */
    async members(storeId: string): Promise<TeamMember[]> {
      const rows = await all<{ user_id: string; email: string; role: Role; created_ms: number }>(
        db,
        sql`SELECT m.user_id, u.email, m.role, m.created_ms
           FROM store_memberships m JOIN merchant_users u ON u.user_id = m.user_id
          WHERE m.store_id = ${storeId} ORDER BY CASE WHEN m.role = 'owner' THEN 0 ELSE 1 END, u.email`,
      );
      return rows.map((r) => ({ userId: r.user_id, email: r.email, role: r.role, joinedMs: r.created_ms }));
    },
    /** How many owners the store has. */
    async ownerCount(storeId: string): Promise<number> {
      return Number(await value<number>(db, sql`SELECT count(*) AS n FROM store_memberships WHERE store_id = ${storeId} AND role = 'owner'`));
    },
    /**
     * Lock the store's owner memberships until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite's write
     * transaction holds the write lock), so "is this the last owner?" checks and the change they allow are one step.
     */
    async lockOwners(storeId: string): Promise<void> {
      await all(db, sql`SELECT user_id FROM store_memberships WHERE store_id = ${storeId} AND role = 'owner'${forUpdate(db)}`);
    },
    /** Remove a membership. @returns whether one was removed. */
    async removeMember(userId: string, storeId: string): Promise<boolean> {
      return (await changes(sql`DELETE FROM store_memberships WHERE user_id = ${userId} AND store_id = ${storeId}`)) === 1;
    },
    /** Whether a user with this (normalised) e-mail belongs to the store. */
    async isMemberByEmail(email: string, storeId: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS one FROM store_memberships m JOIN merchant_users u ON u.user_id = m.user_id WHERE u.email = ${email} AND m.store_id = ${storeId}`)) !== undefined;
    },

    async insertInvite(i: { inviteId: string; storeId: string; email: string; role: Role; tokenHash: string; invitedBy: string; createdMs: number; expiresMs: number }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO admin_invites (invite_id, store_id, email, role, token_hash, invited_by, created_ms, expires_ms)
         VALUES (${i.inviteId}, ${i.storeId}, ${i.email}, ${i.role}, ${i.tokenHash}, ${i.invitedBy}, ${i.createdMs}, ${i.expiresMs})`,
      );
    },
    /** The invitation with this token hash (any state), or undefined. */
    async inviteByHash(tokenHash: string): Promise<Invite | undefined> {
      const r = await one<InviteRow>(db, sql`SELECT * FROM admin_invites WHERE token_hash = ${tokenHash}`);
      return r && toInvite(r);
    },
    /** The store's invitations still open at `nowMs` (not used, revoked or expired), newest first. */
    async pendingInvites(storeId: string, nowMs: number): Promise<Invite[]> {
      const rows = await all<InviteRow>(
        db,
        sql`SELECT * FROM admin_invites WHERE store_id = ${storeId} AND used_ms IS NULL AND revoked_ms IS NULL AND expires_ms > ${nowMs}
        ORDER BY created_ms DESC, invite_id`,
      );
      return rows.map(toInvite);
    },
    /** Revoke one open invitation of the store. @returns whether one was revoked. */
    async revokeInvite(storeId: string, inviteId: string, nowMs: number): Promise<boolean> {
      return (await changes(sql`UPDATE admin_invites SET revoked_ms = ${nowMs} WHERE store_id = ${storeId} AND invite_id = ${inviteId} AND used_ms IS NULL AND revoked_ms IS NULL`)) === 1;
    },
    /** Revoke every open invitation of the store for this e-mail (a newer one replaces them). */
    revokeInvitesFor(storeId: string, email: string, nowMs: number): Promise<number> {
      return changes(sql`UPDATE admin_invites SET revoked_ms = ${nowMs} WHERE store_id = ${storeId} AND email = ${email} AND used_ms IS NULL AND revoked_ms IS NULL`);
    },
    /**
     * Mark the invitation used, only when it is still open at `nowMs` (the single-use check and the use
     * in one conditional statement: exactly-once on every node). @returns whether it was (false: used, revoked or expired meanwhile).
     */
    async useInvite(inviteId: string, nowMs: number): Promise<boolean> {
      return (await changes(sql`UPDATE admin_invites SET used_ms = ${nowMs} WHERE invite_id = ${inviteId} AND used_ms IS NULL AND revoked_ms IS NULL AND expires_ms > ${nowMs}`)) === 1;
    },

    async insertReset(r: { tokenHash: string; userId: string; createdMs: number; expiresMs: number }): Promise<void> {
      await run(db, sql`INSERT INTO admin_password_resets (token_hash, user_id, created_ms, expires_ms) VALUES (${r.tokenHash}, ${r.userId}, ${r.createdMs}, ${r.expiresMs})`);
    },
    /** The reset with this token hash (any state), or undefined. */
    async resetByHash(tokenHash: string): Promise<PasswordReset | undefined> {
      const r = await one<{ user_id: string; created_ms: number; expires_ms: number; used_ms: number | null }>(
        db,
        sql`SELECT user_id, created_ms, expires_ms, used_ms FROM admin_password_resets WHERE token_hash = ${tokenHash}`,
      );
      return r && { userId: r.user_id, createdMs: r.created_ms, expiresMs: r.expires_ms, usedMs: r.used_ms };
    },
    /** Mark a reset used, only when still open at `nowMs` (conditional update: exactly-once). @returns whether it was. */
    async useReset(tokenHash: string, nowMs: number): Promise<boolean> {
      return (await changes(sql`UPDATE admin_password_resets SET used_ms = ${nowMs} WHERE token_hash = ${tokenHash} AND used_ms IS NULL AND expires_ms > ${nowMs}`)) === 1;
    },
    /** Close every other open reset link of the user (a password was just set). */
    async closeResetsOf(userId: string, nowMs: number): Promise<void> {
      await run(db, sql`UPDATE admin_password_resets SET used_ms = ${nowMs} WHERE user_id = ${userId} AND used_ms IS NULL`);
    },
    /** Forget reset links expired before `beforeMs` and invitations expired before it (bounded tables). */
    async sweep(beforeMs: number): Promise<void> {
      await run(db, sql`DELETE FROM admin_password_resets WHERE expires_ms <= ${beforeMs}`);
      await run(db, sql`DELETE FROM admin_invites WHERE expires_ms <= ${beforeMs}`);
    },
  };
}
export type AccountsRepo = ReturnType<typeof accountsRepo>;
