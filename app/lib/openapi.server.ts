/**
 * Operation declarations of the API descriptions: `GET /v1/openapi.json`, `GET /enterprise/openapi.json`
 * and `GET /platforms/openapi.json` (shop-platform webhooks), generated from every declared operation (server/api/openapi.ts).
 * Public, like any API description.
 */
import { z } from "zod";
import { defineOperation, reply, type ApiName } from "../../server/api/operation.ts";
import { openApiDocument } from "../../server/api/openapi.ts";

/** GET /{api}/openapi.json */
export const openApi = (api: ApiName) =>
  defineOperation({
    id: api === "storefront" ? "getStorefrontOpenApi" : api === "enterprise" ? "getEnterpriseOpenApi" : "getPlatformOpenApi",
    method: "GET",
    api,
    auth: "none",
    cache: "public",
    tags: ["Meta"],
    summary: "This API's OpenAPI 3.1 description",
    responses: { 200: { description: "The OpenAPI document", schema: z.record(z.string(), z.unknown()).meta({ description: "An OpenAPI 3.1 document." }) } },
    // No content scopes: the document changes only with a new version of Chorus.
    handler: ({ context }) => reply(openApiDocument(context.operations, api), { scopes: [] }),
  });
