/**
 * Surveys rules: survey definitions, answer validation against a survey (interface.md §2.2), the
 * storefront submission with Idempotency-Key (decisions.md §3), the enterprise listings with signed
 * keyset cursors (interface.md §4.1, §7; decisions.md §1, §5), and the admin functions (archive,
 * filtered listing, streaming export iterator).
 */
import { createHash, randomUUID } from "node:crypto";
import {
  answeredQuestionInputSchema, answeredQuestionSchema, npsCategoryOf, surveyDefinitionSchema, surveySubmissionSchema,
  type AnsweredQuestion, type AnsweredQuestionInput, type ChannelSurvey, type EnterpriseListQuery, type ListSurveyResponsesResponse,
  type ListSurveysResponse, type Reward, type Survey, type SurveyDefinition, type SurveyQuestion, type SurveyResponse,
  type SurveyResponseOrder, type SurveySubmissionResponse,
} from "../contract/surveys.ts";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { ChannelSurveyRow, QuestionRow, ResponseFilter, ResponseInsert, ResponseRow, SurveyRow, SurveysRepo } from "./surveys.repo.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";

export type { ResponseFilter } from "./surveys.repo.ts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A response to store without HTTP (demo seeder, benchmark, imports): validated like a submission. */
export type ResponseImport = {
  channelSurveyId: string;
  answeredQuestions: unknown[];
  createdMs: number;
  surveyResponseId?: string;
  customer?: { customerId?: string; email?: string };
  order?: { remoteOrderId: string };
  emailMarketingOptIn?: boolean;
  isArchived?: boolean;
  /** Copy the channel survey's reward onto the response (default true, like a submission). */
  withReward?: boolean;
};

/** Result of a storefront submission: `replayed` when an Idempotency-Key matched an earlier one. */
export type SubmissionResult = { body: SurveySubmissionResponse; replayed: boolean };

/** Shape a question row as the contract sees it. */
export function toSurveyQuestion(q: QuestionRow): SurveyQuestion {
  return {
    id: q.question_id, text: q.text, type: q.type,
    ...(q.options_json ? { options: JSON.parse(q.options_json) as string[] } : {}),
    ...(q.allow_custom_answer ? { allowCustomAnswer: true } : {}),
    ...(q.custom_answer_option_text ? { customAnswerOptionText: q.custom_answer_option_text } : {}),
    ...(q.profile_question_id ? { profileQuestionId: q.profile_question_id } : {}),
    ...(q.profile_answer_type ? { profileAnswerType: q.profile_answer_type } : {}),
  };
}

const rewardOf = (r: { reward_type: string | null; reward_description: string | null; reward_value: string | null }): Reward | undefined =>
  r.reward_type && r.reward_description !== null && r.reward_value !== null ? { type: "coupon", description: r.reward_description, value: r.reward_value } : undefined;

function toChannelSurvey(c: ChannelSurveyRow): ChannelSurvey {
  const reward = rewardOf(c);
  return { channelSurveyId: c.channel_survey_id, channel: c.channel, ...(c.description !== null ? { description: c.description } : {}), ...(reward ? { reward } : {}) };
}

/** Shape a stored response exactly per interface.md §2.1: optional fields absent, never null. */
export function toSurveyResponse(r: ResponseRow): SurveyResponse {
  const reward = rewardOf(r);
  const customer = r.customer_id !== null || r.customer_email !== null
    ? { ...(r.customer_id !== null ? { customerId: r.customer_id } : {}), ...(r.customer_email !== null ? { email: r.customer_email } : {}) }
    : undefined;
  return {
    subscriberId: r.store_id,
    surveyResponseId: r.survey_response_id,
    surveyId: r.survey_id,
    surveyName: r.survey_name,
    channelSurveyId: r.channel_survey_id,
    ...(r.channel_survey_description !== null ? { channelSurveyDescription: r.channel_survey_description } : {}),
    channel: r.channel,
    answeredQuestions: JSON.parse(r.answered_questions_json) as AnsweredQuestion[],
    ...(customer ? { customer } : {}),
    dateCreated: iso(r.created_ms),
    ...(r.email_marketing_opt_in !== null ? { emailMarketingOptIn: r.email_marketing_opt_in === 1 } : {}),
    isArchived: r.is_archived === 1,
    ...(r.remote_order_id !== null ? { order: { remoteOrderId: r.remote_order_id } } : {}),
    ...(reward ? { reward } : {}),
  };
}

/** "answer.value.day" from a zod issue path. */
const pathText = (path: PropertyKey[]) => path.map(String).join(".");

/**
 * Validate answered questions against a survey's questions (interface.md §2.2 plus the survey's own
 * rules) and return them in the stored shape, ordered as the survey orders its questions.
 * @throws ApiError 400 naming the answer (`answeredQuestions[i]`), the question and the broken rule.
 */
export function validateAnswers(surveyId: string, questions: QuestionRow[], answers: unknown[]): AnsweredQuestion[] {
  const byId = new Map(questions.map((q) => [q.question_id, q]));
  const seen = new Set<string>();
  const out: { position: number; answer: AnsweredQuestion }[] = [];
  answers.forEach((raw, i) => {
    const rawId = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
    const known = typeof rawId === "string" ? byId.get(rawId) : undefined;
    const label = `answeredQuestions[${i}]${typeof rawId === "string" ? ` (question ${rawId}${known ? ` "${known.text}"` : ""})` : ""}`;
    const fail = (rule: string): never => {
      throw badRequest(`${label}: ${rule}`, "invalid_answer");
    };
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail("must be an answered question object { id, type, answer, ... }");
    const parsed = answeredQuestionInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = pathText(issue.path);
      const leaf = where.split(".").pop()!;
      // "day must be …" at answer.value.day reads "answer.value.day must be …"; other messages get the path in front.
      fail(!where ? issue.message : issue.message.startsWith(`${leaf} `) ? `${where}${issue.message.slice(leaf.length)}` : issue.message.startsWith(where) ? issue.message : `${where}: ${issue.message}`);
    }
    const a = parsed.data as AnsweredQuestionInput;
    const q = byId.get(a.id) ?? fail(`id is not a question of survey ${surveyId}`);
    if (seen.has(q.question_id)) fail("the question is answered twice");
    seen.add(q.question_id);
    if (a.type !== q.type) fail(`type must be "${q.type}" for this question (got "${a.type}")`);
    const options: string[] = q.options_json ? JSON.parse(q.options_json) : [];
    const customText = q.allow_custom_answer ? q.custom_answer_option_text : null;
    let stored: AnsweredQuestion;
    switch (a.type) {
      case "single-select":
      case "multi-select": {
        const chosen = a.type === "single-select" ? [a.answer] : a.answer;
        for (const c of chosen) {
          if (!options.includes(c) && c !== customText) fail(`answer "${c}" is not an option of this question (options: ${[...options, ...(customText ? [customText] : [])].join(", ")})`);
        }
        const usesCustom = customText !== null && chosen.includes(customText);
        if (usesCustom && a.customAnswer === undefined) fail(`customAnswer is required when "${customText}" is chosen`);
        if (!usesCustom && a.customAnswer !== undefined) fail(customText ? `customAnswer is only allowed when "${customText}" is chosen` : "customAnswer is not allowed: this question has no custom option");
        if (a.customAnswerOptionText !== undefined && a.customAnswerOptionText !== customText) fail(`customAnswerOptionText must be "${customText ?? ""}" (the question's custom option)`);
        stored = { ...a, text: q.text, ...(usesCustom ? { customAnswerOptionText: customText! } : {}) } as AnsweredQuestion;
        break;
      }
      case "nps":
        stored = { ...a, text: q.text, answerNpsCategory: npsCategoryOf(a.answer) };
        break;
      case "profile": {
        if (a.profileQuestionId !== undefined && a.profileQuestionId !== q.profile_question_id) fail(`profileQuestionId must be ${q.profile_question_id} for this question`);
        if (a.answer.type !== q.profile_answer_type) fail(`answer.type must be "${q.profile_answer_type}" for this question (got "${a.answer.type}")`);
        if (a.answer.type === "single-value" || a.answer.type === "multi-value") {
          const values = a.answer.type === "single-value" ? [a.answer.value] : a.answer.value;
          for (const v of values) if (options.length && !options.includes(v)) fail(`answer.value "${v}" is not an option of this question (options: ${options.join(", ")})`);
          if (new Set(values).size !== values.length) fail("answer.value must not repeat a value");
        }
        stored = { ...a, text: q.text, profileQuestionId: q.profile_question_id! };
        break;
      }
      default:
        stored = { ...a, text: q.text } as AnsweredQuestion;
    }
    // The stored shape is the §2.2 union itself: check it (cheap) so nothing off-contract is ever stored.
    const check = answeredQuestionSchema.safeParse(stored);
    if (!check.success) fail(`${pathText(check.error.issues[0].path)}: ${check.error.issues[0].message}`);
    out.push({ position: q.position, answer: check.data as AnsweredQuestion });
  });
  return out.sort((x, y) => x.position - y.position).map((x) => x.answer);
}

/** The text a response is found by in the admin search: its text answers and custom answers. */
const searchTextOf = (answers: AnsweredQuestion[]) =>
  answers.map((a) => (a.type === "text" ? a.answer ?? "" : a.type === "single-select" || a.type === "multi-select" ? a.customAnswer ?? "" : "")).filter(Boolean).join("\n");

/**
 * Net Promoter Score of category counts: round(100 × (promoters − detractors) / total), −100…100
 * (Math.round: halves round up, and −0 is reported as 0). Undefined when the total is 0.
 */
export function npsScore(promoters: number, passives: number, detractors: number): number | undefined {
  const total = promoters + passives + detractors;
  if (total === 0) return undefined;
  return Math.round((100 * (promoters - detractors)) / total) || 0;
}

/** One week of the NPS panel (`weekStart`: Monday, UTC, `YYYY-MM-DD`). */
export type NpsWeek = { weekStart: string; promoters: number; passives: number; detractors: number; answered: number; score: number };
/** The NPS panel: category counts, the score (absent without answers) and the weekly scores. */
export type NpsSummary = { promoters: number; passives: number; detractors: number; answered: number; score?: number; weeks: NpsWeek[] };

/** Create the surveys service. `secret` signs cursors. */
export function surveysService(deps: { db: Db; surveys: SurveysRepo; stores: StoresRepo; secret: string }) {
  const { db, surveys, stores, secret } = deps;

  const responsesContext = (storeId: string, surveyId: string, order: SurveyResponseOrder) => `survey_responses|${storeId}|${surveyId}|${order}`;
  const surveysContext = (storeId: string, order: SurveyResponseOrder) => `surveys|${storeId}|${order}`;
  const qs = (params: Record<string, string | number>) => Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join("&");

  function surveyOrThrow(storeId: string, surveyId: string): SurveyRow {
    const survey = UUID_RE.test(surveyId) ? surveys.getSurvey(storeId, surveyId) : undefined;
    if (!survey) throw notFound("Survey not found", "survey_not_found");
    return survey;
  }

  function buildInsert(storeId: string, channel: ChannelSurveyRow, questions: QuestionRow[], item: ResponseImport, extra: { idempotencyKey?: string; requestHash?: string } = {}): { row: ResponseInsert; answers: AnsweredQuestion[] } {
    const answers = validateAnswers(channel.survey_id, questions, item.answeredQuestions);
    const nps = answers.find((a) => a.type === "nps");
    const email = answers.find((a) => a.type === "email");
    const optIn = item.emailMarketingOptIn ?? (email?.type === "email" ? email.marketingOptIn : undefined);
    const withReward = item.withReward ?? true;
    return {
      answers,
      row: {
        survey_response_id: item.surveyResponseId ?? randomUUID(), store_id: storeId, survey_id: channel.survey_id, channel_survey_id: channel.channel_survey_id,
        answered_questions_json: JSON.stringify(answers), customer_id: item.customer?.customerId ?? null, customer_email: item.customer?.email ?? null,
        email_marketing_opt_in: optIn === undefined ? null : optIn ? 1 : 0, is_archived: item.isArchived ? 1 : 0,
        remote_order_id: item.order?.remoteOrderId ?? null,
        reward_type: withReward ? channel.reward_type : null, reward_description: withReward ? channel.reward_description : null, reward_value: withReward ? channel.reward_value : null,
        nps_score: nps?.type === "nps" ? nps.answer : null, nps_category: nps?.type === "nps" ? nps.answerNpsCategory : null,
        created_ms: item.createdMs, idempotency_key: extra.idempotencyKey ?? null, request_hash: extra.requestHash ?? null,
      },
    };
  }

  const submissionBody = (r: { survey_response_id: string; created_ms: number } & Parameters<typeof rewardOf>[0]): SurveySubmissionResponse => {
    const reward = rewardOf(r);
    return { surveyResponse: { surveyResponseId: r.survey_response_id, dateCreated: iso(r.created_ms), ...(reward ? { reward } : {}) } };
  };

  return {
    /**
     * Create a survey with its questions and channel surveys (one transaction).
     * @throws ApiError 400 when the definition breaks a rule of `surveyDefinitionSchema`.
     */
    createSurvey(storeId: string, definition: SurveyDefinition): Survey {
      const parsed = surveyDefinitionSchema.safeParse(definition);
      if (!parsed.success) throw badRequest(`survey definition: ${pathText(parsed.error.issues[0].path)}: ${parsed.error.issues[0].message}`);
      const d = parsed.data;
      const surveyId = d.surveyId ?? randomUUID();
      const survey: SurveyRow = { survey_id: surveyId, store_id: storeId, name: d.name, created_ms: d.dateCreated ? Date.parse(d.dateCreated) : Date.now() };
      const questions: QuestionRow[] = d.questions.map((q, position) => ({
        question_id: q.id ?? randomUUID(), survey_id: surveyId, store_id: storeId, position, text: q.text, type: q.type,
        options_json: q.options ? JSON.stringify(q.options) : null, allow_custom_answer: q.allowCustomAnswer ? 1 : 0,
        custom_answer_option_text: q.allowCustomAnswer ? q.customAnswerOptionText ?? null : null,
        profile_question_id: q.type === "profile" ? q.profileQuestionId ?? randomUUID() : null, profile_answer_type: q.type === "profile" ? q.profileAnswerType ?? null : null,
      }));
      const channels: ChannelSurveyRow[] = d.channelSurveys.map((c) => ({
        channel_survey_id: c.channelSurveyId ?? randomUUID(), survey_id: surveyId, store_id: storeId, channel: c.channel, description: c.description ?? null,
        reward_type: c.reward ? "coupon" : null, reward_description: c.reward?.description ?? null, reward_value: c.reward?.value ?? null,
      }));
      transaction(db, () => surveys.insertSurvey(survey, questions, channels));
      return this.getSurvey(storeId, surveyId);
    },

    /** A survey with its channel surveys and questions. @throws ApiError 404 when not the store's. */
    getSurvey(storeId: string, surveyId: string): Survey {
      const s = surveyOrThrow(storeId, surveyId);
      return {
        surveyId: s.survey_id, surveyName: s.name, dateCreated: iso(s.created_ms),
        channelSurveys: surveys.channelSurveysOf(storeId, s.survey_id).map(toChannelSurvey),
        questions: surveys.questionsOf(storeId, s.survey_id).map(toSurveyQuestion),
      };
    },

    /**
     * `GET /enterprise/surveys`: the store's surveys with channel surveys and questions, keyset-paged
     * like the responses (limit 1..100, orderBy date asc|desc by creation date).
     * @throws ApiError 400 for a cursor of another listing.
     */
    listSurveys(storeId: string, query: EnterpriseListQuery): ListSurveysResponse {
      const context = surveysContext(storeId, query.orderBy);
      const after = query.lastEvaluated ? (decodeCursor(secret, context, query.lastEvaluated, ["number", "string"]) as [number, string]) : undefined;
      const rows = surveys.listSurveys(storeId, query.orderBy, query.limit, after);
      const page = rows.slice(0, query.limit);
      const out: ListSurveysResponse = { surveys: page.map((s) => this.getSurvey(storeId, s.survey_id)) };
      if (rows.length > query.limit) {
        const last = page[page.length - 1];
        out.nextUrl = `/enterprise/surveys?${qs({ limit: query.limit, orderBy: query.orderBy, lastEvaluated: encodeCursor(secret, context, [last.created_ms, last.survey_id]) })}`;
      }
      return out;
    },

    /**
     * `GET /enterprise/surveys/{surveyId}/responses` (interface.md §4.1): one keyset page, every §2.1
     * field as stored, archived responses included with `isArchived: true`. `nextUrl` is relative to
     * the host and includes `/enterprise`; present only when more exists.
     * @throws ApiError 404 for a survey that is missing or another store's; 400 for a cursor of
     *   another survey, order or store, or a tampered one.
     */
    listResponses(storeId: string, surveyId: string, query: EnterpriseListQuery): ListSurveyResponsesResponse {
      const survey = surveyOrThrow(storeId, surveyId);
      const context = responsesContext(storeId, survey.survey_id, query.orderBy);
      const after = query.lastEvaluated ? (decodeCursor(secret, context, query.lastEvaluated, ["number", "string"]) as [number, string]) : undefined;
      const rows = surveys.listResponses(storeId, { surveyId: survey.survey_id }, query.orderBy, query.limit, after);
      const page = rows.slice(0, query.limit);
      const out: ListSurveyResponsesResponse = { surveyResponses: page.map(toSurveyResponse) };
      if (rows.length > query.limit) {
        const last = page[page.length - 1];
        out.nextUrl = `/enterprise/surveys/${survey.survey_id}/responses?${qs({
          limit: query.limit, orderBy: query.orderBy, lastEvaluated: encodeCursor(secret, context, [last.created_ms, last.survey_response_id]),
        })}`;
      }
      return out;
    },

    /**
     * Storefront submission (decisions.md §3): validate `body` against the channel survey's questions
     * and store one survey response. With an `idempotencyKey`, a retried identical submission returns
     * the first one's body and stores nothing (`replayed: true`).
     * @throws ApiError 404 (unknown store or channel survey), 400 (bad body or answer, naming the
     *   question and the rule), 409 (the key was used for a different body).
     */
    submitResponse(storeId: string, channelSurveyId: string, body: unknown, idempotencyKey?: string): SubmissionResult {
      if (!stores.get(storeId)) throw notFound("Store not found", "store_not_found");
      const channel = UUID_RE.test(channelSurveyId) ? surveys.getChannelSurvey(storeId, channelSurveyId) : undefined;
      if (!channel) throw notFound("Channel survey not found", "channel_survey_not_found");
      const parsed = surveySubmissionSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = pathText(issue.path);
        throw badRequest(where && !issue.message.startsWith(where) && !issue.message.includes(`${where} `) ? `${where}: ${issue.message}` : issue.message, "invalid_body");
      }
      const requestHash = idempotencyKey ? createHash("sha256").update(JSON.stringify(parsed.data)).digest("hex") : undefined;
      return transaction(db, () => {
        if (idempotencyKey) {
          const earlier = surveys.findByIdempotencyKey(storeId, channel.channel_survey_id, idempotencyKey);
          if (earlier) {
            if (earlier.request_hash !== requestHash) throw new ApiError(409, "Idempotency-Key was already used for a different submission", "idempotency_key_reused");
            return { body: submissionBody(earlier), replayed: true };
          }
        }
        const questions = surveys.questionsOf(storeId, channel.survey_id);
        const { row, answers } = buildInsert(storeId, channel, questions, { ...parsed.data, channelSurveyId, createdMs: Date.now() }, { idempotencyKey, requestHash });
        surveys.insertResponse(row, searchTextOf(answers));
        return { body: submissionBody(row), replayed: false };
      });
    },

    /**
     * Store many responses in one transaction, each validated like a submission (demo seeder, benchmark).
     * @returns the number stored. @throws ApiError 400/404 on the first bad item (nothing is stored).
     */
    importResponses(storeId: string, items: Iterable<ResponseImport>): number {
      const channels = new Map<string, { channel: ChannelSurveyRow; questions: QuestionRow[] }>();
      let n = 0;
      transaction(db, () => {
        for (const item of items) {
          let c = channels.get(item.channelSurveyId);
          if (!c) {
            const channel = surveys.getChannelSurvey(storeId, item.channelSurveyId);
            if (!channel) throw notFound("Channel survey not found", "channel_survey_not_found");
            c = { channel, questions: surveys.questionsOf(storeId, channel.survey_id) };
            channels.set(item.channelSurveyId, c);
          }
          const { row, answers } = buildInsert(storeId, c.channel, c.questions, item);
          surveys.insertResponse(row, searchTextOf(answers));
          n++;
        }
      });
      return n;
    },

    /**
     * Admin: archive survey responses of the store (interface.md §3 leaves the transition open; any
     * response may be archived and unarchived). Unknown or other stores' IDs are ignored.
     * @returns how many responses changed state.
     */
    archiveResponses(storeId: string, surveyResponseIds: string[]): number {
      return transaction(db, () => surveys.setArchived(storeId, surveyResponseIds, true));
    },
    /** Admin: unarchive survey responses of the store. @returns how many changed state. */
    unarchiveResponses(storeId: string, surveyResponseIds: string[]): number {
      return transaction(db, () => surveys.setArchived(storeId, surveyResponseIds, false));
    },

    /**
     * Admin listing: one keyset page of the store's responses matching `filter` (survey, channel,
     * channel survey, date range in ms, NPS category, archived flag, full-text `search` over text and
     * custom answers), in `order` (default newest first). `cursor` is the `nextCursor` of the previous
     * page (signed for this store, filter and order). @throws ApiError 400 for a foreign cursor.
     */
    searchResponses(storeId: string, filter: ResponseFilter, page: { limit?: number; order?: SurveyResponseOrder; cursor?: string } = {}): { surveyResponses: SurveyResponse[]; nextCursor?: string } {
      const order = page.order ?? "date desc";
      const limit = Math.min(Math.max(page.limit ?? 25, 1), 100);
      const context = `survey_responses_admin|${storeId}|${JSON.stringify(filter)}|${order}`;
      const after = page.cursor ? (decodeCursor(secret, context, page.cursor, ["number", "string"]) as [number, string]) : undefined;
      const rows = surveys.listResponses(storeId, filter, order, limit, after);
      const list = rows.slice(0, limit);
      const last = list[list.length - 1];
      return { surveyResponses: list.map(toSurveyResponse), ...(rows.length > limit ? { nextCursor: encodeCursor(secret, context, [last.created_ms, last.survey_response_id]) } : {}) };
    },

    /**
     * Admin: one survey response of the store (every §2.1 field).
     * @throws ApiError 404 when the ID is not a UUID, missing, or another store's.
     */
    getResponse(storeId: string, surveyResponseId: string): SurveyResponse {
      const row = UUID_RE.test(surveyResponseId) ? surveys.getResponse(storeId, surveyResponseId) : undefined;
      if (!row) throw notFound("Survey response not found", "survey_response_not_found");
      return toSurveyResponse(row);
    },

    /** Admin: how many of the store's responses match `filter` (the rows an export of it holds). */
    countResponses(storeId: string, filter: ResponseFilter): number {
      return surveys.countMatching(storeId, filter);
    },

    /**
     * Admin NPS panel over the store's responses matching `filter` (only responses with an NPS answer
     * count). `score` = round(100 × (promoters − detractors) / answered), an integer −100…100, absent
     * when nothing is answered; the same per week (weeks start Monday 00:00 UTC, `weekStart` ISO date
     * `YYYY-MM-DD`; only weeks with answers, oldest first). Aggregated in SQL.
     */
    npsSummary(storeId: string, filter: ResponseFilter): NpsSummary {
      const weeks = surveys.npsByWeek(storeId, filter).map((w) => ({
        weekStart: iso(w.week_ms).slice(0, 10), promoters: w.promoters, passives: w.passives, detractors: w.detractors,
        answered: w.promoters + w.passives + w.detractors, score: npsScore(w.promoters, w.passives, w.detractors)!,
      }));
      const sum = (k: "promoters" | "passives" | "detractors") => weeks.reduce((n, w) => n + w[k], 0);
      const promoters = sum("promoters");
      const passives = sum("passives");
      const detractors = sum("detractors");
      const score = npsScore(promoters, passives, detractors);
      return { promoters, passives, detractors, answered: promoters + passives + detractors, ...(score === undefined ? {} : { score }), weeks };
    },

    /**
     * Admin export: every response of the store matching `filter`, in `order`, as a lazy iterator that
     * reads keyset batches of `batchSize` rows (never the whole set in memory, never holding a read
     * cursor open between batches, so writes can interleave).
     */
    *iterateResponses(storeId: string, filter: ResponseFilter, options: { order?: SurveyResponseOrder; batchSize?: number } = {}): Generator<SurveyResponse> {
      const order = options.order ?? "date desc";
      const size = options.batchSize ?? 500;
      let after: [number, string] | undefined;
      for (;;) {
        const rows = surveys.listResponses(storeId, filter, order, size, after);
        const batch = rows.slice(0, size);
        for (const r of batch) yield toSurveyResponse(r);
        if (rows.length <= size) return;
        const last = batch[batch.length - 1];
        after = [last.created_ms, last.survey_response_id];
      }
    },
  };
}
export type SurveysService = ReturnType<typeof surveysService>;
