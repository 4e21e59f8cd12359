/**
 * Admin route helpers: cookies (parsed and written with the `cookie` package only), the one bounded
 * form reader of admin actions, sign-in requirement, store membership check and CSRF check. Every admin loader and action goes through
 * `requireStore` (or `requireSession` for pages without a store), and every action through `requireCsrf`.
 *
 * Owner-only actions (server/admin/roles.ts, docs/admin.md "Who may do what") go through
 * `requireOwnerAction`; loaders tell the page with `isOwner` so it hides what a member may not do.
 *
 * Store selection: the store ID is in the URL (`/admin/stores/{storeId}/...`); a store the signed-in
 * user does not belong to answers 404, exactly like a store that does not exist.
 */
import { data, redirect, type AppLoadContext, type HeadersFunction } from "@remix-run/node";
import { parseCookie, stringifySetCookie } from "cookie";
import { randomBytes } from "node:crypto";
import type { AdminSession } from "../../server/admin/admin.service.ts";
import { safeEqual, SESSION_TTL_MS } from "../../server/admin/admin.service.ts";
import { mayTake, requireOwner, type OwnerAction } from "../../server/admin/roles.ts";
import { isApiError } from "../../server/contract/errors.ts";
import { readFormBody } from "../../server/shared/body.ts";
import type { Store } from "../../server/stores/stores.repo.ts";

export const SESSION_COOKIE = "chorus_admin";
export const LOGIN_CSRF_COOKIE = "chorus_admin_login";
/** Name of the hidden CSRF field in every admin form. */
export const CSRF_FIELD = "csrf";

/** `decodeURIComponent`, or undefined for a value that does not decode (the cookie is then skipped). */
const decodeOrSkip = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/**
 * A cookie value from the request's `Cookie` header, or undefined when absent or not decodable (e.g.
 * `chorus_admin=%E0%A4%A`: treated as no session, never an error).
 */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  return header ? parseCookie(header, { decode: decodeOrSkip })[name] : undefined;
}

/** Whether the client reached us over HTTPS (directly or through a proxy that says so). */
export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || (request.headers.get("x-forwarded-proto") ?? "").split(",")[0].trim() === "https";
}

/** A `Set-Cookie` value for an admin cookie (HttpOnly, SameSite=Lax, Path=/admin, Secure over HTTPS). `maxAgeS` 0 deletes. */
export function adminCookie(request: Request, name: string, value: string, maxAgeS: number): string {
  return stringifySetCookie({ name, value, path: "/admin", httpOnly: true, sameSite: "lax", maxAge: maxAgeS, secure: isHttps(request) });
}

export const sessionCookie = (request: Request, token: string) => adminCookie(request, SESSION_COOKIE, token, Math.floor(SESSION_TTL_MS / 1000));
export const clearSessionCookie = (request: Request) => adminCookie(request, SESSION_COOKIE, "", 0);

/** A fresh random token for the sign-in form's double-submit CSRF cookie. */
export const newLoginCsrf = () => randomBytes(24).toString("base64url");

/** A thrown document error with a status (rendered by the admin ErrorBoundary). */
export const httpError = (status: number, message: string, headers?: HeadersInit) => data({ message }, { status, headers });

/**
 * `request` with a body stream whose `cancel()` only stops reading. Remix's Express adapter destroys the
 * socket when its body stream is cancelled, so the bounded reader's early stop (413, 415) would reset the
 * connection before any answer is written; with this wrapper the answer goes out and its
 * `Connection: close` lets Node drop the unread rest with the connection.
 */
export function withGentleCancel(request: Request): Request {
  if (!request.body) return request;
  const reader = request.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        reader.releaseLock();
      },
    },
    { highWaterMark: 0 },
  );
  return new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit);
}

/**
 * The form of an admin action, read with the one bounded reader (server/shared/body.ts, at most
 * `maxBytes`, default BODY_LIMITS.form bytes; urlencoded, or multipart: files only where a page raises the limit).
 * @throws a document error for the admin ErrorBoundary, with `Connection: close` (the body may be left
 *   unread): 413 (too large), 415 (another content type, e.g. JSON), 400 (malformed multipart).
 */
export async function readAdminForm(request: Request, maxBytes?: number): Promise<FormData> {
  try {
    return await readFormBody(withGentleCancel(request), maxBytes);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const message =
      error.status === 413
        ? `${error.message}. Shorten the text and send the form again.`
        : error.status === 415
          ? "This form must be sent by the page's own form (URL-encoded or multipart form data)."
          : "The form could not be read. Reload the page and send it again.";
    throw httpError(error.status, message, { Connection: "close" });
  }
}

/** Answer headers of an action or a thrown error that the document response must carry. */
const FORWARDED_HEADERS = ["Connection", "Retry-After"] as const;

/**
 * The `headers` export of every admin route that answers actions or renders an error boundary. Remix
 * copies only `Set-Cookie` from loaders, actions and thrown errors into the document response; this
 * forwards `Connection: close` (readAdminForm's 4xx, whose body may be unread) and `Retry-After` (a
 * throttled sign-in) too, from the parent, the action and the error, in that order.
 */
export const adminHeaders: HeadersFunction = ({ parentHeaders, actionHeaders, errorHeaders }) => {
  const headers = new Headers();
  for (const source of [parentHeaders, actionHeaders, errorHeaders]) {
    for (const name of FORWARDED_HEADERS) {
      const value = source?.get(name);
      if (value) headers.set(name, value);
    }
  }
  return headers;
};

/** The signed-in session, or a redirect to the sign-in page (thrown). */
export async function requireSession(request: Request, context: AppLoadContext): Promise<AdminSession> {
  const session = await context.services.admin.session(readCookie(request, SESSION_COOKIE));
  if (!session) {
    const url = new URL(request.url);
    // A form sent without a session is answered before its body is read: close the connection with the
    // answer (RFC 9112, section 9.6), or a client still sending a large body waits on a connection nobody reads.
    const unread = request.method !== "GET" && request.method !== "HEAD" ? { Connection: "close" } : undefined;
    throw redirect(`/admin/login?next=${encodeURIComponent(url.pathname + url.search)}`, { headers: unread });
  }
  return session;
}

/**
 * The session and the store of `storeId`, when the signed-in user belongs to it.
 * @throws redirect to sign-in without a session; 404 when the store is unknown or not the user's.
 */
export async function requireStore(request: Request, context: AppLoadContext, storeId: string | undefined): Promise<{ session: AdminSession; store: Store }> {
  const session = await requireSession(request, context);
  const store = storeId && session.stores.some((s) => s.storeId === storeId) ? await context.services.stores.get(storeId) : undefined;
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
 * checked, in that order. @throws redirect / 404 / 403, and 400 / 413 / 415 for an unreadable form (readAdminForm).
 */
export async function requireStoreAction(request: Request, context: AppLoadContext, storeId: string | undefined, maxBytes?: number) {
  const { session, store } = await requireStore(request, context, storeId);
  const form = await readAdminForm(request, maxBytes);
  requireCsrf(form, session);
  return { session, store, form };
}

/** Whether the signed-in user is an owner of `storeId` (membership read with the session, on every request). */
export const isOwner = (session: AdminSession, storeId: string, action: OwnerAction): boolean => mayTake(session.stores.find((s) => s.storeId === storeId)?.role, action);

/**
 * For owner-only actions: `requireStoreAction` (session, membership 404, bounded form, CSRF 403), then the
 * owner check. @throws the admin error page 403 "Only an owner of this store can …" for a member; nothing is changed.
 */
export async function requireOwnerAction(request: Request, context: AppLoadContext, storeId: string | undefined, action: OwnerAction, maxBytes?: number) {
  const result = await requireStoreAction(request, context, storeId, maxBytes);
  requireStoreOwner(result.session, result.store.storeId, action);
  return result;
}

/** The owner check alone (after `requireStoreAction`), for pages where only some intents are owner-only. @throws the admin error page 403. */
export function requireStoreOwner(session: AdminSession, storeId: string, action: OwnerAction): void {
  try {
    requireOwner(session.stores.find((s) => s.storeId === storeId)?.role, action);
  } catch (error) {
    if (isApiError(error)) throw httpError(error.status, error.message);
    throw error;
  }
}

/** A form field as a trimmed string ('' when absent or a file). */
export const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};
