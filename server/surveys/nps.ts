/**
 * NPS maths for the admin panel (pure): the Net Promoter Score of category counts and the summary of
 * weekly counts (docs/surveys.md, Survey response fields: 9–10 promoter, 7–8 passive, 0–6 detractor).
 */
import { isoFromMs as iso } from "../shared/iso-date.ts";

/**
 * Net Promoter Score of category counts: round(100 × (promoters − detractors) / total), −100…100
 * (Math.round: halves round up, and −0 is reported as 0). Undefined when the total is 0.
 */
export function npsScore(promoters: number, passives: number, detractors: number): number | undefined {
  const total = promoters + passives + detractors;
  if (total === 0) return undefined;
  return Math.round((100 * (promoters - detractors)) / total) || 0;
}

/** One week of the NPS panel (`weekStart`: Monday, UTC, `YYYY-MM-DD`). */
export type NpsWeek = { weekStart: string; promoters: number; passives: number; detractors: number; answered: number; score: number };
/** The NPS panel: category counts, the score (absent without answers) and the weekly scores. */
export type NpsSummary = { promoters: number; passives: number; detractors: number; answered: number; score?: number; weeks: NpsWeek[] };

/** Category counts of one week starting at `week_ms` (ms, Monday 00:00 UTC), as the repo aggregates them. */
export type NpsWeekCounts = { week_ms: number; promoters: number; passives: number; detractors: number };

/**
 * The panel of weekly counts (only weeks with answers, oldest first): each week's score and the totals'
 * score (`npsScore`), the totals' score absent when nothing is answered.
 */
export function npsSummaryOf(weekly: NpsWeekCounts[]): NpsSummary {
  const weeks = weekly.map((w) => ({
    weekStart: iso(w.week_ms).slice(0, 10),
    promoters: w.promoters,
    passives: w.passives,
    detractors: w.detractors,
    answered: w.promoters + w.passives + w.detractors,
    score: npsScore(w.promoters, w.passives, w.detractors)!,
  }));
  const sum = (k: "promoters" | "passives" | "detractors") => weeks.reduce((n, w) => n + w[k], 0);
  const promoters = sum("promoters");
  const passives = sum("passives");
  const detractors = sum("detractors");
  const score = npsScore(promoters, passives, detractors);
  return { promoters, passives, detractors, answered: promoters + passives + detractors, ...(score === undefined ? {} : { score }), weeks };
}
