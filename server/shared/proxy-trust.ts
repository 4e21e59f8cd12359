/**
 * The TRUSTED_PROXIES rule: which hop addresses are trusted reverse proxies (addresses, CIDR ranges, or
 * `loopback`, `linklocal`, `uniquelocal`; proxy-addr, the library Express uses for "trust proxy").
 * Here rather than in server/http so that configuration (server/config.ts) can validate the value
 * without importing the HTTP layer; server/http/client-address.ts applies it to requests.
 */
import proxyAddr from "proxy-addr";

/** A compiled trust rule: whether the hop at `address` (`hop` = 0 for the socket's peer) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Compile a TRUSTED_PROXIES value (comma-separated; empty = none).
 * @throws TypeError naming a value that is not an address, a range or a known name.
 */
export function compileProxyTrust(spec: string): ProxyTrust {
  const list = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? proxyAddr.compile(list) : () => false;
}
