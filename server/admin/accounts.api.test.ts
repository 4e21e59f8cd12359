/**
 * Accounts over real HTTP (the real server and Remix build, a temp SQLite file): store sign-up (closed by
 * default, field errors, duplicate e-mail, the per-address limit under concurrency), new stores from the
 * admin (operators), the team page with invitations (single-use, expiring, forged, revoked, other
 * stores) and removal, and password reset (no enumeration, single-use, expiry, sessions ended).
 * Links are read from the outbox the server wrote (no SMTP here; accounts.smtp.test.ts receives them).
 */
import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { fieldState, openForm, postForm, sessionFrom } from "../../test/account-forms-http.ts";
import { adminGet, adminPost, postAdminLogin, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { one, run, sql } from "../db/database.ts";

const ORIGIN = "https://reviews.example.test";
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
let t: TestServer;
let owner: AdminAgent; // owner of A
let ownerB: AdminAgent; // owner of B
let ip = 0;
/** A fresh client address per test (the server trusts the loopback proxy's X-Forwarded-For). */
const nextAddress = () => `198.51.100.${(ip++ % 250) + 1}`;

const validSignup = (email: string) => ({ email, password: "a long enough password", storeName: "Acme Outdoor", platform: "woocommerce", shopUrl: "https://acme.example/shop" });
const signup = async (fields: Record<string, string>, address = nextAddress()) => {
  const form = await openForm(t, "/admin/signup", { "x-forwarded-for": address });
  return postForm(t, "/admin/signup", form, fields, { headers: { "x-forwarded-for": address } });
};
const row = async <T>(text: string, ...args: unknown[]) =>
  (await one<T>(
    t.services.db,
    sql.join(
      text.split("?").flatMap((part, i) => (i === 0 ? [sql.raw(part)] : [sql`${args[i - 1]}`, sql.raw(part)])),
      sql``,
    ),
  ))!;
/** The link of the newest mail to `to` of `kind` (read from the outbox), as a path on this server. */
const mailedLink = async (to: string, kind: string): Promise<string> => {
  const mail = await row<{ text: string; html: string } | undefined>("SELECT text, html FROM mail_outbox WHERE to_address = ? AND kind = ? ORDER BY seq DESC LIMIT 1", to, kind);
  if (!mail) throw new Error(`no ${kind} mail to ${to}`);
  const url = new RegExp(`${ORIGIN.replace(/\./g, "\\.")}(/admin/(?:invite|reset)/[A-Za-z0-9_-]+)`).exec(mail.text)?.[1];
  expect(mail.html).toContain(`${ORIGIN}${url}`);
  return url!;
};
/** The text of a page as read: React's text separators dropped, entities of quotes decoded. */
const pageText = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
const mailCount = async (to: string, kind: string) => (await row<{ n: number }>("SELECT count(*) AS n FROM mail_outbox WHERE to_address = ? AND kind = ?", to, kind)).n;

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback", publicUrl: ORIGIN });
  await t.services.stores.create({ storeId: A, name: "Store A", platform: "shopify" });
  await t.services.stores.create({ storeId: B, name: "Store B (other merchant)", platform: "shopify" });
  await t.services.admin.createUser({ email: "owner@shop-a.test", password: "owner password A", storeIds: [A] });
  await t.services.admin.createUser({ email: "owner@shop-b.test", password: "owner password B", storeIds: [B] });
  owner = await signInAgent(t, "owner@shop-a.test", "owner password A", A);
  ownerB = await signInAgent(t, "owner@shop-b.test", "owner password B", B);
});
afterAll(() => t.close());
beforeEach(() => t.services.signup.configure({ open: false, perAddress: { max: 100, windowMs: 3_600_000 } }));

describe("sign-up", () => {
  it("is closed by default: the page and the form answer 404 'sign-up is closed', nothing is created", async () => {
    const page = await fetch(t.url("/admin/signup"));
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Sign-up is closed");
    const stores = (await t.services.stores.list()).length;
    const res = await fetch(t.url("/admin/signup"), { method: "POST", body: new URLSearchParams(validSignup("closed@example.com")), redirect: "manual" });
    expect(res.status).toBe(404);
    expect((await t.services.stores.list()).length).toBe(stores);
    // The sign-in page does not offer it either.
    expect(await (await fetch(t.url("/admin/login"))).text()).not.toContain("/admin/signup");
  });

  it("open: a new store (random UUID) and its owner, signed in, redirected to the store's admin", async () => {
    t.services.signup.configure({ open: true });
    expect(await (await fetch(t.url("/admin/login"))).text()).toContain('href="/admin/signup"');
    const res = await signup(validSignup("New.Owner@Example.com"));
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    const storeId = /^\/admin\/stores\/([0-9a-f-]{36})$/.exec(location)?.[1];
    expect(storeId).toBeDefined();
    expect([A, B]).not.toContain(storeId);
    const store = await row<{ name: string; platform: string; shop_url: string }>("SELECT name, platform, shop_url FROM stores WHERE store_id = ?", storeId);
    expect(store).toEqual({ name: "Acme Outdoor", platform: "woocommerce", shop_url: "https://acme.example/shop" });
    const membership = await row<{ email: string; role: string; is_operator: number }>(
      "SELECT u.email, m.role, u.is_operator FROM store_memberships m JOIN merchant_users u USING (user_id) WHERE m.store_id = ?",
      storeId,
    );
    expect(membership).toEqual({ email: "new.owner@example.com", role: "owner", is_operator: 0 });
    const cookie = sessionFrom(res)!;
    expect(res.headers.getSetCookie().find((c) => c.startsWith("chorus_admin="))).toMatch(/HttpOnly/i);
    const page = await fetch(t.url(location), { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Acme Outdoor");
    // The new owner sees only the new store.
    expect((await fetch(t.url(`/admin/stores/${A}`), { headers: { cookie }, redirect: "manual" })).status).toBe(404);
    // And signs in with the password chosen.
    expect((await postAdminLogin(t, "new.owner@example.com", "a long enough password")).status).toBe(302);
  });

  it("field errors: each next to its field (aria-invalid, aria-describedby), values kept but never the password", async () => {
    t.services.signup.configure({ open: true });
    const stores = (await t.services.stores.list()).length;
    const res = await signup({ email: "not-an-email", password: "short", storeName: "  ", platform: "magento", shopUrl: "javascript:alert(1)" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(fieldState(html, "email")).toMatchObject({ invalid: true, error: expect.stringContaining("e-mail address"), value: "not-an-email" });
    expect(fieldState(html, "password")).toMatchObject({ invalid: true, error: expect.stringContaining("8 characters") });
    expect(html).not.toContain('value="short"');
    expect(fieldState(html, "storeName")).toMatchObject({ invalid: true, error: expect.stringContaining("store's name") });
    expect(fieldState(html, "platform")).toMatchObject({ invalid: true, error: expect.stringContaining("platform") });
    expect(fieldState(html, "shopUrl")).toMatchObject({ invalid: true, error: expect.stringContaining("https://") });
    expect((await t.services.stores.list()).length).toBe(stores);
  });

  it.each([
    ["javascript:alert(1)"],
    ["ftp://shop.example"],
    ["//evil.example"],
    ["shop.example.com"],
    ["https://user:pw@shop.example"],
    ["https://"],
    [`https://shop.example/${"x".repeat(2100)}`],
    ["https://shop.example/\u0000"],
  ])("refuses the shop address %j", async (shopUrl) => {
    t.services.signup.configure({ open: true });
    const res = await signup({ ...validSignup("url-check@example.com"), shopUrl });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(fieldState(html, "shopUrl").invalid).toBe(true);
    expect(fieldState(html, "email").invalid).toBe(false);
  });

  it("a taken e-mail is a field error and creates nothing", async () => {
    t.services.signup.configure({ open: true });
    const stores = (await t.services.stores.list()).length;
    const res = await signup(validSignup("OWNER@shop-a.test"));
    expect(res.status).toBe(400);
    expect(fieldState(await res.text(), "email")).toMatchObject({ invalid: true, error: expect.stringContaining("already exists") });
    expect((await t.services.stores.list()).length).toBe(stores);
  });

  it("CSRF: without the form's cookie and token the POST is refused (403)", async () => {
    t.services.signup.configure({ open: true });
    const form = await openForm(t, "/admin/signup");
    expect((await postForm(t, "/admin/signup", { cookie: form.cookie, csrf: "forged" }, validSignup("csrf@example.com"))).status).toBe(403);
    expect((await postForm(t, "/admin/signup", { cookie: "", csrf: form.csrf }, validSignup("csrf@example.com"))).status).toBe(403);
    expect(await t.services.admin.userExists("csrf@example.com")).toBe(false);
  });

  it("per client address: 10 concurrent sign-ups against a limit of 3 create exactly 3 stores; 429 with Retry-After; another network is not affected", async () => {
    t.services.signup.configure({ open: true, perAddress: { max: 3, windowMs: 3_600_000 } });
    const address = "2001:db8:77::1";
    const forms = await Promise.all(Array.from({ length: 10 }, () => openForm(t, "/admin/signup")));
    // Addresses within one /64 share a limit.
    const results = await Promise.all(forms.map((form, i) => postForm(t, "/admin/signup", form, validSignup(`burst-${i}@example.com`), { headers: { "x-forwarded-for": `2001:db8:77::${i + 1}` } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 302)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    const refused = results.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many stores");
    const created = (await row<{ n: number }>("SELECT count(*) AS n FROM merchant_users WHERE email LIKE 'burst-%'")).n;
    expect(created).toBe(3);
    expect((await signup(validSignup("other-network@example.com"), address.replace("77", "78"))).status).toBe(302);
  });
});

describe("answers before the body", () => {
  /** POST a form declaring 2 MB but sending 10 bytes; resolves with what came back once the server closed. */
  const partialPost = (path: string, cookie?: string) =>
    new Promise<{ head: string; closedMs: number }>((resolve, reject) => {
      const socket = connect(Number(new URL(t.baseUrl).port), "127.0.0.1");
      const start = Date.now();
      let got = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`still open after 5 s: ${got.slice(0, 200)}`));
      }, 5000);
      socket.on("data", (d) => {
        got += d.toString();
      });
      socket.on("close", () => {
        clearTimeout(timer);
        resolve({ head: got.split("\r\n\r\n")[0].toLowerCase(), closedMs: Date.now() - start });
      });
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n${cookie ? `Cookie: ${cookie}\r\n` : ""}Content-Length: 2000000\r\n\r\nemail=aaaa`);
    });

  it.each([
    ["closed sign-up (404)", "/admin/signup", "404", ""],
    ["a team form without a session (302 to sign-in)", `/admin/stores/${A}/team`, "302", ""],
  ])("%s: answered and the connection closed without reading the 2 MB", async (_name, path, status, as) => {
    const { head } = await partialPost(path, as === "B" ? ownerB.cookie : undefined);
    expect(head).toMatch(new RegExp(`^http/1.1 ${status}`));
    expect(head).toContain("connection: close");
  });
});

describe("new store from the admin", () => {
  it("while sign-up is closed only an operator may create one (403 for others); the creator owns it", async () => {
    expect((await adminGet(t, owner, "/admin/stores/new")).status).toBe(403);
    expect((await adminPost(t, owner, "/admin/stores/new", { storeName: "X", platform: "custom", shopUrl: "https://x.example" })).status).toBe(403);
    const { userId } = (await t.services.admin.user("owner@shop-b.test"))!;
    await t.services.signup.setOperator("owner@shop-b.test", true);
    try {
      const page = await adminGet(t, ownerB, "/admin/stores/new");
      expect(page.status).toBe(200);
      const bad = await adminPost(t, ownerB, "/admin/stores/new", { storeName: "", platform: "custom", shopUrl: "nope" });
      expect(bad.status).toBe(400);
      const html = await bad.text();
      expect(fieldState(html, "storeName").invalid).toBe(true);
      expect(fieldState(html, "shopUrl").invalid).toBe(true);
      expect((await adminPost(t, ownerB, "/admin/stores/new", { storeName: "B's second shop", platform: "custom", shopUrl: "https://b2.example" }, "wrong")).status).toBe(403);
      const res = await adminPost(t, ownerB, "/admin/stores/new", { storeName: "B's second shop", platform: "custom", shopUrl: "https://b2.example" });
      expect(res.status).toBe(302);
      const storeId = /\/admin\/stores\/([0-9a-f-]{36})$/.exec(res.headers.get("location")!)![1];
      expect(await t.services.team.roleOf(userId, storeId)).toBe("owner");
      expect((await adminGet(t, ownerB, `/admin/stores/${storeId}/team`)).status).toBe(200);
    } finally {
      await t.services.signup.setOperator("owner@shop-b.test", false);
    }
  });
});

describe("team and invitations", () => {
  const invite = (agent: AdminAgent, storeId: string, email: string, role = "member") => adminPost(t, agent, `/admin/stores/${storeId}/team`, { intent: "invite", email, role });

  it("an owner sees the members and invites by e-mail: a mailed single-use link that creates the account, signs in, and joins only that store", async () => {
    const page = await adminGet(t, owner, `/admin/stores/${A}/team`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("owner@shop-a.test");
    expect(html).toMatch(/Owner/);

    const bad = await invite(owner, A, "nope");
    expect(bad.status).toBe(400);
    expect(fieldState(await bad.text(), "email")).toMatchObject({ invalid: true, value: "nope" });
    expect((await invite(owner, A, "owner@shop-a.test")).status).toBe(400); // already a member

    const sent = await invite(owner, A, "Newbie@Example.com");
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Invitation sent to newbie@example.com");
    expect(await (await adminGet(t, owner, `/admin/stores/${A}/team`)).text()).toContain("newbie@example.com");
    const link = await mailedLink("newbie@example.com", "invite");
    const stored = await row<{ token_hash: string }>("SELECT token_hash FROM admin_invites WHERE email = 'newbie@example.com'");
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.token_hash).not.toBe(link.split("/").pop()); // hashed at rest

    const form = await openForm(t, link);
    expect(form.status).toBe(200);
    expect(pageText(form.html)).toContain("Join Store A");
    const short = await postForm(t, link, form, { newPassword: "short", confirm: "short" });
    expect(short.status).toBe(400);
    expect(fieldState(await short.text(), "newPassword")).toMatchObject({ invalid: true, error: expect.stringContaining("8 characters") });
    const differ = await postForm(t, link, form, { newPassword: "newbie password", confirm: "newbie passwort" });
    expect(differ.status).toBe(400);
    expect(fieldState(await differ.text(), "confirm").invalid).toBe(true);

    const accepted = await postForm(t, link, form, { newPassword: "newbie password", confirm: "newbie password" });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe(`/admin/stores/${A}`);
    const cookie = sessionFrom(accepted)!;
    expect((await fetch(t.url(`/admin/stores/${A}/reviews`), { headers: { cookie } })).status).toBe(200);
    expect((await fetch(t.url(`/admin/stores/${B}/reviews`), { headers: { cookie }, redirect: "manual" })).status).toBe(404);
    const { userId } = (await t.services.admin.user("newbie@example.com"))!;
    expect(await t.services.team.roleOf(userId, A)).toBe("member");

    // Single use: the page and the form answer 410 now, and nothing changes.
    expect((await fetch(t.url(link))).status).toBe(410);
    const again = await postForm(t, link, form, { newPassword: "another password", confirm: "another password" });
    expect(again.status).toBe(410);
    expect((await postAdminLogin(t, "newbie@example.com", "newbie password")).status).toBe(302);
  });

  it("a member cannot manage the team (403), and the page shows no controls to them", async () => {
    await invite(owner, A, "member-only@example.com");
    const link = await mailedLink("member-only@example.com", "invite");
    const form = await openForm(t, link);
    const cookie = sessionFrom(await postForm(t, link, form, { newPassword: "member password", confirm: "member password" }))!;
    const member = await signInAgent(t, "member-only@example.com", "member password", A);
    expect(member.cookie).not.toBe(cookie);
    const page = pageText(await (await adminGet(t, member, `/admin/stores/${A}/team`)).text());
    expect(page).toContain("Only the store's owners");
    expect(page).not.toContain('value="invite"');
    expect((await invite(member, A, "sneaky@example.com")).status).toBe(403);
    expect(await mailCount("sneaky@example.com", "invite")).toBe(0);
    const ownerId = (await t.services.admin.user("owner@shop-a.test"))!.userId;
    expect((await adminPost(t, member, `/admin/stores/${A}/team`, { intent: "remove", userId: ownerId })).status).toBe(403);
    expect(await t.services.team.roleOf(ownerId, A)).toBe("owner");
  });

  it("an existing user accepts with their password (wrong password 401); the store is added to their account", async () => {
    await t.services.admin.createUser({ email: "existing@example.com", password: "existing password", storeIds: [B] });
    await invite(owner, A, "existing@example.com", "owner");
    const link = await mailedLink("existing@example.com", "invite");
    const form = await openForm(t, link);
    expect(form.html).toContain("Password of existing@example.com");
    const wrong = await postForm(t, link, form, { password: "not the password" }, { headers: { "x-forwarded-for": nextAddress() } });
    expect(wrong.status).toBe(401);
    expect((await t.services.admin.user("existing@example.com")) && (await t.services.team.roleOf((await t.services.admin.user("existing@example.com"))!.userId, A))).toBeUndefined();
    const ok = await postForm(t, link, form, { password: "existing password" }, { headers: { "x-forwarded-for": nextAddress() } });
    expect(ok.status).toBe(302);
    const cookie = sessionFrom(ok)!;
    for (const s of [A, B]) expect((await fetch(t.url(`/admin/stores/${s}/team`), { headers: { cookie } })).status).toBe(200);
    expect(await t.services.team.roleOf((await t.services.admin.user("existing@example.com"))!.userId, A)).toBe("owner");
  });

  it("signed in as the invitee, one click accepts (no password), and the browser's earlier session is replaced", async () => {
    await t.services.admin.createUser({ email: "signed-in@example.com", password: "signed in password", storeIds: [B] });
    const prior = await signInAgent(t, "signed-in@example.com", "signed in password", B);
    await invite(owner, A, "signed-in@example.com");
    const link = await mailedLink("signed-in@example.com", "invite");
    const form = await openForm(t, link, { cookie: prior.cookie });
    expect(form.html).not.toContain('name="password"');
    const res = await postForm(t, link, form, {}, { cookie: prior.cookie });
    expect(res.status).toBe(302);
    const cookie = sessionFrom(res)!;
    expect(cookie).not.toBe(prior.cookie);
    expect((await fetch(t.url(`/admin/stores/${A}/reviews`), { headers: { cookie } })).status).toBe(200);
    expect((await adminGet(t, prior, `/admin/stores/${B}/reviews`)).status).toBe(302); // the old session ended
  });

  it("single use holds under concurrency: 5 simultaneous accepts of one link make one account and one membership", async () => {
    await invite(owner, A, "race@example.com");
    const link = await mailedLink("race@example.com", "invite");
    const forms = await Promise.all(Array.from({ length: 5 }, () => openForm(t, link)));
    const results = await Promise.all(forms.map((f, i) => postForm(t, link, f, { newPassword: `race password ${i}`, confirm: `race password ${i}` })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 302)).toHaveLength(1);
    expect(statuses.filter((x) => x !== 302).every((x) => x === 410 || x === 409)).toBe(true);
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM merchant_users WHERE email = 'race@example.com'")).n).toBe(1);
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM store_memberships m JOIN merchant_users u USING (user_id) WHERE u.email = 'race@example.com'")).n).toBe(1);
  });

  it("bad input to the team form: an unknown role is a field error, an unknown intent 400, JSON 415, an oversized form 413", async () => {
    const role = await invite(owner, A, "role@example.com", "admin");
    expect(role.status).toBe(400);
    expect(fieldState(await role.text(), "role").invalid).toBe(true);
    expect(await mailCount("role@example.com", "invite")).toBe(0);
    expect((await adminPost(t, owner, `/admin/stores/${A}/team`, { intent: "promote" })).status).toBe(400);
    const json = await fetch(t.url(`/admin/stores/${A}/team`), { method: "POST", headers: { cookie: owner.cookie, "content-type": "application/json" }, body: JSON.stringify({ intent: "invite" }) });
    expect(json.status).toBe(415);
    t.services.signup.configure({ open: true });
    const hugeOpen = await fetch(t.url("/admin/signup"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `email=${"a".repeat(2_000_000)}` });
    expect(hugeOpen.status).toBe(413);
  });

  it("forged, malformed, expired, revoked and replaced links do not work", async () => {
    const forged = `/admin/invite/${"A".repeat(43)}`;
    expect((await fetch(t.url(forged))).status).toBe(404);
    for (const path of ["/admin/invite/short", `/admin/invite/${"x".repeat(5000)}`]) expect((await fetch(t.url(path))).status, path).toBe(404);
    // A path that does not decode is refused before any page (400, never 500).
    expect((await fetch(t.url("/admin/invite/%E0%A4%A"))).status).toBe(400);
    const form = await openForm(t, "/admin/forgot"); // any signed-out form's cookie + token pair
    expect((await postForm(t, forged, form, { newPassword: "forged password", confirm: "forged password" })).status).toBe(410);

    await invite(owner, A, "late@example.com");
    const late = await mailedLink("late@example.com", "invite");
    await run(t.services.db, sql`UPDATE admin_invites SET expires_ms = ${Date.now() - 1} WHERE email = 'late@example.com'`);
    const lateRes = await fetch(t.url(late));
    expect(lateRes.status).toBe(410);
    expect(await lateRes.text()).toContain("has expired");
    expect(await (await adminGet(t, owner, `/admin/stores/${A}/team`)).text()).not.toContain("late@example.com");

    await invite(owner, A, "revoked@example.com");
    const revokedLink = await mailedLink("revoked@example.com", "invite");
    const inviteId = (await row<{ invite_id: string }>("SELECT invite_id FROM admin_invites WHERE email = 'revoked@example.com'")).invite_id;
    // Another store's owner cannot revoke it (404: not their store).
    expect((await adminPost(t, ownerB, `/admin/stores/${A}/team`, { intent: "revoke", inviteId })).status).toBe(404);
    expect((await adminPost(t, ownerB, `/admin/stores/${B}/team`, { intent: "revoke", inviteId })).status).toBe(404);
    expect((await fetch(t.url(revokedLink))).status).toBe(200);
    expect((await adminPost(t, owner, `/admin/stores/${A}/team`, { intent: "revoke", inviteId })).status).toBe(200);
    expect((await fetch(t.url(revokedLink))).status).toBe(410);

    await invite(owner, A, "twice@example.com");
    const first = await mailedLink("twice@example.com", "invite");
    await invite(owner, A, "twice@example.com");
    const second = await mailedLink("twice@example.com", "invite");
    expect(second).not.toBe(first);
    expect((await fetch(t.url(first))).status).toBe(410);
    expect((await fetch(t.url(second))).status).toBe(200);
  });

  it("store isolation: an owner of B gets 404 for A's team page and every team action, and A's data stays as it was", async () => {
    const before = await t.services.team.team(A);
    const page = await adminGet(t, ownerB, `/admin/stores/${A}/team`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).not.toContain("owner@shop-a.test");
    const ownerId = (await t.services.admin.user("owner@shop-a.test"))!.userId;
    expect((await invite(ownerB, A, "via-b@example.com")).status).toBe(404);
    expect((await adminPost(t, ownerB, `/admin/stores/${A}/team`, { intent: "remove", userId: ownerId })).status).toBe(404);
    // B's own team page ignores A's IDs.
    expect((await adminPost(t, ownerB, `/admin/stores/${B}/team`, { intent: "remove", userId: ownerId })).status).toBe(404);
    expect(await t.services.team.team(A)).toEqual(before);
    expect(await mailCount("via-b@example.com", "invite")).toBe(0);
    // An invitation of B's leads into B only.
    await invite(ownerB, B, "b-only@example.com");
    const link = await mailedLink("b-only@example.com", "invite");
    const form = await openForm(t, link);
    expect(form.html).toContain("Store B (other merchant)");
    const cookie = sessionFrom(await postForm(t, link, form, { newPassword: "b only password", confirm: "b only password" }))!;
    expect((await fetch(t.url(`/admin/stores/${A}/team`), { headers: { cookie }, redirect: "manual" })).status).toBe(404);
    expect((await fetch(t.url(`/admin/stores/${B}/team`), { headers: { cookie } })).status).toBe(200);
  });

  it("removing a member ends their access at once; the last owner cannot be removed (409)", async () => {
    await invite(owner, A, "leaving@example.com");
    const link = await mailedLink("leaving@example.com", "invite");
    const form = await openForm(t, link);
    const cookie = sessionFrom(await postForm(t, link, form, { newPassword: "leaving password", confirm: "leaving password" }))!;
    expect((await fetch(t.url(`/admin/stores/${A}/reviews`), { headers: { cookie } })).status).toBe(200);
    const { userId } = (await t.services.admin.user("leaving@example.com"))!;
    const removed = await adminPost(t, owner, `/admin/stores/${A}/team`, { intent: "remove", userId });
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain("leaving@example.com was removed");
    expect((await fetch(t.url(`/admin/stores/${A}/reviews`), { headers: { cookie }, redirect: "manual" })).status).toBe(404);

    // A store with one owner: removing them is refused; with a second owner, an owner may leave (to /admin).
    const C = "cccccccc-2222-4333-8444-555555555555";
    await t.services.stores.create({ storeId: C, name: "Store C", platform: "custom" });
    await t.services.admin.createUser({ email: "solo@shop-c.test", password: "solo password", storeIds: [C] });
    const solo = await signInAgent(t, "solo@shop-c.test", "solo password", C);
    const soloId = (await t.services.admin.user("solo@shop-c.test"))!.userId;
    const last = await adminPost(t, solo, `/admin/stores/${C}/team`, { intent: "remove", userId: soloId });
    expect(last.status).toBe(409);
    expect(pageText(await last.text())).toContain("at least one owner");
    expect(await t.services.team.roleOf(soloId, C)).toBe("owner");
    await t.services.admin.createUser({ email: "second@shop-c.test", password: "second password", storeIds: [C] });
    const leave = await adminPost(t, solo, `/admin/stores/${C}/team`, { intent: "remove", userId: soloId });
    expect(leave.status).toBe(302);
    expect(leave.headers.get("location")).toBe("/admin");
    expect(await t.services.team.roleOf(soloId, C)).toBeUndefined();
    expect((await adminPost(t, owner, `/admin/stores/${A}/team`, { intent: "remove", userId: "not-a-member" })).status).toBe(404);
  });
});

describe("password reset", () => {
  const forgot = async (email: string, address = nextAddress()) => {
    const form = await openForm(t, "/admin/forgot", { "x-forwarded-for": address });
    return postForm(t, "/admin/forgot", form, { email }, { headers: { "x-forwarded-for": address } });
  };
  /** The answer page without the parts that differ per request (the CSRF token). */
  const normalised = (html: string) => {
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? "none";
    return html.replaceAll(csrf, "CSRF").replace(/nonce="[^"]*"/g, "");
  };

  it("answers the same, in about the same time, for an address with and without an account; only the account gets a mail", async () => {
    await t.services.admin.createUser({ email: "reset-me@example.com", password: "old password 1", storeIds: [A] });
    const known = await forgot("reset-me@example.com");
    const unknown = await forgot("nobody-here@example.com");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const knownHtml = normalised(await known.text());
    const unknownHtml = normalised(await unknown.text());
    expect(knownHtml).toContain("If an account exists for that e-mail");
    expect(knownHtml.replace("reset-me@example.com", "X")).toBe(unknownHtml.replace("nobody-here@example.com", "X"));
    expect(await mailCount("reset-me@example.com", "password-reset")).toBe(1);
    expect(await mailCount("nobody-here@example.com", "password-reset")).toBe(0);

    // Timing: medians of alternating requests differ by less than 25 ms (no argon2 or mail send on either path).
    const timeOne = async (email: string) => {
      const address = nextAddress();
      const form = await openForm(t, "/admin/forgot", { "x-forwarded-for": address });
      const start = performance.now();
      const res = await postForm(t, "/admin/forgot", form, { email }, { headers: { "x-forwarded-for": address } });
      await res.text();
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const k: number[] = [],
      u: number[] = [];
    for (let i = 0; i < 9; i++) {
      k.push(await timeOne(`timing-known-${i % 3}@example.com`));
      u.push(await timeOne(`timing-unknown-${i}@example.com`));
    }
    console.log(`forgot timing medians: known ${median(k).toFixed(1)} ms, unknown ${median(u).toFixed(1)} ms`);
    expect(Math.abs(median(k) - median(u))).toBeLessThan(25);
  });

  it("the link sets a new password once: every session ends, nobody is signed in by it, the old password stops working, the link is then closed", async () => {
    await t.services.admin.createUser({ email: "resetter@example.com", password: "old password 2", storeIds: [A] });
    const old = await signInAgent(t, "resetter@example.com", "old password 2", A);
    await forgot("resetter@example.com");
    const link = await mailedLink("resetter@example.com", "password-reset");
    const stored = (await row<{ n: number }>("SELECT count(*) AS n FROM admin_password_resets WHERE token_hash = ?", link.split("/").pop())).n;
    expect(stored).toBe(0); // only its hash is stored
    const form = await openForm(t, link);
    expect(form.status).toBe(200);
    const short = await postForm(t, link, form, { newPassword: "short", confirm: "short" });
    expect(short.status).toBe(400);
    expect(fieldState(await short.text(), "newPassword").invalid).toBe(true);
    const res = await postForm(t, link, form, { newPassword: "brand new password", confirm: "brand new password" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/login?reset=done&email=resetter%40example.com");
    expect(sessionFrom(res)).toBe("chorus_admin="); // cleared, not a new session
    const login = await (await fetch(t.url(res.headers.get("location")!))).text();
    expect(pageText(login)).toContain("Your password was changed");
    expect(login).toContain('value="resetter@example.com"');
    const oldSession = await adminGet(t, old, `/admin/stores/${A}/reviews`);
    expect(oldSession.status).toBe(302);
    expect(oldSession.headers.get("location")).toMatch(/^\/admin\/login/);
    expect((await postAdminLogin(t, "resetter@example.com", "old password 2", { "x-forwarded-for": nextAddress() })).status).toBe(401);
    expect((await postAdminLogin(t, "resetter@example.com", "brand new password", { "x-forwarded-for": nextAddress() })).status).toBe(302);
    // Single use.
    expect((await fetch(t.url(link))).status).toBe(410);
    expect((await postForm(t, link, form, { newPassword: "third password", confirm: "third password" })).status).toBe(410);
    expect((await postAdminLogin(t, "resetter@example.com", "third password", { "x-forwarded-for": nextAddress() })).status).toBe(401);
  });

  it("a link expires after an hour; a newer password closes older links; forged links do not work", async () => {
    await t.services.admin.createUser({ email: "slow@example.com", password: "old password 3", storeIds: [A] });
    await forgot("slow@example.com");
    const first = await mailedLink("slow@example.com", "password-reset");
    const hash = await row<{ token_hash: string; created_ms: number; expires_ms: number }>("SELECT token_hash, created_ms, expires_ms FROM admin_password_resets ORDER BY created_ms DESC LIMIT 1");
    expect(hash.expires_ms - hash.created_ms).toBe(60 * 60_000);
    await run(t.services.db, sql`UPDATE admin_password_resets SET expires_ms = ${Date.now() - 1} WHERE token_hash = ${hash.token_hash}`);
    expect((await fetch(t.url(first))).status).toBe(410);
    const form = await openForm(t, "/admin/forgot");
    expect((await postForm(t, first, form, { newPassword: "too late password", confirm: "too late password" })).status).toBe(410);

    await forgot("slow@example.com");
    const second = await mailedLink("slow@example.com", "password-reset");
    await forgot("slow@example.com");
    const third = await mailedLink("slow@example.com", "password-reset");
    const f3 = await openForm(t, third);
    expect((await postForm(t, third, f3, { newPassword: "set with third", confirm: "set with third" })).status).toBe(302);
    expect((await fetch(t.url(second))).status).toBe(410);
    for (const path of [`/admin/reset/${"B".repeat(43)}`, "/admin/reset/x"]) expect((await fetch(t.url(path))).status, path).toBe(410);
    expect((await fetch(t.url("/admin/reset/%ZZ"))).status).toBe(400);
  });

  it("single use holds under concurrency: 5 simultaneous new passwords with one link, one is set", async () => {
    await t.services.admin.createUser({ email: "race-reset@example.com", password: "race old password", storeIds: [A] });
    await forgot("race-reset@example.com");
    const link = await mailedLink("race-reset@example.com", "password-reset");
    const forms = await Promise.all(Array.from({ length: 5 }, () => openForm(t, link)));
    const results = await Promise.all(forms.map((f, i) => postForm(t, link, f, { newPassword: `race new password ${i}`, confirm: `race new password ${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([302, 410, 410, 410, 410]);
    const winners = [];
    for (let i = 0; i < 5; i++) if ((await postAdminLogin(t, "race-reset@example.com", `race new password ${i}`, { "x-forwarded-for": nextAddress() })).status === 302) winners.push(i);
    expect(winners).toHaveLength(1);
  });

  it("limits: per client address 429 with Retry-After; per e-mail the same answer but no more mail", async () => {
    t.services.passwordResets.configure({ perAddress: { max: 3, windowMs: 3_600_000 }, perEmail: { max: 2, windowMs: 3_600_000 } });
    try {
      const address = nextAddress();
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => forgot(`flood-${i}@example.com`, address)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
      expect(Number(results.find((r) => r.status === 429)!.headers.get("retry-after"))).toBeGreaterThan(0);

      await t.services.admin.createUser({ email: "inbox@example.com", password: "inbox password", storeIds: [A] });
      for (let i = 0; i < 4; i++) {
        const res = await forgot("inbox@example.com");
        expect(res.status).toBe(200);
        expect(await res.text()).toContain("If an account exists for that e-mail");
      }
      expect(await mailCount("inbox@example.com", "password-reset")).toBe(2);
    } finally {
      t.services.passwordResets.configure({ perAddress: { max: 10, windowMs: 3_600_000 }, perEmail: { max: 3, windowMs: 3_600_000 } });
    }
  });

  it("the sign-in page links to it, and a malformed e-mail is a field error", async () => {
    expect(await (await fetch(t.url("/admin/login"))).text()).toContain('href="/admin/forgot"');
    const res = await forgot("not an e-mail");
    expect(res.status).toBe(400);
    expect(fieldState(await res.text(), "email")).toMatchObject({ invalid: true, value: "not an e-mail" });
  });
});
