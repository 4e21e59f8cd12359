/**
 * The one rounding rule for a displayed average rating (docs/api.md, Responses): one decimal, half up.
 * Pure and dependency-free, so the server (contract, admin, demo pages) and the widgets
 * (widgets/internal/rating.ts) import the same rule.
 * @param average unrounded average, 0..5
 */
export function roundRating(average: number): number {
  return Math.round(average * 10 + Number.EPSILON) / 10;
}

/** "4.3" style text of an average (always one decimal). */
export const formatRating = (average: number): string => roundRating(average).toFixed(1);
