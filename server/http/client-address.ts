/**
 * The client's address for per-IP rate limits (review and question submissions, admin sign-in).
 *
 * Behind a reverse proxy every request comes from the proxy's address, and the client's address is in
 * X-Forwarded-For, a header any client can also set. So the header is believed only for hops from
 * trusted proxies: `TRUSTED_PROXIES` lists them (addresses, CIDR ranges, or `loopback`, `linklocal`,
 * `uniquelocal`; proxy-addr, the library Express uses for its "trust proxy" setting). The address is the
 * nearest one that is not a trusted proxy. Without TRUSTED_PROXIES the socket's peer is the client and a
 * forged X-Forwarded-For changes nothing.
 */
import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";

/** A compiled trust rule: which hop addresses are trusted proxies. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Compile a TRUSTED_PROXIES value (comma-separated; empty = none).
 * @throws TypeError naming a value that is not an address, a range or a known name.
 */
export function compileProxyTrust(spec: string): ProxyTrust {
  const list = spec.split(",").map((s) => s.trim()).filter(Boolean);
  return list.length ? proxyAddr.compile(list) : () => false;
}

/** The client address of `req` under `trust` ("unknown" when the socket has none, e.g. it closed). */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  if (!req.socket.remoteAddress) return "unknown";
  return proxyAddr(req as Parameters<typeof proxyAddr>[0], trust);
}
