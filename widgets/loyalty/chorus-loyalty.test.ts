// @vitest-environment happy-dom
/**
 * `<chorus-loyalty>` in happy-dom against the real server: the legal sentence built from the template
 * puts the stored policy URLs into `href` only through the one link rule (safeHref, issue #19 finding 10).
 * A row stored before the contract refused `/\evil.example` (or written around it) must not become an
 * off-site or script link on the storefront.
 */
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { demoProgram } from "../../server/loyalty/loyalty.demo.ts";
import { run, sql } from "../../server/db/database.ts";
import "./chorus-loyalty.ts";

let t: TestServer;
const SECRET = "widget-test-platform-secret-0123456789";
let shopper = 0;

beforeAll(async () => {
  t = await startTestServer();
  for (const storeId of [TEST_STORE_ID, OTHER_STORE_ID]) {
    await t.services.stores.create({ storeId, name: "Test store", platform: "shopify" });
    await t.services.loyalty.setupProgram(storeId, demoProgram(SECRET));
  }
});
afterAll(() => t.close());

/**
 * Store the policy URLs as they are (no contract check), with an empty HTML sentence so the template is
 * used. One store per case: the public legal policies answer may be kept by the page's HTTP cache.
 */
const storePolicyUrls = (storeId: string, terms: string, privacy: string) =>
  run(t.services.db, sql`UPDATE loyalty_programs SET policy_html = '', terms_url = ${terms}, privacy_policy_url = ${privacy} WHERE store_id = ${storeId}`);

/** A signed-in, not yet enrolled shopper's widget; @returns the links of its legal sentence. */
async function legalLinks(storeId: string): Promise<HTMLAnchorElement[]> {
  const token = await new SignJWT({ sub: `widget-shopper-${shopper++}` }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setExpirationTime("10m").sign(new TextEncoder().encode(SECRET));
  const el = document.createElement("chorus-loyalty");
  el.setAttribute("store-id", storeId);
  el.setAttribute("api-base", t.baseUrl);
  el.setAttribute("customer-token", token);
  document.body.append(el);
  await expect.poll(() => el.shadowRoot?.querySelector("[part=legal]") ?? null, { timeout: 10_000 }).not.toBeNull();
  return [...el.shadowRoot!.querySelectorAll<HTMLAnchorElement>("[part=legal] a")];
}

describe("<chorus-loyalty> stored policy URLs", () => {
  it("drops an href that looks site-relative but resolves off-site, and a script URL; the link text stays", async () => {
    await storePolicyUrls(TEST_STORE_ID, "/\\evil.example/terms", "javascript:alert(document.cookie)");
    const links = await legalLinks(TEST_STORE_ID);
    expect(links.map((a) => a.textContent)).toEqual(["Terms and Conditions", "Privacy Policy"]);
    expect(links.map((a) => a.hasAttribute("href"))).toEqual([false, false]);
  });

  it("keeps a path on the site (resolved against the page) and an https URL", async () => {
    await storePolicyUrls(OTHER_STORE_ID, "/pages/terms", "https://policies.example/privacy");
    const links = await legalLinks(OTHER_STORE_ID);
    expect(links.map((a) => a.getAttribute("href"))).toEqual([new URL("/pages/terms", document.baseURI).href, "https://policies.example/privacy"]);
  });
});
