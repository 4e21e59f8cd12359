/**
 * The outgoing-request guard (outgoing-request.ts) against real HTTP listeners on 127.0.0.1 and ::1 (same port):
 * with the loopback switch off, every spelling of a loopback, private or reserved target is refused and ZERO
 * connections arrive (counted at the listeners, and every client socket the process opens is counted through
 * node's `net.client.socket` diagnostics channel); with the switch on the same loopback spellings do arrive (so
 * the forms are real), non-loopback private targets are still refused, also after a redirect, without a socket;
 * DNS is asked once per hop and the connection goes to the address checked; answers are bounded in bytes and time.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { LookupAddress } from "node:dns";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addressRefusal, checkOutgoingUrl, guardedFetch, isOutgoingRequestError, type GuardedRequest, type OutgoingRequestError, type Resolve } from "./outgoing-request.ts";
import { ALWAYS_REFUSED, LOOPBACK_FORMS, REDIRECT_TARGETS } from "../../test/ssrf-forms.ts";

let v4: Server;
let v6: Server | null = null;
let port: number;
let arrived: { listener: "127.0.0.1" | "::1"; url: string; headers: IncomingMessage["headers"]; method: string }[] = [];
let connections = 0;
let clientSockets = 0;
const onClientSocket = () => clientSockets++;

function handler(listener: "127.0.0.1" | "::1") {
  return (req: IncomingMessage, res: import("node:http").ServerResponse) => {
    arrived.push({ listener, url: req.url ?? "", headers: req.headers, method: req.method ?? "" });
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (path === "/redirect" && to) res.writeHead(Number(new URL(req.url!, "http://x").searchParams.get("status") ?? 302), { location: to }).end();
    else if (path === "/big-declared") res.writeHead(200, { "content-length": "5000000" }).end();
    else if (path === "/big-streamed") {
      res.writeHead(200);
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(16 * 1024, 97));
      res.end();
    } else if (path === "/drip") {
      // A byte every 100 ms, forever: never silent long enough for an idle timeout, only the total bound stops it.
      res.writeHead(200);
      const timer = setInterval(() => res.write("x"), 100);
      res.on("close", () => clearInterval(timer));
    } else res.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${listener}`);
  };
}

beforeAll(async () => {
  subscribe("net.client.socket", onClientSocket);
  v4 = createServer(handler("127.0.0.1"));
  v4.on("connection", () => connections++);
  await new Promise<void>((resolve) => v4.listen(0, "127.0.0.1", resolve));
  port = (v4.address() as AddressInfo).port;
  const six = createServer(handler("::1"));
  six.on("connection", () => connections++);
  v6 = await new Promise<Server | null>((resolve) => {
    six.once("error", () => resolve(null)); // no IPv6 loopback on this machine: the ::1 forms still must be refused
    six.listen(port, "::1", () => resolve(six));
  });
});
afterAll(async () => {
  unsubscribe("net.client.socket", onClientSocket);
  for (const s of [v4, v6]) {
    s?.closeAllConnections();
    await new Promise((resolve) => s?.close(resolve));
  }
});
beforeEach(() => {
  arrived = [];
  connections = 0;
  clientSockets = 0;
});

const bounds = { maxBytes: 64 * 1024, timeoutMs: 3000 } satisfies Partial<GuardedRequest>;
const refusal = async (promise: Promise<unknown>): Promise<OutgoingRequestError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isOutgoingRequestError(error)) throw new Error(`expected an OutgoingRequestError, got ${String(error)}`);
  return error;
};

describe("with the loopback switch off", () => {
  it.each([...LOOPBACK_FORMS, ...ALWAYS_REFUSED])("http://%s refused before any connection", async (host) => {
    const url = `http://${host}:${port}/x.png`;
    const error = await refusal(guardedFetch(url, { ...bounds, allowLoopback: false }));
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/not on the public internet/);
    expect((await refusal(checkOutgoingUrl(url, { allowLoopback: false }))).kind).toBe("refused");
    expect((await refusal(guardedFetch(url.replace("http:", "https:"), { ...bounds, allowLoopback: false }))).kind).toBe("refused");
    expect({ connections, clientSockets, arrived: arrived.length }).toEqual({ connections: 0, clientSockets: 0, arrived: 0 });
  });

  it("a name that resolves to loopback (or to a public and a loopback address) is refused; the resolver is asked once", async () => {
    const asked: string[] = [];
    const resolver =
      (answer: string[]): Resolve =>
      (host) => {
        asked.push(host);
        return Promise.resolve(answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
      };
    for (const answer of [["127.0.0.1"], ["::1"], ["93.184.215.14", "127.0.0.1"], ["2606:4700::1111", "::ffff:127.0.0.1"], ["10.1.2.3"]]) {
      const error = await refusal(guardedFetch(`http://rebind.example:${port}/`, { ...bounds, allowLoopback: false, resolve: resolver(answer) }));
      expect(error.kind, answer.join()).toBe("refused");
      expect(error.message).toMatch(/^the host name rebind\.example resolves to .* address/);
    }
    expect(asked).toEqual(Array(5).fill("rebind.example"));
    const unresolved = await refusal(guardedFetch(`http://nowhere.example:${port}/`, { ...bounds, allowLoopback: false, resolve: () => Promise.reject(new Error("ENOTFOUND")) }));
    expect(unresolved).toMatchObject({ kind: "unresolved", message: "the host name nowhere.example does not resolve" });
    expect({ connections, clientSockets }).toEqual({ connections: 0, clientSockets: 0 });
  });

  it("other schemes and credentials in the URL are refused", async () => {
    for (const url of ["ftp://example.com/x", "file:///etc/passwd", "gopher://127.0.0.1:70/", "data:text/plain,x", "https://user:pass@example.com/", "not a url"]) {
      expect((await refusal(guardedFetch(url, { ...bounds, allowLoopback: false }))).kind, url).toBe("refused");
    }
    expect(clientSockets).toBe(0);
  });
});

describe("with the loopback switch on (tests, local development)", () => {
  it.each(LOOPBACK_FORMS)("http://%s arrives at a loopback listener", async (host) => {
    if (!v6 && host.startsWith("[::1]")) return;
    const res = await guardedFetch(`http://${host}:${port}/x.png`, { ...bounds, allowLoopback: true });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toMatch(/^hello from (127\.0\.0\.1|::1)$/);
    expect(arrived).toHaveLength(1);
  });

  it.each(ALWAYS_REFUSED)("http://%s is still refused, without a connection", async (host) => {
    expect((await refusal(guardedFetch(`http://${host}:${port}/`, { ...bounds, allowLoopback: true }))).kind).toBe("refused");
    expect({ connections, clientSockets }).toEqual({ connections: 0, clientSockets: 0 });
  });

  it("a redirect to a private or metadata address is refused before connecting to it; each hop is checked", async () => {
    for (const to of REDIRECT_TARGETS) {
      clientSockets = 0;
      arrived = [];
      const error = await refusal(guardedFetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(to)}`, { ...bounds, allowLoopback: true, redirects: 3 }));
      expect(error.kind, to).toBe("refused");
      expect(arrived).toHaveLength(1); // the first hop only
      expect(clientSockets, to).toBe(1); // no socket for the refused hop
    }
    // A name in the Location is resolved and checked too.
    const error = await refusal(
      guardedFetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent("http://internal.example/")}`, {
        ...bounds,
        allowLoopback: true,
        redirects: 3,
        resolve: (host) => Promise.resolve(host === "internal.example" ? [{ address: "10.20.30.40", family: 4 }] : []),
      }),
    );
    expect(error.message).toMatch(/internal\.example resolves to 10\.20\.30\.40 is a private address/);
  });

  it("without redirects allowed a 3xx is the answer; redirects beyond the limit fail", async () => {
    const loop = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port}/x`)}`;
    const res = await guardedFetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent("http://10.0.0.1/")}`, { ...bounds, allowLoopback: true });
    expect(res).toMatchObject({ status: 302, redirects: 0 });
    expect(res.headers.location).toBe("http://10.0.0.1/");
    const followed = await guardedFetch(loop, { ...bounds, allowLoopback: true, redirects: 1 });
    expect(followed).toMatchObject({ status: 200, redirects: 1, url: `http://127.0.0.1:${port}/x` });
    const tooMany = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(loop)}`;
    expect(await refusal(guardedFetch(tooMany, { ...bounds, allowLoopback: true, redirects: 1 }))).toMatchObject({ kind: "redirects", message: "too many redirects (more than 1)" });
  });

  it("a redirect to another origin drops credentials; a 303 turns a POST into a GET", async () => {
    const to = `http://localhost:${port}/landed`;
    await guardedFetch(`http://127.0.0.1:${port}/redirect?status=307&to=${encodeURIComponent(to)}`, {
      ...bounds,
      allowLoopback: true,
      redirects: 1,
      method: "POST",
      body: "{}",
      headers: { authorization: "Bearer secret", "x-shopify-access-token": "shpat_x", accept: "application/json", "content-type": "application/json" },
    });
    expect(arrived[0].headers).toMatchObject({ authorization: "Bearer secret", "x-shopify-access-token": "shpat_x" });
    expect(arrived[1]).toMatchObject({ method: "POST", url: "/landed" });
    expect(arrived[1].headers.authorization).toBeUndefined();
    expect(arrived[1].headers["x-shopify-access-token"]).toBeUndefined();
    expect(arrived[1].headers.accept).toBe("application/json");
    arrived = [];
    await guardedFetch(`http://127.0.0.1:${port}/redirect?status=303&to=%2Fafter`, { ...bounds, allowLoopback: true, redirects: 1, method: "POST", body: "{}" });
    expect(arrived.map((a) => a.method)).toEqual(["POST", "GET"]);
  });

  it("DNS is asked once per hop and the connection goes to the address that was checked (rebinding)", async () => {
    const answers: LookupAddress[][] = [[{ address: "127.0.0.1", family: 4 }], [{ address: "10.0.0.1", family: 4 }], [{ address: "169.254.169.254", family: 4 }]];
    let asked = 0;
    const rebinding: Resolve = () => Promise.resolve(answers[Math.min(asked++, answers.length - 1)]);
    const res = await guardedFetch(`http://rebind.example:${port}/checked`, { ...bounds, allowLoopback: true, resolve: rebinding });
    expect(res.status).toBe(200);
    expect(asked).toBe(1);
    expect(arrived).toEqual([expect.objectContaining({ listener: "127.0.0.1", url: "/checked" })]);
    expect(arrived[0].headers.host).toBe(`rebind.example:${port}`);
    // The next request asks again, gets the private answer, and is refused without a socket.
    clientSockets = 0;
    expect((await refusal(guardedFetch(`http://rebind.example:${port}/`, { ...bounds, allowLoopback: true, resolve: rebinding }))).kind).toBe("refused");
    expect(clientSockets).toBe(0);
  });

  it("bounds the answer in bytes (declared and streamed; or truncates) and the whole request in time", async () => {
    expect(await refusal(guardedFetch(`http://127.0.0.1:${port}/big-declared`, { ...bounds, allowLoopback: true }))).toMatchObject({ kind: "too-large", message: "larger than 64 KB" });
    expect(await refusal(guardedFetch(`http://127.0.0.1:${port}/big-streamed`, { ...bounds, allowLoopback: true }))).toMatchObject({ kind: "too-large" });
    const cut = await guardedFetch(`http://127.0.0.1:${port}/big-streamed`, { ...bounds, allowLoopback: true, overflow: "truncate" });
    expect(cut).toMatchObject({ status: 200, truncated: true });
    expect(cut.body.length).toBe(64 * 1024);
    const started = performance.now();
    expect(await refusal(guardedFetch(`http://127.0.0.1:${port}/drip`, { ...bounds, allowLoopback: true, timeoutMs: 500, idleTimeoutMs: 400 }))).toMatchObject({
      kind: "timeout",
      message: "no complete answer within 500 ms",
    });
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe("addressRefusal", () => {
  it("allows public unicast (also NAT64 of a public IPv4) and names the range of the rest", () => {
    for (const a of ["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"]) expect(addressRefusal(a, false), a).toBeNull();
    expect(addressRefusal("::ffff:7f00:1", false)).toBe("::ffff:7f00:1 is a loopback address (127.0.0.1), not on the public internet");
    expect(addressRefusal("::7f00:1", true)).toBe("::7f00:1 is an IPv4-compatible address (127.0.0.1), not on the public internet");
    expect(addressRefusal("64:ff9b::7f00:1", true)).toBe("64:ff9b::7f00:1 is a NAT64 address of loopback address (127.0.0.1), not on the public internet");
    expect(addressRefusal("100.64.0.1", false)).toMatch(/carrier-grade NAT/);
    expect(addressRefusal("fe80::1", false)).toMatch(/link-local/);
    expect(addressRefusal("fd12::1", false)).toMatch(/unique-local/);
    expect(addressRefusal("127.0.0.1", true)).toBeNull();
    expect(addressRefusal("::1", true)).toBeNull();
    expect(addressRefusal("10.0.0.1", true)).toMatch(/private/);
    expect(addressRefusal("not-an-ip", true)).toMatch(/not an IP address/);
  });
});
