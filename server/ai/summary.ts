/**
 * The default, offline summary engine (docs/ai.md, Answers): an extractive, templated summary built only
 * from counted facts, so every sentence is traceable. An opening from the aggregate (average rating,
 * review count, share recommending), then the most-praised themes and the most common complaints with
 * their share of reviews. Each claim keeps the IDs of the reviews that support it.
 * Also builds the keyword topics (docs/ai.md, Answers) from the exact (keyword, review) counts.
 */
import type { KeywordTopic } from "../contract/storefront.ts";
import { uiLocaleFor } from "../contract/widget-locales.ts";
import type { KeywordCountRow, MentionRow, ScopeStats } from "./ai.repo.ts";
import { TOPICS } from "./keywords.ts";
import { SIZING_KEYWORDS, SUMMARY_TEXTS, TOPIC_KEYS, type SizingKeyword, type SummaryTexts, type TopicKey } from "./summary-texts.ts";

/**
 * One claim of a summary: its English sentence and the facts behind it (stored as the version's `claims_json`:
 * the structured data every language's sentences are rendered from, `renderSummary`).
 */
export type SummaryClaim = {
  kind: "aggregate" | "praise" | "complaint";
  text: string;
  /** `aggregate`: average rating (1 decimal), contributing reviews, share recommending in percent (null: nobody said). */
  average?: number;
  reviewCount?: number;
  recommendPercent?: number | null;
  /** The topic's English name (./keywords.ts `TOPICS`) and key (./summary-texts.ts `TOPIC_KEYS`). */
  topic?: string;
  topicKey?: TopicKey;
  keywords?: string[];
  /** Share of contributing reviews, in percent (rounded). */
  sharePercent?: number;
  /** Supporting reviews (for `aggregate`: every contributing review, not listed). */
  reviewIds: string[];
};
export type EmbeddedSummary = { body: string; claims: SummaryClaim[] };

/** Limits of the keyword topics answer. */
export const KEYWORDS_PER_TOPIC = 6;
export const MAX_TOPICS = 6;
/** A keyword is shown only when identified in at least this many reviews. */
export const MIN_KEYWORD_OCCURRENCES = 2;
const PRAISE_MIN_SHARE = 0.1;
const COMPLAINT_MIN_SHARE = 0.05;

/** Keyword topics from exact counts: topics by their most frequent keyword, keywords by occurrences. */
export function buildKeywordTopics(counts: KeywordCountRow[]): KeywordTopic[] {
  const byTopic = new Map<string, KeywordCountRow[]>();
  for (const c of counts) {
    if (c.occurrences < MIN_KEYWORD_OCCURRENCES) continue;
    byTopic.set(c.topic, [...(byTopic.get(c.topic) ?? []), c]);
  }
  return [...byTopic.entries()]
    .map(([topic, rows]) => ({ topic, rows: rows.sort((a, b) => b.occurrences - a.occurrences || a.keyword.localeCompare(b.keyword)) }))
    .sort((a, b) => b.rows[0].occurrences - a.rows[0].occurrences || a.topic.localeCompare(b.topic))
    .slice(0, MAX_TOPICS)
    .map(({ topic, rows }) => ({ topic, keywords: rows.slice(0, KEYWORDS_PER_TOPIC).map((r) => ({ name: r.keyword, occurrences: r.occurrences })) }));
}

const pct = (part: number, whole: number) => Math.round((part / whole) * 100);
const COMPLAINT_MIN_PERCENT = Math.round(COMPLAINT_MIN_SHARE * 100);

/** Topic key of a topic's English name (./keywords.ts `TOPICS`); undefined for a name the engine does not make. */
export function topicKeyOf(name: string): TopicKey | undefined {
  return TOPIC_KEYS.find((k) => TOPICS[k] === name);
}

/** The name of topic `name` (English, as stored) in the language of `tag`; a name the engine does not make stays as written. */
export function topicName(name: string, tag: string): string {
  const key = topicKeyOf(name);
  return key ? SUMMARY_TEXTS[uiLocaleFor(tag)].topics[key] : name;
}

/**
 * How keyword `keyword` (as stored, the `?keyword=` filter value) reads in the language of `tag`: a sizing keyword
 * Chorus generates ("runs small") in that language's words (./summary-texts.ts `sizing`); a shopper's own word as
 * written (docs/ai.md "Languages").
 */
export function keywordLabel(keyword: string, tag: string): string {
  return (SIZING_KEYWORDS as readonly string[]).includes(keyword) ? SUMMARY_TEXTS[uiLocaleFor(tag)].sizing[keyword as SizingKeyword] : keyword;
}

/**
 * The summary's sentences in the language of `tag` (any language tag; resolved to one of the 16 widget languages,
 * else English: server/contract/widget-locales.ts `uiLocaleFor`), rendered from its claims' facts through
 * ./summary-texts.ts: numbers with `Intl.NumberFormat` of that language, topic names and Chorus's sizing keywords
 * translated, the shoppers' keywords quoted as written (docs/ai.md "Languages"). Null when the claims carry no facts (a version stored
 * before facts were kept): the caller serves the stored text.
 */
export function renderSummary(claims: SummaryClaim[], tag: string): string | null {
  const parts = sentencesOf(claims, tag);
  if (!parts) return null;
  return parts.flat().join(/^(ja|zh)/.test(uiLocaleFor(tag)) ? "" : " ");
}

/** `renderSummary`'s sentences per claim (the aggregate's: the rating and the share recommending), then the no-complaint sentence if any. */
function sentencesOf(claims: SummaryClaim[], tag: string): string[][] | null {
  const aggregate = claims.find((c) => c.kind === "aggregate");
  if (!aggregate || aggregate.average === undefined || aggregate.reviewCount === undefined) return null;
  const locale = uiLocaleFor(tag);
  const texts = SUMMARY_TEXTS[locale];
  const intl = locale === "de-formal" ? "de" : locale;
  const number = new Intl.NumberFormat(intl);
  const one = new Intl.NumberFormat(intl, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const percentFormat = new Intl.NumberFormat(intl, { style: "percent", maximumFractionDigits: 0 });
  const percent = (p: number) => percentFormat.format(p / 100);
  const list = new Intl.ListFormat(intl, { type: "unit", style: "narrow" });
  const fill = (template: string, vars: Record<string, string>) => template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
  const category = new Intl.PluralRules(intl).select(aggregate.reviewCount) as keyof SummaryTexts["rating"];
  const out: string[][] = claims.map((c) => {
    if (c.kind === "aggregate") {
      const rating = fill(texts.rating[category] ?? texts.rating.other, { average: one.format(aggregate.average!), count: number.format(aggregate.reviewCount!) });
      return aggregate.recommendPercent == null ? [rating] : [rating, fill(texts.recommend, { percent: percent(aggregate.recommendPercent) })];
    }
    const keywords = c.keywords?.length ? `${texts.brackets[0]}${list.format(c.keywords.map((k) => `${texts.quote[0]}${keywordLabel(k, locale)}${texts.quote[1]}`))}${texts.brackets[1]}` : "";
    return [fill(c.kind === "praise" ? texts.praised : texts.criticised, { topic: c.topic ? topicName(c.topic, locale) : "", percent: percent(c.sharePercent ?? 0), keywords })];
  });
  if (!claims.some((c) => c.kind === "complaint")) out.push([fill(texts.noComplaint, { percent: percent(COMPLAINT_MIN_PERCENT) })]);
  return out;
}

/**
 * Compose the summary: its facts (claims with their supporting review IDs) and its English sentences
 * (`renderSummary`). Short sentences: the average and count, the share recommending, then one sentence per
 * most-praised theme and per most common complaint.
 * @param _subject "this product" or "these products" (group-level content; the sentences read the same for both)
 */
export function buildSummary(stats: ScopeStats, counts: KeywordCountRow[], mentions: MentionRow[], _subject: string): EmbeddedSummary {
  const n = stats.review_count;
  const average = Math.round((stats.rating_total / n) * 10) / 10;
  const claims: SummaryClaim[] = [];
  const recommendPercent = stats.recommend_known > 0 ? pct(stats.recommended, stats.recommend_known) : null;
  const aggregate: SummaryClaim = { kind: "aggregate", text: "", average, reviewCount: n, recommendPercent, reviewIds: [] };
  claims.push(aggregate);

  // reviews praising / complaining per topic, and per keyword within the topic
  const topicIds = (polarity: 1 | -1) => {
    const m = new Map<string, Set<string>>();
    for (const x of mentions) if (x.polarity === polarity) m.set(x.topic, (m.get(x.topic) ?? new Set()).add(x.review_id));
    return m;
  };
  const keywordsOf = (topic: string, key: "praise" | "complaints", max: number) =>
    counts
      .filter((c) => c.topic === topic && c[key] >= MIN_KEYWORD_OCCURRENCES)
      .sort((a, b) => b[key] - a[key] || a.keyword.localeCompare(b.keyword))
      .slice(0, max)
      .map((c) => c.keyword);

  const ranked = (m: Map<string, Set<string>>, minShare: number, max: number) =>
    [...m.entries()]
      .filter(([, ids]) => ids.size / n >= minShare)
      .sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))
      .slice(0, max);

  const topical = (kind: "praise" | "complaint", [topic, ids]: [string, Set<string>]): SummaryClaim => ({
    kind,
    topic,
    topicKey: topicKeyOf(topic),
    keywords: keywordsOf(topic, kind === "praise" ? "praise" : "complaints", 2),
    sharePercent: pct(ids.size, n),
    reviewIds: [...ids].sort(),
    text: "",
  });
  claims.push(...ranked(topicIds(1), PRAISE_MIN_SHARE, 3).map((e) => topical("praise", e)));
  claims.push(...ranked(topicIds(-1), COMPLAINT_MIN_SHARE, 2).map((e) => topical("complaint", e)));
  // each claim's own English sentences (what the language model is given)
  const english = sentencesOf(claims, "en")!;
  claims.forEach((c, i) => (c.text = english[i].join(" ")));
  return { body: renderSummary(claims, "en")!, claims };
}
