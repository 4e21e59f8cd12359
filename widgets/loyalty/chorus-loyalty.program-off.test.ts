// @vitest-environment happy-dom
/**
 * `<chorus-loyalty>` of a store whose loyalty program is turned off (issue 21 item 3), against the real
 * server: the storefront API answers 404 `loyalty_program_not_found` and the widget shows nothing (no
 * card, no error for shoppers); turned on again, the general program shows.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import "./chorus-loyalty.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.loyalty.turnOnProgram(TEST_STORE_ID, {
    acceptTermsAndJoinProgramButtonText: "Join",
    policySentenceTemplate: "{termsAndConditions} and {privacyPolicy}",
    termsAndConditionsUrl: "/terms",
    privacyPolicyUrl: "/privacy",
  });
  await t.services.loyalty.addEarningRule(TEST_STORE_ID, { type: "sign-up", name: "Welcome points", points: 100, enabled: true });
});
afterAll(() => t.close());

/** A fresh widget of the store for an anonymous shopper. */
function widget() {
  const el = document.createElement("chorus-loyalty") as HTMLElement & { phase: string; updateComplete: Promise<boolean> };
  el.setAttribute("store-id", TEST_STORE_ID);
  el.setAttribute("api-base", t.baseUrl);
  document.body.append(el);
  return el;
}

it("shows nothing while the program is off, and the program once it is on", async () => {
  await t.services.loyalty.turnOffProgram(TEST_STORE_ID);
  const off = widget();
  await expect.poll(() => off.phase, { timeout: 10_000 }).toBe("off");
  await off.updateComplete; // the phase is set; its render follows in a microtask
  expect(off.shadowRoot!.querySelector("section")).toBeNull();
  expect(off.shadowRoot!.querySelector("[role=alert]")).toBeNull();
  off.remove();

  await t.services.loyalty.turnOnProgram(TEST_STORE_ID, undefined);
  const on = widget();
  await expect.poll(() => on.phase, { timeout: 10_000 }).toBe("anonymous");
  await on.updateComplete;
  expect(on.shadowRoot!.querySelector("section")?.textContent).toContain("Welcome points");
});
