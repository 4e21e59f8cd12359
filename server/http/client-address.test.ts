import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, compileProxyTrust } from "./client-address.ts";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The address a real server on loopback sees for a request with `headers`, under TRUSTED_PROXIES=`spec`. */
async function seenAddress(spec: string, headers: Record<string, string>): Promise<string> {
  const trust = compileProxyTrust(spec);
  server = createServer((req, res) => res.end(clientAddress(req, trust)));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers });
  return res.text();
}

describe("clientAddress", () => {
  it("without trusted proxies a forged X-Forwarded-For changes nothing", async () => {
    expect(await seenAddress("", { "x-forwarded-for": "203.0.113.7" })).toBe("127.0.0.1");
  });

  it("behind a trusted proxy the forwarded client address counts", async () => {
    expect(await seenAddress("loopback", { "x-forwarded-for": "203.0.113.7" })).toBe("203.0.113.7");
  });

  it("a client's own forged entries before the proxy's are not believed", async () => {
    // the client sent "X-Forwarded-For: 198.51.100.1"; the trusted proxy appended the real peer 203.0.113.7
    expect(await seenAddress("loopback", { "x-forwarded-for": "198.51.100.1, 203.0.113.7" })).toBe("203.0.113.7");
  });

  it("a chain of trusted proxies is walked back to the first untrusted hop", async () => {
    expect(await seenAddress("loopback, 10.0.0.0/8", { "x-forwarded-for": "198.51.100.1, 203.0.113.7, 10.1.2.3" })).toBe("203.0.113.7");
  });
});
