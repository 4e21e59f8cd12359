/**
 * A store's team (issue #21 item 2): members with roles (owner / member), removal, and invitations by
 * e-mail. Only owners manage the team; a store always keeps at least one owner. Removing a member ends
 * their access at once (every admin request reads the memberships afresh).
 *
 * An invitation is a link `${publicOrigin}/admin/invite/{token}` mailed to the invitee (server/mail):
 * the token is 256 random bits, stored as its SHA-256 hash, valid for INVITE_TTL_MS, single-use, and
 * replaced (the older link revoked) when the same address is invited again. Accepting it needs the
 * invitee's password for an existing account, or a new password for a new account; the membership, the
 * use of the link and the new session are one transaction.
 */
import { hash } from "@node-rs/argon2";
import { randomUUID } from "node:crypto";
import { ApiError } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { renderMail } from "../mail/render.ts";
import type { MailService } from "../mail/mail.service.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { FieldError, inviteSchema, parseFields, passwordField } from "./account-forms.ts";
import { accountTokenHash, isAccountToken, newAccountToken } from "./account-tokens.ts";
import type { AccountsRepo, Invite, TeamMember } from "./accounts.repo.ts";
import { isUniqueViolation, type AdminRepo } from "./admin.repo.ts";
import type { AdminService } from "./admin.service.ts";
import { requireOwner, type Role } from "./roles.ts";
import { consumePoint, windowLimiters } from "./window-limiter.ts";

/** How long an invitation link works: 7 days. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;
/** Invitations a store may send per hour (the instance's mail server is not a bulk sender). */
export const DEFAULT_INVITE_LIMIT = { max: 20, windowMs: 60 * 60_000 };

/** What an invitation link leads to: an open invitation (with whether its e-mail has an account), or why not. */
export type InviteLookup = { state: "open"; invite: Invite; storeName: string; hasAccount: boolean } | { state: "invalid" | "used" | "expired" | "revoked" };

/** Create the team service. `mail` is the outgoing mail queue (server/mail/mail.service.ts). */
export function teamService(deps: { db: Db; admin: AdminRepo; adminService: AdminService; accounts: AccountsRepo; stores: StoresRepo; mail: Pick<MailService, "enqueue">; now?: () => number }) {
  const { db, admin, adminService, accounts, stores, mail } = deps;
  const now = deps.now ?? Date.now;
  const windowLimiter = windowLimiters(db);
  let limiter = windowLimiter("invite", DEFAULT_INVITE_LIMIT);

  // Read afresh from the memberships on every call (docs/admin.md "Who may do what").
  const requireTeamOwner = async (storeId: string, userId: string): Promise<void> => requireOwner(await accounts.roleOf(userId, storeId), "team");

  return {
    /** Replace the per-store invitation limit (tests, configuration). */
    configure(options: { perStore?: { max: number; windowMs: number } }): void {
      if (options.perStore) limiter = windowLimiter("invite", options.perStore);
    },
    /** The user's role in the store, or undefined when not a member. */
    roleOf: (userId: string, storeId: string): Promise<Role | undefined> => accounts.roleOf(userId, storeId),
    /** The store's members (owners first) and its open invitations (newest first). */
    async team(storeId: string): Promise<{ members: TeamMember[]; invites: Invite[] }> {
      return { members: await accounts.members(storeId), invites: await accounts.pendingInvites(storeId, now()) };
    },

    /**
     * Invite `form.email` (role `form.role`, default member) to the store, by an owner; the mail is
     * enqueued in the same transaction as the invitation.
     * @returns the invitation's ID and the link (for the tests' and the operator's eyes: it is also mailed).
     * @throws ApiError 403 (not an owner), 429 (too many invitations this hour); FieldError 400 (bad
     *   e-mail or role, already a member).
     */
    async invite(input: { storeId: string; byUserId: string; form: Record<string, unknown>; publicOrigin: string }): Promise<{ inviteId: string; url: string; email: string }> {
      const { storeId, byUserId, publicOrigin } = input;
      await requireTeamOwner(storeId, byUserId);
      const parsed = parseFields(inviteSchema, input.form);
      if (parsed.fieldErrors) throw new FieldError(parsed.fieldErrors);
      const { email, role } = parsed.data;
      if (await accounts.isMemberByEmail(email, storeId)) throw new FieldError({ email: `${email} is already a member of this store.` });
      const wait = await consumePoint(limiter, storeId);
      if (wait) {
        const error = new ApiError(429, `This store has sent many invitations in the last hour. Try again in ${Math.ceil(wait / 60)} minutes.`, "invite_rate_limited");
        throw Object.assign(error, { retryAfterS: wait });
      }
      const store = (await stores.get(storeId))!;
      const inviter = await accounts.userEmail(byUserId);
      const token = newAccountToken();
      const inviteId = randomUUID();
      const url = `${publicOrigin}/admin/invite/${token}`;
      const t = now();
      const { html, text } = renderMail({
        storeName: store.name,
        preheader: `You are invited to the team of ${store.name} on Chorus.`,
        heading: `Join ${store.name} on Chorus`,
        paragraphs: [
          `${inviter ?? "An owner"} invited you to the team of ${store.name} as ${role === "owner" ? "an owner" : "a member"}: you will see and manage its reviews, questions, surveys and loyalty program in the Chorus admin.`,
          "The link works once and for 7 days. If you did not expect this invitation, ignore this e-mail.",
        ],
        action: { label: "Accept the invitation", url },
      });
      await transaction(db, async () => {
        await accounts.revokeInvitesFor(storeId, email, t);
        await accounts.insertInvite({ inviteId, storeId, email, role, tokenHash: accountTokenHash(token), invitedBy: byUserId, createdMs: t, expiresMs: t + INVITE_TTL_MS });
        await mail.enqueue({ storeId, kind: "invite", to: email, subject: `You are invited to ${store.name} on Chorus`, html, text, dedupeKey: `invite:${inviteId}` });
      });
      return { inviteId, url, email };
    },

    /** Revoke an open invitation of the store, by an owner. @throws ApiError 403 (not an owner), 404 (no such open invitation). */
    async revokeInvite(storeId: string, byUserId: string, inviteId: string): Promise<void> {
      await requireTeamOwner(storeId, byUserId);
      if (!(await accounts.revokeInvite(storeId, inviteId, now()))) throw new ApiError(404, "That invitation was already used, revoked or replaced.", "not_found");
    },

    /**
     * Remove a member from the store, by an owner (an owner may remove themselves while another owner
     * remains). Their access ends with their next request.
     * @throws ApiError 403 (not an owner), 404 (not a member), 409 (the last owner).
     */
    async removeMember(storeId: string, byUserId: string, userId: string): Promise<void> {
      await transaction(db, async () => {
        // Exactly-once "last owner" check: row locks on the store's owner memberships (two owners removing each other
        // at once on two nodes: the second waits, then counts one owner and is refused).
        await accounts.lockOwners(storeId);
        await requireTeamOwner(storeId, byUserId);
        const role = await accounts.roleOf(userId, storeId);
        if (!role) throw new ApiError(404, "That person is not a member of this store.", "not_found");
        if (role === "owner" && (await accounts.ownerCount(storeId)) <= 1) throw new ApiError(409, "A store needs at least one owner: invite another owner before removing this one.", "last_owner");
        await accounts.removeMember(userId, storeId);
      });
    },

    /** What the invitation link with `token` leads to (any string: a malformed token is `invalid`). */
    async lookup(token: unknown): Promise<InviteLookup> {
      if (!isAccountToken(token)) return { state: "invalid" };
      const invite = await accounts.inviteByHash(accountTokenHash(token));
      if (!invite) return { state: "invalid" };
      if (invite.usedMs !== null) return { state: "used" };
      if (invite.revokedMs !== null) return { state: "revoked" };
      if (invite.expiresMs <= now()) return { state: "expired" };
      const store = await stores.get(invite.storeId);
      if (!store) return { state: "invalid" };
      return { state: "open", invite, storeName: store.name, hasAccount: (await admin.userByEmail(invite.email)) !== undefined };
    },

    /**
     * Accept an invitation. For an e-mail with an account: `sessionUserId` of that same user (already
     * signed in), or its `password` (a sign-in, throttled as the sign-in form is, from `ip`). For a new
     * e-mail: `newPassword` (and `confirm`, which must match) creates the account.
     * @returns the store ID and a new session token for the cookie.
     * @throws ApiError 410 (`invite_closed`: used, revoked, expired or unknown link), 401/429 (sign-in),
     *   FieldError 400 (password too short, confirmation differs).
     */
    async accept(input: { token: unknown; ip: string; sessionUserId?: string; password?: string; newPassword?: string; confirm?: string }): Promise<{ storeId: string; sessionToken: string }> {
      const closed = () => new ApiError(410, "This invitation link is no longer valid: it was used, revoked or has expired. Ask an owner of the store for a new one.", "invite_closed");
      const found = await this.lookup(input.token);
      if (found.state !== "open") throw closed();
      const { invite } = found;
      const existing = await admin.userByEmail(invite.email);
      let userId: string;
      let passwordHash: string | undefined;
      if (existing) {
        if (input.sessionUserId !== existing.userId) {
          // A sign-in as the invited user (throttled, the same answers as the sign-in form).
          const { token } = await adminService.login(invite.email, input.password ?? "", input.ip);
          await adminService.logout(token);
        }
        userId = existing.userId;
      } else {
        const password = passwordField.safeParse(input.newPassword ?? "");
        if (!password.success) throw new FieldError({ newPassword: password.error.issues[0].message });
        if (input.confirm !== input.newPassword) throw new FieldError({ confirm: "The two passwords differ." });
        passwordHash = await hash(password.data);
        userId = randomUUID();
      }
      try {
        return await transaction(db, async () => {
          const t = now();
          // Exactly-once: the conditional update uses the link (single-use on every node).
          if (!(await accounts.useInvite(invite.inviteId, t))) throw closed();
          if (passwordHash) await admin.insertUser({ userId, email: invite.email, passwordHash, createdMs: t });
          await accounts.addMember(userId, invite.storeId, invite.role, t);
          return { storeId: invite.storeId, sessionToken: await adminService.openSession(userId) };
        });
      } catch (error) {
        // The account was created meanwhile (another link, the CLI): nothing of this attempt is kept; the link stays open.
        if (isUniqueViolation(error) && passwordHash && (await admin.userByEmail(invite.email))) {
          throw new ApiError(409, "An account with this e-mail was just created. Reload the page and sign in to accept.", "conflict");
        }
        throw error;
      }
    },
  };
}
export type TeamService = ReturnType<typeof teamService>;
