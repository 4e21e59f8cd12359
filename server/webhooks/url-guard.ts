/**
 * Which webhook URLs Chorus may call (docs/webhooks.md "Which URLs are allowed"): the rules of the one
 * outgoing-request guard (server/shared/outgoing-request.ts: no credentials in the URL, every address of the
 * host public unicast, checked again when connecting) and, over them, the webhook rule:
 * - `https:` only; `http:` only to a loopback address or name, and only with the loopback switch
 *   (`allowLoopback`: ALLOW_LOOPBACK_REQUESTS=1, or its older name ALLOW_INSECURE_WEBHOOKS=1; tests and local
 *   development).
 */
import { ApiError } from "../contract/errors.ts";
import { checkOutgoingUrl, checkOutgoingUrlSyntax, hostOf, isLoopbackAddress, isLoopbackName, isOutgoingRequestError, type Resolve } from "../shared/outgoing-request.ts";

/** Why a URL was refused, in words for the merchant (an ApiError 400 from `checkWebhookUrl`). */
export class WebhookTargetError extends Error {}

/**
 * The URL's rules without DNS (scheme, credentials, an IP literal's range, loopback names).
 * @throws WebhookTargetError naming the rule broken.
 */
export function checkUrlSyntax(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError("url must be an absolute https:// URL");
  }
  if (url.protocol === "http:") {
    if (!allowLoopback) throw new WebhookTargetError("url must use https://");
    const host = hostOf(url);
    if (!isLoopbackName(host) && !isLoopbackAddress(host)) throw new WebhookTargetError("url may use http:// only for a loopback address, and only when ALLOW_LOOPBACK_REQUESTS=1");
  } else if (url.protocol !== "https:") {
    throw new WebhookTargetError("url must use https://");
  }
  try {
    return checkOutgoingUrlSyntax(url, { allowLoopback });
  } catch (error) {
    if (isOutgoingRequestError(error)) throw new WebhookTargetError(error.message);
    throw error;
  }
}

/**
 * A subscription URL as given by the merchant: the rules above, then DNS (every address checked). Nothing is sent.
 * `resolve` replaces the system resolver (tests).
 * @throws ApiError 400 (`invalid_field`) saying what is wrong.
 */
export async function checkWebhookUrl(raw: string, allowLoopback: boolean, resolve?: Resolve): Promise<string> {
  try {
    const url = checkUrlSyntax(raw, allowLoopback);
    await checkOutgoingUrl(url, { allowLoopback, resolve });
    return url.toString();
  } catch (error) {
    if (error instanceof WebhookTargetError || isOutgoingRequestError(error)) throw new ApiError(400, `url: ${error.message}`, "invalid_field");
    throw error;
  }
}
