/**
 * The account services over a real migrated database (a SQLite file; PostgreSQL with CHORUS_TEST_POSTGRES_URL)
 * with an injected clock (`now`): invitation links work until exactly 7 days after they were sent and reset
 * links until exactly one hour, then never; the users CLI's `--operator` (a real child process over a temp
 * database); and, on PostgreSQL, form limits shared by two nodes.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabases } from "../../test/database-location.ts";
import { PROJECT_ROOT } from "../config.ts";
import { openDatabase, sql, value } from "../db/database.ts";
import { mailRepo } from "../mail/mail.repo.ts";
import { mailService } from "../mail/mail.service.ts";
import { createServices } from "../services.ts";
import { storesRepo } from "../stores/stores.repo.ts";
import { accountsRepo } from "./accounts.repo.ts";
import { adminRepo } from "./admin.repo.ts";
import { adminService } from "./admin.service.ts";
import { passwordResetService, RESET_TTL_MS } from "./password-reset.service.ts";
import { INVITE_TTL_MS, teamService } from "./team.service.ts";

/** Fresh databases (SQLite files or PostgreSQL databases) and temp directories, removed after the file's tests. */
const { newDatabase, cleanup } = freshDatabases("chorus-accounts-");
afterAll(cleanup);

/** The account services over a fresh database, all on one movable clock. */
async function setup() {
  const db = await openDatabase((await newDatabase()).location);
  let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
  const now = () => clock;
  const stores = storesRepo(db);
  const admin = adminRepo(db);
  const adminSvc = adminService({ db, admin, stores, now });
  const mail = mailService({ db, repo: mailRepo(db), sending: false, now, secret: "test-secret-0123456789" });
  const deps = { db, admin, adminService: adminSvc, accounts: accountsRepo(db), stores, mail, now };
  await stores.create({ storeId: "store-1", name: "Clock Shop", platform: "custom" });
  const { userId } = await adminSvc.createUser({ email: "owner@clock.test", password: "owner password", storeIds: ["store-1"] });
  return { db, team: teamService(deps), resets: passwordResetService(deps), ownerId: userId, advance: (ms: number) => (clock += ms) };
}
const tokenOf = (url: string) => url.split("/").pop()!;

describe("link expiry on the injected clock", () => {
  it("an invitation works until 7 days after it was sent, not a millisecond later", async () => {
    const s = await setup();
    const { url } = await s.team.invite({ storeId: "store-1", byUserId: s.ownerId, form: { email: "late@clock.test" }, publicOrigin: "https://chorus.test" });
    expect(url).toMatch(/^https:\/\/chorus\.test\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
    s.advance(INVITE_TTL_MS - 1);
    expect((await s.team.lookup(tokenOf(url))).state).toBe("open");
    s.advance(1);
    expect((await s.team.lookup(tokenOf(url))).state).toBe("expired");
    await expect(s.team.accept({ token: tokenOf(url), ip: "", newPassword: "late password", confirm: "late password" })).rejects.toMatchObject({ status: 410 });
    expect((await s.team.team("store-1")).invites).toEqual([]);
    await s.db.close();
  });

  it("an invitation accepted just in time is used once", async () => {
    const s = await setup();
    const { url } = await s.team.invite({ storeId: "store-1", byUserId: s.ownerId, form: { email: "just@clock.test", role: "owner" }, publicOrigin: "https://chorus.test" });
    s.advance(INVITE_TTL_MS - 1);
    const { storeId } = await s.team.accept({ token: tokenOf(url), ip: "", newPassword: "just password", confirm: "just password" });
    expect(storeId).toBe("store-1");
    expect((await s.team.team("store-1")).members.map((m) => [m.email, m.role])).toEqual([
      ["just@clock.test", "owner"],
      ["owner@clock.test", "owner"],
    ]);
    expect((await s.team.lookup(tokenOf(url))).state).toBe("used");
    await s.db.close();
  });

  it("a reset link works until one hour after it was asked for", async () => {
    const s = await setup();
    await s.resets.request("owner@clock.test", "192.0.2.1", "https://chorus.test");
    const text = (await value<string>(s.db, sql`SELECT text FROM mail_outbox WHERE kind = 'password-reset'`)) as string;
    const token = /\/admin\/reset\/([A-Za-z0-9_-]{43})/.exec(text)![1];
    s.advance(RESET_TTL_MS - 1);
    expect(await s.resets.isOpen(token)).toBe(true);
    s.advance(1);
    expect(await s.resets.isOpen(token)).toBe(false);
    await expect(s.resets.reset(token, "new password 1", "new password 1")).rejects.toMatchObject({ status: 410 });
    await s.db.close();
  });
});

describe("npm run users -- add --operator", () => {
  // Four CLI child processes, each importing the server: seconds apiece on a busy machine.
  it("creates an operator without a store, and makes an existing user one", { timeout: 120_000 }, async () => {
    const { location: db, env: dbEnv } = await newDatabase();
    const env = { ...process.env, ...dbEnv };
    const first = await createServices({ databasePath: db });
    await first.stores.create({ storeId: "store-9", name: "Nine", platform: "custom" });
    await first.close();
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ["server/cli/users.ts", "add", "--email", "ops@example.com", "--operator", "--password", "operator password"], { cwd: PROJECT_ROOT, env });
    expect(stdout).toContain("Created ops@example.com as an operator");
    await run(process.execPath, ["server/cli/users.ts", "add", "--email", "plain@example.com", "--store", "store-9", "--password", "plain password 1"], { cwd: PROJECT_ROOT, env });
    const again = await run(process.execPath, ["server/cli/users.ts", "add", "--email", "plain@example.com", "--operator"], { cwd: PROJECT_ROOT, env });
    expect(again.stdout).toContain("now an operator");
    const s = await createServices({ databasePath: db });
    try {
      expect(await s.signup.isOperator((await s.admin.user("ops@example.com"))!.userId)).toBe(true);
      expect(await s.signup.canCreateStore((await s.admin.user("plain@example.com"))!.userId)).toBe(true);
    } finally {
      await s.close();
    }
    await expect(run(process.execPath, ["server/cli/users.ts", "add", "--email", "nostore@example.com"], { cwd: PROJECT_ROOT, env })).rejects.toMatchObject({ code: 2 });
  });
});

describe("two nodes on one database", () => {
  it("a session opened on one node works on the other, with the same CSRF token; signing out on either ends it; sign-in throttling counts both", async () => {
    const { location } = await newDatabase();
    const nodes = [await createServices({ databasePath: location }), await createServices({ databasePath: location })];
    try {
      await nodes[0].stores.create({ storeId: "store-2", name: "Two nodes", platform: "custom" });
      await nodes[0].admin.createUser({ email: "both@nodes.test", password: "both nodes password", storeIds: ["store-2"] });
      const { token } = await nodes[0].admin.login("both@nodes.test", "both nodes password", "198.51.100.20");
      const onA = (await nodes[0].admin.session(token))!;
      expect(await nodes[1].admin.session(token)).toMatchObject({ email: "both@nodes.test", csrfToken: onA.csrfToken, stores: [{ storeId: "store-2", name: "Two nodes" }] });
      await nodes[1].admin.logout(token);
      expect(await nodes[0].admin.session(token)).toBeUndefined();
      // Five wrong passwords from one address, alternating between the nodes: then even the right one is refused on either.
      for (let i = 0; i < 5; i++) await expect(nodes[i % 2].admin.login("both@nodes.test", "wrong password", "198.51.100.21")).rejects.toMatchObject({ status: 401 });
      await expect(nodes[0].admin.login("both@nodes.test", "both nodes password", "198.51.100.21")).rejects.toMatchObject({ status: 429 });
      await expect(nodes[1].admin.login("both@nodes.test", "both nodes password", "198.51.100.21")).rejects.toMatchObject({ status: 429 });
    } finally {
      for (const node of nodes) await node.close();
    }
  });
});
