/** Locale-aware formatting for widgets (dates, counts) using the page's language. */
const lang = () => document.documentElement.lang || navigator.language || "en";

/** "12 March 2026" style date from an ISO 8601 string. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString(lang(), { year: "numeric", month: "long", day: "numeric" });
}

/** "1,024" style count. */
export const formatCount = (n: number): string => n.toLocaleString(lang());

/** "1 review" / "128 reviews". */
export const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;
