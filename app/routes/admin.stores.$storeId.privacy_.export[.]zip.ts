import type { ActionFunctionArgs } from "@remix-run/node";
import { field, requireStoreAction } from "~/lib/admin.server";

const text = (status: number, message: string) =>
  new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });

/**
 * `POST /admin/stores/{id}/privacy/export.zip` (form: `email`, CSRF): everything the store holds about the
 * address as a zip attachment (server/privacy/privacy.service.ts), audited as the signed-in merchant's export.
 * A resource route, so the browser downloads the answer. 400 (plain text) for a malformed address.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store, form } = await requireStoreAction(request, context, params.storeId);
  const { privacy } = context.services;
  let email: string;
  try {
    email = privacy.parseEmail(field(form, "email"));
  } catch {
    return text(400, "Enter a shopper's e-mail address, e.g. shopper@example.com.");
  }
  const archive = await privacy.exportArchive(store.storeId, email, `admin:${session.email}`);
  return new Response(new Uint8Array(archive.bytes), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${archive.fileName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
