import type { LoaderFunctionArgs } from "@remix-run/node";
import { findOutboxMessage, PREVIEW_HEADERS } from "~/lib/outbox.server";

/**
 * /admin/outbox/:messageId/html: the message's HTML as it was sent, for the sandboxed preview frame of the
 * message page (headers: outbox.server.ts PREVIEW_HEADERS). Same visibility rule as the page; 404 otherwise.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { message } = await findOutboxMessage(request, context, params.messageId);
  if (!message) return new Response("Message not found.", { status: 404, headers: { ...PREVIEW_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(message.html, { headers: PREVIEW_HEADERS });
}
