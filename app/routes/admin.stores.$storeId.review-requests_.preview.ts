/**
 * The review-request e-mail of a store rendered with sample values, as a document for the admin's preview
 * frame (`?lang=fr` picks a template language). Its own strict policy: no scripts (the document has none;
 * `default-src 'none'` refuses any), images from anywhere (product pictures), inline styles (as mail
 * clients need), no forms, framed only by the admin itself.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStore } from "~/lib/admin.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const service = context.services.reviewRequests;
  const lang = new URL(request.url).searchParams.get("lang");
  const email = await service.preview(store.storeId, await service.get(store.storeId), context.publicOrigin, lang && /^[a-z]{2,3}(-[A-Z]{2})?$/.test(lang) ? lang : null);
  return new Response(email.html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'",
      "X-Frame-Options": "SAMEORIGIN",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "no-store",
    },
  });
}
