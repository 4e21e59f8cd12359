/**
 * The outbox message a signed-in merchant may see (server/mail/mail.service.ts `getVisible`: their stores'
 * mail and mail of no store addressed to them), or the admin 404 for anything else (unknown, not a UUID,
 * someone else's), so a merchant cannot tell another store's message from a missing one.
 */
import type { AppLoadContext } from "@remix-run/node";
import { httpError, requireSession } from "~/lib/admin.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The session and the message, or undefined when it is not visible. @throws redirect to sign-in without a session. */
export function findOutboxMessage(request: Request, context: AppLoadContext, messageId: string | undefined) {
  const session = requireSession(request, context);
  const message = messageId && UUID.test(messageId)
    ? context.services.mail.getVisible({ storeIds: session.stores.map((s) => s.storeId), email: session.email, messageId })
    : undefined;
  return { session, message };
}

/** The session and the message. @throws redirect to sign-in without a session; 404 when not visible. */
export function requireOutboxMessage(request: Request, context: AppLoadContext, messageId: string | undefined) {
  const { session, message } = findOutboxMessage(request, context, messageId);
  if (!message) throw httpError(404, "Message not found, or it is not one of your stores' messages.");
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
