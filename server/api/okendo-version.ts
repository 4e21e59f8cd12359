/**
 * Okendo's API-version header (issue #35 item 6; docs/api.md "Okendo's api-version header"): Okendo's newer
 * storefront clients (loyalty, referrals) send `okendo-api-version: 2025-02-01`. Every storefront operation
 * accepts it (or no header), and answers 400 JSON `invalid_header` for any other value, so a client written for
 * a version Chorus does not speak fails clearly instead of reading answers of another shape. Checked once, in
 * `runOperation` (server/api/operation.ts), and documented on every storefront operation in the OpenAPI document.
 */
import { z } from "zod";
import { badRequest } from "../contract/errors.ts";

/** The header's name (lower case, as `Headers.get` takes it). */
export const OKENDO_API_VERSION_HEADER = "okendo-api-version";
/** The versions Chorus answers. */
export const OKENDO_API_VERSIONS = ["2025-02-01"] as const;

/** The header as an OpenAPI parameter of every storefront operation. */
export const okendoVersionHeaders = z.object({
  [OKENDO_API_VERSION_HEADER]: z
    .enum(OKENDO_API_VERSIONS)
    .optional()
    .meta({ description: "Okendo's API version, sent by Okendo's storefront clients: `2025-02-01` (or leave it out). Any other value: 400 `invalid_header`." }),
});

/** @throws ApiError 400 `invalid_header` when `value` (the header, or null) is present and not a known version. */
export function checkOkendoApiVersion(value: string | null): void {
  if (value === null || (OKENDO_API_VERSIONS as readonly string[]).includes(value.trim())) return;
  throw badRequest(`${OKENDO_API_VERSION_HEADER} must be ${OKENDO_API_VERSIONS.join(" or ")} (or left out); "${value.slice(0, 40)}" is not a version this server answers`, "invalid_header");
}
