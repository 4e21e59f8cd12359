/**
 * Dates in the page's language (see ./format.ts for the language and the Intl rule), apart from format.ts so
 * that the star badge's page, which shows none, does not load them (widgets/vite.config.ts: "ui" chunk).
 */
import { english, lang } from "./format-lang.ts";

const MONTHS = "January February March April May June July August September October November December".split(" ");
let dates: [string, Intl.DateTimeFormat] | undefined;

/** "March 12, 2026" (en) / "12. März 2026" (de) style date from an ISO 8601 string ("" when it is not a date). */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const l = lang();
  if (english(l)) return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
  if (dates?.[0] !== l) dates = [l, new Intl.DateTimeFormat(l, { year: "numeric", month: "long", day: "numeric" })];
  return dates[1].format(d);
}
