/**
 * Locale-aware formatting for widgets (dates, counts) using the page's language.
 *
 * Page speed (issue 8: no long task): the first Intl formatter a page creates loads locale data, a
 * 10-130 ms task depending on the CPU. For `en` and `en-US` (the most common page languages) the same
 * text is built without Intl; for other languages the formatters are created once per language and
 * reused (`toLocaleDateString(lang, options)` builds a new one on every call).
 * The language: an element's while it renders (`setFormatLang`), else on the server (snippets,
 * app/lib/snippets.server.ts) `globalThis.__chorusLang`, else `<html lang>`.
 */
let current: string | undefined;
/**
 * Set the language of the dates and counts formatted from now on (an element's, during its render:
 * widgets/internal/chorus-element.ts `update`); undefined: the page's. Returns the one before.
 */
export function setFormatLang(lang: string | undefined): string | undefined {
  const before = current;
  current = lang;
  return before;
}
const lang = () =>
  current ||
  (typeof document === "undefined" ? (globalThis as { __chorusLang?: string }).__chorusLang : document.documentElement.lang) || navigator.language || "en";
const english = (l: string) => /^en(-us)?$/i.test(l);
const MONTHS = "January February March April May June July August September October November December".split(" ");

let dates: [string, Intl.DateTimeFormat] | undefined;
let counts: [string, Intl.NumberFormat] | undefined;

/** "March 12, 2026" (en) / "12. März 2026" (de) style date from an ISO 8601 string ("" when it is not a date). */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const l = lang();
  if (english(l)) return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
  if (dates?.[0] !== l) dates = [l, new Intl.DateTimeFormat(l, { year: "numeric", month: "long", day: "numeric" })];
  return dates[1].format(d);
}

/** "1,024" style count (a whole number). */
export function formatCount(n: number, language?: string): string {
  const l = language || lang();
  if (english(l) && Number.isInteger(n)) return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  if (counts?.[0] !== l) counts = [l, new Intl.NumberFormat(l)];
  return counts[1].format(n);
}

let decimals: [string, Intl.NumberFormat] | undefined;
/** "4.3" (en) / "4,3" (de) style number with exactly one decimal (an average rating, already rounded). */
export function formatRatingNumber(n: number): string {
  const l = lang();
  if (english(l)) return n.toFixed(1);
  if (decimals?.[0] !== l) decimals = [l, new Intl.NumberFormat(l, { minimumFractionDigits: 1, maximumFractionDigits: 1 })];
  return decimals[1].format(n);
}

/** "1 review" / "128 reviews". */
export const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;
