/**
 * Surveys data module (SQL only): survey definitions, channel surveys, questions and survey responses.
 * Prepared statements only; the store ID is in every WHERE (docs/api.md, Endpoints and scopes). Listings are keyset
 * scans over (created_ms, survey_response_id) / (created_ms, survey_id): never OFFSET.
 */
import { dialect, type Db } from "../db/database.ts";
import { tsqueryOf } from "../db/text-search.ts";
import type { NpsCategory, ProfileAnswerType, QuestionType, SurveyChannel, SurveyResponseOrder } from "../contract/surveys.ts";

export type SurveyRow = { survey_id: string; store_id: string; name: string; created_ms: number };
export type QuestionRow = {
  question_id: string; survey_id: string; store_id: string; position: number; text: string; type: QuestionType;
  options_json: string | null; allow_custom_answer: number; custom_answer_option_text: string | null;
  profile_question_id: string | null; profile_answer_type: ProfileAnswerType | null;
};
export type ChannelSurveyRow = {
  channel_survey_id: string; survey_id: string; store_id: string; channel: SurveyChannel; description: string | null;
  reward_type: "coupon" | null; reward_description: string | null; reward_value: string | null;
};
export type ResponseInsert = {
  survey_response_id: string; store_id: string; survey_id: string; channel_survey_id: string; answered_questions_json: string;
  customer_id: string | null; customer_email: string | null; email_marketing_opt_in: number | null; is_archived: number;
  remote_order_id: string | null; reward_type: string | null; reward_description: string | null; reward_value: string | null;
  nps_score: number | null; nps_category: NpsCategory | null; created_ms: number; idempotency_key: string | null; request_hash: string | null;
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
const RESPONSE_SELECT = `SELECT r.*, s.name AS survey_name, c.channel, c.description AS channel_survey_description
  FROM survey_responses r CROSS JOIN surveys s CROSS JOIN channel_surveys c
  WHERE s.survey_id = r.survey_id AND s.store_id = r.store_id AND c.channel_survey_id = r.channel_survey_id AND c.store_id = r.store_id`;
/** survey_responses `r` joined with its channel survey `c` (statements append their terms with AND). */
const RESPONSE_CHANNEL_FROM = `FROM survey_responses r CROSS JOIN channel_surveys c
  WHERE c.channel_survey_id = r.channel_survey_id AND c.store_id = r.store_id`;

/** Turn free text into an FTS5 query: every word quoted (no operator injection), prefix-matched, ANDed. */
export function ftsQuery(text: string): string | null {
  const words = text.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length ? words.slice(0, 20).map((w) => `"${w}"*`).join(" ") : null;
}

/** Weekly NPS counts of `npsByWeek`: `week_ms` = Monday 00:00 UTC of the week, in ms. */
export type NpsWeekRow = { week_ms: number; promoters: number; passives: number; detractors: number };

/**
 * WHERE terms (over `r` = survey_responses, `c` = channel_surveys) and their arguments for `filter`,
 * store ID first; null when the search has no words (matches nothing). `postgres`: search survey_responses_fts
 * as PostgreSQL 003-search.sql builds it (tsvector, chorus_simple).
 */
function filterWhere(storeId: string, filter: ResponseFilter, postgres = false): { where: string[]; args: unknown[] } | null {
  const where: string[] = ["r.store_id = ?"];
  const args: unknown[] = [storeId];
  if (filter.surveyId !== undefined) { where.push("r.survey_id = ?"); args.push(filter.surveyId); }
  if (filter.channel !== undefined) { where.push("c.channel = ?"); args.push(filter.channel); }
  if (filter.channelSurveyId !== undefined) { where.push("r.channel_survey_id = ?"); args.push(filter.channelSurveyId); }
  if (filter.fromMs !== undefined) { where.push("r.created_ms >= ?"); args.push(filter.fromMs); }
  if (filter.toMs !== undefined) { where.push("r.created_ms < ?"); args.push(filter.toMs); }
  if (filter.npsCategory !== undefined) { where.push("r.nps_category = ?"); args.push(filter.npsCategory); }
  if (filter.archived !== undefined) { where.push("r.is_archived = ?"); args.push(filter.archived ? 1 : 0); }
  if (filter.search !== undefined) {
    const match = ftsQuery(filter.search);
    if (!match) return null;
    if (postgres) {
      where.push("r.response_seq IN (SELECT response_seq FROM survey_responses_fts WHERE document @@ to_tsquery('chorus_simple', ?))");
      args.push(tsqueryOf(match));
    } else {
      where.push("r.response_seq IN (SELECT rowid FROM survey_responses_fts WHERE survey_responses_fts MATCH ?)");
      args.push(match);
    }
  }
  return { where, args };
}

/** Create the surveys data module over `db`. */
export function surveysRepo(db: Db) {
  // PostgreSQL: no rowid (channel surveys in the order of the row_seq identity of PostgreSQL migration 007), no json_each.
  const pg = dialect(db) === "postgres";
  const insertSurvey = db.prepare("INSERT INTO surveys (survey_id, store_id, name, created_ms) VALUES (@survey_id, @store_id, @name, @created_ms)");
  const insertQuestion = db.prepare(
    `INSERT INTO survey_questions (question_id, survey_id, store_id, position, text, type, options_json, allow_custom_answer, custom_answer_option_text, profile_question_id, profile_answer_type)
     VALUES (@question_id, @survey_id, @store_id, @position, @text, @type, @options_json, @allow_custom_answer, @custom_answer_option_text, @profile_question_id, @profile_answer_type)`,
  );
  const insertChannel = db.prepare(
    `INSERT INTO channel_surveys (channel_survey_id, survey_id, store_id, channel, description, reward_type, reward_description, reward_value)
     VALUES (@channel_survey_id, @survey_id, @store_id, @channel, @description, @reward_type, @reward_description, @reward_value)`,
  );
  const getSurvey = db.prepare<[string, string], SurveyRow>("SELECT * FROM surveys WHERE store_id = ? AND survey_id = ?");
  const questionsOf = db.prepare<[string, string], QuestionRow>("SELECT * FROM survey_questions WHERE store_id = ? AND survey_id = ? ORDER BY position");
  const channelsOf = db.prepare<[string, string], ChannelSurveyRow>(`SELECT * FROM channel_surveys WHERE store_id = ? AND survey_id = ? ORDER BY ${pg ? "row_seq" : "rowid"}`);
  const getChannel = db.prepare<[string, string], ChannelSurveyRow>("SELECT * FROM channel_surveys WHERE store_id = ? AND channel_survey_id = ?");
  const insertResponse = db.prepare<[ResponseInsert], { response_seq: number }>(
    `INSERT INTO survey_responses (survey_response_id, store_id, survey_id, channel_survey_id, answered_questions_json, customer_id, customer_email,
       email_marketing_opt_in, is_archived, remote_order_id, reward_type, reward_description, reward_value, nps_score, nps_category, created_ms, idempotency_key, request_hash)
     VALUES (@survey_response_id, @store_id, @survey_id, @channel_survey_id, @answered_questions_json, @customer_id, @customer_email,
       @email_marketing_opt_in, @is_archived, @remote_order_id, @reward_type, @reward_description, @reward_value, @nps_score, @nps_category, @created_ms, @idempotency_key, @request_hash)
     RETURNING response_seq`,
  );
  const insertFts = db.prepare(pg
    ? "INSERT INTO survey_responses_fts (response_seq, document) VALUES (?, to_tsvector('chorus_simple', chorus_search_text(?)))"
    : "INSERT INTO survey_responses_fts (rowid, body) VALUES (?, ?)");
  const byIdempotency = db.prepare<[string, string, string], ResponseRow>(
    `${RESPONSE_SELECT} AND r.store_id = ? AND r.channel_survey_id = ? AND r.idempotency_key = ?`,
  );
  const getResponse = db.prepare<[string, string], ResponseRow>(`${RESPONSE_SELECT} AND r.store_id = ? AND r.survey_response_id = ?`);
  const setArchived = db.prepare(
    `UPDATE survey_responses SET is_archived = ? WHERE store_id = ?
       AND survey_response_id IN (SELECT value FROM ${pg ? "jsonb_array_elements_text(CAST(? AS jsonb))" : "json_each(?)"}) AND is_archived <> ?`,
  );

  const listSurveyStmts = {
    "date desc": [
      db.prepare<[string, number], SurveyRow>("SELECT * FROM surveys WHERE store_id = ? ORDER BY created_ms DESC, survey_id DESC LIMIT ?"),
      db.prepare<[string, number, string, number], SurveyRow>("SELECT * FROM surveys WHERE store_id = ? AND (created_ms, survey_id) < (?, ?) ORDER BY created_ms DESC, survey_id DESC LIMIT ?"),
    ],
    "date asc": [
      db.prepare<[string, number], SurveyRow>("SELECT * FROM surveys WHERE store_id = ? ORDER BY created_ms ASC, survey_id ASC LIMIT ?"),
      db.prepare<[string, number, string, number], SurveyRow>("SELECT * FROM surveys WHERE store_id = ? AND (created_ms, survey_id) > (?, ?) ORDER BY created_ms ASC, survey_id ASC LIMIT ?"),
    ],
  } as const;

  const filteredCache = new Map<string, ReturnType<typeof db.prepare<unknown[], ResponseRow>>>();
  const otherCache = new Map<string, ReturnType<typeof db.prepare<unknown[], { n: number }>>>();
  /** A prepared statement per distinct filter shape (a handful), reused. */
  const cached = (sql: string) => {
    let stmt = otherCache.get(sql);
    if (!stmt) {
      stmt = db.prepare<unknown[], { n: number }>(sql);
      otherCache.set(sql, stmt);
    }
    return stmt;
  };

  return {
    /** Insert a survey with its questions and channel surveys (call inside a transaction). */
    insertSurvey(survey: SurveyRow, questions: QuestionRow[], channels: ChannelSurveyRow[]): void {
      insertSurvey.run(survey);
      for (const q of questions) insertQuestion.run(q);
      for (const c of channels) insertChannel.run(c);
    },
    getSurvey(storeId: string, surveyId: string): SurveyRow | undefined {
      return getSurvey.get(storeId, surveyId);
    },
    questionsOf(storeId: string, surveyId: string): QuestionRow[] {
      return questionsOf.all(storeId, surveyId);
    },
    channelSurveysOf(storeId: string, surveyId: string): ChannelSurveyRow[] {
      return channelsOf.all(storeId, surveyId);
    },
    getChannelSurvey(storeId: string, channelSurveyId: string): ChannelSurveyRow | undefined {
      return getChannel.get(storeId, channelSurveyId);
    },
    /** Mark (or unmark) a survey as sample data: its responses were generated, not given by shoppers. */
    setSampleData(storeId: string, surveyId: string, sample: boolean): boolean {
      return db.prepare("UPDATE surveys SET sample_data = ? WHERE store_id = ? AND survey_id = ?").run(sample ? 1 : 0, storeId, surveyId).changes === 1;
    },
    /** IDs of the store's surveys marked as sample data. */
    sampleDataSurveyIds(storeId: string): string[] {
      return db.prepare<[string], { survey_id: string }>("SELECT survey_id FROM surveys WHERE store_id = ? AND sample_data = 1").all(storeId).map((r) => r.survey_id);
    },
    /** One page (limit + 1 rows) of the store's surveys, keyset after `[created_ms, survey_id]`. */
    listSurveys(storeId: string, order: SurveyResponseOrder, limit: number, after?: [number, string]): SurveyRow[] {
      const [first, next] = listSurveyStmts[order];
      return after ? next.all(storeId, after[0], after[1], limit + 1) : first.all(storeId, limit + 1);
    },
    /** Insert a response and its full-text row (call inside a transaction). `searchText`: its text answers. */
    insertResponse(row: ResponseInsert, searchText: string): void {
      const seq = insertResponse.get(row)!.response_seq;
      if (searchText) insertFts.run(seq, searchText);
    },
    findByIdempotencyKey(storeId: string, channelSurveyId: string, key: string): ResponseRow | undefined {
      return byIdempotency.get(storeId, channelSurveyId, key);
    },
    getResponse(storeId: string, surveyResponseId: string): ResponseRow | undefined {
      return getResponse.get(storeId, surveyResponseId);
    },
    /** Set is_archived on the store's responses among `ids`. @returns how many changed. */
    setArchived(storeId: string, ids: string[], archived: boolean): number {
      const flag = archived ? 1 : 0;
      return setArchived.run(flag, storeId, JSON.stringify(ids), flag).changes;
    },
    /**
     * One page (limit + 1 rows) of the store's responses matching `filter`, in `order`, keyset after
     * `[created_ms, survey_response_id]`. With `filter.surveyId` alone this is the enterprise listing
     * (a range scan of survey_responses_keyset).
     */
    listResponses(storeId: string, filter: ResponseFilter, order: SurveyResponseOrder, limit: number, after?: [number, string]): ResponseRow[] {
      const w = filterWhere(storeId, filter, pg);
      if (!w) return [];
      const { where, args } = w;
      const dir = order === "date asc" ? "ASC" : "DESC";
      if (after) { where.push(`(r.created_ms, r.survey_response_id) ${dir === "ASC" ? ">" : "<"} (?, ?)`); args.push(after[0], after[1]); }
      const sql = `${RESPONSE_SELECT} AND ${where.join(" AND ")} ORDER BY r.created_ms ${dir}, r.survey_response_id ${dir} LIMIT ?`;
      let stmt = filteredCache.get(sql);
      if (!stmt) {
        stmt = db.prepare<unknown[], ResponseRow>(sql);
        filteredCache.set(sql, stmt);
      }
      return stmt.all(...args, limit + 1);
    },
    /** Number of the store's responses matching `filter` (same rules as `listResponses`). */
    countMatching(storeId: string, filter: ResponseFilter): number {
      const w = filterWhere(storeId, filter, pg);
      if (!w) return 0;
      return cached(`SELECT count(*) AS n ${RESPONSE_CHANNEL_FROM} AND ${w.where.join(" AND ")}`).get(...w.args)!.n;
    },
    /**
     * NPS answers of the store's responses matching `filter`, counted per category and per week
     * (weeks start on Monday 00:00 UTC; `week_ms` is that instant in ms). Responses without an NPS
     * answer are not counted. Rows only for weeks with at least one NPS answer, oldest first.
     */
    npsByWeek(storeId: string, filter: ResponseFilter): NpsWeekRow[] {
      const w = filterWhere(storeId, filter, pg);
      if (!w) return [];
      // 1970-01-05 (epoch + 4 days = 345,600,000 ms) was a Monday; a week is 604,800,000 ms.
      return cached(`SELECT ((r.created_ms - 345600000) / 604800000) * 604800000 + 345600000 AS week_ms,
          sum(CASE WHEN r.nps_category = 'promoter' THEN 1 ELSE 0 END) AS promoters, sum(CASE WHEN r.nps_category = 'passive' THEN 1 ELSE 0 END) AS passives,
          sum(CASE WHEN r.nps_category = 'detractor' THEN 1 ELSE 0 END) AS detractors
        ${RESPONSE_CHANNEL_FROM} AND ${w.where.join(" AND ")} AND r.nps_category IS NOT NULL
        GROUP BY week_ms ORDER BY week_ms`).all(...w.args) as unknown as NpsWeekRow[];
    },
    /** Number of the store's responses to a survey. */
    countResponses(storeId: string, surveyId: string): number {
      return db.prepare("SELECT count(*) FROM survey_responses WHERE store_id = ? AND survey_id = ?").pluck().get(storeId, surveyId) as number;
    },
  };
}
export type SurveysRepo = ReturnType<typeof surveysRepo>;
