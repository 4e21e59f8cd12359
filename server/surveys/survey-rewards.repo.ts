/**
 * SQL of survey rewards and customer profiles (migration 107; docs/surveys.md "Rewards", "Customer profiles"). Every
 * statement names the store, except the retry job's scan of due rewards across stores. Times are epoch ms.
 */
import { all, one, run, sql, type Db } from "../db/database.ts";

export type SurveyRewardState = "pending" | "created" | "failed";
export type SurveyRewardRow = {
  survey_response_id: string;
  store_id: string;
  channel_survey_id: string;
  email_key: string | null;
  code: string;
  discount_type: "fixed-amount-coupon" | "percentage-coupon" | "free-shipping";
  discount_value: number;
  description: string;
  state: SurveyRewardState;
  platform: string | null;
  platform_discount_id: string | null;
  attempts: number;
  next_attempt_ms: number;
  lease_until_ms: number | null;
  error: string | null;
  created_ms: number;
  updated_ms: number;
};
/** One profile field of a customer (`answer_json`: the profile answer `{ type, value }`). */
export type ProfileAnswerRow = {
  store_id: string;
  email_key: string;
  profile_question_id: string;
  question_text: string;
  answer_json: string;
  survey_response_id: string;
  updated_ms: number;
  survey_name?: string;
  channel?: string;
  response_created_ms?: number;
};

/** Create the survey rewards and profiles data module over `db`. */
export function surveyRewardsRepo(db: Db) {
  return {
    /**
     * Insert a pending reward claimed by the caller until `leaseUntilMs` (the response's transaction).
     * @returns false when the e-mail address already has a reward of this channel survey (unique index; nothing written).
     */
    async insertPending(
      r: Pick<SurveyRewardRow, "survey_response_id" | "store_id" | "channel_survey_id" | "email_key" | "code" | "discount_type" | "discount_value" | "description" | "created_ms">,
      leaseUntilMs: number,
    ): Promise<boolean> {
      const inserted = await one(
        db,
        sql`INSERT INTO survey_rewards (survey_response_id, store_id, channel_survey_id, email_key, code, discount_type, discount_value, description,
          state, attempts, next_attempt_ms, lease_until_ms, created_ms, updated_ms)
        VALUES (${r.survey_response_id}, ${r.store_id}, ${r.channel_survey_id}, ${r.email_key}, ${r.code}, ${r.discount_type}, ${r.discount_value}, ${r.description},
          'pending', 0, ${leaseUntilMs}, ${leaseUntilMs}, ${r.created_ms}, ${r.created_ms})
        ON CONFLICT DO NOTHING RETURNING survey_response_id`,
      );
      return inserted !== undefined;
    },
    get: (storeId: string, surveyResponseId: string) => one<SurveyRewardRow>(db, sql`SELECT * FROM survey_rewards WHERE store_id = ${storeId} AND survey_response_id = ${surveyResponseId}`),
    /** Pending rewards due at `nowMs` and not claimed by another node (oldest first). */
    due: (nowMs: number, limit: number) =>
      all<SurveyRewardRow>(
        db,
        sql`SELECT * FROM survey_rewards WHERE state = 'pending' AND next_attempt_ms <= ${nowMs}
        AND (lease_until_ms IS NULL OR lease_until_ms <= ${nowMs}) ORDER BY next_attempt_ms LIMIT ${limit}`,
      ),
    /** Claim a due pending reward until `leaseUntilMs` (conditional UPDATE). @returns whether this caller holds it. */
    async claim(storeId: string, surveyResponseId: string, nowMs: number, leaseUntilMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE survey_rewards SET lease_until_ms = ${leaseUntilMs}, attempts = attempts + 1, updated_ms = ${nowMs}
        WHERE store_id = ${storeId} AND survey_response_id = ${surveyResponseId} AND state = 'pending'
          AND (lease_until_ms IS NULL OR lease_until_ms <= ${nowMs})`,
          )
        ).changes === 1
      );
    },
    /** pending → created, and the code copied onto the response's reward (conditional UPDATE). @returns whether it changed here. */
    async markCreated(storeId: string, surveyResponseId: string, platform: string, discountId: string | null, nowMs: number): Promise<boolean> {
      const changed =
        (
          await run(
            db,
            sql`UPDATE survey_rewards SET state = 'created', platform = ${platform}, platform_discount_id = ${discountId}, lease_until_ms = NULL, error = NULL, updated_ms = ${nowMs}
        WHERE store_id = ${storeId} AND survey_response_id = ${surveyResponseId} AND state = 'pending'`,
          )
        ).changes === 1;
      if (changed) {
        await run(
          db,
          sql`UPDATE survey_responses SET reward_value = (SELECT code FROM survey_rewards WHERE survey_response_id = ${surveyResponseId})
          WHERE store_id = ${storeId} AND survey_response_id = ${surveyResponseId}`,
        );
      }
      return changed;
    },
    /** A failed attempt: try again at `nextAttemptMs`, or give up (`failed`) when it is null. */
    async attemptFailed(storeId: string, surveyResponseId: string, error: string, nextAttemptMs: number | null, nowMs: number): Promise<void> {
      await run(
        db,
        sql`UPDATE survey_rewards SET error = ${error}, lease_until_ms = NULL, updated_ms = ${nowMs},
          next_attempt_ms = ${nextAttemptMs ?? nowMs}, state = ${nextAttemptMs === null ? "failed" : "pending"}
        WHERE store_id = ${storeId} AND survey_response_id = ${surveyResponseId} AND state = 'pending'`,
      );
    },
    /** Take the reward off a response (its e-mail address already had one). */
    async dropResponseReward(storeId: string, surveyResponseId: string): Promise<void> {
      await run(db, sql`UPDATE survey_responses SET reward_type = NULL, reward_description = NULL, reward_value = NULL WHERE store_id = ${storeId} AND survey_response_id = ${surveyResponseId}`);
    },

    /** Write one profile field of a customer, replacing an older answer (never a newer one). */
    async upsertProfileAnswer(r: ProfileAnswerRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO customer_profile_answers (store_id, email_key, profile_question_id, question_text, answer_json, survey_response_id, updated_ms)
        VALUES (${r.store_id}, ${r.email_key}, ${r.profile_question_id}, ${r.question_text}, ${r.answer_json}, ${r.survey_response_id}, ${r.updated_ms})
        ON CONFLICT (store_id, email_key, profile_question_id) DO UPDATE SET question_text = excluded.question_text, answer_json = excluded.answer_json,
          survey_response_id = excluded.survey_response_id, updated_ms = excluded.updated_ms
        WHERE customer_profile_answers.updated_ms <= excluded.updated_ms`,
      );
    },
    /** A customer's profile fields with the response each came from (its survey's name, channel and date), by question text. */
    profileOf: (storeId: string, emailKey: string) =>
      all<ProfileAnswerRow>(
        db,
        sql`SELECT p.*, s.name AS survey_name, c.channel, r.created_ms AS response_created_ms
        FROM customer_profile_answers p JOIN survey_responses r ON r.survey_response_id = p.survey_response_id AND r.store_id = p.store_id
        JOIN surveys s ON s.survey_id = r.survey_id JOIN channel_surveys c ON c.channel_survey_id = r.channel_survey_id
        WHERE p.store_id = ${storeId} AND p.email_key = ${emailKey} ORDER BY p.question_text, p.profile_question_id`,
      ),
    /** The store's customers with a profile (e-mail keys, most recently answered first). */
    profileEmails: (storeId: string, limit: number) =>
      all<{ email_key: string; fields: number; updated_ms: number }>(
        db,
        sql`SELECT email_key, count(*) AS fields, max(updated_ms) AS updated_ms
        FROM customer_profile_answers WHERE store_id = ${storeId} GROUP BY email_key ORDER BY max(updated_ms) DESC, email_key LIMIT ${limit}`,
      ),
  };
}
export type SurveyRewardsRepo = ReturnType<typeof surveyRewardsRepo>;
