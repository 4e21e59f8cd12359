/**
 * The outbox message a signed-in merchant may see (server/mail/mail.service.ts `mayRead`: every message of the
 * stores they own; their other stores' messages except invitations and resets; mail of no store only for
 * operators), or the admin 404 for anything else (unknown, not a UUID, another store's, an owner's), so a
 * merchant cannot tell a message they may not read from a missing one, nor learn its subject or links.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { AdminSession } from "../../server/admin/admin.service.ts";
import type { OutboxReader } from "../../server/mail/mail.service.ts";
import { httpError, requireSession } from "~/lib/admin.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Who reads the outbox: the session's stores by role (read with the session, on every request) and whether the user is an operator. */
export async function outboxReader(session: AdminSession, context: AppLoadContext): Promise<OutboxReader> {
  return {
    ownerOf: session.stores.filter((s) => s.role === "owner").map((s) => s.storeId),
    memberOf: session.stores.filter((s) => s.role !== "owner").map((s) => s.storeId),
    operator: await context.services.signup.isOperator(session.userId),
    email: session.email,
  };
}

/** The session and the message, or undefined when it is not visible. @throws redirect to sign-in without a session. */
export async function findOutboxMessage(request: Request, context: AppLoadContext, messageId: string | undefined) {
  const session = await requireSession(request, context);
  const message = messageId && UUID.test(messageId) ? await context.services.mail.getVisible({ ...(await outboxReader(session, context)), messageId }) : undefined;
  return { session, message };
}

/** The session and the message. @throws redirect to sign-in without a session; 404 when not visible. */
export async function requireOutboxMessage(request: Request, context: AppLoadContext, messageId: string | undefined) {
  const { session, message } = await findOutboxMessage(request, context, messageId);
  if (!message) throw httpError(404, "Message not found, or it is not one you may read (invitations and password resets are shown to a store's owners only).");
  return { session, message };
}

/**
 * Headers of a message's HTML shown in the admin's preview frame: a sandbox (no scripts, forms, plugins,
 * popups or same-origin access) and a policy that loads nothing (inline styles and data: images only), so
 * the message can neither run code nor call out (no tracking pixels); framed only by the admin itself.
 */
export const PREVIEW_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};
