/**
 * The surveys contract's plain values (docs/surveys.md, Survey response fields; docs/surveys.md, Enterprise API): channel, question, profile-answer
 * and NPS category names, limits and orders, without zod. server/contract/surveys.ts builds its schemas from
 * these and re-exports them; admin UI code imports them from here so that zod and zod-to-openapi (which
 * surveys.ts extends as a side effect) stay out of the browser bundle.
 */

/** docs/surveys.md, Survey response fields: the four channels a channel survey is published on. */
export const SURVEY_CHANNELS = ["on-site", "post-checkout", "post-review", "shareable-link"] as const;
export type SurveyChannel = (typeof SURVEY_CHANNELS)[number];

/** docs/surveys.md, Survey response fields: the eight answered-question types. */
export const QUESTION_TYPES = ["text", "single-select", "multi-select", "five-point", "star", "nps", "profile", "email"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** docs/surveys.md, Survey response fields: the four profile answer variants. */
export const PROFILE_ANSWER_TYPES = ["date-components", "location", "multi-value", "single-value"] as const;
export type ProfileAnswerType = (typeof PROFILE_ANSWER_TYPES)[number];

export const NPS_CATEGORIES = ["promoter", "passive", "detractor"] as const;
export type NpsCategory = (typeof NPS_CATEGORIES)[number];

/** The NPS category of a 0–10 score: 9–10 promoter, 7–8 passive, 0–6 detractor. */
export function npsCategoryOf(score: number): NpsCategory {
  return score >= 9 ? "promoter" : score >= 7 ? "passive" : "detractor";
}

/** Longest accepted free-text answer (characters). */
export const MAX_TEXT_ANSWER = 5000;

/** docs/surveys.md, Enterprise API: enterprise list limit 1..100, default 25. */
export const ENTERPRISE_MAX_LIMIT = 100;
export const ENTERPRISE_DEFAULT_LIMIT = 25;
export const SURVEY_RESPONSE_ORDERS = ["date desc", "date asc"] as const;
export type SurveyResponseOrder = (typeof SURVEY_RESPONSE_ORDERS)[number];
