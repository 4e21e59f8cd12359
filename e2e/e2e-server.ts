/**
 * What the e2e specs share about the server playwright.config.ts starts: its database file and the demo
 * merchant's sign-in (DEMO_ADMIN_PASSWORD there).
 */
import { expect, type Page } from "@playwright/test";
import { connect, type Db } from "../server/db/database.ts";

/**
 * This worker's e2e server's data directory and SQLite file (playwright.config.ts: one server per worker; the config
 * sets E2E_PORT and E2E_DB_DIR in each worker process before the specs load).
 */
export const E2E_DB_DIR = process.env.E2E_DB_DIR ?? `/tmp/chorus-e2e-${process.env.E2E_PORT ?? 3111}`;
export const E2E_DB_PATH = `${E2E_DB_DIR}/chorus.sqlite`;

/** The demo merchant user the demo seeder creates. */
export const DEMO_ADMIN = { email: "demo@chorus.test", password: "e2e-admin-password" };

/**
 * Run `fn` on a connection of our own to the e2e server's database file (WAL: the server sees our commits at once),
 * through the data layer's helpers (`all`, `one`, `value`, `run`, `transaction`, repos). Connects without migrating:
 * the server has. @returns a promise of what `fn` resolves to; the connection is closed either way.
 */
export async function withE2eDb<T>(fn: (db: Db) => Promise<T>, options: { readonly?: boolean } = {}): Promise<T> {
  const db = connect(E2E_DB_PATH, { readonly: options.readonly ?? false });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Sign in to the admin as the demo merchant, through the real form; resolves once the admin shows. */
export async function signInAsDemoMerchant(page: Page): Promise<void> {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.getByLabel("E-mail").fill(DEMO_ADMIN.email);
  await page.getByLabel("Password").fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
}
