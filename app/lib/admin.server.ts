/**
 * Admin route helpers: session cookie, sign-in requirement, store membership check, CSRF check,
 * and the client address for login rate limiting. Every admin loader and action goes through
 * `requireStore` (or `requireSession` for pages without a store), and every action through `requireCsrf`.
 *
 * Store selection: the store ID is in the URL (`/admin/stores/{storeId}/...`); a store the signed-in
 * user does not belong to answers 404, exactly like a store that does not exist.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import type { AdminSession } from "../../server/admin/admin.service.ts";
import { safeEqual, SESSION_TTL_MS } from "../../server/admin/admin.service.ts";
import type { Store } from "../../server/stores/stores.repo.ts";

export const SESSION_COOKIE = "chorus_admin";
export const LOGIN_CSRF_COOKIE = "chorus_admin_login";
/** Name of the hidden CSRF field in every admin form. */
export const CSRF_FIELD = "csrf";

/** A cookie value from the request, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** Whether the client reached us over HTTPS (directly or through a proxy that says so). */
export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || (request.headers.get("x-forwarded-proto") ?? "").split(",")[0].trim() === "https";
}

/** A `Set-Cookie` value for an admin cookie (HttpOnly, SameSite=Lax, Path=/admin, Secure over HTTPS). `maxAgeS` 0 deletes. */
export function adminCookie(request: Request, name: string, value: string, maxAgeS: number): string {
  return [`${name}=${encodeURIComponent(value)}`, "Path=/admin", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeS}`, ...(isHttps(request) ? ["Secure"] : [])].join("; ");
}

export const sessionCookie = (request: Request, token: string) => adminCookie(request, SESSION_COOKIE, token, Math.floor(SESSION_TTL_MS / 1000));
export const clearSessionCookie = (request: Request) => adminCookie(request, SESSION_COOKIE, "", 0);

/** A fresh random token for the sign-in form's double-submit CSRF cookie. */
export const newLoginCsrf = () => randomBytes(24).toString("base64url");

/** A thrown document error with a status (rendered by the admin ErrorBoundary). */
export const httpError = (status: number, message: string) => data({ message }, { status });

/** The signed-in session, or a redirect to the sign-in page (thrown). */
export function requireSession(request: Request, context: AppLoadContext): AdminSession {
  const session = context.services.admin.session(readCookie(request, SESSION_COOKIE));
  if (!session) {
    const url = new URL(request.url);
    throw redirect(`/admin/login?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return session;
}

/**
 * The session and the store of `storeId`, when the signed-in user belongs to it.
 * @throws redirect to sign-in without a session; 404 when the store is unknown or not the user's.
 */
export function requireStore(request: Request, context: AppLoadContext, storeId: string | undefined): { session: AdminSession; store: Store } {
  const session = requireSession(request, context);
  const store = storeId && session.stores.some((s) => s.storeId === storeId) ? context.services.stores.get(storeId) : undefined;
  if (!store) throw httpError(404, "Store not found, or you do not have access to it.");
  return { session, store };
}

/** Check the form's CSRF token against the session's. @throws 403 when missing or wrong. */
export function requireCsrf(form: FormData, session: AdminSession): void {
  const given = form.get(CSRF_FIELD);
  if (typeof given !== "string" || !safeEqual(given, session.csrfToken)) {
    throw httpError(403, "This form has expired or did not come from Chorus (missing security token). Reload the page and try again.");
  }
}

/**
 * For actions: the session and store (membership checked) and the parsed form with its CSRF token
 * checked, in that order. @throws redirect / 404 / 403.
 */
export async function requireStoreAction(request: Request, context: AppLoadContext, storeId: string | undefined) {
  const { session, store } = requireStore(request, context, storeId);
  const form = await request.formData();
  requireCsrf(form, session);
  return { session, store, form };
}

/** A form field as a trimmed string ('' when absent or a file). */
export const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};
