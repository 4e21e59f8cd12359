/**
 * Admin HTTP helpers for tests over the real server (the same steps as server/admin/admin.api.test.ts):
 * sign in through the real form (double-submit CSRF), keep the session cookie and the page's CSRF
 * token, and GET / POST admin pages as that user.
 */
import type { TestServer } from "./server.ts";

export type AdminAgent = { cookie: string; csrf: string };

/** The value of the hidden input `name` in an HTML page. */
export const hiddenField = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
/** The `Set-Cookie` header of `res` that sets cookie `name`, if any. */
export const setCookieHeader = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
const setCookie = setCookieHeader;

/** The sign-in form as a browser holds it: its double-submit cookie (`name=value`) and CSRF field. */
export type LoginForm = { cookie: string; csrf: string };

/** GET the sign-in page. @returns its login cookie and CSRF token (both stay valid until a sign-in succeeds). */
export async function openLoginForm(t: TestServer, headers: Record<string, string> = {}): Promise<LoginForm> {
  const page = await fetch(t.url("/admin/login"), { headers });
  return { cookie: setCookie(page, "chorus_admin_login")!.split(";")[0], csrf: hiddenField(await page.text(), "csrf")! };
}

/** POST the sign-in form `form` (from openLoginForm) with these credentials. */
export const submitLoginForm = (t: TestServer, form: LoginForm, email: string, password: string, headers: Record<string, string> = {}) =>
  fetch(t.url("/admin/login"), {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie: form.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf: form.csrf, email, password, next: "/admin" }),
  });

/** Post the real sign-in form (with its login cookie and CSRF token). @returns the POST's response (302 on success). */
export async function postAdminLogin(t: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return submitLoginForm(t, await openLoginForm(t, headers), email, password, headers);
}

/**
 * Sign in as `email` and read the CSRF token from `storeId`'s settings page.
 * @throws when sign-in or the page fails.
 */
export async function signInAgent(t: TestServer, email: string, password: string, storeId: string): Promise<AdminAgent> {
  const res = await postAdminLogin(t, email, password);
  if (res.status !== 302) throw new Error(`sign-in of ${email} answered ${res.status}`);
  const cookie = setCookie(res, "chorus_admin")!.split(";")[0];
  const settings = await fetch(t.url(`/admin/stores/${storeId}/settings`), { headers: { cookie } });
  if (settings.status !== 200) throw new Error(`settings of ${storeId} answered ${settings.status}`);
  return { cookie, csrf: hiddenField(await settings.text(), "csrf")! };
}

/** GET `path` as `agent` (no redirects followed). */
export const adminGet = (t: TestServer, agent: AdminAgent | null, path: string) => fetch(t.url(path), { redirect: "manual", headers: agent ? { cookie: agent.cookie } : {} });

/** POST a form to `path` as `agent`, with its CSRF token unless `csrf` is null. */
export function adminPost(t: TestServer, agent: AdminAgent | null, path: string, fields: Record<string, string | string[]>, csrf: string | null = agent?.csrf ?? null) {
  const body = new URLSearchParams();
  if (csrf !== null) body.append("csrf", csrf);
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return fetch(t.url(path), {
    method: "POST",
    redirect: "manual",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", ...(agent ? { cookie: agent.cookie } : {}) },
  });
}
