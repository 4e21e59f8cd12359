/**
 * Surveys contract: the ONE module of zod schemas for answered questions and survey
 * responses (docs/surveys.md, Survey response fields), the enterprise listing parameters (docs/surveys.md,
 * Enterprise API), survey definitions (discovery) and the
 * storefront submission body (docs/surveys.md, Storefront submission). Ingestion, the enterprise listing, the OpenAPI document,
 * the admin and the tests all import these.
 */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { lastEvaluatedParam, limitQueryParam } from "./storefront.ts";
import { UI_LOCALES } from "./widget-locales.ts";
import {
  ENTERPRISE_DEFAULT_LIMIT,
  ENTERPRISE_MAX_LIMIT,
  MAX_TEXT_ANSWER,
  NPS_CATEGORIES,
  npsCategoryOf,
  PROFILE_ANSWER_TYPES,
  QUESTION_TYPES,
  SURVEY_CHANNELS,
  SURVEY_RESPONSE_ORDERS,
  type NpsCategory,
} from "./surveys.constants.ts";

// The plain values (names, limits, orders) live in the zod-free surveys.constants.ts; re-exported here.
export * from "./surveys.constants.ts";

// zod 4 copies methods onto each schema when it is created, so `.openapi()` (used by the enterprise
// OpenAPI document, server/enterprise/openapi.ts) must be added before the schemas below exist.
// Idempotent: a second call (this module is also bundled into the Remix build) changes nothing.
extendZodWithOpenApi(z);

const MAX_OPTION = 500;

const uuid = (name: string) => z.uuid({ error: `${name} must be a UUID` });
const intIn = (name: string, min: number, max: number) =>
  z
    .int({ error: `${name} must be an integer from ${min} to ${max}` })
    .min(min, { error: `${name} must be an integer from ${min} to ${max}` })
    .max(max, { error: `${name} must be an integer from ${min} to ${max}` });
const optionText = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(MAX_OPTION, { error: `${name} must be at most ${MAX_OPTION} characters` });

// ---- Profile answer variants (docs/surveys.md, Survey response fields, second table) ----

export const dateComponentsAnswerSchema = z
  .object({
    type: z.literal("date-components"),
    value: z.object({ day: intIn("day", 1, 31), month: intIn("month", 1, 12), year: intIn("year", 1900, 2100) }, { error: "value must be an object { day, month, year }" }),
  })
  .refine((a) => a.value.day <= new Date(Date.UTC(a.value.year, a.value.month, 0)).getUTCDate(), {
    error: "value is not a calendar date (day does not exist in that month)",
    path: ["value", "day"],
  });
export const locationAnswerSchema = z.object({
  type: z.literal("location"),
  value: z.object(
    {
      countryCode: z.string({ error: "countryCode is required (ISO 3166-1 alpha-2, e.g. GB)" }).regex(/^[A-Z]{2}$/, { error: "countryCode must be an ISO 3166-1 alpha-2 code such as GB" }),
      countryName: optionText("countryName").optional(),
      zoneCode: z.string().trim().min(1, { error: "zoneCode must not be empty" }).max(10, { error: "zoneCode must be at most 10 characters" }).optional(),
    },
    { error: "value must be an object { countryCode, countryName?, zoneCode? }" },
  ),
});
export const multiValueAnswerSchema = z.object({
  type: z.literal("multi-value"),
  value: z.array(optionText("value item"), { error: "value must be an array of strings" }).min(1, { error: "value must hold at least one selected value" }).max(100),
});
export const singleValueAnswerSchema = z.object({ type: z.literal("single-value"), value: optionText("value") });

/** A profile `answer` object, discriminated by its own `type`. */
export const profileAnswerSchema = z
  .discriminatedUnion("type", [dateComponentsAnswerSchema, locationAnswerSchema, multiValueAnswerSchema, singleValueAnswerSchema], {
    error: `answer.type must be one of: ${PROFILE_ANSWER_TYPES.join(", ")}`,
  })
  .openapi("ProfileAnswer");
export type ProfileAnswer = z.output<typeof profileAnswerSchema>;

// ---- Answered questions (docs/surveys.md, Survey response fields) ----

const questionText = z.string({ error: "text must be a string" }).min(1, { error: "text must not be empty" }).max(2000);
const base = { id: uuid("id"), text: questionText };
const custom = {
  customAnswer: z.string({ error: "customAnswer must be a string" }).trim().min(1, { error: "customAnswer must not be empty" }).max(MAX_TEXT_ANSWER).optional(),
  customAnswerOptionText: optionText("customAnswerOptionText").optional(),
};
const npsCategory = z.enum(NPS_CATEGORIES, { error: `answerNpsCategory must be one of: ${NPS_CATEGORIES.join(", ")}` });
const npsConsistent = (q: { answer: number; answerNpsCategory?: NpsCategory }) => q.answerNpsCategory === undefined || q.answerNpsCategory === npsCategoryOf(q.answer);
const npsRule = { error: "answerNpsCategory must match the score (9-10 promoter, 7-8 passive, 0-6 detractor)", path: ["answerNpsCategory"] };

const textQ = z.object({
  ...base,
  type: z.literal("text"),
  answer: z
    .string({ error: "answer must be a string" })
    .max(MAX_TEXT_ANSWER, { error: `answer must be at most ${MAX_TEXT_ANSWER} characters` })
    .optional(),
});
const singleSelectQ = z.object({ ...base, type: z.literal("single-select"), answer: optionText("answer"), ...custom });
const multiSelectQ = z.object({
  ...base,
  type: z.literal("multi-select"),
  answer: z
    .array(optionText("answer item"), { error: "answer must be an array of strings" })
    .min(1, { error: "answer must hold at least one selected option" })
    .max(100)
    .refine((a) => new Set(a).size === a.length, { error: "answer must not repeat an option" }),
  ...custom,
});
const fivePointQ = z.object({ ...base, type: z.literal("five-point"), answer: intIn("answer (five-point)", 1, 5) });
const starQ = z.object({ ...base, type: z.literal("star"), answer: intIn("answer (star rating)", 1, 5) });
const npsQ = z.object({ ...base, type: z.literal("nps"), answer: intIn("answer (NPS score)", 0, 10), answerNpsCategory: npsCategory });
const profileQ = z.object({ ...base, type: z.literal("profile"), answer: profileAnswerSchema, profileQuestionId: uuid("profileQuestionId") });
const emailQ = z.object({
  ...base,
  type: z.literal("email"),
  answer: z.email({ error: "answer must be an e-mail address" }).max(320),
  marketingOptIn: z.boolean({ error: "marketingOptIn must be true or false" }).optional(),
});
const typeError = { error: `type must be one of: ${QUESTION_TYPES.join(", ")}` };

/** An answered question exactly as stored and listed (docs/surveys.md, Survey response fields). */
export const answeredQuestionSchema = z
  .discriminatedUnion("type", [textQ, singleSelectQ, multiSelectQ, fivePointQ, starQ, npsQ.refine(npsConsistent, npsRule), profileQ, emailQ], typeError)
  .openapi("AnsweredQuestion");
export type AnsweredQuestion = z.output<typeof answeredQuestionSchema>;

/**
 * An answered question as a storefront submission sends it: the same union, but the server fills
 * `text`, `answerNpsCategory` and `profileQuestionId` from the survey's question when omitted (when
 * given they must agree with it).
 */
const optionalText = { text: questionText.optional() };
export const answeredQuestionInputSchema = z.discriminatedUnion(
  "type",
  [
    textQ.extend(optionalText),
    singleSelectQ.extend(optionalText),
    multiSelectQ.extend(optionalText),
    fivePointQ.extend(optionalText),
    starQ.extend(optionalText),
    npsQ.extend({ ...optionalText, answerNpsCategory: npsCategory.optional() }).refine(npsConsistent, npsRule),
    profileQ.extend({ ...optionalText, profileQuestionId: uuid("profileQuestionId").optional() }),
    emailQ.extend(optionalText),
  ],
  typeError,
);
export type AnsweredQuestionInput = z.output<typeof answeredQuestionInputSchema>;

// ---- Survey response (docs/surveys.md, Survey response fields) ----

export const rewardSchema = z.object({ type: z.literal("coupon"), description: z.string().min(1).max(500), value: z.string().min(1).max(200) }).openapi("Reward");
export type Reward = z.output<typeof rewardSchema>;
export const customerSchema = z
  .object(
    { customerId: uuid("customer.customerId").optional(), email: z.email({ error: "customer.email must be an e-mail address" }).max(320).optional() },
    { error: "customer must be an object { customerId?, email? }" },
  )
  .refine((c) => c.customerId !== undefined || c.email !== undefined, { error: "customer must carry customerId or email" });
export const orderSchema = z.object(
  { remoteOrderId: z.string({ error: "order.remoteOrderId is required" }).regex(/^\d{1,20}$/, { error: "order.remoteOrderId must be the numeric order ID (1-20 digits)" }) },
  { error: "order must be an object { remoteOrderId }" },
);

export const surveyResponseSchema = z
  .object({
    subscriberId: z.uuid(),
    surveyResponseId: z.uuid(),
    surveyId: z.uuid(),
    surveyName: z.string(),
    channelSurveyId: z.uuid(),
    channelSurveyDescription: z.string().optional(),
    channel: z.enum(SURVEY_CHANNELS),
    answeredQuestions: z.array(answeredQuestionSchema),
    customer: z.object({ customerId: z.uuid().optional(), email: z.email().optional() }).optional(),
    dateCreated: z.iso.datetime(),
    emailMarketingOptIn: z.boolean().optional(),
    isArchived: z.boolean().optional(),
    order: z.object({ remoteOrderId: z.string() }).optional(),
    reward: rewardSchema.optional(),
  })
  .openapi("SurveyResponse");
export type SurveyResponse = z.output<typeof surveyResponseSchema>;

export const listSurveyResponsesResponseSchema = z.object({ surveyResponses: z.array(surveyResponseSchema), nextUrl: z.string().optional() }).openapi("ListSurveyResponsesResponse");
export type ListSurveyResponsesResponse = z.output<typeof listSurveyResponsesResponseSchema>;

// ---- Enterprise listing parameters (docs/surveys.md, Enterprise API) ----

/** Query of `GET /enterprise/surveys/{surveyId}/responses` and `GET /enterprise/surveys`. */
export const enterpriseListQuery = z.object({
  limit: limitQueryParam(ENTERPRISE_MAX_LIMIT, ENTERPRISE_DEFAULT_LIMIT),
  orderBy: z.enum(SURVEY_RESPONSE_ORDERS, { error: "orderBy must have the format `(date) (asc|desc)`: date asc or date desc" }).default("date desc"),
  lastEvaluated: lastEvaluatedParam,
});
export type EnterpriseListQuery = z.output<typeof enterpriseListQuery>;

// ---- Survey definitions (model, discovery) ----

export const surveyQuestionSchema = z.object({
  id: z.uuid(),
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  /** Choices of a select question or of a single-value / multi-value profile question. */
  options: z.array(z.string()).optional(),
  /** Whether a custom ("other") answer is allowed (select questions). */
  allowCustomAnswer: z.boolean().optional(),
  /** The text of the custom option, e.g. "Other" (when allowCustomAnswer). */
  customAnswerOptionText: z.string().optional(),
  /** The customer-profile field this question fills (profile questions). */
  profileQuestionId: z.uuid().optional(),
  /** Which profile answer variant the question collects (profile questions). */
  profileAnswerType: z.enum(PROFILE_ANSWER_TYPES).optional(),
  /** The question must be answered before the survey can be sent (absent: optional). */
  required: z.boolean().optional(),
});
export type SurveyQuestion = z.output<typeof surveyQuestionSchema>;

export const channelSurveySchema = z.object({
  channelSurveyId: z.uuid(),
  channel: z.enum(SURVEY_CHANNELS),
  description: z.string().optional(),
  reward: rewardSchema.optional(),
  /** false when the merchant turned the channel survey off (not shown, takes no responses); absent: on. */
  enabled: z.boolean().optional(),
});
export type ChannelSurvey = z.output<typeof channelSurveySchema>;

export const surveySchema = z
  .object({
    surveyId: z.uuid(),
    surveyName: z.string(),
    dateCreated: z.iso.datetime(),
    channelSurveys: z.array(channelSurveySchema.openapi("ChannelSurvey")),
    questions: z.array(surveyQuestionSchema.openapi("SurveyQuestion")),
  })
  .openapi("Survey");
export type Survey = z.output<typeof surveySchema>;
export const listSurveysResponseSchema = z.object({ surveys: z.array(surveySchema), nextUrl: z.string().optional() }).openapi("ListSurveysResponse");
export type ListSurveysResponse = z.output<typeof listSurveysResponseSchema>;

/**
 * A survey definition to create (demo seeder, tests, later the admin). IDs are generated when absent.
 * Rules: select questions need options; profile questions need profileAnswerType (and options for
 * single-value / multi-value); allowCustomAnswer needs customAnswerOptionText.
 */
export const surveyDefinitionSchema = z.object({
  surveyId: z.uuid().optional(),
  name: z.string().trim().min(1).max(200),
  dateCreated: z.iso.datetime().optional(),
  questions: z
    .array(
      surveyQuestionSchema.extend({ id: z.uuid().optional() }).superRefine((q, ctx) => {
        const needsOptions = q.type === "single-select" || q.type === "multi-select" || (q.type === "profile" && (q.profileAnswerType === "single-value" || q.profileAnswerType === "multi-value"));
        if (needsOptions && !q.options?.length) ctx.addIssue({ code: "custom", message: `a ${q.type} question needs options`, path: ["options"] });
        if (q.type === "profile" && !q.profileAnswerType) ctx.addIssue({ code: "custom", message: "a profile question needs profileAnswerType", path: ["profileAnswerType"] });
        if (q.allowCustomAnswer && !q.customAnswerOptionText) ctx.addIssue({ code: "custom", message: "allowCustomAnswer needs customAnswerOptionText", path: ["customAnswerOptionText"] });
      }),
    )
    .min(1),
  channelSurveys: z.array(channelSurveySchema.extend({ channelSurveyId: z.uuid().optional() })).min(1),
});
export type SurveyDefinition = z.input<typeof surveyDefinitionSchema>;

// ---- Storefront read of a channel survey (docs/surveys.md, Storefront read) ----

/**
 * `GET /v1/stores/{store_id}/surveys/{channelSurveyId}`: what a shopper is asked. The reward's description
 * only: its code is shown after the response (the 201 of the submission), never before.
 */
export const storefrontSurveyResponseSchema = z
  .object({
    channelSurvey: z.object({
      channelSurveyId: z.uuid(),
      channel: z.enum(SURVEY_CHANNELS),
      surveyId: z.uuid(),
      surveyName: z.string(),
      description: z.string().optional().meta({ description: "The channel survey's description (e.g. an intro line)." }),
      rewardDescription: z.string().optional().meta({ description: "What the shopper gets for answering (e.g. `10% off your next order`); the code itself comes with the 201 of the submission." }),
      questions: z.array(surveyQuestionSchema.openapi("SurveyQuestion")),
      defaultLanguage: z.enum(UI_LOCALES).meta({
        description:
          "The store's default language for shopper pages (one of the 16 widget languages): `<chorus-survey>` speaks it on a page without a language (docs/surveys.md, Languages of the hosted pages).",
      }),
    }),
  })
  .openapi("StorefrontSurvey");
export type StorefrontSurveyResponse = z.output<typeof storefrontSurveyResponseSchema>;
export type StorefrontSurvey = StorefrontSurveyResponse["channelSurvey"];

// ---- Storefront submission (docs/surveys.md, Storefront submission) ----

/**
 * Body of `POST /v1/stores/{store_id}/surveys/{channelSurveyId}/responses`. Each answered question is
 * validated separately against the survey (see surveys.service.ts), so errors name the question.
 */
export const surveySubmissionSchema = z.object(
  {
    answeredQuestions: z
      .array(z.unknown(), { error: "answeredQuestions must be an array of answered questions" })
      .min(1, { error: "answeredQuestions must hold at least one answer" })
      .max(200, { error: "answeredQuestions must hold at most 200 answers" }),
    customer: customerSchema.optional(),
    order: orderSchema.optional(),
    emailMarketingOptIn: z.boolean({ error: "emailMarketingOptIn must be true or false" }).optional(),
  },
  { error: "the body must be a JSON object { answeredQuestions, customer?, order?, emailMarketingOptIn? }" },
);
export type SurveySubmission = z.output<typeof surveySubmissionSchema>;

/** 201 body of a storefront submission. */
export const surveySubmissionResponseSchema = z.object({
  surveyResponse: z.object({
    surveyResponseId: z.uuid(),
    dateCreated: z.iso.datetime(),
    reward: rewardSchema.optional().meta({ description: "The reward, with its code in `value`, when the channel survey has one and it exists on the shop platform." }),
    rewardPending: z.literal(true).optional().meta({ description: "The reward's code could not be created on the shop platform yet: it is created later and e-mailed to the shopper." }),
  }),
});
export type SurveySubmissionResponse = z.output<typeof surveySubmissionResponseSchema>;

/** `Idempotency-Key` header: 1-255 visible ASCII characters. */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/, { error: "Idempotency-Key must be 1-255 visible ASCII characters" });
