/**
 * Password reset by e-mail (issue #21 item 2; OWASP Forgot Password Cheat Sheet). `/admin/forgot`
 * answers the same, in the same time, whether or not the address has an account ("if an account exists,
 * we sent a link"): the work per request is the same up to the mail row, and the mail is sent later by
 * the mail queue. The link `${publicOrigin}/admin/reset/{token}` carries 256 random bits, stored as their
 * SHA-256 hash, valid for RESET_TTL_MS and once. Setting a new password with it ends every session of
 * the user and closes their other reset links; the user then signs in with it as usual (OWASP: no
 * automatic sign-in after a reset).
 *
 * Limits (rate-limiter-flexible, server/admin/window-limiter.ts: in memory on SQLite, shared by every node on
 * PostgreSQL): per client address (`addressKey`) requests are refused with
 * 429 past `perAddress`; per e-mail, requests past `perEmail` answer the same as ever but send nothing,
 * so nobody can flood an inbox, and the answer still says nothing about the account.
 */
import { hash } from "@node-rs/argon2";
import { createHash } from "node:crypto";
import { ApiError } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { renderMail } from "../mail/render.ts";
import type { MailService } from "../mail/mail.service.ts";
import { addressKey } from "../reviews/submission-limits.ts";
import { emailField, FieldError, passwordField } from "./account-forms.ts";
import { accountTokenHash, isAccountToken, newAccountToken } from "./account-tokens.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { AdminRepo } from "./admin.repo.ts";
import { consumePoint, windowLimiters } from "./window-limiter.ts";

/** How long a reset link works: 1 hour. */
export const RESET_TTL_MS = 60 * 60_000;
/** Default limits: 10 reset requests per client address and 3 mails per e-mail address per hour. */
export const DEFAULT_RESET_LIMITS = { perAddress: { max: 10, windowMs: 60 * 60_000 }, perEmail: { max: 3, windowMs: 60 * 60_000 } };

/** The one answer to every accepted reset request. */
export const RESET_REQUESTED = "If an account exists for that e-mail, we sent it a link to set a new password. The link works once, for one hour.";

/** 429 for too many reset requests from one network. */
export class ResetThrottledError extends ApiError {
  readonly retryAfterS: number;
  constructor(retryAfterS: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
    super(429, `Too many password reset requests from your network. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`, "reset_rate_limited");
    this.retryAfterS = retryAfterS;
  }
}

/** Create the password reset service. `mail` is the outgoing mail queue (server/mail/mail.service.ts). */
export function passwordResetService(deps: { db: Db; admin: AdminRepo; accounts: AccountsRepo; mail: Pick<MailService, "enqueue">; now?: () => number }) {
  const { db, admin, accounts, mail } = deps;
  const now = deps.now ?? Date.now;
  const windowLimiter = windowLimiters(db);
  let perAddress = windowLimiter("reset-address", DEFAULT_RESET_LIMITS.perAddress);
  let perEmail = windowLimiter("reset-email", DEFAULT_RESET_LIMITS.perEmail);

  return {
    /** Replace the limits (configuration, tests). */
    configure(options: { perAddress?: { max: number; windowMs: number }; perEmail?: { max: number; windowMs: number } }): void {
      if (options.perAddress) perAddress = windowLimiter("reset-address", options.perAddress);
      if (options.perEmail) perEmail = windowLimiter("reset-email", options.perEmail);
    },

    /**
     * Ask for a reset link for `emailInput`. When the address has an account (and its per-e-mail limit
     * allows), a link is created and its mail enqueued; otherwise nothing is stored. Either way the
     * answer is RESET_REQUESTED.
     * @throws FieldError 400 for something that is not an e-mail address; ResetThrottledError (429) past
     *   the per-address limit.
     */
    async request(emailInput: unknown, ip: string, publicOrigin: string): Promise<string> {
      const parsed = emailField.safeParse(typeof emailInput === "string" ? emailInput : "");
      if (!parsed.success) throw new FieldError({ email: parsed.error.issues[0].message });
      const email = parsed.data;
      const wait = await consumePoint(perAddress, addressKey(ip));
      if (wait) throw new ResetThrottledError(wait);
      // Keyed by the address's SHA-256: on PostgreSQL the window is a table row, which names no address.
      const emailAllowed = (await consumePoint(perEmail, createHash("sha256").update(email).digest("hex"))) === 0;
      // The same steps for every address: a token and its hash are made whether or not they are kept.
      const token = newAccountToken();
      const tokenHash = accountTokenHash(token);
      const user = await admin.userByEmail(email);
      if (user && emailAllowed) {
        const url = `${publicOrigin}/admin/reset/${token}`;
        const { html, text } = renderMail({
          storeName: "Chorus",
          preheader: "A link to set a new password for your Chorus admin account.",
          heading: "Set a new password",
          paragraphs: [
            `Someone (we hope you) asked to set a new password for the Chorus admin account ${email}.`,
            "The link works once, for one hour. Setting a new password signs you out everywhere else. If you did not ask for this, ignore this e-mail: your password stays as it is.",
          ],
          action: { label: "Set a new password", url },
        });
        await transaction(db, async () => {
          const t = now();
          await accounts.sweep(t - 24 * 60 * 60_000);
          await accounts.insertReset({ tokenHash, userId: user.userId, createdMs: t, expiresMs: t + RESET_TTL_MS });
          await mail.enqueue({ storeId: null, kind: "password-reset", to: email, subject: "Set a new password for Chorus", html, text, dedupeKey: `password-reset:${tokenHash}` });
        });
      }
      return RESET_REQUESTED;
    },

    /** Whether the reset link with `token` is open (unknown, malformed, used and expired links are not). */
    async isOpen(token: unknown): Promise<boolean> {
      if (!isAccountToken(token)) return false;
      const reset = await accounts.resetByHash(accountTokenHash(token));
      return reset !== undefined && reset.usedMs === null && reset.expiresMs > now();
    },

    /**
     * Set a new password with an open reset link: uses the link, replaces the hash, ends every session of
     * the user and closes their other links, in one transaction. Nobody is signed in by it.
     * @returns the user's e-mail (for the sign-in form).
     * @throws ApiError 410 (`reset_closed`) for a used, expired, unknown or malformed link; FieldError 400
     *   (password too short or long, confirmation differs).
     */
    async reset(token: unknown, newPassword: unknown, confirm: unknown): Promise<{ email: string }> {
      const closed = () => new ApiError(410, "This link to set a new password is no longer valid: it was used or has expired. Ask for a new one.", "reset_closed");
      if (!(await this.isOpen(token))) throw closed();
      const password = passwordField.safeParse(typeof newPassword === "string" ? newPassword : "");
      if (!password.success) throw new FieldError({ newPassword: password.error.issues[0].message });
      if (confirm !== newPassword) throw new FieldError({ confirm: "The two passwords differ." });
      const passwordHash = await hash(password.data);
      const tokenHash = accountTokenHash(token as string);
      return transaction(db, async () => {
        const t = now();
        const reset = await accounts.resetByHash(tokenHash);
        // Exactly-once: the conditional update uses the link (single-use on every node).
        if (!reset || !(await accounts.useReset(tokenHash, t))) throw closed();
        await admin.setPasswordHash(reset.userId, passwordHash);
        await admin.deleteSessionsOfUser(reset.userId);
        await accounts.closeResetsOf(reset.userId, t);
        return { email: (await accounts.userEmail(reset.userId)) ?? "" };
      });
    },
  };
}
export type PasswordResetService = ReturnType<typeof passwordResetService>;
