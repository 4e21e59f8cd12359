/**
 * HTTP helpers for the signed-out account forms in tests (sign-up, invitation, forgot and reset
 * password): open a page as a browser does (its double-submit CSRF cookie and hidden field), post it
 * back, and read what a page shows next to a field.
 */
import { hiddenField, setCookieHeader } from "./admin-http.ts";
import type { TestServer } from "./server.ts";

/** A signed-out form as a browser holds it: its CSRF cookie (`name=value`), its CSRF field, the page. */
export type OpenForm = { cookie: string; csrf: string; status: number; html: string };

/** GET a page with a signed-out form (and an optional session cookie). */
export async function openForm(t: TestServer, path: string, headers: Record<string, string> = {}): Promise<OpenForm> {
  const page = await fetch(t.url(path), { headers, redirect: "manual" });
  const html = await page.text();
  return { cookie: setCookieHeader(page, "chorus_admin_login")?.split(";")[0] ?? "", csrf: hiddenField(html, "csrf") ?? "", status: page.status, html };
}

/** POST `fields` to `path` with the form's cookie and CSRF field (plus `cookie`, e.g. a session; `headers`). */
export function postForm(t: TestServer, path: string, form: { cookie: string; csrf: string }, fields: Record<string, string>, options: { cookie?: string; headers?: Record<string, string> } = {}) {
  return fetch(t.url(path), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: [form.cookie, options.cookie].filter(Boolean).join("; "), ...options.headers },
    body: new URLSearchParams({ csrf: form.csrf, ...fields }),
  });
}

/** The session cookie (`chorus_admin=...`) a response sets, if any. */
export const sessionFrom = (res: Response) => setCookieHeader(res, "chorus_admin")?.split(";")[0];

/**
 * What a page shows about field `name`: whether its control is marked invalid, and the text of the
 * element its `aria-describedby` names as the error (the `-error` id).
 */
export function fieldState(html: string, name: string): { invalid: boolean; error?: string; value?: string } {
  const control = new RegExp(`<(?:input|select)[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0] ?? "";
  const describedBy = /aria-describedby="([^"]*)"/.exec(control)?.[1] ?? "";
  const errorId = describedBy.split(" ").find((id) => id.endsWith("-error"));
  const raw = errorId ? new RegExp(`id="${errorId}"[^>]*>([^<]*)<`).exec(html)?.[1] : undefined;
  const error = raw?.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
  return { invalid: /aria-invalid="true"/.test(control), error, value: /\bvalue="([^"]*)"/.exec(control)?.[1] };
}
