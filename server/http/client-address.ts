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
import type { ProxyTrust } from "../shared/proxy-trust.ts";

export { compileProxyTrust, type ProxyTrust } from "../shared/proxy-trust.ts";

/** The client address of `req` under `trust` ("unknown" when the socket has none, e.g. it closed). */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  if (!req.socket.remoteAddress) return "unknown";
  return proxyAddr(req as Parameters<typeof proxyAddr>[0], trust);
}
