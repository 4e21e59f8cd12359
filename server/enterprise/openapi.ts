/**
 * The OpenAPI 3.0 document of the enterprise interface (interface.md §4.1, §5, §7, §9; decisions.md §5),
 * generated from the zod schemas of server/contract/surveys.ts with @asteasolutions/zod-to-openapi,
 * so the document and the validation can never disagree. `info.version` is the interface's 1.2.1.
 * Served at `/enterprise/openapi.json`; paths are relative to the server URL `/enterprise`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ENTERPRISE_DEFAULT_LIMIT, ENTERPRISE_MAX_LIMIT, listSurveyResponsesResponseSchema, listSurveysResponseSchema, SURVEY_RESPONSE_ORDERS } from "../contract/surveys.ts";

/** interface.md §9: the enterprise interface's description version. */
export const ENTERPRISE_API_VERSION = "1.2.1";

/** Build the document (a plain JSON-able object). Pure: call once and keep the result. */
export function buildEnterpriseOpenApi(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  const basicAuth = registry.registerComponent("securitySchemes", "basicAuth", {
    type: "http", scheme: "basic",
    description: "Username = the store's subscriber ID, password = an enterprise API key (`npm run keys -- create --store <id>`).",
  });
  const ErrorBody = registry.register("Error", z.object({ error: z.object({ description: z.string(), code: z.string().optional() }) }));

  const pageQuery = z.object({
    limit: z.int().min(1).max(ENTERPRISE_MAX_LIMIT).default(ENTERPRISE_DEFAULT_LIMIT).optional().meta({ description: `Page size, 1 to ${ENTERPRISE_MAX_LIMIT}; default ${ENTERPRISE_DEFAULT_LIMIT}.` }),
    lastEvaluated: z.string().optional().meta({ description: "URL-encoded JSON object: the cursor for the next page, taken from nextUrl." }),
    orderBy: z.enum(SURVEY_RESPONSE_ORDERS).default("date desc").optional().meta({ description: "Format `(date) (asc|desc)`; default `date desc`." }),
  });
  const errors = {
    400: { description: "Invalid request parameters", content: { "application/json": { schema: ErrorBody } } },
    401: { description: "Credentials missing or incorrect (no body; `WWW-Authenticate: Basic realm=\"enterprise\"`)" },
  };

  registry.registerPath({
    method: "get", path: "/surveys/{surveyId}/responses", operationId: "listSurveyResponses",
    summary: "List survey responses for one survey", security: [{ [basicAuth.name]: [] }],
    request: { params: z.object({ surveyId: z.uuid().meta({ description: "ID of the survey" }) }), query: pageQuery },
    responses: {
      200: { description: "Success", content: { "application/json": { schema: listSurveyResponsesResponseSchema } } },
      ...errors,
      404: { description: "The requested resource could not be found", content: { "application/json": { schema: ErrorBody } } },
    },
  });
  registry.registerPath({
    method: "get", path: "/surveys", operationId: "listSurveys",
    summary: "List the store's surveys with their channel surveys and questions (survey discovery)", security: [{ [basicAuth.name]: [] }],
    request: { query: pageQuery.extend({ orderBy: pageQuery.shape.orderBy.meta({ description: "Order by creation date, `date asc` or `date desc` (default)." }) }) },
    responses: { 200: { description: "Success", content: { "application/json": { schema: listSurveysResponseSchema } } }, ...errors },
  });

  const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: { title: "Chorus enterprise API", version: ENTERPRISE_API_VERSION, description: "Survey responses of a store (interface.md §4.1). HTTP Basic authentication on every operation." },
    servers: [{ url: "/enterprise" }],
  });
  return JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
}
