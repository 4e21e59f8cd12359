import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { createServices } from "../services.ts";
import { runKeysCli } from "./keys.ts";

let dir: string;
let database: FreshDatabase;
const previous: Record<string, string | undefined> = {};
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-keys-"));
  database = await freshDatabase(dir);
  // The CLI reads its database from the environment (DATABASE_PATH, or DATABASE_URL on PostgreSQL).
  for (const [name, value] of Object.entries(database.env)) {
    previous[name] = process.env[name];
    process.env[name] = value;
  }
  const s = await createServices({ databasePath: database.location });
  await s.stores.create({ storeId: TEST_STORE_ID, name: "Test", platform: "shopify" });
  await s.close();
});
afterAll(async () => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCli(
    args,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
};

describe("npm run keys", () => {
  it("create prints a key once that authenticates; list never shows it; revoke stops it", async () => {
    const created = await run("create", "--store", TEST_STORE_ID, "--name", "Warehouse BI");
    expect(created.code).toBe(0);
    const key = /password \(API key\):\s+(\S+)/.exec(created.out)![1];
    const id = /Created API key (\S+)/.exec(created.out)![1];
    const s = await createServices({ databasePath: database.location });
    try {
      const header = `Basic ${Buffer.from(`${TEST_STORE_ID}:${key}`).toString("base64")}`;
      expect(await s.apiKeys.authenticateBasic(header)).toBe(TEST_STORE_ID);
      const listed = await run("list");
      expect(listed.out).toContain(id);
      expect(listed.out).toContain("Warehouse BI");
      expect(listed.out).not.toContain(key);
      expect((await run("revoke", id)).code).toBe(0);
      await expect(s.apiKeys.authenticateBasic(header)).rejects.toThrow();
      expect((await run("list", "--store", TEST_STORE_ID)).out).toContain("REVOKED");
      expect((await run("revoke", id)).code).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("create for an unknown store fails with exit code 1; bad usage exits 2", async () => {
    expect((await run("create", "--store", "nope")).code).toBe(1);
    expect((await run("create")).code).toBe(2);
    expect((await run("frobnicate")).code).toBe(2);
  });
});
