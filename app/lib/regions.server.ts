/** Operation declaration of the regions read (docs/surveys.md, "Regions"). */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import { regionsResponseSchema } from "../../server/contract/regions.ts";

/** GET /v1/stores/{storeId}/regions/{country}: a country's first-level ISO 3166-2 subdivisions; 404 for an unknown store or country code. */
export const getRegions = defineOperation({
  id: "getRegions",
  method: "GET",
  api: "storefront",
  auth: "none",
  cache: "public",
  readsOnly: true,
  tags: ["Surveys"],
  summary: "A country's regions (first-level ISO 3166-2 subdivisions) for a survey's location question",
  description:
    "Codes are the part after the hyphen (`BY` of `DE-BY`), as a location answer's `zoneCode` stores them. An empty list means the country has no subdivisions: ask for a region as free text. Cached like the other storefront reads.",
  params: z.object({
    storeId: storeIdParam,
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166-1 alpha-2 code, like DE")
      .meta({ description: "ISO 3166-1 alpha-2 country code (`DE`)." }),
  }),
  responses: { 200: { description: "`{ country, regions }`", schema: regionsResponseSchema }, ...errorResponses(400, 404) },
  handler: async ({ params, context }) => reply(await context.services.regions.regions(params.storeId, params.country), { scopes: context.services.regions.cacheScopes(params.storeId) }),
});
