/**
 * The OpenAPI 3.1 documents of both APIs, generated from the operation declarations
 * (server/api/operation.ts) with @asteasolutions/zod-to-openapi: the storefront API (`/v1/openapi.json`)
 * and the enterprise API (`/enterprise/openapi.json`, `info.version` 1.2.1, docs/api.md, Versions). A document
 * cannot disagree with validation: both come from the same zod schemas.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { ApiName, RoutedOperation } from "./operation.ts";
import { okendoVersionHeaders } from "./okendo-version.ts";
import { WEBHOOK_EVENT_BODIES, webhookDeliveryHeadersSchema } from "../contract/webhooks.ts";

/** The enterprise API's description version (docs/api.md, Versions). */
export const API_VERSION = "1.2.1";

/** The URL prefix each API's paths are relative to (the document's `servers`). */
export const API_PREFIX: Record<ApiName, string> = { storefront: "/v1", enterprise: "/enterprise", platform: "/platforms" };

const INFO: Record<ApiName, { title: string; description: string }> = {
  storefront: {
    title: "Chorus storefront API",
    description:
      "The public API the widgets use: reviews, review aggregates, media, questions, AI summaries and keyword topics, shopper writes, surveys and the loyalty program. " +
      'CORS for any origin. Public reads are `Cache-Control: public` with an `ETag`. Errors are `{"error":{"description","code"}}`. ' +
      "Compatible with Okendo's storefront clients where noted.",
  },
  enterprise: {
    title: "Chorus enterprise API",
    description:
      "Server-to-server API of a store: survey responses, survey discovery, orders and loyalty earning. HTTP Basic authentication on every operation (user = store ID, password = an API key).",
  },
  platform: {
    title: "Chorus shop-platform webhooks",
    description:
      "Webhooks shop platforms send to Chorus: Shopify's own (orders, fulfilments, products), and Chorus's signed JSON for any other platform. " +
      "Each delivery is signed with the store's app secret (HMAC-SHA256 of the raw body) and applied once per delivery ID.",
  },
};

/**
 * The 401 of an `auth: "basic"` operation as the server sends it (server/api/operation.ts `errorResult`):
 * no body, a `WWW-Authenticate: Basic` challenge, whatever the declaration's 401 says.
 */
export const BASIC_UNAUTHORIZED = {
  description: 'Credentials missing or not valid: no body, and the challenge `WWW-Authenticate: Basic realm="enterprise"`',
  headers: { "WWW-Authenticate": { description: '`Basic realm="enterprise"`', schema: { type: "string" as const } } },
};

const built = new WeakMap<readonly RoutedOperation[], Partial<Record<ApiName, Record<string, unknown>>>>();

/** The OpenAPI document of `api` over `operations` (built once per operation list, then kept). */
export function openApiDocument(operations: readonly RoutedOperation[], api: ApiName): Record<string, unknown> {
  const cache = built.get(operations) ?? {};
  built.set(operations, cache);
  return (cache[api] ??= buildOpenApi(operations, api));
}

/** Build the document (a plain JSON-able object). */
export function buildOpenApi(operations: readonly RoutedOperation[], api: ApiName): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  const basicAuth = registry.registerComponent("securitySchemes", "basicAuth", {
    type: "http",
    scheme: "basic",
    description: "User = the store's subscriber ID, password = an enterprise API key (created in the admin or with `npm run keys -- create --store <id>`).",
  });
  const customerToken = registry.registerComponent("securitySchemes", "customerToken", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A loyalty customer token from `POST /stores/{storeId}/loyalty/login`.",
  });
  const prefix = API_PREFIX[api];
  const signatureSchemes = new Map<string, { name: string }>();
  /** A webhook signature header as an API-key scheme (the value is an HMAC of the body, not a key: see its description). */
  const signatureScheme = (sig: { header: string; description: string }) => {
    let scheme = signatureSchemes.get(sig.header);
    if (!scheme) {
      const name = sig.header
        .toLowerCase()
        .replace(/^x-/, "")
        .replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
      scheme = registry.registerComponent("securitySchemes", name, { type: "apiKey", in: "header", name: sig.header, description: sig.description });
      signatureSchemes.set(sig.header, scheme);
    }
    return scheme;
  };
  for (const op of operations) {
    if (op.api !== api) continue;
    const security =
      op.auth === "basic"
        ? [{ [basicAuth.name]: [] }]
        : op.auth === "customer"
          ? [{ [customerToken.name]: [] }]
          : op.auth === "customer-optional"
            ? [{}, { [customerToken.name]: [] }]
            : op.auth === "signature" && op.signature
              ? [{ [signatureScheme(op.signature).name]: [] }]
              : [];
    const responses: RouteConfig["responses"] = {};
    for (const [status, spec] of Object.entries(op.responses)) {
      if (status === "401" && op.auth === "basic") {
        responses[status] = BASIC_UNAUTHORIZED;
        continue;
      }
      responses[status] = {
        description: spec.description,
        ...(spec.schema ? { content: { [spec.contentType ?? "application/json"]: { schema: spec.schema } } } : {}),
      };
    }
    registry.registerPath({
      method: op.method.toLowerCase() as RouteConfig["method"],
      path: op.path.startsWith(prefix) ? op.path.slice(prefix.length) || "/" : op.path,
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.tags ? { tags: [...op.tags] } : {}),
      security,
      request: {
        ...(op.params ? { params: op.params as z.ZodObject } : {}),
        ...(op.query ? { query: op.query as z.ZodObject } : {}),
        ...(op.api === "storefront"
          ? { headers: op.headers ? (op.headers as z.ZodObject).extend(okendoVersionHeaders.shape) : okendoVersionHeaders }
          : op.headers
            ? { headers: op.headers as z.ZodObject }
            : {}),
        ...(op.body
          ? {
              body: {
                required: true,
                ...(op.body.description ? { description: op.body.description } : {}),
                content: Object.fromEntries((op.body.contentTypes ?? ["application/json"]).map((type) => [type, { schema: op.body!.schema }])),
              },
            }
          : {}),
      },
      responses,
    });
  }
  // The events Chorus POSTs to webhook subscriptions (docs/webhooks.md), in the enterprise document.
  if (api === "enterprise") {
    for (const [type, schema] of Object.entries(WEBHOOK_EVENT_BODIES)) {
      registry.registerWebhook({
        method: "post",
        path: type,
        operationId: `webhook_${type.replace(/\./g, "_")}`,
        summary: `Event \`${type}\``,
        tags: ["Webhooks"],
        description: "Sent to every enabled subscription to this event type; answer any 2xx within 15 s. Verify `Chorus-Signature` first.",
        request: { headers: webhookDeliveryHeadersSchema, body: { required: true, content: { "application/json": { schema } } } },
        responses: { 200: { description: "Any 2xx acknowledges the delivery; anything else is retried." } },
      });
    }
  }
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { ...INFO[api], version: API_VERSION },
    servers: [{ url: prefix }],
  });
  return JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
}
