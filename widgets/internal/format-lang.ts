/**
 * The language widgets format dates and counts in (./format.ts, ./dates.ts): an element's while it renders
 * (`setFormatLang`), else on the server (snippets, app/lib/snippets.server.ts) `globalThis.__chorusLang`, else `<html lang>`.
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
/** The language formatting uses now (see setFormatLang). */
export const lang = (): string => current || (typeof document === "undefined" ? (globalThis as { __chorusLang?: string }).__chorusLang : document.documentElement.lang) || navigator.language || "en";
export const english = (l: string): boolean => /^en(-us)?$/i.test(l);
