/**
 * Admin survey responses (issue 7 item 2): the query of the responses page and the CSV export (one zod
 * schema: both read the same URL parameters, so an export holds exactly the rows the page filters),
 * plain-text renderings of answered questions (docs/surveys.md, Survey response fields) and the streamed CSV body.
 */
import { z } from "zod";
import { NPS_CATEGORIES, SURVEY_CHANNELS, type AnsweredQuestion, type ProfileAnswer, type Survey, type SurveyResponse } from "../contract/surveys.ts";
import type { ResponseFilter, SurveysService } from "../surveys/surveys.service.ts";
import { csvBatchStream } from "../exports/csv-stream.ts";

const DAY_MS = 86_400_000;
const optionalEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
const isoDay = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${name} must be a date YYYY-MM-DD` })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { error: `${name} must be a real calendar date` });

/** Archived filter of the page: active (default, not archived), archived only, or all. */
export const ARCHIVED_STATES = ["active", "archived", "all"] as const;

/**
 * URL query of `/admin/stores/{id}/surveys` and its `export.csv`: `survey` (UUID), `channel`, `from` /
 * `to` (UTC days `YYYY-MM-DD`, both inclusive), `nps` (promoter|passive|detractor), `archived`
 * (active|archived|all, default active), `q` (search words), `after` (the page cursor). Empty = absent.
 */
export const responsesQuerySchema = z
  .object({
    survey: optionalEmpty(z.uuid({ error: "survey must be a survey ID (UUID)" })),
    channel: optionalEmpty(z.enum(SURVEY_CHANNELS, { error: `channel must be one of: ${SURVEY_CHANNELS.join(", ")}` })),
    from: optionalEmpty(isoDay("from")),
    to: optionalEmpty(isoDay("to")),
    nps: optionalEmpty(z.enum(NPS_CATEGORIES, { error: `nps must be one of: ${NPS_CATEGORIES.join(", ")}` })),
    archived: optionalEmpty(z.enum(ARCHIVED_STATES, { error: `archived must be one of: ${ARCHIVED_STATES.join(", ")}` })).transform((v) => v ?? "active"),
    q: optionalEmpty(z.string().trim().max(200, { error: "q (search) must be at most 200 characters" })),
    after: optionalEmpty(z.string().max(2000)),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: "from must not be after to", path: ["from"] });
export type ResponsesQuery = z.output<typeof responsesQuerySchema>;

/** The service filter of a parsed query and a survey: `to` is inclusive, so `toMs` is the next midnight. */
export function filterOf(surveyId: string, q: ResponsesQuery): ResponseFilter {
  return {
    surveyId,
    ...(q.channel ? { channel: q.channel } : {}),
    ...(q.from ? { fromMs: Date.parse(`${q.from}T00:00:00Z`) } : {}),
    ...(q.to ? { toMs: Date.parse(`${q.to}T00:00:00Z`) + DAY_MS } : {}),
    ...(q.nps ? { npsCategory: q.nps } : {}),
    ...(q.archived === "all" ? {} : { archived: q.archived === "archived" }),
    ...(q.q ? { search: q.q } : {}),
  };
}

/** The URL parameters of a query (without the cursor), for links, the export and the pager. */
export function queryParams(surveyId: string, q: ResponsesQuery): Record<string, string> {
  const out: Record<string, string> = { survey: surveyId };
  for (const k of ["channel", "from", "to", "nps", "q"] as const) if (q[k]) out[k] = q[k]!;
  if (q.archived !== "active") out.archived = q.archived;
  return out;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A profile answer as text: "12 March 1990", "United Kingdom (GB), zone ENG", "TV, Mobile", "Order". */
export function profileAnswerText(a: ProfileAnswer): string {
  switch (a.type) {
    case "date-components":
      return `${a.value.day} ${MONTHS[a.value.month - 1]} ${a.value.year}`;
    case "location":
      return `${a.value.countryName ? `${a.value.countryName} (${a.value.countryCode})` : a.value.countryCode}${a.value.zoneCode ? `, zone ${a.value.zoneCode}` : ""}`;
    case "multi-value":
      return a.value.join(", ");
    case "single-value":
      return a.value;
  }
}

/** Replace the custom option by "Other: <custom answer>" in a chosen list. */
const withCustom = (chosen: string[], a: { customAnswer?: string; customAnswerOptionText?: string }) =>
  chosen.map((c) => (a.customAnswer !== undefined && c === a.customAnswerOptionText ? `${c}: ${a.customAnswer}` : c));

/**
 * An answered question as one line of text (CSV cells, the list's first-answer column):
 * nps "9 (promoter)", five-point "4 of 5", star "5 of 5 stars", e-mail "a@x.com (marketing opt-in: yes)",
 * selects with the custom answer ("Other: A billboard"), profile answers per `profileAnswerText`.
 */
export function answerText(a: AnsweredQuestion): string {
  switch (a.type) {
    case "text":
      return a.answer ?? "";
    case "single-select":
      return withCustom([a.answer], a)[0];
    case "multi-select":
      return withCustom(a.answer, a).join("; ");
    case "five-point":
      return `${a.answer} of 5`;
    case "star":
      return `${a.answer} of 5 stars`;
    case "nps":
      return `${a.answer} (${a.answerNpsCategory})`;
    case "email":
      return a.marketingOptIn === undefined ? a.answer : `${a.answer} (marketing opt-in: ${a.marketingOptIn ? "yes" : "no"})`;
    case "profile":
      return profileAnswerText(a.answer);
  }
}

const FIXED_COLUMNS = ["surveyResponseId", "dateCreated", "channel", "channelSurveyDescription", "customerId", "customerEmail", "emailMarketingOptIn", "remoteOrderId", "reward", "isArchived"];

/** The CSV header: fixed columns, then one column per question of the survey (its text). */
export function csvHeader(survey: Survey): string[] {
  return [...FIXED_COLUMNS, ...survey.questions.map((q) => q.text)];
}

/** One CSV row of a response, aligned with `csvHeader(survey)` (unanswered questions are empty). */
export function csvRow(survey: Survey, r: SurveyResponse): string[] {
  const byId = new Map(r.answeredQuestions.map((a) => [a.id, a]));
  return [
    r.surveyResponseId,
    r.dateCreated,
    r.channel,
    r.channelSurveyDescription ?? "",
    r.customer?.customerId ?? "",
    r.customer?.email ?? "",
    r.emailMarketingOptIn === undefined ? "" : String(r.emailMarketingOptIn),
    r.order?.remoteOrderId ?? "",
    r.reward ? `${r.reward.description} (${r.reward.value})` : "",
    String(r.isArchived ?? false),
    ...survey.questions.map((q) => {
      const a = byId.get(q.id);
      return a ? answerText(a) : "";
    }),
  ];
}

/**
 * The CSV export body: a header row, then every response of `filter` read from
 * `surveys.iterateResponses` in keyset batches of `batchSize` (default 500), written by the exports' one
 * CSV writer (server/exports/csv-stream.ts, docs/exports.md: RFC 4180 quoting of commas, quotes, line
 * breaks and edge whitespace, formula-safe cells, CRLF line ends, UTF-8 with a BOM). Each pull of the
 * stream writes one batch, so memory stays at one batch whatever the row count, and a slow client slows
 * the reads (back-pressure). The stream is cancelled when the client goes away.
 */
export function csvExportStream(surveys: SurveysService, storeId: string, survey: Survey, filter: ResponseFilter, batchSize = 500): ReadableStream<Uint8Array> {
  const rows = surveys.iterateResponses(storeId, filter, { order: "date desc", batchSize });
  return csvBatchStream(
    csvHeader(survey),
    async () => {
      const batch: string[][] = [];
      for (let next = await rows.next(); !next.done; next = await rows.next()) {
        batch.push(csvRow(survey, next.value));
        if (batch.length >= batchSize) break;
      }
      return { rows: batch, done: batch.length < batchSize };
    },
    () => {
      void rows.return(undefined);
    },
  );
}
