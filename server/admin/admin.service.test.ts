/**
 * Sign-in rules with a controlled clock over a real database (a SQLite file; PostgreSQL with
 * CHORUS_TEST_POSTGRES_URL): session expiry, sign-in throttling (counted before the password, per address +
 * e-mail and per address, progressive back-off, no per-e-mail lockout), sessions ended by a password
 * change, and input validation of new users.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { isApiError } from "../contract/errors.ts";
import { createServices, type Services } from "../services.ts";
import { adminRepo } from "./admin.repo.ts";
import { adminService, LOGIN_THROTTLE, lockedUntilMs, SESSION_TTL_MS, throttleAddress } from "./admin.service.ts";

let dir: string;
let database: FreshDatabase;
let s: Services;
let clock = Date.UTC(2026, 5, 1);
let admin: ReturnType<typeof adminService>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-admin-service-"));
  database = await freshDatabase(dir);
  s = await createServices({ databasePath: database.location });
  await s.stores.create({ storeId: TEST_STORE_ID, name: "Shop", platform: "shopify" });
  admin = adminService({ db: s.db, admin: adminRepo(s.db), stores: s.stores, now: () => clock });
  await admin.createUser({ email: "Clock@Shop.test ", password: "clock password", storeIds: [TEST_STORE_ID] });
});
afterAll(async () => {
  await s.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const status = async (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e) => (isApiError(e) ? e.status : 500),
  );

describe("admin sign-in rules", () => {
  it("e-mails are matched trimmed and case-insensitively", async () => {
    expect(await status(admin.login("  CLOCK@shop.TEST", "clock password", "a"))).toBe(200);
  });

  it("a session ends 12 hours after sign-in", async () => {
    const { token } = await admin.login("clock@shop.test", "clock password", "a");
    clock += SESSION_TTL_MS - 1;
    expect((await admin.session(token))?.email).toBe("clock@shop.test");
    clock += 1;
    expect(await admin.session(token)).toBeUndefined();
  });

  const FREE = LOGIN_THROTTLE.free;
  const MINUTE = 60_000;
  /** A fresh e-mail + address world: move the clock past every counter. */
  const forgetAll = () => {
    clock += LOGIN_THROTTLE.forgetMs + 1;
  };

  it("an address + e-mail gets 5 wrong passwords, then waits 1, 2, 4 ... minutes (at most 60) between tries", async () => {
    forgetAll();
    for (let i = 0; i < FREE.ipEmail; i++) expect(await status(admin.login("clock@shop.test", "wrong", "b"))).toBe(401);
    expect(await status(admin.login("clock@shop.test", "clock password", "b"))).toBe(429); // the right password does not help while locked
    for (const lockMinutes of [1, 2, 4, 8]) {
      clock += lockMinutes * MINUTE - 1;
      expect(await status(admin.login("clock@shop.test", "wrong", "b"))).toBe(429);
      clock += 1;
      expect(await status(admin.login("clock@shop.test", "wrong", "b"))).toBe(401); // counted: the next lock is twice as long
    }
    expect(lockedUntilMs(FREE.ipEmail + 20, 0, FREE.ipEmail)).toBe(LOGIN_THROTTLE.maxLockMs);
    clock += 16 * MINUTE;
    expect(await status(admin.login("clock@shop.test", "clock password", "b"))).toBe(200);
    // The success cleared the counter: 5 free failures again.
    for (let i = 0; i < FREE.ipEmail; i++) expect(await status(admin.login("clock@shop.test", "wrong", "b"))).toBe(401);
  });

  it("counters are forgotten 24 hours after their latest attempt", async () => {
    forgetAll();
    for (let i = 0; i < FREE.ipEmail; i++) expect(await status(admin.login("clock@shop.test", "wrong", "c"))).toBe(401);
    expect(await status(admin.login("clock@shop.test", "clock password", "c"))).toBe(429);
    clock += LOGIN_THROTTLE.forgetMs + 1;
    expect(await status(admin.login("clock@shop.test", "clock password", "c"))).toBe(200);
  });

  it("failures from many addresses do not lock the owner out: a correct password from a clean address signs in", async () => {
    forgetAll();
    for (let i = 0; i < 24; i++) {
      for (let j = 0; j < FREE.ipEmail; j++) expect(await status(admin.login("clock@shop.test", "wrong", `198.51.100.${i}`))).toBe(401);
      expect(await status(admin.login("clock@shop.test", "wrong", `198.51.100.${i}`))).toBe(429);
    }
    expect(await status(admin.login("clock@shop.test", "clock password", "203.0.113.50"))).toBe(200);
  });

  it("one address is limited across e-mails: 20 failures, then it waits, whatever the e-mail", async () => {
    forgetAll();
    for (let i = 0; i < FREE.ip; i++) expect(await status(admin.login(`guess-${i}@shop.test`, "wrong", "192.0.2.1"))).toBe(401);
    expect(await status(admin.login("clock@shop.test", "clock password", "192.0.2.1"))).toBe(429);
    expect(await status(admin.login("clock@shop.test", "clock password", "192.0.2.2"))).toBe(200);
    clock += LOGIN_THROTTLE.firstLockMs;
    expect(await status(admin.login("clock@shop.test", "clock password", "192.0.2.1"))).toBe(200);
  });

  it("a correct password takes back its own count from the address counter", async () => {
    forgetAll();
    for (let i = 0; i < FREE.ip * 2; i++) expect(await status(admin.login("clock@shop.test", "clock password", "192.0.2.9"))).toBe(200);
    for (let i = 0; i < FREE.ipEmail; i++) expect(await status(admin.login(`other-${i}@shop.test`, "wrong", "192.0.2.9"))).toBe(401);
  });

  it("concurrent wrong passwords: the attempt is counted before argon2, so only 5 of 60 are verified", async () => {
    forgetAll();
    const results = await Promise.all(Array.from({ length: 60 }, () => status(admin.login("clock@shop.test", "wrong", "192.0.2.77"))));
    expect(results.filter((r) => r === 401)).toHaveLength(FREE.ipEmail);
    expect(results.filter((r) => r === 429)).toHaveLength(60 - FREE.ipEmail);
  });

  it("an IPv6 client is counted per /64, and an IPv4-mapped address as IPv4", async () => {
    expect(throttleAddress("2001:db8:0:1::1")).toBe(throttleAddress("2001:0db8:0000:0001:ffff:1:2:3"));
    expect(throttleAddress("2001:db8:0:1::1")).not.toBe(throttleAddress("2001:db8:0:2::1"));
    expect(throttleAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    forgetAll();
    for (let i = 0; i < FREE.ipEmail; i++) expect(await status(admin.login("clock@shop.test", "wrong", `2001:db8:0:1::${i + 1}`))).toBe(401);
    expect(await status(admin.login("clock@shop.test", "clock password", "2001:db8:0:1::ffff"))).toBe(429);
  });

  it("a password change ends every session of the user but the one kept", async () => {
    forgetAll();
    const one = (await admin.login("clock@shop.test", "clock password", "a")).token;
    const two = (await admin.login("clock@shop.test", "clock password", "a")).token;
    const three = (await admin.login("clock@shop.test", "clock password", "a")).token;
    expect(await admin.setPassword("clock@shop.test", "new clock password", { keepSessionToken: two })).toEqual({ sessionsEnded: 2 });
    expect(await admin.session(one)).toBeUndefined();
    expect((await admin.session(two))?.email).toBe("clock@shop.test");
    expect(await admin.session(three)).toBeUndefined();
    expect(await admin.setPassword("clock@shop.test", "clock password")).toEqual({ sessionsEnded: 1 });
    expect(await admin.session(two)).toBeUndefined();
  });

  it("new users need a valid e-mail, a password of 8+ characters, existing stores and a free e-mail", async () => {
    expect(await status(admin.createUser({ email: "not-an-email", password: "long enough", storeIds: [] }))).toBe(400);
    expect(await status(admin.createUser({ email: "x@shop.test", password: "short", storeIds: [] }))).toBe(400);
    expect(await status(admin.createUser({ email: "x@shop.test", password: "long enough", storeIds: ["nope"] }))).toBe(400);
    expect(await status(admin.createUser({ email: "CLOCK@shop.test", password: "long enough", storeIds: [] }))).toBe(400);
  });
});
