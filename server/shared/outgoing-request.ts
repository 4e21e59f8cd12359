/**
 * The one guard of every request Chorus makes on a merchant's behalf: import media downloads, outgoing
 * webhooks, calls to a shop platform's API (docs/ARCHITECTURE.md "Server"; the rules are those of
 * docs/webhooks.md "Which URLs are allowed" and docs/import.md "Photo and video downloads"; OWASP "Server-Side Request
 * Forgery Prevention").
 *
 * - Only `http:` and `https:` (a caller may narrow this), no user name or password in the URL.
 * - A host is resolved ONCE per hop, and every address it resolves to must be a public unicast address
 *   (`addressRefusal`: ipaddr.js ranges after IPv4-mapped IPv6 is turned into IPv4; IPv6 only in 2000::/3, so
 *   IPv4-compatible `::a.b.c.d` and other unassigned space are refused; NAT64 `64:ff9b::/96` is judged by the
 *   IPv4 address it embeds; 6to4, Teredo, private, loopback, link-local, carrier-grade NAT, multicast,
 *   broadcast, unspecified, unique-local, benchmarking, documentation and other reserved ranges are refused).
 *   IPv4 written as `127.1`, `2130706433`, `0x7f000001` or `0177.0.0.1` is already `127.0.0.1` after WHATWG
 *   URL parsing, so it is judged as that. `localhost` and `*.localhost` are loopback names (RFC 6761) and
 *   never asked of DNS.
 * - The connection goes to the addresses that were checked: the request's `lookup` hands the socket only those
 *   (no second DNS query, so an answer that changes in between, DNS rebinding, cannot reach another address);
 *   TLS still verifies the host name.
 * - Each redirect hop is checked the same way (the caller says how many are followed; by default none).
 * - The answer is bounded in bytes (declared and streamed) and the whole request, DNS and redirects included,
 *   in time.
 * - Loopback addresses are allowed only with `allowLoopback` (ALLOW_LOOPBACK_REQUESTS=1, alias
 *   ALLOW_INSECURE_WEBHOOKS=1: tests and local development; `loopbackRequestsAllowed` in server/config.ts), and
 *   for an endpoint the operator configured explicitly (e.g. SHOPIFY_ADMIN_API_URL). No switch allows private,
 *   link-local or other non-public addresses.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** What went wrong: `refused` by the rules (nothing was sent), the name did not resolve, the time or size bound, too many redirects, or the network. */
export type OutgoingErrorKind = "refused" | "unresolved" | "timeout" | "too-large" | "redirects" | "network";

/** Why an outgoing request failed, in words for the merchant (import reports, webhook logs, 400 answers). */
export class OutgoingRequestError extends Error {
  readonly kind: OutgoingErrorKind;
  constructor(kind: OutgoingErrorKind, message: string) {
    super(message);
    this.kind = kind;
    this.name = "OutgoingRequestError";
  }
}

/** Whether `error` is an OutgoingRequestError (by name: server code exists twice, in the Remix build and natively). */
export const isOutgoingRequestError = (error: unknown): error is OutgoingRequestError =>
  error instanceof Error && error.name === "OutgoingRequestError" && typeof (error as OutgoingRequestError).kind === "string";

/** A DNS resolver: every address of a host name (A and AAAA). Injectable for tests. */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

/** The system resolver (`dns.lookup`, all addresses, in the order the system gives them). */
export const systemResolve: Resolve = (host) => new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** The rules of one request: whether loopback addresses may be reached, the resolver, the schemes allowed. */
export type OutgoingPolicy = {
  /** ALLOW_LOOPBACK_REQUESTS=1 (tests, local development) or an operator's explicit endpoint. */
  allowLoopback: boolean;
  /** Default: systemResolve. */
  resolve?: Resolve;
  /** Default: `["http:", "https:"]`. */
  protocols?: readonly string[];
};

const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
  linkLocal: "a link-local",
  loopback: "a loopback",
  carrierGradeNat: "a carrier-grade NAT",
  private: "a private",
  reserved: "a reserved",
  uniqueLocal: "a unique-local",
  ipv4Mapped: "an IPv4-mapped",
  rfc6145: "an IPv4-translated",
  rfc6052: "a NAT64",
  "6to4": "a 6to4",
  teredo: "a Teredo",
  benchmarking: "a benchmarking",
  discard: "a discard-only",
  deprecatedSiteLocal: "a site-local",
  orchid2: "an ORCHID",
  amt: "an AMT",
  as112: "an AS112",
  as112v6: "an AS112",
};
const words = (range: string) => RANGE_WORDS[range] ?? `a special-purpose (${range})`;

/** IPv4 judged: null when public unicast (or loopback with the switch), else the range's words. */
function v4Range(address: ipaddr.IPv4, allowLoopback: boolean): string | null {
  const range = address.range();
  if (range === "unicast" || (range === "loopback" && allowLoopback)) return null;
  return words(range);
}

/**
 * Why an IP address may not be called, or null when it may (see the module comment for the rules).
 * @param address an IPv4 or IPv6 literal without brackets.
 * @returns e.g. `"::ffff:7f00:1 is a loopback address (127.0.0.1), not on the public internet"`.
 */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  const refused = (what: string, embedded?: ipaddr.IPv4) =>
    `${address} is ${what} address${embedded && embedded.toString() !== address ? ` (${embedded.toString()})` : ""}, not on the public internet`;
  if (parsed.kind() === "ipv4") {
    const why = v4Range(parsed as ipaddr.IPv4, allowLoopback);
    return why && refused(why);
  }
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    const v4 = v6.toIPv4Address();
    const why = v4Range(v4, allowLoopback);
    return why && refused(why, v4);
  }
  const range = v6.range();
  const p = v6.parts;
  if (range === "rfc6052" && p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) {
    // NAT64 (RFC 6052 well-known prefix): the gateway connects to the embedded IPv4 address.
    const v4 = ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4;
    const why = v4Range(v4, false);
    return why && refused(`a NAT64 address of ${why.replace(/^an? /, "")}`, v4);
  }
  if (range === "loopback") return allowLoopback ? null : refused(words(range));
  if (range === "unicast") {
    if ((p[0] & 0xe000) === 0x2000) return null; // global unicast 2000::/3
    if (p.slice(0, 6).every((x) => x === 0)) return refused("an IPv4-compatible", ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4);
    return refused("an unassigned (not global unicast)");
  }
  return refused(words(range));
}

/** The host of a URL as a resolver or `isIP` takes it: without IPv6 brackets and trailing dots, lower case. */
export const hostOf = (url: URL): string =>
  url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
/** Whether a host name is `localhost` or under `.localhost` (RFC 6761: always loopback). */
export const isLoopbackName = (host: string): boolean => host === "localhost" || host.endsWith(".localhost");
/** Whether an IP literal is a loopback address (127.0.0.0/8, ::1, or either IPv4-mapped). */
export const isLoopbackAddress = (address: string): boolean => ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";

/**
 * The URL rules without DNS: scheme, credentials, an IP literal's range, loopback names.
 * @throws OutgoingRequestError (`refused`) naming the rule broken.
 */
export function checkOutgoingUrlSyntax(raw: string | URL, policy: OutgoingPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutgoingRequestError("refused", "not an absolute URL");
  }
  const protocols = policy.protocols ?? ["http:", "https:"];
  if (!protocols.includes(url.protocol)) throw new OutgoingRequestError("refused", `not an ${protocols.map((p) => `${p}//`).join(" or ")} URL`);
  if (url.username || url.password) throw new OutgoingRequestError("refused", "a URL with a user name or password is not allowed");
  const host = hostOf(url);
  if (isIP(host)) {
    const why = addressRefusal(host, policy.allowLoopback);
    if (why) throw new OutgoingRequestError("refused", why);
  } else if (isLoopbackName(host) && !policy.allowLoopback) {
    throw new OutgoingRequestError("refused", `${host} is a loopback host name, not on the public internet`);
  }
  return url;
}

/**
 * Resolve a host once and check every address. An IP literal is itself; a loopback name is 127.0.0.1 and ::1.
 * @returns the checked addresses (what the connection may use).
 * @throws OutgoingRequestError: `refused` (any address not allowed), `unresolved`.
 */
export async function resolveChecked(host: string, policy: OutgoingPolicy): Promise<LookupAddress[]> {
  const name = host
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
  const family = isIP(name);
  if (family) {
    const why = addressRefusal(name, policy.allowLoopback);
    if (why) throw new OutgoingRequestError("refused", why);
    return [{ address: name, family }];
  }
  if (isLoopbackName(name)) {
    if (!policy.allowLoopback) throw new OutgoingRequestError("refused", `${name} is a loopback host name, not on the public internet`);
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(name);
  } catch {
    throw new OutgoingRequestError("unresolved", `the host name ${name} does not resolve`);
  }
  if (addresses.length === 0) throw new OutgoingRequestError("unresolved", `the host name ${name} does not resolve`);
  for (const a of addresses) {
    const why = addressRefusal(a.address, policy.allowLoopback);
    if (why) throw new OutgoingRequestError("refused", `the host name ${name} resolves to ${why.replace(/, not on the public internet$/, "")}, not on the public internet`);
  }
  return addresses.map((a) => ({ address: a.address, family: a.family || isIP(a.address) }));
}

/**
 * A URL a merchant entered (a webhook receiver, a shop's address): syntax, then DNS with every address checked.
 * Nothing is sent. @returns the URL, normalised (WHATWG).
 * @throws OutgoingRequestError (`refused` or `unresolved`) saying what is wrong.
 */
export async function checkOutgoingUrl(raw: string | URL, policy: OutgoingPolicy): Promise<URL> {
  const url = checkOutgoingUrlSyntax(raw, policy);
  await resolveChecked(hostOf(url), policy);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** One request through the guard. Bounds: `maxBytes` of the answer, `timeoutMs` for all of it. */
export type GuardedRequest = OutgoingPolicy & {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Most bytes of the answer's body read (declared or streamed). */
  maxBytes: number;
  /** The whole request, DNS, connection, redirects and the answer included (ms). */
  timeoutMs: number;
  /** Longest silence of the socket, connecting included (ms). Default: no separate bound. */
  idleTimeoutMs?: number;
  /** Redirects followed, each hop checked again (default 0: a 3xx is the answer). */
  redirects?: number;
  /** Over `maxBytes`: `error` (default, kind `too-large`) or `truncate` (the first maxBytes, `truncated: true`). */
  overflow?: "error" | "truncate";
};

/** An answer: status, headers, body bytes (at most maxBytes), the URL that answered and the redirects followed. */
export type GuardedResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer; url: string; truncated: boolean; redirects: number };

/** Headers kept when a redirect goes to another origin (credentials such as Authorization or API tokens are not). */
const CROSS_ORIGIN_HEADERS = new Set(["accept", "accept-language", "user-agent"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const seconds = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);
const megabytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`);

/**
 * Make a request through the guard (see the module comment). @returns the answer, whatever its status.
 * @throws OutgoingRequestError: `refused` (nothing was sent to a refused address), `unresolved`, `timeout`,
 *   `too-large`, `redirects`, `network` (connection, TLS or protocol failure, with the system's words).
 */
export async function guardedFetch(raw: string | URL, request: GuardedRequest): Promise<GuardedResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new OutgoingRequestError("timeout", `no complete answer within ${seconds(request.timeoutMs)}`)), request.timeoutMs);
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true }));
  aborted.catch(() => {});
  try {
    let url = checkOutgoingUrlSyntax(raw, request);
    let method = (request.method ?? "GET").toUpperCase();
    let body = request.body;
    let headers: Record<string, string> = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const allowed = request.redirects ?? 0;
    for (let hop = 0; ; hop++) {
      const addresses = await Promise.race([resolveChecked(hostOf(url), request), aborted]);
      const follow = hop < allowed;
      const answer = await Promise.race([send(url, addresses, { method, headers, body }, request, controller.signal, allowed > 0), aborted]);
      const location = answer.headers.location;
      if (allowed > 0 && REDIRECTS.has(answer.status) && location) {
        if (!follow) throw new OutgoingRequestError("redirects", `too many redirects (more than ${allowed})`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new OutgoingRequestError("network", `answered ${answer.status} with an invalid Location`);
        }
        next = checkOutgoingUrlSyntax(next, request);
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          delete headers["content-type"];
          delete headers["content-length"];
        }
        if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => CROSS_ORIGIN_HEADERS.has(k)));
        url = next;
        continue;
      }
      return { ...answer, url: url.href, redirects: hop };
    }
  } finally {
    clearTimeout(timer);
  }
}

type Sent = { status: number; headers: IncomingHttpHeaders; body: Buffer; truncated: boolean };

/** One HTTP exchange to the checked `addresses` of `url`. A redirect answer (when redirects are followed) is not read. */
function send(
  url: URL,
  addresses: LookupAddress[],
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array },
  request: GuardedRequest,
  signal: AbortSignal,
  redirectsFollowed: boolean,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(signal.aborted ? signal.reason : error);
    };
    const succeed = (value: Sent) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const headers = { ...init.headers };
    if (init.body !== undefined && headers["content-length"] === undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
    // The socket gets only the addresses checked above: no second resolution (DNS rebinding).
    const lookup = (_hostname: string, options: { all?: boolean } | number, callback: LookupCallback) => {
      if (typeof options === "object" && options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(url, { method: init.method, headers, agent: false, lookup: lookup as never, signal, timeout: request.idleTimeoutMs });
    req.on("timeout", () => req.destroy(new OutgoingRequestError("timeout", `no connection or answer within ${seconds(request.idleTimeoutMs!)}`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (isOutgoingRequestError(error)) fail(error);
      else fail(new OutgoingRequestError("network", `${error.code ? `${error.code}: ` : ""}${error.message}`.slice(0, 300)));
    });
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      if (redirectsFollowed && REDIRECTS.has(status) && res.headers.location) {
        res.destroy();
        succeed({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false });
        return;
      }
      const tooLarge = () => new OutgoingRequestError("too-large", `larger than ${megabytes(request.maxBytes)}`);
      const declared = Number(res.headers["content-length"] ?? Number.NaN);
      if (declared > request.maxBytes && request.overflow !== "truncate") {
        res.destroy();
        fail(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        if (bytes + chunk.length > request.maxBytes) {
          res.destroy();
          if (request.overflow !== "truncate") {
            fail(tooLarge());
            return;
          }
          chunks.push(chunk.subarray(0, request.maxBytes - bytes));
          succeed({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: true });
          return;
        }
        bytes += chunk.length;
        chunks.push(chunk);
      });
      res.on("end", () => succeed({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: false }));
      res.on("error", (error) => fail(new OutgoingRequestError("network", `the answer broke off: ${error.message}`)));
      res.on("close", () => {
        if (!res.complete) fail(new OutgoingRequestError("network", "the answer broke off"));
      });
    });
    req.end(init.body);
  });
}
