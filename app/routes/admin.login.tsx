import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { safeEqual } from "../../server/admin/admin.service.ts";
import { adminCookie, adminHeaders, field, httpError, LOGIN_CSRF_COOKIE, newLoginCsrf, readAdminForm, readCookie, SESSION_COOKIE, sessionCookie } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Sign in · Chorus admin" }];
export const headers = adminHeaders;

/**
 * Where to go after sign-in: `next` when it is a local admin page, else the first store's page.
 * Never exactly `/admin`: client navigations fetch `/admin.data`, outside the cookie's Path=/admin.
 */
function safeNext(next: string | null | undefined, stores: { storeId: string }[]): string {
  if (next && /^\/admin\/stores\//.test(next) && !next.includes("//")) return next;
  return stores[0] ? `/admin/stores/${encodeURIComponent(stores[0].storeId)}` : "/admin";
}

/** The sign-in form. Sets a fresh double-submit CSRF cookie for it; a signed-in user goes on. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const next = url.searchParams.get("next") ?? "";
  // After a password reset (admin.reset.$token): a note, and the e-mail filled in.
  const reset = url.searchParams.get("reset") === "done";
  const email = reset ? (url.searchParams.get("email") ?? "").slice(0, 254) : "";
  const session = await context.services.admin.session(readCookie(request, SESSION_COOKIE));
  if (session && session.stores.length) throw redirect(safeNext(next, session.stores));
  const csrf = newLoginCsrf();
  return data({ csrf, next, signupOpen: context.services.signup.isOpen(), reset, email }, { headers: { "Set-Cookie": adminCookie(request, LOGIN_CSRF_COOKIE, csrf, 3600) } });
}

/**
 * Sign in: unreadable form → 400 / 413 / 415; CSRF (cookie = field) → 403; throttled → 429 with
 * `Retry-After`; wrong e-mail or password → 401; success → session cookie and redirect to `next`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readAdminForm(request);
  const csrf = form.get("csrf");
  const cookie = readCookie(request, LOGIN_CSRF_COOKIE);
  if (typeof csrf !== "string" || !cookie || !safeEqual(csrf, cookie)) {
    throw httpError(403, "The sign-in form expired or did not come from Chorus. Reload the page and sign in again.");
  }
  const email = field(form, "email");
  const given = form.get("password");
  const password = typeof given === "string" ? given : ""; // not trimmed: spaces may be part of it
  if (!email || !password) return data({ error: "Enter your e-mail and password.", email }, { status: 400 });
  try {
    const { token } = await context.services.admin.login(email, password, context.clientIp);
    const stores = (await context.services.admin.session(token))?.stores ?? [];
    const headers = new Headers();
    headers.append("Set-Cookie", sessionCookie(request, token));
    headers.append("Set-Cookie", adminCookie(request, LOGIN_CSRF_COOKIE, "", 0));
    // A document redirect: the next page loads fresh with the new cookie.
    return redirectDocument(safeNext(field(form, "next"), stores), { headers });
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 429)) {
      const retryAfterS = (error as { retryAfterS?: number }).retryAfterS;
      return data({ error: error.message, email }, { status: error.status, headers: retryAfterS ? { "Retry-After": String(retryAfterS) } : undefined });
    }
    throw error;
  }
}

export default function Login() {
  const { csrf, next, signupOpen, reset, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <main id="main" className="admin-plain login">
      <h1>Sign in to Chorus</h1>
      {reset && !result ? (
        <p className="flash flash-ok" role="status">
          Your password was changed and you were signed out everywhere. Sign in with the new password.
        </p>
      ) : null}
      {result?.error ? (
        <p className="flash flash-error" role="alert" id="login-error">
          {result.error}
        </p>
      ) : null}
      <Form method="post" className="stack" aria-describedby={result?.error ? "login-error" : undefined}>
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="next" value={next} />
        <label htmlFor="email">E-mail</label>
        <input id="email" name="email" type="email" autoComplete="username" required defaultValue={result?.email ?? email} />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </Form>
      <p>
        <Link to="/admin/forgot">Forgot your password?</Link>
      </p>
      {signupOpen ? (
        <p>
          New to Chorus? <Link to="/admin/signup">Create your store</Link>
        </p>
      ) : null}
    </main>
  );
}
