/**
 * The RFC 8058 one-click unsubscribe URL of a review-request message's `List-Unsubscribe` header
 * (`/u/{token}/one-click`, docs/review-requests.md "Unsubscribe"). `POST` (what mail apps send, body
 * `List-Unsubscribe=One-Click`) unsubscribes: no sign-in, no CSRF token (the token in the URL is the proof
 * and unsubscribing is all it can do), whatever `Origin` the mail app's server sends, idempotent.
 * `GET` (a mail app that opens the header's link in a browser) goes to the confirm page and changes nothing.
 * A resource route: a plain-text answer, outside the document pipeline's same-origin check.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { readBodyBytes } from "../../server/shared/body.ts";

const HEADERS = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "X-Content-Type-Options": "nosniff" };

export function loader({ params }: LoaderFunctionArgs) {
  return redirect(`/u/${encodeURIComponent(params.token ?? "")}`, { status: 303, headers: { "Cache-Control": "no-store" } });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  // The body carries nothing we need: read (at most 1 KB, bounded) and dropped.
  await readBodyBytes(request, 1024).catch(() => {});
  const result = await context.services.reviewRequests.unsubscribe(params.token ?? "");
  return result.state === "ok"
    ? new Response(`Unsubscribed: ${result.maskedEmail} gets no more review requests from ${result.storeName}.\n`, { status: 200, headers: HEADERS })
    : new Response("This unsubscribe link is not valid.\n", { status: 404, headers: HEADERS });
}
