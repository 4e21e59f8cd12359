/**
 * The origin Chorus puts in absolute URLs of its answers (media URLs): `PUBLIC_URL` when configured;
 * else, from a trusted reverse proxy (`TRUSTED_PROXIES`), its `X-Forwarded-Proto` and
 * `X-Forwarded-Host`; else the server's own loopback address. Never the request's `Host` header: an
 * answer is cached and shared, so a client-chosen host would be served to everyone (issue #19).
 */
import type { IncomingMessage } from "node:http";
import type { ProxyTrust } from "./client-address.ts";

const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** The origin of a URL string (`https://reviews.example.com/x` → `https://reviews.example.com`). @throws on a URL that is not http(s). */
export function originOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`PUBLIC_URL must be an http(s) URL, not ${parsed.protocol}`);
  return parsed.origin;
}

/**
 * A resolver of the public origin of a request.
 * @param publicUrl PUBLIC_URL (any path is ignored), or undefined.
 * @param trust which peers are trusted proxies (client-address.ts).
 * @param fallback the origin when neither applies (the listening address), read at call time.
 */
export function publicOriginResolver(publicUrl: string | undefined, trust: ProxyTrust, fallback: () => string): (req: IncomingMessage) => string {
  if (publicUrl) {
    const origin = originOf(publicUrl);
    return () => origin;
  }
  return (req) => {
    const peer = req.socket.remoteAddress ?? "";
    const host = req.headers["x-forwarded-host"];
    if (typeof host === "string" && trust(peer, 0)) {
      const first = host.split(",")[0].trim();
      const proto = String(req.headers["x-forwarded-proto"] ?? "http")
        .split(",")[0]
        .trim()
        .toLowerCase();
      if (HOST.test(first) && (proto === "http" || proto === "https")) return `${proto}://${first.toLowerCase()}`;
    }
    return fallback();
  };
}
