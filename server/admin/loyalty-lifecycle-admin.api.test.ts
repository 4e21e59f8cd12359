/**
 * The admin's points lifecycle page over real HTTP (docs/loyalty.md "Lifecycle settings"): the settings are shown,
 * saved, and refused with a message per field when out of range (400, nothing changed).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";

let t: TestServer;
const A = randomUUID();
type Agent = { cookie: string; csrf: string };
let owner: Agent;
const PAGE = `/admin/stores/${A}/loyalty/lifecycle`;

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

async function signIn(email: string, password: string): Promise<Agent> {
  const page = await fetch(t.url("/admin/login"));
  const loginCookie = setCookie(page, "chorus_admin_login")!.split(";")[0];
  const csrf = hidden(await page.text(), "csrf")!;
  const res = await fetch(t.url("/admin/login"), {
    method: "POST",
    redirect: "manual",
    headers: { cookie: loginCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, email, password, next: "/admin" }),
  });
  const cookie = setCookie(res, "chorus_admin")!.split(";")[0];
  const settings = await fetch(t.url(`/admin/stores/${A}/settings`), { headers: { cookie } });
  return { cookie, csrf: hidden(await settings.text(), "csrf")! };
}
const post = (fields: Record<string, string>) =>
  fetch(t.url(PAGE), {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ csrf: owner.csrf, ...fields }),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: owner.cookie },
  });

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: A, name: "Lifecycle shop", platform: "shopify" });
  await t.services.loyalty.setupProgram(A, demoProgram("lifecycle-admin-secret-0123456789"));
  await t.services.admin.createUser({ email: "owner@lifecycle.test", password: "owner password 123", storeIds: [A] });
  owner = await signIn("owner@lifecycle.test", "owner password 123");
}, 120_000);
afterAll(() => t.close());

describe("admin: points lifecycle", () => {
  it("shows the defaults, saves valid settings, and refuses values out of range with a message per field", async () => {
    const page = await (await fetch(t.url(PAGE), { headers: { cookie: owner.cookie } })).text();
    expect(page).toContain("Points lifecycle");
    expect(page).toMatch(/name="timeZone"[^>]*value="UTC"/);

    const saved = await post({ timeZone: "Europe/Paris", pointsExpiryMonths: "12", returnWindowDays: "30", tierRequalification: "on" });
    expect(saved.status).toBe(303);
    expect(await t.services.loyaltyLifecycle.settings(A)).toEqual({ timeZone: "Europe/Paris", pointsExpiryMonths: 12, returnWindowDays: 30, tierRequalification: true });

    const bad = await post({ timeZone: "Mars/Olympus", pointsExpiryMonths: "5", returnWindowDays: "61" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("timeZone must be an IANA time zone");
    expect(await t.services.loyaltyLifecycle.settings(A)).toEqual({ timeZone: "Europe/Paris", pointsExpiryMonths: 12, returnWindowDays: 30, tierRequalification: true });

    expect((await post({ timeZone: "UTC", pointsExpiryMonths: "", returnWindowDays: "0" })).status).toBe(303); // expiry off, re-qualification off
    expect(await t.services.loyaltyLifecycle.settings(A)).toEqual({ timeZone: "UTC", pointsExpiryMonths: null, returnWindowDays: 0, tierRequalification: false });
  });
});
