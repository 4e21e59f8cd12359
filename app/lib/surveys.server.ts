/**
 * Operation declarations of surveys: the storefront submission (docs/surveys.md, Storefront submission) and the enterprise
 * survey discovery and survey-responses listing (docs/surveys.md, Enterprise API).
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import {
  enterpriseListQuery,
  idempotencyKeySchema,
  listSurveyResponsesResponseSchema,
  listSurveysResponseSchema,
  storefrontSurveyResponseSchema,
  surveySubmissionResponseSchema,
  surveySubmissionSchema,
} from "../../server/contract/surveys.ts";

/** POST /v1/stores/{storeId}/surveys/{channelSurveyId}/responses → 201; an `Idempotency-Key` retry answers the same 201 without storing twice. */
export const submitSurveyResponse = defineOperation({
  id: "submitSurveyResponse",
  method: "POST",
  api: "storefront",
  auth: "none",
  tags: ["Surveys"],
  summary: "Submit a shopper's answers to a channel survey",
  params: z.object({ storeId: storeIdParam, channelSurveyId: z.string().min(1).max(200).meta({ description: "The channel survey answered." }) }),
  headers: z.object({ "idempotency-key": idempotencyKeySchema.optional().meta({ description: "Makes a retry safe: the same key answers the first 201 again." }) }),
  // The service validates the answers against the survey's questions (400 naming the answer).
  body: { schema: surveySubmissionSchema, read: "json-unchecked", contentTypes: ["application/json"] },
  responses: { 201: { description: "The survey response was stored (or replayed)", schema: surveySubmissionResponseSchema }, ...errorResponses(400, 404, 413, 415, 429) },
  handler: async ({ params, headers, body, context }) => {
    const { surveys, surveyLimiter } = context.services;
    const result = await surveyLimiter.run(
      context.clientIp,
      async () => await surveys.submitResponse(params.storeId, params.channelSurveyId, body, headers["idempotency-key"]),
      (r) => !r.replayed,
    );
    return reply(result.body, { status: 201, headers: result.replayed ? { "idempotent-replayed": "true" } : {} });
  },
});

const enterpriseRead = { method: "GET", api: "enterprise", auth: "basic", cache: "private", tags: ["Surveys"], query: enterpriseListQuery } as const;

/** GET /enterprise/surveys: the store's surveys with their channel surveys and questions, paged. */
export const listSurveys = defineOperation({
  ...enterpriseRead,
  id: "listSurveys",
  summary: "List the store's surveys with their channel surveys and questions (survey discovery)",
  responses: { 200: { description: "A page of surveys", schema: listSurveysResponseSchema }, ...errorResponses(400, 401) },
  handler: async ({ storeId, query, context }) => await context.services.surveys.listSurveys(storeId, query),
});

/** GET /enterprise/surveys/{surveyId}/responses */
export const listSurveyResponses = defineOperation({
  ...enterpriseRead,
  id: "listSurveyResponses",
  summary: "List survey responses for one survey",
  params: z.object({ surveyId: z.string().min(1).max(200).meta({ description: "ID of the survey" }) }),
  responses: { 200: { description: "A page of survey responses", schema: listSurveyResponsesResponseSchema }, ...errorResponses(400, 401, 404) },
  handler: async ({ storeId, params, query, context }) => await context.services.surveys.listResponses(storeId, params.surveyId, query),
});

/** GET /v1/stores/{storeId}/surveys/{channelSurveyId}: what the shopper is asked (no reward code); 404 for an unknown or disabled channel survey. */
export const getStorefrontSurvey = defineOperation({
  id: "getStorefrontSurvey",
  method: "GET",
  api: "storefront",
  auth: "none",
  cache: "public",
  readsOnly: true,
  tags: ["Surveys"],
  summary: "A channel survey as a shopper sees it: name, questions in order, description and reward description",
  description:
    "The reward's code is never shown here: it comes with the 201 of the submission. Cached and revalidated like the other storefront reads; a disabled or unknown channel survey answers 404.",
  params: z.object({ storeId: storeIdParam, channelSurveyId: z.string().min(1).max(200).meta({ description: "The channel survey (one survey published on one channel)." }) }),
  responses: { 200: { description: "`{ channelSurvey }`", schema: storefrontSurveyResponseSchema }, ...errorResponses(400, 404) },
  handler: async ({ params, context }) =>
    reply({ channelSurvey: await context.services.surveys.getStorefrontSurvey(params.storeId, params.channelSurveyId) }, { scopes: context.services.surveys.cacheScopes(params.storeId) }),
});
