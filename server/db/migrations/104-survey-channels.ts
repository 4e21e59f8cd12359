/**
 * Migration 104: what shoppers answering a survey need (docs/surveys.md, Model).
 * - `survey_questions.required` (0/1, default 0): the question must be answered before the survey can be sent.
 * - `channel_surveys.enabled` (0/1, default 1): a disabled channel survey is not shown and takes no responses
 *   (its public read and its submission answer 404).
 */
import { sql } from "kysely";
import { executor, type Db } from "../query.ts";
import type { Migration } from "./migration.ts";

export const surveyChannels: Migration = {
  version: 104,
  name: "104-survey-channels",
  async up(db: Db) {
    const schema = executor(db).schema;
    await schema
      .alterTable("survey_questions")
      .addColumn("required", "integer", (c) =>
        c
          .notNull()
          .defaultTo(sql`0`)
          .check(sql`required IN (0, 1)`),
      )
      .execute();
    await schema
      .alterTable("channel_surveys")
      .addColumn("enabled", "integer", (c) =>
        c
          .notNull()
          .defaultTo(sql`1`)
          .check(sql`enabled IN (0, 1)`),
      )
      .execute();
  },
};
