/**
 * Sign-in rules with a controlled clock over a real SQLite file: session expiry, the rate-limit
 * window, the per-e-mail limit across addresses, and input validation of new users.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { isApiError } from "../contract/errors.ts";
import { createServices, type Services } from "../services.ts";
import { adminRepo } from "./admin.repo.ts";
import { adminService, LOGIN_LIMITS, LOGIN_WINDOW_MS, SESSION_TTL_MS } from "./admin.service.ts";

let dir: string;
let s: Services;
let clock = Date.UTC(2026, 5, 1);
let admin: ReturnType<typeof adminService>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-admin-service-"));
  s = createServices({ databasePath: join(dir, "db.sqlite") });
  s.stores.create({ storeId: TEST_STORE_ID, name: "Shop", platform: "shopify" });
  admin = adminService({ db: s.db, admin: adminRepo(s.db), stores: s.stores, now: () => clock });
  await admin.createUser({ email: "Clock@Shop.test ", password: "clock password", storeIds: [TEST_STORE_ID] });
});
afterAll(() => {
  s.close();
  rmSync(dir, { recursive: true, force: true });
});

const status = async (p: Promise<unknown>) => p.then(() => 200, (e) => (isApiError(e) ? e.status : 500));

describe("admin sign-in rules", () => {
  it("e-mails are matched trimmed and case-insensitively", async () => {
    expect(await status(admin.login("  CLOCK@shop.TEST", "clock password", "a"))).toBe(200);
  });

  it("a session ends 12 hours after sign-in", async () => {
    const { token } = await admin.login("clock@shop.test", "clock password", "a");
    clock += SESSION_TTL_MS - 1;
    expect(admin.session(token)?.email).toBe("clock@shop.test");
    clock += 1;
    expect(admin.session(token)).toBeUndefined();
  });

  it("failures are forgotten after the 15-minute window", async () => {
    for (let i = 0; i < LOGIN_LIMITS.emailIp; i++) expect(await status(admin.login("clock@shop.test", "wrong", "b"))).toBe(401);
    expect(await status(admin.login("clock@shop.test", "clock password", "b"))).toBe(429);
    clock += LOGIN_WINDOW_MS + 1;
    expect(await status(admin.login("clock@shop.test", "clock password", "b"))).toBe(200);
  });

  it("the per-e-mail limit holds across changing addresses (a forged X-Forwarded-For does not help)", async () => {
    clock += LOGIN_WINDOW_MS + 1;
    for (let i = 0; i < LOGIN_LIMITS.email; i++) expect(await status(admin.login("clock@shop.test", "wrong", `ip-${i}`))).toBe(401);
    expect(await status(admin.login("clock@shop.test", "clock password", "fresh-ip"))).toBe(429);
    clock += LOGIN_WINDOW_MS + 1;
  });

  it("new users need a valid e-mail, a password of 8+ characters, existing stores and a free e-mail", async () => {
    expect(await status(admin.createUser({ email: "not-an-email", password: "long enough", storeIds: [] }))).toBe(400);
    expect(await status(admin.createUser({ email: "x@shop.test", password: "short", storeIds: [] }))).toBe(400);
    expect(await status(admin.createUser({ email: "x@shop.test", password: "long enough", storeIds: ["nope"] }))).toBe(400);
    expect(await status(admin.createUser({ email: "CLOCK@shop.test", password: "long enough", storeIds: [] }))).toBe(400);
  });
});
