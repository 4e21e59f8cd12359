/**
 * Filling in the widgets' words. The English defaults are one table, server/contract/widget-strings.ts,
 * in one file per widget (server/contract/widget-strings/<widget>.ts): each element imports its own group
 * from there (never the whole table, so each module carries only its own words; a barrel here would pull
 * every group into the shared chunk). A merchant's texts for the shopper's language
 * (widgets/internal/settings.ts) replace defaults by ID: see `ChorusElement.t`.
 */

/** `text` with each `{name}` replaced by `vars[name]` (left as is when `vars` has no such name). */
export function fill(text: string, vars?: Record<string, string | number>): string {
  return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
}

// Texts with markup inside: only the larger widgets have them (./fill-parts.ts, in their chunk rather than the star badge's).
export { fillParts } from "./fill-parts.ts";
