/**
 * Tokens of the loyalty flow (docs/loyalty.md, Tokens), with jose:
 *
 * - Platform adapters verify the storefront platform's user token (login). The embedded default
 *   adapter (`hs256`) accepts only an HS256 JWT (algorithm pinned: `algorithms: ["HS256"]`, so `none`
 *   and every other algorithm are refused) signed with the store's platform secret, carrying
 *   `sub` = platform customer ID (a JSON string of 1–200 characters; a number is refused, never
 *   coerced), optional `email`, and `exp` (required). Other platforms plug in by implementing
 *   `PlatformAdapter`.
 * - The customer token is a JWT the service signs: HS256 only (algorithm pinned on verification),
 *   `iss` = "chorus", `aud` = the store ID, `sub` = loyaltyCustomerId, 15-minute expiry.
 *
 * Every failure is an ApiError 401 with code `invalid_platform_token` / `invalid_customer_token`.
 */
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { ApiError, isApiError } from "../contract/errors.ts";

export const CUSTOMER_TOKEN_ISSUER = "chorus";
/** Lifetime of a customer token, in seconds. */
export const CUSTOMER_TOKEN_TTL_S = 15 * 60;
const CLOCK_TOLERANCE_S = 5;

/** A storefront shopper as the platform vouches for them. */
export type PlatformIdentity = { platformCustomerId: string; email: string | null };

/** Verifies a storefront platform's user token for one store. */
export interface PlatformAdapter {
  /** @throws ApiError 401 when the token is not a valid, current token of this store's platform. */
  verify(token: string): Promise<PlatformIdentity>;
}

const platformUnauthorized = (why: string) => new ApiError(401, `The storefront customer token is not valid: ${why}`, "invalid_platform_token");
const customerUnauthorized = (why: string) => new ApiError(401, `The customer token is not valid: ${why}`, "invalid_customer_token");

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "it has expired";
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "its algorithm is not accepted (HS256 only)";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "the signature does not match";
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `claim ${error.claim} is wrong or missing`;
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return "it is not a well-formed JWT";
  return "it could not be verified";
}

/**
 * The embedded default adapter: an HS256 JWT signed with the store's platform secret (algorithm pinned
 * to HS256). @returns `sub` as the platform customer ID (must be a string of 1–200 characters) and a
 * lower-cased `email` when it looks like one. @throws ApiError 401 `invalid_platform_token` otherwise.
 */
export function hs256PlatformAdapter(secret: string): PlatformAdapter {
  const key = new TextEncoder().encode(secret);
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["sub", "exp"], clockTolerance: CLOCK_TOLERANCE_S });
        // jose checks that `sub` is present, not its type: a numeric `sub` would reach SQLite as a REAL ("12345.0").
        const sub: unknown = payload.sub;
        if (typeof sub !== "string") throw platformUnauthorized("sub must be a string (the platform customer ID)");
        if (sub.length === 0 || sub.length > 200) throw platformUnauthorized("sub must be a platform customer ID of 1 to 200 characters");
        const email = typeof payload.email === "string" && /^[^\s@]+@[^\s@]+$/.test(payload.email) ? payload.email.toLowerCase() : null;
        return { platformCustomerId: sub, email };
      } catch (error) {
        if (isApiError(error)) throw error;
        throw platformUnauthorized(describeJoseError(error));
      }
    },
  };
}

/**
 * Sign a storefront platform token the way the default adapter expects (the demo storefront and tests
 * use this; a real platform signs its own). @param ttlS lifetime in seconds.
 */
export async function signPlatformToken(secret: string, identity: { platformCustomerId: string; email?: string }, ttlS = 600): Promise<string> {
  return new SignJWT(identity.email ? { email: identity.email } : {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(identity.platformCustomerId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlS)
    .sign(new TextEncoder().encode(secret));
}

/** Issue and verify customer tokens with the installation's token secret. */
export function customerTokens(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    /** @returns a JWT for `loyaltyCustomerId` valid at `storeId` for CUSTOMER_TOKEN_TTL_S seconds. */
    issue(storeId: string, loyaltyCustomerId: string): Promise<string> {
      return new SignJWT({})
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(CUSTOMER_TOKEN_ISSUER)
        .setAudience(storeId)
        .setSubject(loyaltyCustomerId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + CUSTOMER_TOKEN_TTL_S)
        .sign(key);
    },
    /**
     * Verify a customer token for `storeId` (algorithm pinned: `algorithms: ["HS256"]`). @returns the loyaltyCustomerId.
     * @throws ApiError 401 for a bad signature, another algorithm (incl. `none`), another store, expiry, a non-string `sub`.
     */
    async verify(storeId: string, token: string): Promise<string> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          issuer: CUSTOMER_TOKEN_ISSUER,
          audience: storeId,
          requiredClaims: ["sub", "exp"],
          clockTolerance: CLOCK_TOLERANCE_S,
        });
        if (typeof payload.sub !== "string" || payload.sub === "") throw customerUnauthorized("sub must be a loyaltyCustomerId string");
        return payload.sub;
      } catch (error) {
        if (isApiError(error)) throw error;
        if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === "aud") throw customerUnauthorized("it was issued for another store");
        throw customerUnauthorized(describeJoseError(error));
      }
    },
  };
}
export type CustomerTokens = ReturnType<typeof customerTokens>;

/** Extract the token of an `Authorization: Bearer <token>` header. @returns null when absent. @throws 401 when malformed. */
export function bearerToken(authorization: string | null): string | null {
  if (authorization === null || authorization.trim() === "") return null;
  const match = /^Bearer\s+([A-Za-z0-9_\-.=]+)$/i.exec(authorization.trim());
  if (!match) throw customerUnauthorized("the Authorization header must be `Bearer <customer token>`");
  return match[1];
}
