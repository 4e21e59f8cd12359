/**
 * Account limits on two nodes over one PostgreSQL database (PostgreSQL only: vitest.postgres.config.ts through
 * test/engine-suites.ts): sign-ups and password-reset requests count against one window whichever node takes them.
 */
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabases } from "../../test/database-location.ts";
import { sql, value } from "../db/database.ts";
import { createServices } from "../services.ts";

if (!process.env.CHORUS_TEST_POSTGRES_URL) throw new Error("PostgreSQL only: run it with `npm run test:postgres -- <file>` (env CHORUS_TEST_POSTGRES_URL)");
const { newDatabase, cleanup } = freshDatabases("chorus-accounts-pg-");
afterAll(cleanup);

describe("two nodes on one PostgreSQL database", () => {
  it("sign-ups and reset requests count against one window whichever node takes them", async () => {
    const { location } = await newDatabase();
    const nodes = [await createServices({ databasePath: location }), await createServices({ databasePath: location })];
    try {
      for (const node of nodes) {
        node.signup.configure({ open: true, perAddress: { max: 3, windowMs: 3_600_000 } });
        node.passwordResets.configure({ perAddress: { max: 2, windowMs: 3_600_000 } });
      }
      const form = (i: number) => ({ email: `node-${i}@example.com`, password: "a long enough password", storeName: `Shop ${i}`, platform: "custom", shopUrl: "https://shop.example" });
      // Six sign-ups from one address, alternating between the nodes, all at once: three stores, three 429s.
      const signups = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => nodes[i % 2].signup.signUp(form(i), "198.51.100.7")));
      expect(signups.filter((r) => r.status === "fulfilled")).toHaveLength(3);
      for (const r of signups) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 429, code: "signup_rate_limited" });
      expect(await value<number>(nodes[1].db, sql`SELECT count(*) FROM merchant_users WHERE email LIKE 'node-%'`)).toBe(3);
      // Another network still signs up (on either node).
      await expect(nodes[1].signup.signUp(form(6), "198.51.100.8")).resolves.toMatchObject({ storeId: expect.any(String) });

      // Reset requests: two per address in the window, the third refused by the other node.
      await nodes[0].passwordResets.request("node-0@example.com", "203.0.113.9", "https://chorus.test");
      await nodes[1].passwordResets.request("node-1@example.com", "203.0.113.9", "https://chorus.test");
      await expect(nodes[0].passwordResets.request("node-2@example.com", "203.0.113.9", "https://chorus.test")).rejects.toMatchObject({ status: 429 });
    } finally {
      for (const node of nodes) await node.close();
    }
  });
});
