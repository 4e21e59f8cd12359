/**
 * The regions read of the survey's location question (docs/surveys.md, "Regions"): a country's first-level ISO 3166-2
 * subdivisions by code and name, an empty list for a country without any, 404 for an unknown store or country, 400
 * for a malformed code; a public, cacheable answer. Real HTTP against the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import type { RegionsResponse } from "../contract/regions.ts";
import { isRegionOf, regionsOf } from "./regions.ts";

let t: TestServer;
const get = (path: string, store = TEST_STORE_ID) => fetch(t.url(`/v1/stores/${store}/regions/${path}`));

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
});
afterAll(() => t.close());

describe("GET /v1/stores/{storeId}/regions/{country}", () => {
  it("Germany: its 16 states, codes after the hyphen of ISO 3166-2, sorted by name; public and cacheable", async () => {
    const res = await get("DE");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public/);
    expect(res.headers.get("etag")).toBeTruthy();
    const body = (await res.json()) as RegionsResponse;
    expect(body.country).toBe("DE");
    expect(body.regions).toHaveLength(16);
    expect(body.regions).toContainEqual({ code: "BY", name: "Bayern" });
    expect(body.regions.map((r) => r.name)).toEqual([...body.regions.map((r) => r.name)].sort(new Intl.Collator("und").compare));
    const again = await get("DE", TEST_STORE_ID);
    expect((await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/regions/DE`), { headers: { "if-none-match": again.headers.get("etag")! } })).status).toBe(304);
  });

  it("any case; the United States' states as shop platforms write them (CA), Japan's 47 prefectures", async () => {
    const us = (await (await get("us")).json()) as RegionsResponse;
    expect(us.country).toBe("US");
    expect(us.regions).toContainEqual({ code: "CA", name: "California" });
    expect(((await (await get("JP")).json()) as RegionsResponse).regions).toHaveLength(47);
  });

  it("first-level only: France's regions, not the departments under them", () => {
    expect(regionsOf("FR")).toContainEqual({ code: "IDF", name: "Île-de-France" });
    expect(
      regionsOf("FR").some((r) => r.code === "75"),
      "Paris, a department",
    ).toBe(false);
    expect(regionsOf("FR").length).toBeLessThan(40);
  });

  it("a country without subdivisions answers an empty list (the region is free text)", async () => {
    expect(await (await get("GI")).json()).toEqual({ country: "GI", regions: [] });
    expect(isRegionOf("GI", "anything")).toBe(true);
    expect(isRegionOf("DE", "by")).toBe(true);
    expect(isRegionOf("DE", "CA")).toBe(false);
  });

  it("404 JSON for an unknown country code or store, 400 for a malformed code: never a 500", async () => {
    const unknown = await get("ZZ");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { description: string } }).error.description).toMatch(/ZZ/);
    expect((await get("DE", "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const malformed = await get("DEU");
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { description: string } }).error.description).toMatch(/alpha-2/);
  });
});
