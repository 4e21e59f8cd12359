/**
 * SQL of the admin survey builder (docs/surveys.md "The survey builder"): a survey's name, its questions (insert,
 * update, delete, positions) and its channel surveys, plus the per-option counts of the reports. Bound parameters
 * only, the store ID in every WHERE. Writes are called inside `transaction(db, …)` by the builder service.
 */
import { all, dialect, forUpdate, one, run, sql, type Db } from "../db/database.ts";
import { filterWhere, type ChannelSurveyRow, type QuestionRow, type ResponseFilter, type SurveyRow } from "./surveys.repo.ts";

/** One counted choice of `optionCounts`: how many responses chose `option` on question `question_id`. */
export type OptionCountRow = { question_id: string; option: string; n: number };

/** Create the survey builder's data module over `db`. */
export function surveyBuilderRepo(db: Db) {
  const pg = dialect(db) === "postgres";
  return {
    /**
     * The store's survey, its row locked until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite's write
     * transaction already holds the write lock): every builder write locks its survey first, so two admins
     * editing one survey on two nodes take turns and positions are computed from what the other committed.
     */
    lockSurvey(storeId: string, surveyId: string): Promise<SurveyRow | undefined> {
      return one<SurveyRow>(db, sql`SELECT * FROM surveys WHERE store_id = ${storeId} AND survey_id = ${surveyId}${forUpdate(db)}`);
    },
    /** Rename a survey. @returns whether it is the store's. */
    async renameSurvey(storeId: string, surveyId: string, name: string): Promise<boolean> {
      return (await run(db, sql`UPDATE surveys SET name = ${name} WHERE store_id = ${storeId} AND survey_id = ${surveyId}`)).changes === 1;
    },
    /** The store's question by ID (any survey of the store). */
    getQuestion(storeId: string, questionId: string): Promise<QuestionRow | undefined> {
      return one<QuestionRow>(db, sql`SELECT * FROM survey_questions WHERE store_id = ${storeId} AND question_id = ${questionId}`);
    },
    async insertQuestion(q: QuestionRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO survey_questions (question_id, survey_id, store_id, position, text, type, options_json, allow_custom_answer, custom_answer_option_text, profile_question_id, profile_answer_type, required)
        VALUES (${q.question_id}, ${q.survey_id}, ${q.store_id}, ${q.position}, ${q.text}, ${q.type}, ${q.options_json}, ${q.allow_custom_answer}, ${q.custom_answer_option_text},
          ${q.profile_question_id}, ${q.profile_answer_type}, ${q.required})`,
      );
    },
    /** Write a question's definition (everything but its survey and position). @returns whether it is the store's. */
    async updateQuestion(q: QuestionRow): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE survey_questions SET text = ${q.text}, type = ${q.type}, options_json = ${q.options_json}, allow_custom_answer = ${q.allow_custom_answer},
          custom_answer_option_text = ${q.custom_answer_option_text}, profile_question_id = ${q.profile_question_id}, profile_answer_type = ${q.profile_answer_type}, required = ${q.required}
        WHERE store_id = ${q.store_id} AND question_id = ${q.question_id}`,
          )
        ).changes === 1
      );
    },
    async deleteQuestion(storeId: string, questionId: string): Promise<boolean> {
      return (await run(db, sql`DELETE FROM survey_questions WHERE store_id = ${storeId} AND question_id = ${questionId}`)).changes === 1;
    },
    /** Number the survey's questions 0, 1, 2… in the order of `questionIds`. */
    async setPositions(storeId: string, surveyId: string, questionIds: string[]): Promise<void> {
      for (const [position, id] of questionIds.entries()) {
        await run(db, sql`UPDATE survey_questions SET position = ${position} WHERE store_id = ${storeId} AND survey_id = ${surveyId} AND question_id = ${id}`);
      }
    },
    async insertChannelSurvey(c: ChannelSurveyRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO channel_surveys (channel_survey_id, survey_id, store_id, channel, description, reward_type, reward_description, reward_value, enabled)
        VALUES (${c.channel_survey_id}, ${c.survey_id}, ${c.store_id}, ${c.channel}, ${c.description}, ${c.reward_type}, ${c.reward_description}, ${c.reward_value}, ${c.enabled})`,
      );
    },
    /** Write a channel survey's channel, description, reward and state. @returns whether it is the store's. */
    async updateChannelSurvey(c: ChannelSurveyRow): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE channel_surveys SET channel = ${c.channel}, description = ${c.description}, reward_type = ${c.reward_type},
          reward_description = ${c.reward_description}, reward_value = ${c.reward_value}, enabled = ${c.enabled}
        WHERE store_id = ${c.store_id} AND channel_survey_id = ${c.channel_survey_id}`,
          )
        ).changes === 1
      );
    },
    /** Turn every channel survey of a survey on or off. @returns how many changed. */
    async setSurveyChannelsEnabled(storeId: string, surveyId: string, enabled: boolean): Promise<number> {
      const flag = enabled ? 1 : 0;
      return (await run(db, sql`UPDATE channel_surveys SET enabled = ${flag} WHERE store_id = ${storeId} AND survey_id = ${surveyId} AND enabled <> ${flag}`)).changes;
    },
    /**
     * How many of the store's responses matching `filter` chose each option of each select question (single- and
     * multi-select; the custom option counts under its text) and each value of single-value / multi-value profile
     * questions, read from the answers as stored. Options nobody chose are absent.
     */
    async optionCounts(storeId: string, filter: ResponseFilter): Promise<OptionCountRow[]> {
      const where = filterWhere(storeId, filter, pg);
      if (!where) return [];
      const rows = pg
        ? await all<OptionCountRow>(
            db,
            sql`SELECT q.item ->> 'id' AS question_id, o.option, count(*) AS n
            FROM survey_responses r CROSS JOIN channel_surveys c
            CROSS JOIN LATERAL jsonb_array_elements(CAST(r.answered_questions_json AS jsonb)) AS q(item)
            CROSS JOIN LATERAL (SELECT CASE WHEN q.item ->> 'type' = 'profile' THEN q.item -> 'answer' -> 'value' ELSE q.item -> 'answer' END AS chosen) AS a
            CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(a.chosen) = 'array' THEN a.chosen ELSE jsonb_build_array(a.chosen) END) AS o(option)
            WHERE c.channel_survey_id = r.channel_survey_id AND c.store_id = r.store_id AND ${where}
              AND (q.item ->> 'type' IN ('single-select', 'multi-select') OR q.item -> 'answer' ->> 'type' IN ('single-value', 'multi-value'))
            GROUP BY 1, 2`,
          )
        : await all<OptionCountRow>(
            db,
            sql`SELECT json_extract(q.value, '$.id') AS question_id, o.value AS option, count(*) AS n
            FROM survey_responses r CROSS JOIN channel_surveys c CROSS JOIN json_each(r.answered_questions_json) q
            CROSS JOIN json_each(q.value, CASE WHEN json_extract(q.value, '$.type') = 'profile' THEN '$.answer.value' ELSE '$.answer' END) o
            WHERE c.channel_survey_id = r.channel_survey_id AND c.store_id = r.store_id AND ${where}
              AND (json_extract(q.value, '$.type') IN ('single-select', 'multi-select') OR json_extract(q.value, '$.answer.type') IN ('single-value', 'multi-value'))
            GROUP BY 1, 2`,
          );
      return rows.map((r) => ({ ...r, n: Number(r.n) }));
    },
  };
}
export type SurveyBuilderRepo = ReturnType<typeof surveyBuilderRepo>;
