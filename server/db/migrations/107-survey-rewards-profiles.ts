/**
 * Migration 107 (issue #36 items 4-5; docs/surveys.md "Rewards" and "Customer profiles"):
 *
 * - `survey_rewards`: the coupon of one survey response, created on the shop platform (server/surveys/survey-rewards.ts).
 *   One row per response (primary key: the response, so a reward is created once per response), written `pending`
 *   with its code in the transaction that stores the response, then `created` (the code is copied onto the response's
 *   reward) or `failed`. A pending row is retried by the persisted job at `next_attempt_ms`; `lease_until_ms` is the
 *   claim of the node trying it. `email_key` (lower-cased) is unique per channel survey: one reward per e-mail address.
 * - `customer_profile_answers`: a customer's profile field (docs/surveys.md "Customer profiles"), one row per
 *   (store, e-mail, profile question ID), replaced by a newer answer, with the response it came from.
 * Both rows go with their survey response (cascade), so erasing a shopper's responses erases them too.
 */
import { sql } from "kysely";
import { executor, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";
import type { Migration } from "./migration.ts";

async function up(db: Db): Promise<void> {
  const schema = executor(db).schema;
  const { integer, text, real } = columnTypes(db);
  await schema
    .createTable("survey_rewards")
    .addColumn("survey_response_id", text, (c) => c.primaryKey().references("survey_responses.survey_response_id").onDelete("cascade"))
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("channel_survey_id", text, (c) => c.notNull())
    .addColumn("email_key", text)
    .addColumn("code", text, (c) => c.notNull().unique())
    .addColumn("discount_type", text, (c) => c.notNull().check(sql`discount_type IN ('fixed-amount-coupon', 'percentage-coupon', 'free-shipping')`))
    .addColumn("discount_value", real, (c) => c.notNull())
    .addColumn("description", text, (c) => c.notNull())
    .addColumn("state", text, (c) => c.notNull().check(sql`state IN ('pending', 'created', 'failed')`))
    .addColumn("platform", text)
    .addColumn("platform_discount_id", text)
    .addColumn("attempts", integer, (c) => c.notNull().defaultTo(sql`0`))
    .addColumn("next_attempt_ms", integer, (c) => c.notNull())
    .addColumn("lease_until_ms", integer)
    .addColumn("error", text)
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addColumn("updated_ms", integer, (c) => c.notNull())
    .execute();
  await schema
    .createIndex("survey_rewards_email")
    .unique()
    .on("survey_rewards")
    .columns(["store_id", "channel_survey_id", "email_key"])
    .where(sql<boolean>`email_key IS NOT NULL`)
    .execute();
  await schema
    .createIndex("survey_rewards_due")
    .on("survey_rewards")
    .columns(["next_attempt_ms"])
    .where(sql<boolean>`state = 'pending'`)
    .execute();
  await schema
    .createTable("customer_profile_answers")
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("email_key", text, (c) => c.notNull())
    .addColumn("profile_question_id", text, (c) => c.notNull())
    .addColumn("question_text", text, (c) => c.notNull())
    .addColumn("answer_json", text, (c) => c.notNull())
    .addColumn("survey_response_id", text, (c) => c.notNull().references("survey_responses.survey_response_id").onDelete("cascade"))
    .addColumn("updated_ms", integer, (c) => c.notNull())
    .addPrimaryKeyConstraint("customer_profile_answers_pk", ["store_id", "email_key", "profile_question_id"])
    .execute();
  await schema.createIndex("customer_profile_answers_response").on("customer_profile_answers").columns(["survey_response_id"]).execute();
}

/** The migration (appended to MIGRATIONS, server/db/migrate.ts). */
export const surveyRewardsProfiles: Migration = { version: 107, name: "107-survey-rewards-profiles", up };
