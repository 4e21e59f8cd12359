/**
 * Route helpers of the account pages (sign-up, new store, invitation, password reset): the signed-out
 * forms' double-submit CSRF check (the sign-in form's pattern: a random token in an HttpOnly cookie and
 * in a hidden field, compared in constant time), the answer for an account service's error, and the
 * document redirect that signs the browser in.
 */
import { data, redirectDocument } from "@remix-run/node";
import { safeEqual } from "../../server/admin/admin.service.ts";
import { isFieldError } from "../../server/admin/account-forms.ts";
import { isApiError } from "../../server/contract/errors.ts";
import { adminCookie, httpError, LOGIN_CSRF_COOKIE, newLoginCsrf, readCookie, sessionCookie } from "./admin.server.ts";

/** A fresh double-submit token for a signed-out form and the `Set-Cookie` that holds it (1 hour). */
export function signedOutCsrf(request: Request): { csrf: string; headers: { "Set-Cookie": string } } {
  const csrf = newLoginCsrf();
  return { csrf, headers: { "Set-Cookie": adminCookie(request, LOGIN_CSRF_COOKIE, csrf, 3600) } };
}

/** Check a signed-out form's token against its cookie. @throws 403 when missing or different. */
export function requireSignedOutCsrf(request: Request, form: FormData): void {
  const given = form.get("csrf");
  const cookie = readCookie(request, LOGIN_CSRF_COOKIE);
  if (typeof given !== "string" || !cookie || !safeEqual(given, cookie)) {
    throw httpError(403, "This form expired or did not come from Chorus. Reload the page and send it again.");
  }
}

/** A form field as typed (not trimmed: passwords), '' when absent or a file. */
export const rawField = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** What an account form's action answers: a success note or an error, field errors, the typed values (never a password). */
export type AccountAnswer = { ok?: string; error?: string; fieldErrors: Record<string, string>; values: Record<string, string>; intent?: string };

/** A success answer (200) of an account form. */
export const accountOk = (ok: string, intent?: string): AccountAnswer => ({ ok, fieldErrors: {}, values: {}, intent });

/**
 * The action answer for an account service error: field errors (400) with the typed values but never a
 * password, or the message with its status (401, 403, 404, 409, 410, 429 with `Retry-After`).
 * @throws `error` again when it is not one the form can show.
 */
export function accountError(error: unknown, values: Record<string, string> = {}, intent?: string) {
  if (isFieldError(error)) return data<AccountAnswer>({ fieldErrors: error.fieldErrors, values, intent }, { status: error.status });
  if (isApiError(error) && error.status >= 400 && error.status < 500) {
    const retryAfterS = (error as { retryAfterS?: number }).retryAfterS;
    return data<AccountAnswer>({ fieldErrors: {}, values, error: error.message, intent }, { status: error.status, headers: retryAfterS ? { "Retry-After": String(retryAfterS) } : undefined });
  }
  throw error;
}

/** Redirect (a full document load) to `to` with the new session's cookie, clearing the signed-out form's cookie. */
export function signedInRedirect(request: Request, sessionToken: string, to: string) {
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(request, sessionToken));
  headers.append("Set-Cookie", adminCookie(request, LOGIN_CSRF_COOKIE, "", 0));
  return redirectDocument(to, { headers });
}

/** The admin page of a store. */
export const storePath = (storeId: string) => `/admin/stores/${encodeURIComponent(storeId)}`;
