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
import { english, lang } from "./format-lang.ts";

export { setFormatLang } from "./format-lang.ts";

let counts: [string, Intl.NumberFormat] | undefined;

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

// Dates: only the larger widgets show them (widgets/internal/dates.ts, in their chunk rather than the star badge's).
export { formatDate } from "./dates.ts";
