/**
 * Full-text search on PostgreSQL (server/db/schema/postgres.ts), for the repos that write their search
 * as an FTS5 query on SQLite: `tsqueryOf` turns that query into PostgreSQL tsquery text, so one builder of the
 * shopper's words (`reviewSearchMatch`, the surveys' `ftsQuery`) serves both engines; `restoreHighlights`
 * turns a ts_headline() over `chorus_search_text(text)` into the text as typed with the matched words marked,
 * as FTS5's highlight() gives it.
 *
 * Configurations: reviews use `chorus_english` (unaccent + Snowball English stemming, no stop words: FTS5
 * `porter unicode61 remove_diacritics 2`), survey responses `chorus_simple` (unaccent, no stemming: FTS5
 * `unicode61 remove_diacritics 2`).
 */

/** A word as FTS5's unicode61 tokenizer reads one (and `reviewSearchWords`): letters, digits, marks, private use. */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * The tsquery text (for `to_tsquery(config, ?)`) of an FTS5 query made of space-separated terms, each a
 * "quoted phrase" or a bare word, optionally followed by `*` (its last word is a prefix): every term's words
 * become a phrase (`<->`), the terms are ANDed (`&`), a prefix word gets `:*`. Each word is quoted, so nothing
 * in it is tsquery syntax. `"don t" "fit"*` gives `('don' <-> 't') & ('fit':*)`.
 * Words are lower-cased here (PostgreSQL's dictionaries lower-case only ASCII in the C locale; the indexed text
 * is lower-cased by `chorus_search_text`). A query with no word gives '' (to_tsquery matches nothing).
 */
export function tsqueryOf(match: string): string {
  const terms: string[] = [];
  for (const m of match.matchAll(/"([^"]*)"(\*?)|([^\s"]+)/g)) {
    const bare = m[3];
    const prefix = m[2] === "*" || (bare !== undefined && bare.endsWith("*"));
    const words = ((m[1] ?? bare ?? "").match(WORD) ?? []).map((w) => `'${w.toLowerCase().replace(/'/g, "''").replace(/\\/g, "\\\\")}'`);
    if (!words.length) continue;
    if (prefix) words[words.length - 1] += ":*";
    terms.push(words.length > 1 ? `(${words.join(" <-> ")})` : words[0]!);
  }
  return terms.join(" & ");
}

/**
 * The original `text` with the markers of `headline` — ts_headline(config, chorus_search_text(text), query,
 * 'HighlightAll=true, StartSel=<open>, StopSel=<close>') — put back: `chorus_search_text` keeps one code point
 * for each of the text's, so the headline without its markers lines up with the text code point by code point.
 * Words of one phrase marked apart ("don" and "t" of "don't") are joined into one marked span, as FTS5
 * highlights a matched phrase. Returns `text` unmarked when the two do not line up (e.g. a letter whose lower
 * case is longer).
 */
export function restoreHighlights(text: string, headline: string, open: string, close: string): string {
  const original = [...text];
  let out = "";
  let i = 0;
  for (const c of headline) {
    if (c === open || c === close) out += c;
    else if (i < original.length) out += original[i++];
    else return text;
  }
  if (i !== original.length) return text;
  // close, then only punctuation (no space, no word character), then open: one piece as typed, one span.
  const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&");
  return out.replace(new RegExp(`${escape(close)}([^\\s\\p{L}\\p{N}\\p{M}\\p{Co}${escape(open)}${escape(close)}]+)${escape(open)}`, "gu"), "$1");
}
