import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { isApiError } from "../contract/errors.ts";
import { bearerToken, customerTokens, CUSTOMER_TOKEN_TTL_S, hs256PlatformAdapter, signPlatformToken } from "./tokens.ts";

const STORE = "11111111-2222-4333-8444-555555555555";
const status401 = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isApiError(error) && error.status).toBe(401);
};

describe("customer tokens (docs/loyalty.md, Tokens)", () => {
  const tokens = customerTokens("installation-secret-for-tests-0123456789");

  it("round-trips: HS256, audience = store, issuer chorus, sub = loyaltyCustomerId, 15-minute expiry", async () => {
    const token = await tokens.issue(STORE, "customer-1");
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
    expect(header.alg).toBe("HS256");
    expect(payload).toMatchObject({ aud: STORE, iss: "chorus", sub: "customer-1" });
    expect(payload.exp - payload.iat).toBe(CUSTOMER_TOKEN_TTL_S);
    expect(await tokens.verify(STORE, token)).toBe("customer-1");
  });

  it("refuses a customer token whose sub is not a string, even correctly signed", async () => {
    const key = new TextEncoder().encode("installation-secret-for-tests-0123456789");
    const token = await new SignJWT({ sub: 42 } as never).setProtectedHeader({ alg: "HS256" }).setIssuer("chorus").setAudience(STORE).setExpirationTime("5m").sign(key);
    await status401(tokens.verify(STORE, token));
  });

  it("refuses a token for another store, and one signed with another key", async () => {
    await status401(tokens.verify("another-store", await tokens.issue(STORE, "c")));
    await status401(customerTokens("another-installation-secret-000000").verify(STORE, await tokens.issue(STORE, "c")));
  });
});

describe("default platform adapter (HS256 with the store's platform secret)", () => {
  const secret = "platform-secret-for-tests-0123456789";
  it("returns the platform customer ID and the lower-cased e-mail", async () => {
    expect(await hs256PlatformAdapter(secret).verify(await signPlatformToken(secret, { platformCustomerId: "cust-9", email: "Ada@Example.TEST" }))).toEqual({
      platformCustomerId: "cust-9",
      email: "ada@example.test",
    });
  });

  it("refuses a numeric sub with 401 instead of coercing it (issue #19 finding 12)", async () => {
    for (const sub of [12345, 12345.5, true, { id: "x" }, ["x"]]) {
      const token = await new SignJWT({ sub } as never).setProtectedHeader({ alg: "HS256" }).setExpirationTime("5m").sign(new TextEncoder().encode(secret));
      const error = await hs256PlatformAdapter(secret)
        .verify(token)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isApiError(error) && error.status).toBe(401);
      expect(isApiError(error) && error.message).toMatch(/sub must be a string/);
    }
    // The string form of the same ID is fine.
    const ok = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject("12345").setExpirationTime("5m").sign(new TextEncoder().encode(secret));
    expect((await hs256PlatformAdapter(secret).verify(ok)).platformCustomerId).toBe("12345");
  });

  it("refuses alg none (algorithm pinned)", async () => {
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ sub: "x", exp: Math.floor(Date.now() / 1000) + 60 })).toString("base64url")}.`;
    await status401(hs256PlatformAdapter(secret).verify(none));
  });

  it("refuses HS384 even with the right secret (algorithm pinned)", async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: "HS384" }).setSubject("x").setExpirationTime("5m").sign(new TextEncoder().encode(secret));
    await status401(hs256PlatformAdapter(secret).verify(token));
  });
});

describe("bearerToken", () => {
  it("reads Bearer tokens, returns null without a header, and refuses other schemes with 401", () => {
    expect(bearerToken("Bearer a.b.c")).toBe("a.b.c");
    expect(bearerToken(null)).toBeNull();
    expect(() => bearerToken("Basic dXNlcjpwYXNz")).toThrow(/Bearer/);
  });
});
