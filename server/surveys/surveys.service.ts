/**
 * Surveys rules: survey definitions, the storefront submission with Idempotency-Key (docs/surveys.md, Storefront submission),
 * the enterprise listings with signed keyset cursors (docs/surveys.md, Enterprise API; docs/api.md, Paging; docs/api.md, Authentication), and the
 * admin functions (archive, filtered listing, NPS panel, streaming export iterator). The pure parts live
 * beside it: answer validation (answers.ts), response shaping (response-shape.ts) and NPS maths (nps.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import {
  surveyDefinitionSchema,
  surveySubmissionSchema,
  type AnsweredQuestion,
  type EnterpriseListQuery,
  type ListSurveyResponsesResponse,
  type ListSurveysResponse,
  type Survey,
  type Reward,
  type StorefrontSurvey,
  type SurveyChannel,
  type SurveyDefinition,
  type SurveyResponse,
  type SurveyResponseOrder,
  type SurveySubmissionResponse,
} from "../contract/surveys.ts";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { isUniqueViolation, transaction, type Db } from "../db/database.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { UiLocale } from "../contract/widget-locales.ts";
import { pathText, searchTextOf, validateAnswers } from "./answers.ts";
import { npsSummaryOf, type NpsSummary } from "./nps.ts";
import { rewardOf, submissionBody, toChannelSurvey, toSurveyQuestion, toSurveyResponse } from "./response-shape.ts";
import { emailOf, platformCouponOf, type SurveyRewards } from "./survey-rewards.ts";
import type { ChannelSurveyRow, QuestionRow, ResponseFilter, ResponseInsert, ResponseRow, SurveyRow, SurveysRepo } from "./surveys.repo.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";

export type { ResponseFilter } from "./surveys.repo.ts";
// The pure parts, re-exported for the callers that import them from the service (admin, benchmarks, NpsChart).
export { validateAnswers } from "./answers.ts";
export { npsScore, type NpsSummary, type NpsWeek } from "./nps.ts";
export { toSurveyQuestion, toSurveyResponse } from "./response-shape.ts";

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

/** Create the surveys service. `secret` signs cursors. */
export function surveysService(deps: { db: Db; surveys: SurveysRepo; stores: StoresRepo; secret: string; rewards?: () => SurveyRewards | undefined }) {
  const { db, surveys, stores, secret } = deps;

  const responsesContext = (storeId: string, surveyId: string, order: SurveyResponseOrder) => `survey_responses|${storeId}|${surveyId}|${order}`;
  const surveysContext = (storeId: string, order: SurveyResponseOrder) => `surveys|${storeId}|${order}`;
  /** The keyset of response listings: creation time (ms), then ID. */
  const responseKey = (r: ResponseRow): [number, string] => [r.created_ms, r.survey_response_id];
  const qs = (params: Record<string, string | number>) =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join("&");

  async function surveyOrThrow(storeId: string, surveyId: string): Promise<SurveyRow> {
    const survey = UUID_RE.test(surveyId) ? await surveys.getSurvey(storeId, surveyId) : undefined;
    if (!survey) throw notFound("Survey not found", "survey_not_found");
    return survey;
  }

  /** An enabled channel survey of the store. @throws ApiError 404 for an unknown, another store's or a disabled one. */
  async function enabledChannelOrThrow(storeId: string, channelSurveyId: string): Promise<ChannelSurveyRow> {
    const channel = UUID_RE.test(channelSurveyId) ? await surveys.getChannelSurvey(storeId, channelSurveyId) : undefined;
    if (!channel || !channel.enabled) throw notFound("Channel survey not found", "channel_survey_not_found");
    return channel;
  }

  function buildInsert(
    storeId: string,
    channel: ChannelSurveyRow,
    questions: QuestionRow[],
    item: ResponseImport,
    extra: { idempotencyKey?: string; requestHash?: string; platformCoupon?: boolean } = {},
  ): { row: ResponseInsert; answers: AnsweredQuestion[] } {
    const answers = validateAnswers(channel.survey_id, questions, item.answeredQuestions);
    const nps = answers.find((a) => a.type === "nps");
    const email = answers.find((a) => a.type === "email");
    const optIn = item.emailMarketingOptIn ?? (email?.type === "email" ? email.marketingOptIn : undefined);
    // A reward created on the shop platform (survey-rewards.ts) has no code until the platform made it: the response's
    // reward_value is filled in then. Imports copy the channel survey's reward as it is.
    const withReward = item.withReward ?? true;
    return {
      answers,
      row: {
        survey_response_id: item.surveyResponseId ?? randomUUID(),
        store_id: storeId,
        survey_id: channel.survey_id,
        channel_survey_id: channel.channel_survey_id,
        answered_questions_json: JSON.stringify(answers),
        customer_id: item.customer?.customerId ?? null,
        customer_email: item.customer?.email ?? null,
        email_marketing_opt_in: optIn === undefined ? null : optIn ? 1 : 0,
        is_archived: item.isArchived ? 1 : 0,
        remote_order_id: item.order?.remoteOrderId ?? null,
        reward_type: withReward ? channel.reward_type : null,
        reward_description: withReward ? channel.reward_description : null,
        reward_value: withReward && !extra.platformCoupon ? channel.reward_value : null,
        nps_score: nps?.type === "nps" ? nps.answer : null,
        nps_category: nps?.type === "nps" ? nps.answerNpsCategory : null,
        created_ms: item.createdMs,
        idempotency_key: extra.idempotencyKey ?? null,
        request_hash: extra.requestHash ?? null,
      },
    };
  }

  return {
    /**
     * Create a survey with its questions and channel surveys (one transaction).
     * @throws ApiError 400 when the definition breaks a rule of `surveyDefinitionSchema`.
     */
    async createSurvey(storeId: string, definition: SurveyDefinition): Promise<Survey> {
      const parsed = surveyDefinitionSchema.safeParse(definition);
      if (!parsed.success) throw badRequest(`survey definition: ${pathText(parsed.error.issues[0].path)}: ${parsed.error.issues[0].message}`);
      const d = parsed.data;
      const surveyId = d.surveyId ?? randomUUID();
      const survey: SurveyRow = { survey_id: surveyId, store_id: storeId, name: d.name, created_ms: d.dateCreated ? Date.parse(d.dateCreated) : Date.now() };
      const questions: QuestionRow[] = d.questions.map((q, position) => ({
        question_id: q.id ?? randomUUID(),
        survey_id: surveyId,
        store_id: storeId,
        position,
        text: q.text,
        type: q.type,
        options_json: q.options ? JSON.stringify(q.options) : null,
        allow_custom_answer: q.allowCustomAnswer ? 1 : 0,
        custom_answer_option_text: q.allowCustomAnswer ? (q.customAnswerOptionText ?? null) : null,
        profile_question_id: q.type === "profile" ? (q.profileQuestionId ?? randomUUID()) : null,
        profile_answer_type: q.type === "profile" ? (q.profileAnswerType ?? null) : null,
        required: q.required ? 1 : 0,
      }));
      const channels: ChannelSurveyRow[] = d.channelSurveys.map((c) => ({
        channel_survey_id: c.channelSurveyId ?? randomUUID(),
        survey_id: surveyId,
        store_id: storeId,
        channel: c.channel,
        description: c.description ?? null,
        reward_type: c.reward ? "coupon" : null,
        reward_description: c.reward?.description ?? null,
        reward_value: c.reward?.value ?? null,
        enabled: c.enabled === false ? 0 : 1,
      }));
      await transaction(db, () => surveys.insertSurvey(survey, questions, channels));
      return this.getSurvey(storeId, surveyId);
    },

    /** A survey with its channel surveys and questions. @throws ApiError 404 when not the store's. */
    async getSurvey(storeId: string, surveyId: string): Promise<Survey> {
      const s = await surveyOrThrow(storeId, surveyId);
      return {
        surveyId: s.survey_id,
        surveyName: s.name,
        dateCreated: iso(s.created_ms),
        channelSurveys: (await surveys.channelSurveysOf(storeId, s.survey_id)).map(toChannelSurvey),
        questions: (await surveys.questionsOf(storeId, s.survey_id)).map(toSurveyQuestion),
      };
    },

    /**
     * `GET /enterprise/surveys`: the store's surveys with channel surveys and questions, keyset-paged
     * like the responses (limit 1..100, orderBy date asc|desc by creation date).
     * @throws ApiError 400 for a cursor of another listing.
     */
    async listSurveys(storeId: string, query: EnterpriseListQuery): Promise<ListSurveysResponse> {
      const { rows, next } = await keysetPage<SurveyRow, [number, string]>({
        secret,
        context: surveysContext(storeId, query.orderBy),
        cursor: query.lastEvaluated,
        shape: ["number", "string"],
        limit: query.limit,
        fetch: (after) => surveys.listSurveys(storeId, query.orderBy, query.limit, after), // the repo reads limit + 1 rows
        keyOf: (s) => [s.created_ms, s.survey_id],
      });
      const out: ListSurveysResponse = { surveys: [] };
      for (const s of rows) out.surveys.push(await this.getSurvey(storeId, s.survey_id));
      if (next) out.nextUrl = `/enterprise/surveys?${qs({ limit: query.limit, orderBy: query.orderBy, lastEvaluated: next })}`;
      return out;
    },

    /**
     * `GET /enterprise/surveys/{surveyId}/responses` (docs/surveys.md, Enterprise API): one keyset page, every
     * field as stored (docs/surveys.md, Survey response fields), archived responses included with `isArchived: true`. `nextUrl` is relative to
     * the host and includes `/enterprise`; present only when more exists.
     * @throws ApiError 404 for a survey that is missing or another store's; 400 for a cursor of
     *   another survey, order or store, or a tampered one.
     */
    async listResponses(storeId: string, surveyId: string, query: EnterpriseListQuery): Promise<ListSurveyResponsesResponse> {
      const survey = await surveyOrThrow(storeId, surveyId);
      const { rows, next } = await keysetPage<ResponseRow, [number, string]>({
        secret,
        context: responsesContext(storeId, survey.survey_id, query.orderBy),
        cursor: query.lastEvaluated,
        shape: ["number", "string"],
        limit: query.limit,
        fetch: (after) => surveys.listResponses(storeId, { surveyId: survey.survey_id }, query.orderBy, query.limit, after), // the repo reads limit + 1 rows
        keyOf: responseKey,
      });
      const out: ListSurveyResponsesResponse = { surveyResponses: rows.map(toSurveyResponse) };
      if (next) out.nextUrl = `/enterprise/surveys/${survey.survey_id}/responses?${qs({ limit: query.limit, orderBy: query.orderBy, lastEvaluated: next })}`;
      return out;
    },

    /**
     * Storefront read (docs/surveys.md, Storefront read): the channel survey as a shopper sees it: the survey's
     * name, its questions in order, the channel's description and the reward's description, never its code.
     * @throws ApiError 404 for an unknown store, or a channel survey that is missing, another store's or disabled.
     */
    async getStorefrontSurvey(storeId: string, channelSurveyId: string): Promise<StorefrontSurvey> {
      const store = await stores.get(storeId);
      if (!store) throw notFound("Store not found", "store_not_found");
      const channel = await enabledChannelOrThrow(storeId, channelSurveyId);
      const survey = (await surveys.getSurvey(storeId, channel.survey_id))!;
      return {
        channelSurveyId: channel.channel_survey_id,
        channel: channel.channel,
        surveyId: survey.survey_id,
        surveyName: survey.name,
        ...(channel.description !== null ? { description: channel.description } : {}),
        ...(channel.reward_description !== null ? { rewardDescription: channel.reward_description } : {}),
        questions: (await surveys.questionsOf(storeId, survey.survey_id)).map(toSurveyQuestion),
        defaultLanguage: store.defaultLanguage,
      };
    },

    /**
     * The hosted survey page (`/s/{channelSurveyId}`, docs/surveys.md, Shareable link): the store and the channel
     * survey as a shopper sees it, for an enabled channel survey on the `shareable-link` or `post-review` channel
     * (the hosted review page follows a review with the latter); undefined otherwise.
     */
    async openHostedSurvey(channelSurveyId: string): Promise<{ storeId: string; storeName: string; defaultLanguage: UiLocale; survey: StorefrontSurvey } | undefined> {
      const row = UUID_RE.test(channelSurveyId) ? await surveys.channelSurveyById(channelSurveyId) : undefined;
      if (!row || !row.enabled || (row.channel !== "shareable-link" && row.channel !== "post-review")) return undefined;
      const store = await stores.get(row.store_id);
      if (!store) return undefined;
      return { storeId: row.store_id, storeName: store.name, defaultLanguage: store.defaultLanguage, survey: await this.getStorefrontSurvey(row.store_id, channelSurveyId) };
    },

    /** The reward of one of the store's survey responses (the hosted page's thank-you state shows its code); undefined when none. */
    async rewardOfResponse(storeId: string, surveyResponseId: string): Promise<Reward | undefined> {
      const r = UUID_RE.test(surveyResponseId) ? await surveys.getResponse(storeId, surveyResponseId) : undefined;
      return r ? rewardOf(r) : undefined;
    },

    /** Whether a response's reward is still being created on the shop platform (it is e-mailed once created: docs/surveys.md "Rewards"). */
    async rewardPending(storeId: string, surveyResponseId: string): Promise<boolean> {
      return UUID_RE.test(surveyResponseId) && (await deps.rewards?.()?.stateOf(storeId, surveyResponseId)) === "pending";
    },

    /** The content scopes a storefront survey read depends on (the response cache keeps it until one changes). */
    cacheScopes(storeId: string): string[] {
      return [contentScope.store(storeId), contentScope.surveys(storeId)];
    },

    /** The store's enabled channel survey on `channel` (the first made), e.g. the one that follows a review; undefined when none. */
    async channelSurveyFor(storeId: string, channel: SurveyChannel): Promise<string | undefined> {
      return (await surveys.firstEnabledChannelSurvey(storeId, channel))?.channel_survey_id;
    },

    /** Turn a channel survey on or off (admin). @returns whether it is the store's. */
    setChannelSurveyEnabled(storeId: string, channelSurveyId: string, enabled: boolean): Promise<boolean> {
      return transaction(db, () => surveys.setChannelSurveyEnabled(storeId, channelSurveyId, enabled));
    },

    /**
     * Storefront submission (docs/surveys.md, Storefront submission): validate `body` against the channel survey's questions
     * and store one survey response. With an `idempotencyKey`, a retried identical submission returns
     * the first one's body and stores nothing (`replayed: true`).
     * @throws ApiError 404 (unknown store or channel survey), 400 (bad body or answer, naming the
     *   question and the rule), 409 (the key was used for a different body).
     */
    async submitResponse(storeId: string, channelSurveyId: string, body: unknown, idempotencyKey?: string): Promise<SubmissionResult> {
      if (!(await stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      const channel = await enabledChannelOrThrow(storeId, channelSurveyId);
      const parsed = surveySubmissionSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = pathText(issue.path);
        throw badRequest(where && !issue.message.startsWith(where) && !issue.message.includes(`${where} `) ? `${where}: ${issue.message}` : issue.message, "invalid_body");
      }
      const requestHash = idempotencyKey ? createHash("sha256").update(JSON.stringify(parsed.data)).digest("hex") : undefined;
      const questions = await surveys.questionsOf(storeId, channel.survey_id);
      const rewards = deps.rewards?.();
      const coupon = rewards && channel.reward_type && channel.reward_value !== null ? platformCouponOf(channel.reward_value) : null;
      const { row, answers } = buildInsert(storeId, channel, questions, { ...parsed.data, channelSurveyId, createdMs: Date.now() }, { idempotencyKey, requestHash, platformCoupon: coupon !== null });
      /** The 201 body of a stored response: its reward's code once created, else `rewardPending` while the platform is retried. */
      const bodyOf = async (r: ResponseRow | ResponseInsert): Promise<SurveySubmissionResponse> => {
        const body = submissionBody(r);
        if (!body.surveyResponse.reward && r.reward_type && rewards && (await rewards.stateOf(storeId, r.survey_response_id)) === "pending") body.surveyResponse.rewardPending = true;
        return body;
      };
      const replay = async (earlier: ResponseRow): Promise<SubmissionResult> => {
        if (earlier.request_hash !== requestHash) throw new ApiError(409, "Idempotency-Key was already used for a different submission", "idempotency_key_reused");
        return { body: await bodyOf(earlier), replayed: true };
      };
      const attempt = () =>
        transaction(db, async (): Promise<SubmissionResult> => {
          if (idempotencyKey) {
            const earlier = await surveys.findByIdempotencyKey(storeId, channel.channel_survey_id, idempotencyKey);
            if (earlier) return replay(earlier);
          }
          await surveys.insertResponse(row, searchTextOf(answers));
          const email = emailOf(row.customer_email, answers);
          if (coupon && rewards) {
            await rewards.reserve({
              storeId,
              surveyResponseId: row.survey_response_id,
              channelSurveyId: channel.channel_survey_id,
              email,
              description: channel.reward_description ?? "",
              coupon,
              createdMs: row.created_ms,
            });
          }
          await rewards?.recordProfile(storeId, row.survey_response_id, email, answers, row.created_ms);
          return { body: submissionBody(row), replayed: false };
        });
      try {
        const result = await attempt();
        if (result.replayed || !coupon || !rewards) return result;
        // After the commit, outside any transaction: ask the platform now; on failure the retry job takes over.
        await rewards.createNow(storeId, row.survey_response_id);
        const stored = await surveys.getResponse(storeId, row.survey_response_id);
        return { body: await bodyOf(stored ?? row), replayed: false };
      } catch (error) {
        // Exactly-once per key: the unique (store, channel survey, idempotency key) index. Two concurrent retries
        // with one key (on two nodes) both find no earlier response; the second insert fails and replays the first.
        if (!idempotencyKey || !isUniqueViolation(error)) throw error;
        const earlier = await surveys.findByIdempotencyKey(storeId, channel.channel_survey_id, idempotencyKey);
        if (!earlier) throw error;
        return replay(earlier);
      }
    },

    /**
     * Store many responses in one transaction, each validated like a submission (demo seeder, benchmark).
     * @returns the number stored. @throws ApiError 400/404 on the first bad item (nothing is stored).
     */
    async importResponses(storeId: string, items: Iterable<ResponseImport>): Promise<number> {
      const channels = new Map<string, { channel: ChannelSurveyRow; questions: QuestionRow[] }>();
      let n = 0;
      await transaction(db, async () => {
        for (const item of items) {
          let c = channels.get(item.channelSurveyId);
          if (!c) {
            const channel = await surveys.getChannelSurvey(storeId, item.channelSurveyId);
            if (!channel) throw notFound("Channel survey not found", "channel_survey_not_found");
            c = { channel, questions: await surveys.questionsOf(storeId, channel.survey_id) };
            channels.set(item.channelSurveyId, c);
          }
          const { row, answers } = buildInsert(storeId, c.channel, c.questions, item);
          await surveys.insertResponse(row, searchTextOf(answers));
          n++;
        }
      });
      return n;
    },

    /**
     * Admin: archive survey responses of the store (any response may be archived and
     * unarchived). Unknown or other stores' IDs are ignored.
     * @returns how many responses changed state.
     */
    archiveResponses(storeId: string, surveyResponseIds: string[]): Promise<number> {
      return transaction(db, () => surveys.setArchived(storeId, surveyResponseIds, true));
    },
    /** Admin: unarchive survey responses of the store. @returns how many changed state. */
    unarchiveResponses(storeId: string, surveyResponseIds: string[]): Promise<number> {
      return transaction(db, () => surveys.setArchived(storeId, surveyResponseIds, false));
    },

    /**
     * Admin listing: one keyset page of the store's responses matching `filter` (survey, channel,
     * channel survey, date range in ms, NPS category, archived flag, full-text `search` over text and
     * custom answers), in `order` (default newest first). `cursor` is the `nextCursor` of the previous
     * page (signed for this store, filter and order). @throws ApiError 400 for a foreign cursor.
     */
    async searchResponses(
      storeId: string,
      filter: ResponseFilter,
      page: { limit?: number; order?: SurveyResponseOrder; cursor?: string } = {},
    ): Promise<{ surveyResponses: SurveyResponse[]; nextCursor?: string }> {
      const order = page.order ?? "date desc";
      const limit = Math.min(Math.max(page.limit ?? 25, 1), 100);
      const { rows, next } = await keysetPage<ResponseRow, [number, string]>({
        secret,
        context: `survey_responses_admin|${storeId}|${JSON.stringify(filter)}|${order}`,
        cursor: page.cursor,
        shape: ["number", "string"],
        limit,
        fetch: (after) => surveys.listResponses(storeId, filter, order, limit, after), // the repo reads limit + 1 rows
        keyOf: responseKey,
      });
      return { surveyResponses: rows.map(toSurveyResponse), ...(next ? { nextCursor: next } : {}) };
    },

    /**
     * Admin: one survey response of the store (every field of docs/surveys.md, Survey response fields).
     * @throws ApiError 404 when the ID is not a UUID, missing, or another store's.
     */
    async getResponse(storeId: string, surveyResponseId: string): Promise<SurveyResponse> {
      const row = UUID_RE.test(surveyResponseId) ? await surveys.getResponse(storeId, surveyResponseId) : undefined;
      if (!row) throw notFound("Survey response not found", "survey_response_not_found");
      return toSurveyResponse(row);
    },

    /**
     * Mark a survey as sample data (generated responses, e.g. the demo's attribution survey); the admin
     * shows the mark beside the survey and its responses. @throws ApiError 404 for an unknown survey.
     */
    async markSampleData(storeId: string, surveyId: string, sample = true): Promise<void> {
      if (!(await surveys.setSampleData(storeId, surveyId, sample))) throw notFound("Survey not found", "survey_not_found");
    },
    /** Admin: IDs of the store's surveys marked as sample data. */
    async sampleDataSurveyIds(storeId: string): Promise<Set<string>> {
      return new Set(await surveys.sampleDataSurveyIds(storeId));
    },

    /** Admin: how many of the store's responses match `filter` (the rows an export of it holds). */
    countResponses(storeId: string, filter: ResponseFilter): Promise<number> {
      return surveys.countMatching(storeId, filter);
    },

    /**
     * Admin NPS panel over the store's responses matching `filter` (only responses with an NPS answer
     * count). `score` = round(100 × (promoters − detractors) / answered), an integer −100…100, absent
     * when nothing is answered; the same per week (weeks start Monday 00:00 UTC, `weekStart` ISO date
     * `YYYY-MM-DD`; only weeks with answers, oldest first). Aggregated in SQL.
     */
    async npsSummary(storeId: string, filter: ResponseFilter): Promise<NpsSummary> {
      return npsSummaryOf(await surveys.npsByWeek(storeId, filter));
    },

    /**
     * Admin export: every response of the store matching `filter`, in `order`, as a lazy iterator that
     * reads keyset batches of `batchSize` rows (never the whole set in memory, never holding a read
     * cursor open between batches, so writes can interleave).
     */
    async *iterateResponses(storeId: string, filter: ResponseFilter, options: { order?: SurveyResponseOrder; batchSize?: number } = {}): AsyncGenerator<SurveyResponse> {
      const order = options.order ?? "date desc";
      const size = options.batchSize ?? 500;
      let after: [number, string] | undefined;
      for (;;) {
        const rows = await surveys.listResponses(storeId, filter, order, size, after);
        const batch = rows.slice(0, size);
        for (const r of batch) yield toSurveyResponse(r);
        if (rows.length <= size) return;
        after = responseKey(batch[batch.length - 1]);
      }
    },
  };
}
export type SurveysService = ReturnType<typeof surveysService>;
