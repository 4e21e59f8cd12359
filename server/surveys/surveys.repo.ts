/**
 * Surveys data module (SQL only): survey definitions, channel surveys, questions and survey responses.
 * Bound parameters only; the store ID is in every WHERE (docs/api.md, Endpoints and scopes). Listings are keyset
 * scans over (created_ms, survey_response_id) / (created_ms, survey_id): never OFFSET.
 */
import { all, dialect, one, run, sql, value, type Db, type RawBuilder } from "../db/database.ts";
import { tsqueryOf } from "../db/text-search.ts";
import type { NpsCategory, ProfileAnswerType, QuestionType, SurveyChannel, SurveyResponseOrder } from "../contract/surveys.ts";

export type SurveyRow = { survey_id: string; store_id: string; name: string; created_ms: number };
export type QuestionRow = {
  question_id: string;
  survey_id: string;
  store_id: string;
  position: number;
  text: string;
  type: QuestionType;
  options_json: string | null;
  allow_custom_answer: number;
  custom_answer_option_text: string | null;
  profile_question_id: string | null;
  profile_answer_type: ProfileAnswerType | null;
  /** 1: must be answered (migration 104). */
  required: number;
};
export type ChannelSurveyRow = {
  channel_survey_id: string;
  survey_id: string;
  store_id: string;
  channel: SurveyChannel;
  description: string | null;
  reward_type: "coupon" | null;
  reward_description: string | null;
  reward_value: string | null;
  /** 0: turned off, not shown, takes no responses (migration 104). */
  enabled: number;
};
export type ResponseInsert = {
  survey_response_id: string;
  store_id: string;
  survey_id: string;
  channel_survey_id: string;
  answered_questions_json: string;
  customer_id: string | null;
  customer_email: string | null;
  email_marketing_opt_in: number | null;
  is_archived: number;
  remote_order_id: string | null;
  reward_type: string | null;
  reward_description: string | null;
  reward_value: string | null;
  nps_score: number | null;
  nps_category: NpsCategory | null;
  created_ms: number;
  idempotency_key: string | null;
  request_hash: string | null;
};
/** A stored response joined with its survey's name and its channel survey's channel and description. */
export type ResponseRow = ResponseInsert & { response_seq: number; survey_name: string; channel: SurveyChannel; channel_survey_description: string | null };

/**
 * Filter of the admin listing and export (all optional, combined with AND).
 * `fromMs`/`toMs`: created_ms bounds in ms, inclusive/exclusive. `search`: words that must all occur
 * (prefix match) in the response's text answers or custom answers.
 */
export type ResponseFilter = {
  surveyId?: string;
  channel?: SurveyChannel;
  channelSurveyId?: string;
  fromMs?: number;
  toMs?: number;
  npsCategory?: NpsCategory;
  archived?: boolean;
  search?: string;
};

// CROSS JOIN pins survey_responses as the outer loop: the page is then read in index order and stops
// after LIMIT rows. (With ANALYZE statistics SQLite otherwise prefers scanning the two tiny tables
// first and sorting every response of the survey in a temp b-tree: page 1 would cost O(responses).)
// The join terms are in WHERE, not ON: PostgreSQL has no `CROSS JOIN ... ON` (for SQLite both are the
// same inner join). Statements append their own terms with AND.
const RESPONSE_SELECT = sql.raw(`SELECT r.*, s.name AS survey_name, c.channel, c.description AS channel_survey_description
  FROM survey_responses r CROSS JOIN surveys s CROSS JOIN channel_surveys c
  WHERE s.survey_id = r.survey_id AND s.store_id = r.store_id AND c.channel_survey_id = r.channel_survey_id AND c.store_id = r.store_id`);
/** survey_responses `r` joined with its channel survey `c` (statements append their terms with AND). */
const RESPONSE_CHANNEL_FROM = sql.raw(`FROM survey_responses r CROSS JOIN channel_surveys c
  WHERE c.channel_survey_id = r.channel_survey_id AND c.store_id = r.store_id`);

/** Turn free text into an FTS5 query: every word quoted (no operator injection), prefix-matched, ANDed. */
export function ftsQuery(text: string): string | null {
  const words = text.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length
    ? words
        .slice(0, 20)
        .map((w) => `"${w}"*`)
        .join(" ")
    : null;
}

/** Weekly NPS counts of `npsByWeek`: `week_ms` = Monday 00:00 UTC of the week, in ms. */
export type NpsWeekRow = { week_ms: number; promoters: number; passives: number; detractors: number };

/**
 * WHERE terms (over `r` = survey_responses, `c` = channel_surveys) for `filter`, joined with AND, store ID first;
 * null when the search has no words (matches nothing). `postgres`: search survey_responses_fts as PostgreSQL
 * 003-search.sql builds it (tsvector, chorus_simple).
 */
export function filterWhere(storeId: string, filter: ResponseFilter, postgres = false): RawBuilder<unknown> | null {
  const where: RawBuilder<unknown>[] = [sql`r.store_id = ${storeId}`];
  if (filter.surveyId !== undefined) where.push(sql`r.survey_id = ${filter.surveyId}`);
  if (filter.channel !== undefined) where.push(sql`c.channel = ${filter.channel}`);
  if (filter.channelSurveyId !== undefined) where.push(sql`r.channel_survey_id = ${filter.channelSurveyId}`);
  if (filter.fromMs !== undefined) where.push(sql`r.created_ms >= ${filter.fromMs}`);
  if (filter.toMs !== undefined) where.push(sql`r.created_ms < ${filter.toMs}`);
  if (filter.npsCategory !== undefined) where.push(sql`r.nps_category = ${filter.npsCategory}`);
  if (filter.archived !== undefined) where.push(sql`r.is_archived = ${filter.archived ? 1 : 0}`);
  if (filter.search !== undefined) {
    const match = ftsQuery(filter.search);
    if (!match) return null;
    where.push(
      postgres
        ? sql`r.response_seq IN (SELECT response_seq FROM survey_responses_fts WHERE document @@ to_tsquery('chorus_simple', ${tsqueryOf(match)}))`
        : sql`r.response_seq IN (SELECT rowid FROM survey_responses_fts WHERE survey_responses_fts MATCH ${match})`,
    );
  }
  return sql.join(where, sql` AND `);
}

/** Create the surveys data module over `db`. */
export function surveysRepo(db: Db) {
  // PostgreSQL: no rowid (channel surveys in the order of the row_seq identity of PostgreSQL migration 007), no json_each.
  const pg = dialect(db) === "postgres";
  const channelOrder = sql.raw(pg ? "row_seq" : "rowid");

  return {
    /** Insert a survey with its questions and channel surveys (call inside a transaction). */
    async insertSurvey(survey: SurveyRow, questions: QuestionRow[], channels: ChannelSurveyRow[]): Promise<void> {
      await run(db, sql`INSERT INTO surveys (survey_id, store_id, name, created_ms) VALUES (${survey.survey_id}, ${survey.store_id}, ${survey.name}, ${survey.created_ms})`);
      for (const q of questions) {
        await run(
          db,
          sql`INSERT INTO survey_questions (question_id, survey_id, store_id, position, text, type, options_json, allow_custom_answer, custom_answer_option_text, profile_question_id, profile_answer_type, required)
          VALUES (${q.question_id}, ${q.survey_id}, ${q.store_id}, ${q.position}, ${q.text}, ${q.type}, ${q.options_json}, ${q.allow_custom_answer}, ${q.custom_answer_option_text},
            ${q.profile_question_id}, ${q.profile_answer_type}, ${q.required})`,
        );
      }
      for (const c of channels) {
        await run(
          db,
          sql`INSERT INTO channel_surveys (channel_survey_id, survey_id, store_id, channel, description, reward_type, reward_description, reward_value, enabled)
          VALUES (${c.channel_survey_id}, ${c.survey_id}, ${c.store_id}, ${c.channel}, ${c.description}, ${c.reward_type}, ${c.reward_description}, ${c.reward_value}, ${c.enabled})`,
        );
      }
    },
    getSurvey(storeId: string, surveyId: string): Promise<SurveyRow | undefined> {
      return one<SurveyRow>(db, sql`SELECT * FROM surveys WHERE store_id = ${storeId} AND survey_id = ${surveyId}`);
    },
    questionsOf(storeId: string, surveyId: string): Promise<QuestionRow[]> {
      return all<QuestionRow>(db, sql`SELECT * FROM survey_questions WHERE store_id = ${storeId} AND survey_id = ${surveyId} ORDER BY position`);
    },
    channelSurveysOf(storeId: string, surveyId: string): Promise<ChannelSurveyRow[]> {
      return all<ChannelSurveyRow>(db, sql`SELECT * FROM channel_surveys WHERE store_id = ${storeId} AND survey_id = ${surveyId} ORDER BY ${channelOrder}`);
    },
    getChannelSurvey(storeId: string, channelSurveyId: string): Promise<ChannelSurveyRow | undefined> {
      return one<ChannelSurveyRow>(db, sql`SELECT * FROM channel_surveys WHERE store_id = ${storeId} AND channel_survey_id = ${channelSurveyId}`);
    },
    /**
     * A channel survey by its ID alone (channel survey IDs are unique across stores): the hosted survey page
     * (`/s/{channelSurveyId}`) has no store in its address, so this is the one read that learns the store from the row.
     */
    channelSurveyById(channelSurveyId: string): Promise<ChannelSurveyRow | undefined> {
      return one<ChannelSurveyRow>(db, sql`SELECT * FROM channel_surveys WHERE channel_survey_id = ${channelSurveyId}`);
    },
    /** The store's first enabled channel survey on `channel` (oldest first), e.g. its post-review survey; undefined when none. */
    firstEnabledChannelSurvey(storeId: string, channel: SurveyChannel): Promise<ChannelSurveyRow | undefined> {
      return one<ChannelSurveyRow>(db, sql`SELECT * FROM channel_surveys WHERE store_id = ${storeId} AND channel = ${channel} AND enabled = 1 ORDER BY ${channelOrder} LIMIT 1`);
    },
    /** Turn a channel survey on or off. @returns whether it is the store's. */
    async setChannelSurveyEnabled(storeId: string, channelSurveyId: string, enabled: boolean): Promise<boolean> {
      return (await run(db, sql`UPDATE channel_surveys SET enabled = ${enabled ? 1 : 0} WHERE store_id = ${storeId} AND channel_survey_id = ${channelSurveyId}`)).changes === 1;
    },
    /** Mark (or unmark) a survey as sample data: its responses were generated, not given by shoppers. */
    async setSampleData(storeId: string, surveyId: string, sample: boolean): Promise<boolean> {
      return (await run(db, sql`UPDATE surveys SET sample_data = ${sample ? 1 : 0} WHERE store_id = ${storeId} AND survey_id = ${surveyId}`)).changes === 1;
    },
    /** IDs of the store's surveys marked as sample data. */
    async sampleDataSurveyIds(storeId: string): Promise<string[]> {
      return (await all<{ survey_id: string }>(db, sql`SELECT survey_id FROM surveys WHERE store_id = ${storeId} AND sample_data = 1`)).map((r) => r.survey_id);
    },
    /** One page (limit + 1 rows) of the store's surveys, keyset after `[created_ms, survey_id]`. */
    listSurveys(storeId: string, order: SurveyResponseOrder, limit: number, after?: [number, string]): Promise<SurveyRow[]> {
      const asc = order === "date asc";
      const dir = sql.raw(asc ? "ASC" : "DESC");
      const keyset = after ? sql`AND (created_ms, survey_id) ${sql.raw(asc ? ">" : "<")} (${after[0]}, ${after[1]})` : sql``;
      return all<SurveyRow>(db, sql`SELECT * FROM surveys WHERE store_id = ${storeId} ${keyset} ORDER BY created_ms ${dir}, survey_id ${dir} LIMIT ${limit + 1}`);
    },
    /** Insert a response and its full-text row (call inside a transaction). `searchText`: its text answers. */
    async insertResponse(row: ResponseInsert, searchText: string): Promise<void> {
      const r = row;
      const seq = (await one<{ response_seq: number }>(
        db,
        sql`INSERT INTO survey_responses (survey_response_id, store_id, survey_id, channel_survey_id, answered_questions_json,
          customer_id, customer_email, email_marketing_opt_in, is_archived, remote_order_id, reward_type, reward_description, reward_value, nps_score, nps_category,
          created_ms, idempotency_key, request_hash)
        VALUES (${r.survey_response_id}, ${r.store_id}, ${r.survey_id}, ${r.channel_survey_id}, ${r.answered_questions_json},
          ${r.customer_id}, ${r.customer_email}, ${r.email_marketing_opt_in}, ${r.is_archived}, ${r.remote_order_id}, ${r.reward_type}, ${r.reward_description}, ${r.reward_value},
          ${r.nps_score}, ${r.nps_category}, ${r.created_ms}, ${r.idempotency_key}, ${r.request_hash})
        RETURNING response_seq`,
      ))!.response_seq;
      if (!searchText) return;
      await run(
        db,
        pg
          ? sql`INSERT INTO survey_responses_fts (response_seq, document) VALUES (${seq}, to_tsvector('chorus_simple', chorus_search_text(CAST(${searchText} AS text))))`
          : sql`INSERT INTO survey_responses_fts (rowid, body) VALUES (${seq}, ${searchText})`,
      );
    },
    findByIdempotencyKey(storeId: string, channelSurveyId: string, key: string): Promise<ResponseRow | undefined> {
      return one<ResponseRow>(db, sql`${RESPONSE_SELECT} AND r.store_id = ${storeId} AND r.channel_survey_id = ${channelSurveyId} AND r.idempotency_key = ${key}`);
    },
    getResponse(storeId: string, surveyResponseId: string): Promise<ResponseRow | undefined> {
      return one<ResponseRow>(db, sql`${RESPONSE_SELECT} AND r.store_id = ${storeId} AND r.survey_response_id = ${surveyResponseId}`);
    },
    /** Set is_archived on the store's responses among `ids`. @returns how many changed. */
    async setArchived(storeId: string, ids: string[], archived: boolean): Promise<number> {
      const flag = archived ? 1 : 0;
      const list = JSON.stringify(ids);
      return (
        await run(
          db,
          sql`UPDATE survey_responses SET is_archived = ${flag} WHERE store_id = ${storeId}
        AND survey_response_id IN (SELECT value FROM ${pg ? sql`jsonb_array_elements_text(CAST(${list} AS jsonb))` : sql`json_each(${list})`}) AND is_archived <> ${flag}`,
        )
      ).changes;
    },
    /**
     * One page (limit + 1 rows) of the store's responses matching `filter`, in `order`, keyset after
     * `[created_ms, survey_response_id]`. With `filter.surveyId` alone this is the enterprise listing
     * (a range scan of survey_responses_keyset).
     */
    async listResponses(storeId: string, filter: ResponseFilter, order: SurveyResponseOrder, limit: number, after?: [number, string]): Promise<ResponseRow[]> {
      const where = filterWhere(storeId, filter, pg);
      if (!where) return [];
      const asc = order === "date asc";
      const dir = sql.raw(asc ? "ASC" : "DESC");
      const keyset = after ? sql`AND (r.created_ms, r.survey_response_id) ${sql.raw(asc ? ">" : "<")} (${after[0]}, ${after[1]})` : sql``;
      return all<ResponseRow>(db, sql`${RESPONSE_SELECT} AND ${where} ${keyset} ORDER BY r.created_ms ${dir}, r.survey_response_id ${dir} LIMIT ${limit + 1}`);
    },
    /** Number of the store's responses matching `filter` (same rules as `listResponses`). */
    async countMatching(storeId: string, filter: ResponseFilter): Promise<number> {
      const where = filterWhere(storeId, filter, pg);
      if (!where) return 0;
      return Number(await value<number>(db, sql`SELECT count(*) AS n ${RESPONSE_CHANNEL_FROM} AND ${where}`));
    },
    /**
     * NPS answers of the store's responses matching `filter`, counted per category and per week
     * (weeks start on Monday 00:00 UTC; `week_ms` is that instant in ms). Responses without an NPS
     * answer are not counted. Rows only for weeks with at least one NPS answer, oldest first.
     */
    async npsByWeek(storeId: string, filter: ResponseFilter): Promise<NpsWeekRow[]> {
      const where = filterWhere(storeId, filter, pg);
      if (!where) return [];
      // 1970-01-05 (epoch + 4 days = 345,600,000 ms) was a Monday; a week is 604,800,000 ms.
      return all<NpsWeekRow>(
        db,
        sql`SELECT ((r.created_ms - 345600000) / 604800000) * 604800000 + 345600000 AS week_ms,
          sum(CASE WHEN r.nps_category = 'promoter' THEN 1 ELSE 0 END) AS promoters, sum(CASE WHEN r.nps_category = 'passive' THEN 1 ELSE 0 END) AS passives,
          sum(CASE WHEN r.nps_category = 'detractor' THEN 1 ELSE 0 END) AS detractors
        ${RESPONSE_CHANNEL_FROM} AND ${where} AND r.nps_category IS NOT NULL
        GROUP BY week_ms ORDER BY week_ms`,
      );
    },
    /** Number of the store's responses to a survey. */
    async countResponses(storeId: string, surveyId: string): Promise<number> {
      return Number(await value<number>(db, sql`SELECT count(*) AS n FROM survey_responses WHERE store_id = ${storeId} AND survey_id = ${surveyId}`));
    },
  };
}
export type SurveysRepo = ReturnType<typeof surveysRepo>;
