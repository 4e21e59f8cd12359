/**
 * Writes server-rendered snippets (issue #25, docs/snippets.md) into a Shopify shop as product metafields,
 * in Chorus's namespace, with the Admin GraphQL API's `metafieldsSet` mutation (Shopify Admin API reference,
 * "metafieldsSet": at most 25 metafields per call, owner `gid://shopify/Product/{id}`, `userErrors` in the
 * answer; authenticated by the `X-Shopify-Access-Token` header of a custom app with `write_products`).
 * A theme prints them with `{{ product.metafields.chorus.reviews_snippet.value }}`.
 * Requests go through the outgoing-request guard (server/shared/outgoing-request.ts): the shop's own endpoint
 * must be on a public address (loopback only with ALLOW_LOOPBACK_REQUESTS=1); an endpoint the operator set
 * (SHOPIFY_ADMIN_API_URL, `--shopify-api-url`) may also be on a loopback address (a stand-in for tests).
 */
import { guardedFetch, type Resolve } from "../shared/outgoing-request.ts";

/** Chorus's metafield namespace in the shop. */
export const SHOPIFY_NAMESPACE = "chorus";
/** The Admin API version of the request URL. */
export const SHOPIFY_API_VERSION = "2025-01";
/** Metafields per `metafieldsSet` call (Shopify's limit). */
export const METAFIELDS_PER_CALL = 25;
/** Largest value written, in characters (a text metafield holds at most 65,535). */
export const SHOPIFY_VALUE_MAX = 65_000;

/** The metafield key of each widget's snippet: `star_rating_snippet`, `reviews_snippet`, `questions_snippet`. */
export const metafieldKey = (widget: string): string => `${widget.replace(/-/g, "_")}_snippet`;

export const METAFIELDS_SET = `mutation ChorusSnippets($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { key namespace }
    userErrors { field message code }
  }
}`;

/** One metafield to write: the product's platform ID (without prefix), the widget word, the snippet HTML. */
export type SnippetMetafield = { productId: string; widget: string; html: string };
export type ShopifyTarget = {
  /** The shop's `*.myshopify.com` domain. */
  shopDomain: string;
  /** Admin API access token of the shop's custom app (`write_products`). */
  accessToken: string;
  /** The GraphQL endpoint set by the operator (SHOPIFY_ADMIN_API_URL); default `https://{shopDomain}/admin/api/{SHOPIFY_API_VERSION}/graphql.json`. */
  apiUrl?: string;
};
/** The outgoing-request switch (ALLOW_LOOPBACK_REQUESTS=1) and a resolver (tests). */
export type ShopifyRequestPolicy = { allowLoopback: boolean; resolve?: Resolve };
/** Longest time of one call (ms) and most bytes of its answer read. */
const CALL_TIMEOUT_MS = 30_000;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** What a write did: metafields written, and each failure (a `userErrors` entry or an HTTP failure) as a sentence. */
export type WriteReport = { written: number; errors: string[] };

/** The Admin GraphQL endpoint of a target. */
export const adminApiUrl = (target: ShopifyTarget): string => target.apiUrl ?? `https://${target.shopDomain}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;

/**
 * Write `metafields` in calls of at most 25. A value over SHOPIFY_VALUE_MAX characters is not sent (an error
 * names it). Never throws for an answer of the shop: HTTP and GraphQL failures are in `errors`.
 */
export async function writeShopifyMetafields(target: ShopifyTarget, metafields: readonly SnippetMetafield[], policy: ShopifyRequestPolicy = { allowLoopback: false }): Promise<WriteReport> {
  // An endpoint the operator set explicitly may be a loopback stand-in; the shop's own address must be public.
  const allowLoopback = policy.allowLoopback || target.apiUrl !== undefined;
  const report: WriteReport = { written: 0, errors: [] };
  const fitting = metafields.filter((m) => {
    if (m.html.length <= SHOPIFY_VALUE_MAX) return true;
    report.errors.push(`${m.productId} ${m.widget}: the snippet is ${m.html.length} characters, more than a metafield holds (${SHOPIFY_VALUE_MAX})`);
    return false;
  });
  for (let i = 0; i < fitting.length; i += METAFIELDS_PER_CALL) {
    const batch = fitting.slice(i, i + METAFIELDS_PER_CALL);
    const variables = {
      metafields: batch.map((m) => ({
        ownerId: `gid://shopify/Product/${m.productId}`,
        namespace: SHOPIFY_NAMESPACE,
        key: metafieldKey(m.widget),
        type: "multi_line_text_field",
        value: m.html,
      })),
    };
    let answer: { data?: { metafieldsSet?: { metafields?: unknown[]; userErrors?: { field?: string[]; message: string }[] } }; errors?: { message: string }[] };
    try {
      const res = await guardedFetch(adminApiUrl(target), {
        method: "POST",
        allowLoopback,
        resolve: policy.resolve,
        timeoutMs: CALL_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        headers: { "content-type": "application/json", accept: "application/json", "x-shopify-access-token": target.accessToken },
        body: JSON.stringify({ query: METAFIELDS_SET, variables }),
      });
      if (res.status < 200 || res.status >= 300) {
        report.errors.push(`Shopify answered ${res.status} for metafields ${i + 1}-${i + batch.length}`);
        continue;
      }
      answer = JSON.parse(res.body.toString("utf8")) as typeof answer;
    } catch (error) {
      report.errors.push(`Shopify could not be reached for metafields ${i + 1}-${i + batch.length}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const e of answer.errors ?? []) report.errors.push(`Shopify: ${e.message}`);
    const userErrors = answer.data?.metafieldsSet?.userErrors ?? [];
    for (const e of userErrors) report.errors.push(`Shopify: ${e.field?.join(".") ?? ""} ${e.message}`.trim());
    report.written += answer.data?.metafieldsSet?.metafields?.length ?? 0;
  }
  return report;
}
