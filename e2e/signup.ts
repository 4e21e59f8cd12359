/**
 * Sign up a new store through the real form (`SIGNUP=open` on the e2e server, playwright.config.ts), for
 * any spec that needs a store of its own: resolves once the new store's admin shows, with its ID.
 */
import { expect, type Page } from "@playwright/test";

export type NewStore = { storeId: string; email: string; password: string; storeName: string };

/**
 * Sign up `storeName` (platform `platform`, default custom) with a fresh owner e-mail unless one is given.
 * The page is then signed in as the owner, on `/admin/stores/{storeId}`.
 */
export async function signUpStore(page: Page, options: { storeName: string; email?: string; password?: string; platform?: string; shopUrl?: string }): Promise<NewStore> {
  const email = options.email ?? `owner-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e-shop.test`;
  const password = options.password ?? "e2e owner password";
  await page.goto("/admin/signup");
  await page.getByLabel("Your e-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Store name").fill(options.storeName);
  await page.getByLabel("Shop platform").selectOption(options.platform ?? "custom");
  await page.getByLabel("Shop address").fill(options.shopUrl ?? "https://shop.example");
  await page.getByRole("button", { name: "Create store" }).click();
  await expect(page.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  const storeId = /\/admin\/stores\/([0-9a-f-]{36})/.exec(page.url())![1];
  return { storeId, email, password, storeName: options.storeName };
}
