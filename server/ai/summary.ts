/**
 * The default, offline summary engine (docs/ai.md, Answers): an extractive, templated summary built only
 * from counted facts, so every sentence is traceable. An opening from the aggregate (average rating,
 * review count, share recommending), then the most-praised themes and the most common complaints with
 * their share of reviews. Each claim keeps the IDs of the reviews that support it.
 * Also builds the keyword topics (docs/ai.md, Answers) from the exact (keyword, review) counts.
 */
import type { KeywordTopic } from "../contract/storefront.ts";
import type { KeywordCountRow, MentionRow, ScopeStats } from "./ai.repo.ts";

export type SummaryClaim = {
  kind: "aggregate" | "praise" | "complaint";
  text: string;
  topic?: string;
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
const list = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

/**
 * Compose the summary.
 * @param subject "this product" or "these products" (group-level content)
 */
export function buildSummary(stats: ScopeStats, counts: KeywordCountRow[], mentions: MentionRow[], subject: string): EmbeddedSummary {
  const n = stats.review_count;
  const average = Math.round((stats.rating_total / n) * 10) / 10;
  const claims: SummaryClaim[] = [];
  let opening = `Shoppers rate ${subject} ${average.toFixed(1)} out of 5 on average across ${n} reviews`;
  if (stats.recommend_known > 0) opening += `, and ${pct(stats.recommended, stats.recommend_known)}% recommend it`;
  opening += ".";
  claims.push({ kind: "aggregate", text: opening, reviewIds: [] });

  // reviews praising / complaining per topic, and per keyword within the topic
  const topicIds = (polarity: 1 | -1) => {
    const m = new Map<string, Set<string>>();
    for (const x of mentions) if (x.polarity === polarity) m.set(x.topic, (m.get(x.topic) ?? new Set()).add(x.review_id));
    return m;
  };
  const keywordsOf = (topic: string, key: "praise" | "complaints", max: number) =>
    counts.filter((c) => c.topic === topic && c[key] >= MIN_KEYWORD_OCCURRENCES).sort((a, b) => b[key] - a[key] || a.keyword.localeCompare(b.keyword)).slice(0, max).map((c) => c.keyword);

  const ranked = (m: Map<string, Set<string>>, minShare: number, max: number) =>
    [...m.entries()].filter(([, ids]) => ids.size / n >= minShare).sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0])).slice(0, max);

  const praise = ranked(topicIds(1), PRAISE_MIN_SHARE, 3).map(([topic, ids]) => {
    const keywords = keywordsOf(topic, "praise", 2);
    const share = pct(ids.size, n);
    const claim: SummaryClaim = {
      kind: "praise", topic, keywords, sharePercent: share, reviewIds: [...ids].sort(),
      text: `${topic.toLowerCase()} (${keywords.length ? `${keywords.join(", ")}; ` : ""}${share}% of reviews)`,
    };
    return claim;
  });
  const complaints = ranked(topicIds(-1), COMPLAINT_MIN_SHARE, 2).map(([topic, ids]) => {
    const keywords = keywordsOf(topic, "complaints", 2);
    const share = pct(ids.size, n);
    const claim: SummaryClaim = {
      kind: "complaint", topic, keywords, sharePercent: share, reviewIds: [...ids].sort(),
      text: `${topic.toLowerCase()} (${keywords.length ? `${keywords.join(", ")}; ` : ""}${share}% of reviews)`,
    };
    return claim;
  });
  claims.push(...praise, ...complaints);

  const sentences = [opening];
  if (praise.length) sentences.push(`Most praised: ${list(praise.map((c) => c.text))}.`);
  if (complaints.length) sentences.push(`Most common complaints: ${list(complaints.map((c) => c.text))}.`);
  else sentences.push(`No single complaint comes up in more than ${Math.round(COMPLAINT_MIN_SHARE * 100)}% of reviews.`);
  return { body: sentences.join(" "), claims };
}
