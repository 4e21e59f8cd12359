/**
 * The demo shopper switch (`/demo/loyalty?shopper=…`) over real HTTP (issue 19, finding 13): it signs a
 * valid storefront platform token for any demo shopper, so it answers only on the machine running the
 * demo (loopback client, CHORUS_DEMO=1). Real server, real Remix build, the real loyalty demo seeder.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";
import { loyaltyDemoSeeder } from "../../server/loyalty/loyalty.demo.ts";
import type { Config } from "../../server/config.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { demoShopperSwitchAllowed, isLoopback } from "./demo-pages.server.ts";

let direct: TestServer;
let proxied: TestServer;
const TOKEN_TAG = 'id="chorus-customer-token"';

beforeAll(async () => {
  direct = await startTestServer();
  proxied = await startTestServer({ trustedProxies: "loopback" }); // as behind a reverse proxy on this machine
  for (const t of [direct, proxied]) {
    await t.services.stores.create({ storeId: DEMO_STORE_ID, name: "Chorus Demo Boutique", platform: "shopify" });
    await loyaltyDemoSeeder(DEMO_STORE_ID).run({ services: t.services, config: {} as Config, log: () => {} });
  }
});
afterAll(async () => {
  await direct.close();
  await proxied.close();
});
const savedDemo = process.env.CHORUS_DEMO;
afterEach(() => {
  if (savedDemo === undefined) delete process.env.CHORUS_DEMO;
  else process.env.CHORUS_DEMO = savedDemo;
});

const get = async (t: TestServer, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(t.url(path), { headers });
  return { status: res.status, html: await res.text() };
};

describe("/demo/loyalty?shopper=… (demo shopper switch)", () => {
  it("on this machine (loopback) signs the demo shopper's token", async () => {
    const { status, html } = await get(direct, "/demo/loyalty?shopper=demo-enrolled");
    expect(status).toBe(200);
    expect(html).toContain(TOKEN_TAG);
  });

  it("a visitor from another address (through a trusted proxy) gets 403 and no token", async () => {
    const { status, html } = await get(proxied, "/demo/loyalty?shopper=demo-enrolled", { "x-forwarded-for": "203.0.113.7" });
    expect(status).toBe(403);
    expect(html).not.toContain(TOKEN_TAG);
    expect(html).toMatch(/only on the machine running the demo/);
    // Without a shopper the page is the same public page as before.
    expect((await get(proxied, "/demo/loyalty", { "x-forwarded-for": "203.0.113.7" })).status).toBe(200);
  });

  it("a local reverse proxy that is not trusted does not make a forwarded visitor local", async () => {
    const forwardings: Record<string, string>[] = [{ "x-forwarded-for": "198.51.100.4" }, { forwarded: 'for="[2001:db8::1]:4711"' }, { "x-real-ip": "198.51.100.4" }];
    for (const headers of forwardings) {
      const { status, html } = await get(direct, "/demo/loyalty?shopper=demo-enrolled", headers);
      expect(status, JSON.stringify(headers)).toBe(403);
      expect(html).not.toContain(TOKEN_TAG);
    }
  });

  it("CHORUS_DEMO=0 turns the switch off even on this machine", async () => {
    process.env.CHORUS_DEMO = "0";
    const { status, html } = await get(direct, "/demo/loyalty?shopper=demo-enrolled");
    expect(status).toBe(403);
    expect(html).not.toContain(TOKEN_TAG);
  });
});

describe("demoShopperSwitchAllowed", () => {
  const req = (headers: Record<string, string> = {}) => new Request("http://localhost/demo/loyalty", { headers });
  it.each([
    ["127.0.0.1", {}, true],
    ["::1", {}, true],
    ["::ffff:127.0.0.1", {}, true],
    ["127.8.9.10", {}, true],
    ["10.0.0.1", {}, false],
    ["::ffff:10.0.0.1", {}, false],
    [undefined, {}, false],
    ["", {}, false],
    ["127.0.0.1", { "x-forwarded-for": "127.0.0.1, ::1" }, true],
    ["127.0.0.1", { forwarded: "for=127.0.0.1:5000;proto=http" }, true],
    ["127.0.0.1", { forwarded: 'for="[::1]:5000"' }, true],
    ["127.0.0.1", { "x-forwarded-for": "127.0.0.1, 192.0.2.1" }, false],
  ] as const)("client %s with %j → %s", (ip, headers, allowed) => {
    expect(demoShopperSwitchAllowed(req(headers), ip, { CHORUS_DEMO: "1" })).toBe(allowed);
  });
  it("isLoopback refuses look-alikes", () => {
    for (const a of ["127.0.0.1.evil.test", "1127.0.0.1", "::2", "localhost"]) expect(isLoopback(a)).toBe(false);
  });
});
