/**
 * Redirect-after-POST with a flash message for admin pages: the action answers a 303 redirect and a
 * short-lived cookie (`chorus_flash`, HttpOnly, SameSite=Lax, Path=/admin, 60 s, signed with the
 * installation's cursor secret by Remix's cookie session storage); the page's loader reads it once
 * and clears it (`readFlash`). A flash may carry a value to be shown once (`shownOnce`, e.g. a newly
 * generated platform secret); it lives only in that cookie and is gone after the next page load.
 */
import { createCookieSessionStorage, redirect, type AppLoadContext } from "@remix-run/node";
import { isHttps } from "./admin.server.ts";

/** What a flash holds: a success note or an error, and optionally a value the page shows once. */
export type FlashMessage = { ok?: string; error?: string; shownOnce?: string };

const FLASH_KEY = "flash";
const MAX_AGE_S = 60;

function storage(request: Request, context: AppLoadContext) {
  return createCookieSessionStorage({
    cookie: { name: "chorus_flash", httpOnly: true, sameSite: "lax", path: "/admin", maxAge: MAX_AGE_S, secure: isHttps(request), secrets: [context.services.secret] },
  });
}

/** A 303 redirect to `to` carrying `flash` for the next page load. */
export async function redirectWithFlash(request: Request, context: AppLoadContext, to: string, flash: FlashMessage): Promise<Response> {
  const s = storage(request, context);
  const session = await s.getSession();
  session.flash(FLASH_KEY, flash);
  return redirect(to, { status: 303, headers: { "Set-Cookie": await s.commitSession(session) } });
}

/**
 * The flash of this request (or null) and the `Set-Cookie` header that clears it, to be sent with the
 * loader's answer. A cookie that is missing, tampered with or malformed reads as no flash.
 */
export async function readFlash(request: Request, context: AppLoadContext): Promise<{ flash: FlashMessage | null; headers: HeadersInit }> {
  if (!(request.headers.get("cookie") ?? "").includes("chorus_flash=")) return { flash: null, headers: {} };
  const s = storage(request, context);
  const session = await s.getSession(request.headers.get("cookie"));
  const value = session.get(FLASH_KEY) as unknown;
  const flash = value && typeof value === "object" ? pick(value as Record<string, unknown>) : null;
  return { flash, headers: { "Set-Cookie": await s.destroySession(session) } };
}

const pick = (v: Record<string, unknown>): FlashMessage => ({
  ...(typeof v.ok === "string" ? { ok: v.ok } : {}),
  ...(typeof v.error === "string" ? { error: v.error } : {}),
  ...(typeof v.shownOnce === "string" ? { shownOnce: v.shownOnce } : {}),
});
