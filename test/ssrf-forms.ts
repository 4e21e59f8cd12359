/**
 * SSRF test material shared by the outgoing-request guard's tests (server/shared/outgoing-request.test.ts), the
 * importer's (server/import/app-import.api.test.ts) and the webhooks' (server/webhooks/webhooks.api.test.ts):
 * the spellings of loopback and of other internal targets, and real loopback listeners that count connections.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Loopback in every spelling (hosts as written in a URL, without the port): refused unless ALLOW_LOOPBACK_REQUESTS=1. */
export const LOOPBACK_FORMS = [
  "127.0.0.1",
  "127.1",
  "2130706433",
  "0x7f000001",
  "0177.0.0.1",
  "017700000001",
  "0x7f.1",
  "127.0.0.1.",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[0:0:0:0:0:ffff:127.0.0.1]",
  "[0000:0000:0000:0000:0000:ffff:7f00:0001]",
  "localhost",
  "foo.localhost",
  "LOCALHOST.",
  "LocalHost",
] as const;

/**
 * Refused with or without the switch: IPv4-compatible, NAT64, IPv4-translated, 6to4 and Teredo forms of internal
 * addresses, the unspecified address, private, link-local (cloud metadata), CGNAT, benchmarking, documentation,
 * reserved, broadcast, multicast, unique-local and site-local ranges.
 */
export const ALWAYS_REFUSED = [
  "[::127.0.0.1]",
  "[::7f00:1]",
  "[64:ff9b::127.0.0.1]",
  "[64:ff9b::a00:1]",
  "[64:ff9b:1::7f00:1]",
  "[::ffff:0:127.0.0.1]",
  "[2002:7f00:1::1]",
  "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
  "0.0.0.0",
  "0",
  "[::]",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "169.254.169.254",
  "[::ffff:169.254.169.254]",
  "100.64.0.1",
  "198.18.0.1",
  "192.0.2.1",
  "192.0.0.8",
  "240.0.0.1",
  "255.255.255.255",
  "224.0.0.1",
  "[fe80::1]",
  "[fc00::1]",
  "[fd00::1]",
  "[fec0::1]",
  "[ff02::1]",
  "[2001:db8::1]",
  "[2001:2::1]",
  "[100::1]",
  "0x0a000001",
  "012.0.0.1",
  "167772161",
] as const;

/** Redirect targets a public-looking first hop may send a request to (metadata service, private networks). */
export const REDIRECT_TARGETS = [
  "http://10.0.0.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[fd00::1]/",
  "http://0x0a000001/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://0.0.0.0:80/",
] as const;

export type LoopbackListeners = {
  /** The port both listeners use. */
  port: number;
  /** Whether ::1 could be bound (else the [::1] forms have no listener, and must still be refused). */
  ipv6: boolean;
  /** TCP connections accepted so far, by both listeners. */
  connections: () => number;
  /** Requests received so far, with the listener that got them. */
  requests: { listener: "127.0.0.1" | "::1"; url: string; method: string; headers: IncomingMessage["headers"] }[];
  close: () => Promise<void>;
};

/**
 * HTTP listeners on 127.0.0.1 and ::1 on one free port, counting connections. `handle` answers (default: 200
 * `hello from <listener>`; `/redirect?to=URL&status=302` redirects).
 */
export async function startLoopbackListeners(handle?: RequestListener): Promise<LoopbackListeners> {
  let connections = 0;
  const requests: LoopbackListeners["requests"] = [];
  const make = (listener: "127.0.0.1" | "::1") => {
    const server = createServer((req, res) => {
      requests.push({ listener, url: req.url ?? "", method: req.method ?? "", headers: req.headers });
      if (handle) return handle(req, res);
      const url = new URL(req.url ?? "/", "http://x");
      const to = url.searchParams.get("to");
      if (url.pathname === "/redirect" && to) res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: to }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${listener}`);
    });
    server.on("connection", () => connections++);
    return server;
  };
  const v4 = make("127.0.0.1");
  await new Promise<void>((resolve) => v4.listen(0, "127.0.0.1", resolve));
  const port = (v4.address() as AddressInfo).port;
  const six = make("::1");
  const v6 = await new Promise<Server | null>((resolve) => {
    six.once("error", () => resolve(null));
    six.listen(port, "::1", () => resolve(six));
  });
  return {
    port,
    ipv6: v6 !== null,
    connections: () => connections,
    requests,
    async close() {
      for (const s of [v4, v6]) {
        s?.closeAllConnections();
        await new Promise((resolve) => s?.close(resolve));
      }
    },
  };
}
