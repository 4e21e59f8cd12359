/**
 * Every word the widgets show shoppers, in English: the defaults a merchant's texts (per language, set in
 * the admin, `widget_texts`) replace, keyed by stable IDs `<widget>.<name>`. One table, split in one group
 * per widget so that each widget's module carries only its own words (widgets/internal/strings.ts).
 *
 * `{name}` marks a value the widget fills in (a count, a name, a date); a merchant's text may use the
 * same placeholders as the default and no others (server/widget-settings/widget-settings.service.ts).
 * Pairs ending `.one` / `.other` are the singular and plural forms of one phrase ("1 review", "2 reviews").
 *
 * Each group lives in ./widget-strings/<widget>.ts, which the widget imports directly. Pure data: the server (validation, admin page) and the widgets (rendering) share it.
 */

import { COMMON_TEXTS } from "./widget-strings/common.ts";
import { STAR_RATING_TEXTS } from "./widget-strings/star-rating.ts";
import { REVIEWS_TEXTS } from "./widget-strings/reviews.ts";
import { REVIEW_FORM_TEXTS } from "./widget-strings/review-form.ts";
import { MEDIA_TEXTS } from "./widget-strings/review-media.ts";
import { QUESTIONS_TEXTS } from "./widget-strings/questions.ts";
import { SUMMARY_TEXTS } from "./widget-strings/reviews-summary.ts";
import { KEYWORDS_TEXTS } from "./widget-strings/reviews-keywords.ts";
import { LOYALTY_TEXTS } from "./widget-strings/loyalty.ts";
import { CAROUSEL_TEXTS } from "./widget-strings/reviews-carousel.ts";
import { SURVEY_TEXTS } from "./widget-strings/survey.ts";

export { COMMON_TEXTS, STAR_RATING_TEXTS, REVIEWS_TEXTS, REVIEW_FORM_TEXTS, MEDIA_TEXTS, QUESTIONS_TEXTS, SUMMARY_TEXTS, KEYWORDS_TEXTS, LOYALTY_TEXTS, CAROUSEL_TEXTS, SURVEY_TEXTS };

/** Every default text by ID. */
export const DEFAULT_TEXTS = {
  ...COMMON_TEXTS,
  ...STAR_RATING_TEXTS,
  ...REVIEWS_TEXTS,
  ...REVIEW_FORM_TEXTS,
  ...MEDIA_TEXTS,
  ...QUESTIONS_TEXTS,
  ...SUMMARY_TEXTS,
  ...KEYWORDS_TEXTS,
  ...LOYALTY_TEXTS,
  ...CAROUSEL_TEXTS,
  ...SURVEY_TEXTS,
} as const;

/** A text ID (`reviews.writeReview`, ...). */
export type TextId = keyof typeof DEFAULT_TEXTS;
export const TEXT_IDS = Object.keys(DEFAULT_TEXTS) as TextId[];

/** The groups in the order the admin shows them, with the element each belongs to. */
export const TEXT_GROUPS: readonly { title: string; texts: Record<string, string> }[] = [
  { title: "Star rating badge (<chorus-star-rating>)", texts: STAR_RATING_TEXTS },
  { title: "Reviews (<chorus-reviews>)", texts: REVIEWS_TEXTS },
  { title: "Review form (<chorus-review-form>)", texts: REVIEW_FORM_TEXTS },
  { title: "Photos and videos (<chorus-review-media>)", texts: MEDIA_TEXTS },
  { title: "Reviews carousel (<chorus-reviews-carousel>)", texts: CAROUSEL_TEXTS },
  { title: "Questions (<chorus-questions>)", texts: QUESTIONS_TEXTS },
  { title: "AI summary (<chorus-reviews-summary>)", texts: SUMMARY_TEXTS },
  { title: "Review topics (<chorus-reviews-keywords>)", texts: KEYWORDS_TEXTS },
  { title: "Loyalty (<chorus-loyalty>)", texts: LOYALTY_TEXTS },
  { title: "Survey (<chorus-survey>)", texts: SURVEY_TEXTS },
  { title: "Shared by several widgets", texts: COMMON_TEXTS },
];

/** The English table of text group `group` (its IDs' part before the first dot; `common` for the shared texts), undefined for an unknown group. */
export const englishTextTable = (group: string): Record<string, string> | undefined => TEXT_GROUPS.find((g) => Object.keys(g.texts)[0]!.startsWith(`${group}.`))?.texts;

/** The `{placeholders}` a text uses, e.g. `["count"]`. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
