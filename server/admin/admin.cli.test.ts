/**
 * The users CLI and the demo merchant seeder over real temp databases (SQLite files; PostgreSQL databases with
 * CHORUS_TEST_POSTGRES_URL), and a user of two stores (store switcher) over real HTTP.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabases } from "../../test/database-location.ts";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer } from "../../test/server.ts";
import { loadConfig, PROJECT_ROOT } from "../config.ts";
import { DEMO_SEEDERS, DEMO_STORE_ID, ensureDemoStore } from "../demo/demo.ts";
import { createServices } from "../services.ts";

/** Fresh databases (SQLite files or PostgreSQL databases) and temp directories, removed after the file's tests. */
const { newDatabase, tempDir, cleanup } = freshDatabases("chorus-admin-cli-");
afterAll(cleanup);

const run = promisify(execFile);

describe("npm run users", () => {
  it("add without --password prints a generated password once, and that password signs in", async () => {
    const { location: db, env: dbEnv } = await newDatabase();
    const s = await createServices({ databasePath: db });
    await s.stores.create({ storeId: TEST_STORE_ID, name: "Shop", platform: "shopify" });
    await s.close();
    const env = { ...process.env, ...dbEnv };
    const { stdout } = await run(process.execPath, ["server/cli/users.ts", "add", "--email", "Owner@Shop.test", "--store", TEST_STORE_ID], { cwd: PROJECT_ROOT, env });
    const password = /Password \(shown once[^)]*\): (\S+)/.exec(stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const again = await createServices({ databasePath: db });
    try {
      const { token } = await again.admin.login("owner@shop.test", password!, "");
      expect((await again.admin.session(token))?.stores.map((x) => x.storeId)).toEqual([TEST_STORE_ID]);
    } finally {
      await again.close();
    }
  });

  it("refuses an unknown store with exit code 1 and a clear message", async () => {
    const { location: db, env: dbEnv } = await newDatabase();
    await (await createServices({ databasePath: db })).close();
    const error = await run(process.execPath, ["server/cli/users.ts", "add", "--email", "a@b.test", "--store", "nope", "--password", "long enough pw"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...dbEnv },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(error).toMatchObject({ code: 1 });
    expect((error as { stderr: string }).stderr).toContain("no store with ID nope");
  });
});

describe("demo merchant seeder", () => {
  const demo = async (password?: string) => {
    const dir = tempDir();
    const db = await newDatabase();
    const services = await createServices({ databasePath: db.location });
    const lines: string[] = [];
    // The admin seeder alone (the others import data: server/demo/demo.test.ts).
    const config = { ...loadConfig({ ...process.env, ...db.env, DEMO_DATA_DIR: join(dir, "none") }), DEMO_ADMIN_PASSWORD: password };
    const admin = DEMO_SEEDERS.filter((s) => s.name === "admin-user");
    await ensureDemoStore({ services, config, log: (l) => lines.push(l) }, admin);
    await ensureDemoStore({ services, config, log: (l) => lines.push(l) }, admin);
    return { services, lines };
  };

  it("creates demo@chorus.test with DEMO_ADMIN_PASSWORD, and never prints that password", async () => {
    const { services, lines } = await demo("chosen-demo-password");
    try {
      const { token } = await services.admin.login("demo@chorus.test", "chosen-demo-password", "");
      expect((await services.admin.session(token))?.stores.map((s) => s.storeId)).toEqual([DEMO_STORE_ID]);
      expect(lines.join("\n")).not.toContain("chosen-demo-password");
    } finally {
      await services.close();
    }
  });

  it("without DEMO_ADMIN_PASSWORD prints a random password exactly once (second start: nothing)", async () => {
    const { services, lines } = await demo(undefined);
    try {
      const printed = lines.filter((l) => l.includes("demo@chorus.test with password"));
      expect(printed).toHaveLength(1);
      const password = /with password (\S+)/.exec(printed[0])![1];
      await expect(services.admin.login("demo@chorus.test", password, "")).resolves.toHaveProperty("token");
    } finally {
      await services.close();
    }
  });
});

describe("a user of two stores", () => {
  it("sees a store switcher listing both, and opens each store's pages", async () => {
    const t = await startTestServer();
    try {
      await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Alpha shop", platform: "shopify" });
      await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Beta shop", platform: "shopify" });
      await t.services.admin.createUser({ email: "both@shops.test", password: "two stores password", storeIds: [TEST_STORE_ID, OTHER_STORE_ID] });
      const page = await fetch(t.url("/admin/login"));
      const loginCookie = page.headers.getSetCookie()[0].split(";")[0];
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
      const res = await fetch(t.url("/admin/login"), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: loginCookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, email: "both@shops.test", password: "two stores password", next: "" }),
      });
      expect(res.headers.get("location")).toBe(`/admin/stores/${TEST_STORE_ID}`);
      const cookie = res.headers
        .getSetCookie()
        .find((c) => c.startsWith("chorus_admin="))!
        .split(";")[0];
      const html = await (await fetch(t.url(`/admin/stores/${TEST_STORE_ID}/reviews`), { headers: { cookie } })).text();
      expect(html).toContain('<select id="store-switch" name="store">');
      expect(html).toContain("Beta shop");
      const switched = await fetch(t.url(`/admin?store=${OTHER_STORE_ID}&section=reviews`), { headers: { cookie }, redirect: "manual" });
      expect(switched.headers.get("location")).toBe(`/admin/stores/${OTHER_STORE_ID}/reviews`);
      expect((await fetch(t.url(`/admin/stores/${OTHER_STORE_ID}/reviews`), { headers: { cookie } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
