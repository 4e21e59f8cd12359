/**
 * Which webhook URLs Chorus may call (SSRF rules, OWASP "Server-Side Request Forgery Prevention"):
 * - `https:` only; `http:` only to a loopback address and only when `allowInsecure`
 *   (`ALLOW_INSECURE_WEBHOOKS=1`, for tests and local development);
 * - no user name or password in the URL;
 * - every address the host resolves to must be a public unicast address (ipaddr.js ranges: no private,
 *   loopback, link-local, carrier-grade NAT, multicast, reserved, unique-local or unspecified ranges;
 *   IPv4-mapped IPv6 addresses are judged as the IPv4 address). Loopback is allowed only with `allowInsecure`.
 * The delivery connects through `guardedLookup`, which resolves and checks at connection time and hands
 * the socket only the checked addresses, so a DNS answer that changes between the check and the
 * connection (DNS rebinding) cannot reach a private address.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { ApiError } from "../contract/errors.ts";

/** Why a URL or address was refused, in words for the merchant (an ApiError 400 from `checkWebhookUrl`). */
export class WebhookTargetError extends Error {}

/** Whether an IP address literal may be called: public unicast, or loopback when `allowInsecure`. */
export function isAllowedAddress(address: string, allowInsecure: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 → IPv4
  const range = parsed.range();
  if (range === "unicast") return true;
  return allowInsecure && range === "loopback";
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * The URL's syntax rules (scheme, credentials, an IP literal's range), without DNS.
 * @throws WebhookTargetError naming the rule broken.
 */
export function checkUrlSyntax(raw: string, allowInsecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError("url must be an absolute https:// URL");
  }
  if (url.username || url.password) throw new WebhookTargetError("url must not contain a user name or password");
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  const loopbackName = host === "localhost" || host.endsWith(".localhost");
  if (url.protocol === "http:") {
    if (!allowInsecure) throw new WebhookTargetError("url must use https://");
    if (!(loopbackName || (literal && ipaddr.process(host).range() === "loopback"))) throw new WebhookTargetError("url may use http:// only for a loopback address, and only when ALLOW_INSECURE_WEBHOOKS=1");
  } else if (url.protocol !== "https:") {
    throw new WebhookTargetError("url must use https://");
  }
  if (literal && !isAllowedAddress(host, allowInsecure)) throw new WebhookTargetError(`url points to a private, loopback or reserved address (${host}), which is not allowed`);
  if (loopbackName && !allowInsecure) throw new WebhookTargetError(`url points to a loopback host (${host}), which is not allowed`);
  return url;
}

/** Resolve `host` to all its addresses (A and AAAA). */
const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * Resolve `host` and check every address. @returns the addresses (all allowed).
 * @throws WebhookTargetError when the name does not resolve or any address is not allowed.
 */
export async function resolveAllowed(host: string, allowInsecure: boolean): Promise<LookupAddress[]> {
  if (isIP(host)) {
    if (!isAllowedAddress(host, allowInsecure)) throw new WebhookTargetError(`${host} is a private, loopback or reserved address`);
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new WebhookTargetError(`the host name ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new WebhookTargetError(`the host name ${host} does not resolve`);
  const bad = addresses.find((a) => !isAllowedAddress(a.address, allowInsecure));
  if (bad) throw new WebhookTargetError(`the host name ${host} resolves to a private, loopback or reserved address (${bad.address})`);
  return addresses;
}

/**
 * A subscription URL as given by the merchant: syntax, then DNS (every address checked).
 * @throws ApiError 400 (`invalid_field`) saying what is wrong.
 */
export async function checkWebhookUrl(raw: string, allowInsecure: boolean): Promise<string> {
  try {
    const url = checkUrlSyntax(raw, allowInsecure);
    await resolveAllowed(hostOf(url), allowInsecure);
    return url.toString();
  } catch (error) {
    if (error instanceof WebhookTargetError) throw new ApiError(400, `url: ${error.message}`, "invalid_field");
    throw error;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request: resolves and checks every address at connection time (see the module
 * comment). A refused host fails the connection with the WebhookTargetError's message.
 */
export function guardedLookup(allowInsecure: boolean) {
  return (hostname: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    resolveAllowed(hostname, allowInsecure).then(
      (addresses) => {
        if (typeof options === "object" && options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: Error) => callback(Object.assign(new Error(error.message), { code: "EWEBHOOKTARGET" }), "", 0),
    );
  };
}
