import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { adminHeaders, clearSessionCookie, readAdminForm, readCookie, requireCsrf, requireSession, SESSION_COOKIE } from "~/lib/admin.server";

export const headers = adminHeaders;

/** GET /admin/logout has nothing to show. */
export const loader = () => redirect("/admin");

/** Sign out (POST with the CSRF token): ends the session and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireSession(request, context);
  requireCsrf(await readAdminForm(request), session);
  await context.services.admin.logout(readCookie(request, SESSION_COOKIE));
  return redirect("/admin/login", { headers: { "Set-Cookie": clearSessionCookie(request) } });
}
