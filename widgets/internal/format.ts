/**
 * Locale-aware formatting for widgets (dates, counts) using the page's language. The Intl formatters
 * are created once per language and reused: `toLocaleDateString(lang, options)` builds a new one on
 * every call, which made a page of 25 review cards measurably slower (issue 8: no long task).
 */
const lang = () => document.documentElement.lang || navigator.language || "en";

let dates: [string, Intl.DateTimeFormat] | undefined;
let counts: [string, Intl.NumberFormat] | undefined;

/** "12 March 2026" style date from an ISO 8601 string ("" when it is not a date). */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const l = lang();
  if (dates?.[0] !== l) dates = [l, new Intl.DateTimeFormat(l, { year: "numeric", month: "long", day: "numeric" })];
  return dates[1].format(d);
}

/** "1,024" style count. */
export function formatCount(n: number): string {
  const l = lang();
  if (counts?.[0] !== l) counts = [l, new Intl.NumberFormat(l)];
  return counts[1].format(n);
}

/** "1 review" / "128 reviews". */
export const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * Create the date formatter ahead of use, in an idle task of its own: its first creation on a page loads
 * locale data (about 10-30 ms at normal CPU speed), which would otherwise lengthen the task that renders
 * the first review cards. Idempotent.
 */
export function prepareDateFormat(): void {
  (window.requestIdleCallback ?? setTimeout)(() => formatDate("2000-01-01T00:00:00Z"));
}
