/**
 * Who may do what in a store (docs/admin.md "Who may do what", server/admin/roles.ts) over real HTTP: the real
 * server and Remix build, real sessions and forms. For every owner-only action an owner succeeds, and a member
 * (who joined through a real invitation) gets 403 with nothing changed and no control for it on the page. The
 * outbox: a member neither lists nor opens (page, HTML frame, send again) an invitation of the store, and no
 * page a member gets carries its subject or link; mail of no store (a password reset) is shown to operators only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForm, postForm } from "../../test/account-forms-http.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { one, sql } from "../db/database.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { renderMail } from "../mail/render.ts";

const ORIGIN = "https://reviews.example.test";
const A = "a1a1a1a1-2222-4333-8444-555555555555";
let t: TestServer;
let owner: AdminAgent;
let member: AdminAgent;
/** A member of A who is also an instance operator. */
let operator: AdminAgent;
const ids: Record<string, string> = {};
let ip = 0;
const nextAddress = () => `198.51.100.${(ip++ % 250) + 1}`;

const row = async <T>(text: string, ...args: unknown[]) =>
  (await one<T>(
    t.services.db,
    sql.join(
      text.split("?").flatMap((part, i) => (i === 0 ? [sql.raw(part)] : [sql`${args[i - 1]}`, sql.raw(part)])),
      sql``,
    ),
  ))!;
/** The newest mail of `kind` to `to`: its ID and the account link in it. */
const mailed = async (to: string, kind: string) => {
  const m = await row<{ message_id: string; text: string }>("SELECT message_id, text FROM mail_outbox WHERE to_address = ? AND kind = ? ORDER BY seq DESC LIMIT 1", to, kind);
  return { messageId: m.message_id, path: /https:\/\/reviews\.example\.test(\/admin\/(?:invite|reset)\/[A-Za-z0-9_-]+)/.exec(m.text)![1] };
};
const text = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
const invitesTo = async (email: string) => (await row<{ n: number }>("SELECT count(*) AS n FROM admin_invites WHERE email = ?", email)).n;

/** Join A through a real invitation sent by the owner (new account with `password`), then sign in. */
async function join(email: string, password: string): Promise<AdminAgent> {
  expect((await adminPost(t, owner, `/admin/stores/${A}/team`, { intent: "invite", email, role: "member" })).status).toBe(200);
  const { path } = await mailed(email, "invite");
  const form = await openForm(t, path);
  expect((await postForm(t, path, form, { newPassword: password, confirm: password })).status).toBe(302);
  return signInAgent(t, email, password, A);
}

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback", publicUrl: ORIGIN, webhooks: { allowInsecure: true } });
  await t.services.stores.create({ storeId: A, name: "Roles shop", platform: "shopify" });
  await t.services.admin.createUser({ email: "owner@roles.test", password: "owner password 1", storeIds: [A] });
  owner = await signInAgent(t, "owner@roles.test", "owner password 1", A);
  member = await join("member@roles.test", "member password 1");
  operator = await join("operator@roles.test", "operator password 1");
  await t.services.signup.setOperator("operator@roles.test", true);

  // The owner invites a second owner: the message a member must never read.
  expect((await adminPost(t, owner, `/admin/stores/${A}/team`, { intent: "invite", email: "co-owner@roles.test", role: "owner" })).status).toBe(200);
  ({ messageId: ids.ownerInvite, path: ids.ownerInvitePath } = await mailed("co-owner@roles.test", "invite"));
  // A password reset of the owner (mail of no store).
  const address = nextAddress();
  const form = await openForm(t, "/admin/forgot", { "x-forwarded-for": address });
  expect((await postForm(t, "/admin/forgot", form, { email: "owner@roles.test" }, { headers: { "x-forwarded-for": address } })).status).toBe(200);
  ({ messageId: ids.reset, path: ids.resetPath } = await mailed("owner@roles.test", "password-reset"));
  // A review request of the store: everyone of the store reads it.
  ids.reviewRequest = (
    await t.services.mail.enqueue({
      storeId: A,
      kind: "review-request",
      to: "shopper@example.com",
      subject: "How was your order?",
      ...renderMail({ storeName: "Roles shop", heading: "How was your order?", paragraphs: ["Tell us."], action: { label: "Review", url: "https://reviews.example.test/r/x" } }),
    })
  ).messageId;
});
afterAll(() => t.close());

describe("outbox", () => {
  it("an owner lists and opens the store's invitation; a member sees neither its subject nor its link", async () => {
    const ownerList = await text(await adminGet(t, owner, "/admin/outbox"));
    expect(ownerList).toContain("You are invited to Roles shop on Chorus");
    expect(ownerList).toContain("How was your order?");
    const opened = await adminGet(t, owner, `/admin/outbox/${ids.ownerInvite}`);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(ids.ownerInvitePath);

    const memberList = await text(await adminGet(t, member, "/admin/outbox"));
    expect(memberList).toContain("How was your order?");
    expect(memberList).not.toContain("You are invited");
    expect(memberList).not.toContain(ids.ownerInvite);
    expect(memberList).toContain("Team invitations are shown only to a store's owners");
  });

  it("a member opening the invitation by URL (page, HTML frame, send again) gets 404 without its subject or link", async () => {
    for (const res of [
      await adminGet(t, member, `/admin/outbox/${ids.ownerInvite}`),
      await adminGet(t, member, `/admin/outbox/${ids.ownerInvite}/html`),
      await adminPost(t, member, `/admin/outbox/${ids.ownerInvite}`, { intent: "send-again" }),
    ]) {
      expect(res.status).toBe(404);
      const body = await text(res);
      expect(body).not.toContain("You are invited");
      expect(body).not.toContain(ids.ownerInvitePath);
    }
    expect((await adminGet(t, member, `/admin/outbox/${ids.reviewRequest}`)).status).toBe(200);
  });

  it("a password reset is shown to operators only, not to its addressee nor to a store's owner", async () => {
    expect(await text(await adminGet(t, owner, "/admin/outbox"))).not.toContain("Set a new password");
    expect((await adminGet(t, owner, `/admin/outbox/${ids.reset}`)).status).toBe(404);
    expect((await adminGet(t, member, `/admin/outbox/${ids.reset}/html`)).status).toBe(404);

    const operatorList = await text(await adminGet(t, operator, "/admin/outbox"));
    expect(operatorList).toContain("Set a new password for Chorus");
    expect(operatorList).not.toContain("You are invited"); // a member of the store, not its owner
    expect((await adminGet(t, operator, `/admin/outbox/${ids.reset}`)).status).toBe(200);
    expect((await adminGet(t, operator, `/admin/outbox/${ids.ownerInvite}`)).status).toBe(404);
  });
});

describe("team", () => {
  const team = `/admin/stores/${A}/team`;
  it("a member cannot invite (an owner nor a member), revoke or remove an owner: 403, nothing changed, no controls", async () => {
    const page = await text(await adminGet(t, member, team));
    expect(page).not.toContain('value="invite"');
    expect(page).not.toContain('value="remove"');
    for (const role of ["owner", "member"]) {
      expect((await adminPost(t, member, team, { intent: "invite", email: `sneaky-${role}@roles.test`, role })).status).toBe(403);
      expect(await invitesTo(`sneaky-${role}@roles.test`)).toBe(0);
    }
    const inviteId = (await row<{ invite_id: string }>("SELECT invite_id FROM admin_invites WHERE email = 'co-owner@roles.test'")).invite_id;
    expect((await adminPost(t, member, team, { intent: "revoke", inviteId })).status).toBe(403);
    expect((await row<{ revoked_ms: number | null }>("SELECT revoked_ms FROM admin_invites WHERE invite_id = ?", inviteId)).revoked_ms).toBeNull();
    const ownerId = (await t.services.admin.user("owner@roles.test"))!.userId;
    expect((await adminPost(t, member, team, { intent: "remove", userId: ownerId })).status).toBe(403);
    expect(await t.services.team.roleOf(ownerId, A)).toBe("owner");
  });

  it("an owner invites and removes; the last owner cannot be removed (409)", async () => {
    expect((await adminPost(t, owner, team, { intent: "invite", email: "helper@roles.test", role: "member" })).status).toBe(200);
    expect(await invitesTo("helper@roles.test")).toBe(1);
    const ownerId = (await t.services.admin.user("owner@roles.test"))!.userId;
    expect((await adminPost(t, owner, team, { intent: "remove", userId: ownerId })).status).toBe(409);
    expect(await t.services.team.roleOf(ownerId, A)).toBe("owner");
  });
});

describe("platform connection", () => {
  const platform = `/admin/stores/${A}/platform`;
  it("a member gets 403 for save and remove-secret, nothing changed, and no connection form", async () => {
    const page = await text(await adminGet(t, member, platform));
    expect(page).toContain("Only an owner of this store can change its shop domain or app secret.");
    expect(page).not.toContain('value="save"');
    const save = await adminPost(t, member, platform, { intent: "save", shopDomain: "evil.myshopify.com", appSecret: "attacker-secret-0123456789" });
    expect(save.status).toBe(403);
    expect(await text(save)).toContain("Only an owner of this store can change its shop-platform connection.");
    expect((await adminPost(t, member, platform, { intent: "remove-secret" })).status).toBe(403);
    expect(await t.services.platforms.settings(A, ORIGIN)).toMatchObject({ shopDomain: null, appSecretSet: false });
  });

  it("an owner saves the connection", async () => {
    const res = await adminPost(t, owner, platform, { intent: "save", shopDomain: "roles.myshopify.com", appSecret: "owner-app-secret-0123456789" });
    expect(res.status).toBe(302);
    expect(await t.services.platforms.settings(A, ORIGIN)).toMatchObject({ shopDomain: "roles.myshopify.com", appSecretSet: true });
    // …and a member still cannot remove it.
    expect((await adminPost(t, member, platform, { intent: "remove-secret" })).status).toBe(403);
    expect((await t.services.platforms.settings(A, ORIGIN)).appSecretSet).toBe(true);
  });
});

describe("API keys", () => {
  const integration = `/admin/stores/${A}/integration`;
  it("an owner creates a key; a member can neither create nor revoke one (403, nothing changed) and sees no controls", async () => {
    const created = await adminPost(t, owner, integration, { intent: "create", name: "Warehouse" });
    expect(created.status).toBe(200);
    const [key] = await t.services.apiKeys.list(A);
    expect(key.name).toBe("Warehouse");

    const page = await text(await adminGet(t, member, integration));
    expect(page).toContain("Only an owner of this store can create or revoke API keys.");
    expect(page).not.toContain('value="create"');
    expect(page).not.toContain('value="revoke"');
    expect((await adminPost(t, member, integration, { intent: "create", name: "Mine" })).status).toBe(403);
    expect((await adminPost(t, member, integration, { intent: "revoke", apiKeyId: key.apiKeyId })).status).toBe(403);
    expect(await t.services.apiKeys.list(A)).toEqual([key]);

    expect((await adminPost(t, owner, integration, { intent: "revoke", apiKeyId: key.apiKeyId })).status).toBe(200);
    expect((await t.services.apiKeys.list(A))[0].dateRevoked).toBeTruthy();
  });
});

describe("webhook subscriptions", () => {
  const webhooks = `/admin/stores/${A}/webhooks`;
  it("an owner subscribes; a member cannot create, change, disable, rotate or delete (403, nothing changed) and sees no controls", async () => {
    const created = await adminPost(t, owner, webhooks, { intent: "create", url: "http://127.0.0.1:9/owner-hook", eventType: "review.created" });
    expect(created.status).toBe(303);
    const [sub] = await t.services.webhooks.list(A);
    expect(sub.url).toBe("http://127.0.0.1:9/owner-hook");

    const page = await text(await adminGet(t, member, webhooks));
    expect(page).toContain("Only an owner of this store can add, change or delete subscriptions.");
    for (const intent of ["create", "update", "disable", "rotate", "delete"]) expect(page).not.toContain(`value="${intent}"`);
    expect((await adminPost(t, member, webhooks, { intent: "create", url: "http://127.0.0.1:9/exfiltrate", eventType: "review.created" })).status).toBe(403);
    expect((await adminPost(t, member, webhooks, { intent: "update", subscriptionId: sub.subscriptionId, url: "http://127.0.0.1:9/exfiltrate", eventType: "review.created" })).status).toBe(403);
    for (const intent of ["disable", "rotate", "delete"]) expect((await adminPost(t, member, webhooks, { intent, subscriptionId: sub.subscriptionId })).status).toBe(403);
    expect(await t.services.webhooks.list(A)).toEqual([sub]);
  });
});

describe("loyalty program set-up", () => {
  const program = `/admin/stores/${A}/loyalty/program`;
  const turnOn = {
    intent: "turn-on",
    acceptTermsAndJoinProgramButtonText: "Join",
    policySentenceTemplate: "Joining means you accept the {termsAndConditions} and our {privacyPolicy}.",
    policySentenceHtml: "",
    termsAndConditionsUrl: "https://shop.example/terms",
    privacyPolicyUrl: "/privacy",
  };
  it("a member can neither turn it on nor generate its secret (403, nothing changed); an owner can", async () => {
    const page = await text(await adminGet(t, member, program));
    expect(page).toContain("Only an owner of this store can turn the loyalty program on or off");
    expect(page).not.toContain('value="turn-on"');
    expect((await adminPost(t, member, program, turnOn)).status).toBe(403);
    expect((await t.services.loyalty.programStatus(A)).exists).toBe(false);

    expect((await adminPost(t, owner, program, turnOn)).status).toBe(303);
    const before = await t.services.loyalty.programStatus(A);
    expect(before).toMatchObject({ exists: true, enabled: true });
    for (const intent of ["rotate-secret", "turn-off"]) expect((await adminPost(t, member, program, { intent })).status).toBe(403);
    expect(await t.services.loyalty.programStatus(A)).toEqual(before);
  });
});

describe("what a member still does", () => {
  it("moderation settings and replaying a delivery stay open to members", async () => {
    const res = await adminPost(t, member, `/admin/stores/${A}/settings`, { intent: "store", moderation: "auto-publish-4-5", translation: "off" });
    expect(res.status).toBe(200);
    expect((await t.services.stores.get(A))!.moderation).toBe("auto-publish-4-5");
    // An unknown delivery: the replay is looked up (404), not refused for the role (403).
    expect((await adminPost(t, member, `/admin/stores/${A}/webhooks`, { intent: "replay", deliveryId: crypto.randomUUID() })).status).toBe(404);
  });
});
