/**
 * Storefront platform tokens over real HTTP (issue #19 finding 12): `POST /loyalty/login` with a token
 * whose `sub` is a JSON number answers 401 and creates no loyalty customer (it used to store "12345.0").
 */
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { demoProgram } from "./loyalty.demo.ts";
import { sql, values } from "../db/database.ts";

let t: TestServer;
const SECRET = "store-a-platform-secret-0123456789";
const login = (customerAccessToken: string) =>
  fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/login`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken }) });
const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setExpirationTime("10m").sign(new TextEncoder().encode(SECRET));
const customers = async () => (await values(t.services.db, sql`SELECT platform_customer_id FROM loyalty_customers WHERE store_id = ${TEST_STORE_ID}`)) as string[];

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
});
afterAll(() => t.close());

describe("POST /loyalty/login: the platform token's sub", () => {
  it("a numeric sub answers 401 invalid_platform_token naming sub, and stores nothing", async () => {
    const res = await login(await sign({ sub: 12345 }));
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error.code).toBe("invalid_platform_token");
    expect(body.error.description).toMatch(/sub must be a string/);
    expect(await customers()).toEqual([]);
  });

  it("the same ID as a string logs in and is stored as sent", async () => {
    const res = await login(await sign({ sub: "12345" }));
    expect(res.status).toBe(200);
    expect(await customers()).toEqual(["12345"]);
  });
});
