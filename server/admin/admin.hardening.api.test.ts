/**
 * Issue 19 over real HTTP (the real server, the real Remix build, a temp SQLite file), admin side:
 * bounded admin forms (finding 1), sign-in throttling under concurrency (2) and from many addresses (3),
 * sessions ended by a password change through the real CLI (7), and bad cookies and bodies answered
 * with 4xx pages, never a 500 or a stack trace (8). The tests stand behind a proxy on loopback, so
 * `X-Forwarded-For` names the client address.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { adminGet, adminPost, openLoginForm, postAdminLogin, setCookieHeader, signInAgent, submitLoginForm, type AdminAgent } from "../../test/admin-http.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { PROJECT_ROOT } from "../config.ts";
import { sql, value } from "../db/database.ts";

const run = promisify(execFile);
let t: TestServer;
const A = TEST_STORE_ID;
const OWNER = "owner@shop-a.test";
const OWNER_PASSWORD = "owner's long passphrase";
let owner: AdminAgent;
const from = (ip: string) => ({ "x-forwarded-for": ip });
// The documented limits (docs/admin.md "Sign-in throttling"; LOGIN_THROTTLE.free), written out so this
// file also runs against older code and shows what it did.
const FREE_PER_ADDRESS_EMAIL = 5;
const FREE_PER_ADDRESS = 20;

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback" });
  await t.services.stores.create({ storeId: A, name: "Shop A", platform: "shopify" });
  await t.services.admin.createUser({ email: OWNER, password: OWNER_PASSWORD, storeIds: [A] });
  await t.services.admin.createUser({ email: "staff@shop-a.test", password: "staff passphrase", storeIds: [A] });
  owner = await signInAgent(t, OWNER, OWNER_PASSWORD, A);
});
afterAll(() => t.close());

/** What a 4xx error page must not contain: a stack frame, an internal error name or a source path. */
function expectNoInternals(body: string) {
  expect(body).not.toMatch(/\n\s+at |TypeError|SyntaxError|URIError|node:internal|\/work\/|\.ts:\d+/);
}

describe("finding 1: admin forms are read with the bounded reader", () => {
  const big = "x".repeat(300 * 1024); // over BODY_LIMITS.form (256 KB)

  it("a sign-in form over 256 KB answers 413 with a plain error page (and the connection is closed)", async () => {
    const form = await openLoginForm(t, from("192.0.2.10"));
    const res = await fetch(t.url("/admin/login"), {
      method: "POST",
      redirect: "manual",
      headers: { ...from("192.0.2.10"), cookie: form.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: form.csrf, email: OWNER, password: "wrong password", padding: big }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    const html = await res.text();
    expect(html).toContain("Too much to send");
    expect(html).toContain("too large");
    expectNoInternals(html);
  });

  it("a store action over 256 KB answers 413 and changes nothing", async () => {
    const before = (await t.services.stores.get(A))!.moderation;
    const res = await adminPost(t, owner, `/admin/stores/${A}/settings`, { intent: "store", moderation: "auto-publish-all", translation: "off", padding: big });
    expect(res.status).toBe(413);
    expectNoInternals(await res.text());
    expect((await t.services.stores.get(A))!.moderation).toBe(before);
  });

  it("a 5 MB body declared by Content-Length is refused without reading it", async () => {
    const started = performance.now();
    const res = await adminPost(t, owner, `/admin/stores/${A}/reviews`, { intent: "reply", reply: "y".repeat(5 * 1024 * 1024) });
    expect(res.status).toBe(413);
    await res.text();
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("sign-out reads its form with the same reader (JSON → 415, the session stays)", async () => {
    const res = await fetch(t.url("/admin/logout"), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      body: JSON.stringify({ csrf: owner.csrf }),
    });
    expect(res.status).toBe(415);
    expect((await adminGet(t, owner, `/admin/stores/${A}/settings`)).status).toBe(200);
  });
});

describe("finding 2: concurrent wrong passwords cannot defeat the limit", () => {
  it("60 concurrent wrong passwords for one e-mail from one address: 5 are checked (401), 55 answer 429 with Retry-After", async () => {
    const ip = from("198.51.100.60");
    const form = await openLoginForm(t, ip);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => submitLoginForm(t, form, OWNER, `wrong password ${i}`, ip)));
    const statuses = answers.map((r) => r.status);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE_PER_ADDRESS_EMAIL);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - FREE_PER_ADDRESS_EMAIL);
    expect(bodies.filter((b) => b.includes("E-mail or password is wrong"))).toHaveLength(FREE_PER_ADDRESS_EMAIL);
    const limited = answers.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // The right password from that address waits too; from the owner's own address it gets in.
    expect((await submitLoginForm(t, form, OWNER, OWNER_PASSWORD, ip)).status).toBe(429);
    expect((await postAdminLogin(t, OWNER, OWNER_PASSWORD, from("203.0.113.1"))).status).toBe(302);
  });
});

describe("finding 3: nobody can lock the merchant out", () => {
  it("after wrong passwords from 24 addresses (each locked), the owner's correct password from a clean address signs in", async () => {
    for (let i = 0; i < 24; i++) {
      const ip = from(`198.18.0.${i + 1}`);
      const form = await openLoginForm(t, ip);
      for (let j = 0; j < FREE_PER_ADDRESS_EMAIL; j++) expect((await submitLoginForm(t, form, OWNER, `guess ${i}-${j}`, ip)).status).toBe(401);
      expect((await submitLoginForm(t, form, OWNER, `guess ${i}-x`, ip)).status).toBe(429);
    }
    const res = await postAdminLogin(t, OWNER, OWNER_PASSWORD, from("203.0.113.2"));
    expect(res.status).toBe(302);
    expect(setCookieHeader(res, "chorus_admin")).toBeDefined();
  });

  it("one address guessing across e-mails is stopped after 20 failures, for every e-mail, while other addresses are not", async () => {
    const ip = from("198.51.100.200");
    const form = await openLoginForm(t, ip);
    for (let i = 0; i < FREE_PER_ADDRESS; i++) expect((await submitLoginForm(t, form, `guess-${i}@shop-a.test`, "wrong password", ip)).status).toBe(401);
    expect((await submitLoginForm(t, form, "staff@shop-a.test", "staff passphrase", ip)).status).toBe(429);
    expect((await postAdminLogin(t, "staff@shop-a.test", "staff passphrase", from("198.51.100.201"))).status).toBe(302);
  });
});

describe("finding 7: a password change ends the other sessions", () => {
  it("`npm run users -- password` signs out every session of the user (two browsers), the new password works", async () => {
    const laptop = await signInAgent(t, "staff@shop-a.test", "staff passphrase", A);
    const phone = await signInAgent(t, "staff@shop-a.test", "staff passphrase", A);
    expect((await adminGet(t, phone, `/admin/stores/${A}/reviews`)).status).toBe(200);
    const sessionsOf = async () => (await value(t.services.db, sql`SELECT count(*) FROM admin_sessions s JOIN merchant_users u USING (user_id) WHERE u.email = ${"staff@shop-a.test"}`)) as number;
    const before = await sessionsOf();
    expect(before).toBeGreaterThanOrEqual(2);
    // The CLI opens the server's database: its SQLite file, or its PostgreSQL database (npm run test:postgres).
    const database = t.services.databasePath;
    const env = { ...process.env, ...(/^postgres(ql)?:/.test(database) ? { DATABASE_URL: database } : { DATABASE_PATH: database }), MEDIA_PATH: join(t.dir, "media") };
    const { stdout } = await run(process.execPath, ["server/cli/users.ts", "password", "--email", "staff@shop-a.test", "--password", "new staff passphrase"], { cwd: PROJECT_ROOT, env });
    for (const agent of [laptop, phone]) {
      const res = await adminGet(t, agent, `/admin/stores/${A}/reviews`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/admin\/login/);
    }
    expect(await sessionsOf()).toBe(0);
    expect(stdout).toContain(`${before} sessions signed out`);
    expect((await adminGet(t, owner, `/admin/stores/${A}/reviews`)).status).toBe(200); // another user's session is untouched
    expect((await postAdminLogin(t, "staff@shop-a.test", "staff passphrase", from("203.0.113.3"))).status).toBe(401);
    expect((await postAdminLogin(t, "staff@shop-a.test", "new staff passphrase", from("203.0.113.3"))).status).toBe(302);
  });
});

describe("finding 8: bad cookies and bodies answer 4xx, never 500", () => {
  const BAD_COOKIES = ["chorus_admin=%E0%A4%A", "chorus_admin=%", "chorus_admin=%E0%A4%A; chorus_admin_login=%ZZ", "chorus_admin", "=; ;;chorus_admin==="];
  const PAGES = [
    "/admin",
    "/admin/login",
    `/admin/stores/${A}`,
    `/admin/stores/${A}/reviews`,
    `/admin/stores/${A}/settings`,
    `/admin/stores/${A}/surveys/export.csv`,
    `/admin/stores/${A}/surveys/responses/nope`,
  ];

  it.each(BAD_COOKIES)("Cookie %j: every admin page answers as signed out (sign-in page or a redirect to it)", async (cookie) => {
    for (const page of PAGES) {
      const res = await fetch(t.url(page), { redirect: "manual", headers: { cookie } });
      expect([200, 302], `${page}: ${res.status}`).toContain(res.status);
      if (res.status === 302) expect(res.headers.get("location")).toMatch(/^\/admin\/login/);
      expectNoInternals(await res.text());
    }
  });

  it("an undecodable cookie next to a good session cookie does not hide it", async () => {
    const res = await adminGet(t, { ...owner, cookie: `junk=%E0%A4%A; ${owner.cookie}` }, `/admin/stores/${A}/settings`);
    expect(res.status).toBe(200);
  });

  const BODIES: [string, string, string, number][] = [
    ["JSON", "application/json", JSON.stringify({ email: OWNER, password: "x" }), 415],
    ["plain text", "text/plain", "email=x", 415],
    ["no content type", "", "email=x", 415],
    ["multipart without its boundary", "multipart/form-data", "--x\r\n", 400],
    ["broken multipart", "multipart/form-data; boundary=xyz", "--xyz\r\nbroken", 400],
    ["truncated multipart", "multipart/form-data; boundary=xyz", '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nx', 400],
  ];

  it.each(BODIES)("a %s body to /admin/login answers %i with a plain page", async (_name, type, body, status) => {
    const form = await openLoginForm(t, from("192.0.2.30"));
    const res = await fetch(t.url("/admin/login"), {
      method: "POST",
      redirect: "manual",
      body,
      headers: { ...from("192.0.2.30"), cookie: form.cookie, ...(type ? { "content-type": type } : {}) },
    });
    expect(res.status).toBe(status);
    const html = await res.text();
    expect(html).toContain('id="error-title"');
    expectNoInternals(html);
  });

  it.each(BODIES)("a %s body to a signed-in store action answers %i and changes nothing", async (_name, type, body, status) => {
    const before = await t.services.stores.get(A);
    for (const page of ["settings", "reviews", "integration", "questions", "ai", "loyalty"]) {
      const res = await fetch(t.url(`/admin/stores/${A}/${page}`), {
        method: "POST",
        redirect: "manual",
        body,
        headers: { cookie: owner.cookie, ...(type ? { "content-type": type } : {}) },
      });
      expect(res.status, page).toBe(status);
      expectNoInternals(await res.text());
    }
    expect(await t.services.stores.get(A)).toEqual(before);
  });

  it("a well-formed multipart sign-in still works", async () => {
    const ip = from("192.0.2.31");
    const login = await openLoginForm(t, ip);
    const body = new FormData();
    for (const [k, v] of Object.entries({ csrf: login.csrf, email: OWNER, password: OWNER_PASSWORD, next: "/admin" })) body.append(k, v);
    const res = await fetch(t.url("/admin/login"), { method: "POST", redirect: "manual", body, headers: { ...ip, cookie: login.cookie } });
    expect(res.status).toBe(302);
  });

  it("a page outside the admin that does not exist gets the root error page: 404, a heading, no internals", async () => {
    const res = await fetch(t.url("/no-such-page"));
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<h1 id="error-title">Page not found</h1>');
    expectNoInternals(html);
  });
});
