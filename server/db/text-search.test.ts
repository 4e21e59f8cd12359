/**
 * The FTS5-query-to-tsquery translation and the highlight restoring of PostgreSQL full-text search
 * (server/db/text-search.ts); the searches themselves run in server/reviews/search-filters.api.test.ts and
 * server/surveys on both engines.
 */
import { describe, expect, test } from "vitest";
import { reviewSearchMatch } from "../reviews/reviews.repo.ts";
import { ftsQuery } from "../surveys/surveys.repo.ts";
import { restoreHighlights, tsqueryOf } from "./text-search.ts";

describe("tsqueryOf", () => {
  test("phrases of the review search become <-> phrases, ANDed, the prefix word :*", () => {
    expect(tsqueryOf(reviewSearchMatch("don't fit")!)).toBe("('don' <-> 't') & 'fit':*");
    expect(tsqueryOf(reviewSearchMatch("Love  the DRESS!")!)).toBe("'love' & 'the' & 'dress'");
    expect(tsqueryOf(reviewSearchMatch("zip")!)).toBe("'zip':*");
    expect(tsqueryOf(reviewSearchMatch("t-shirt comfor")!)).toBe("('t' <-> 'shirt') & 'comfor':*");
    expect(tsqueryOf(`"zip"* "dress"*`)).toBe("'zip':* & 'dress':*");
    expect(tsqueryOf("zipper")).toBe("'zipper'");
  });

  test("every word of the survey search is a prefix", () => {
    expect(tsqueryOf(ftsQuery("Engineer DAY")!)).toBe("'engineer':* & 'day':*");
  });

  test("words are lower-cased and quoted; no shopper text is tsquery syntax", () => {
    expect(tsqueryOf(reviewSearchMatch("CAFÉ ДОМ")!)).toBe("'café' & 'дом':*");
    for (const text of ["fit | dress", "!fit", "fit:*", "fit & (dress", "'; DROP TABLE reviews; --", "a\\b"]) {
      const query = tsqueryOf(reviewSearchMatch(text)!);
      // Outside the quoted words only the operators we write: & <-> ( ) :*
      expect(query.replace(/'[^']*'/g, "w"), text).toMatch(/^[w&<\->():* ]+$/);
    }
    expect(tsqueryOf("")).toBe("");
  });
});

describe("restoreHighlights", () => {
  const [open, close] = ["\uE003", "\uE004"];
  const mark = (s: string) => s.replaceAll("[", open).replaceAll("]", close);
  const show = (s: string) => s.replaceAll(open, "[").replaceAll(close, "]");

  test("puts ts_headline's marks over the lower-cased, punctuation-free text back into the text as typed", () => {
    const text = "😀 <b>Fit</b> & café-grade naïve";
    // As chorus_search_text gives it: lower case, a space for each punctuation mark or symbol (code points:
    // the emoji is one, two UTF-16 units).
    const indexed = [...text].map((c) => (/[\p{L}\p{N}\s]/u.test(c) ? c.toLowerCase() : " ")).join("");
    expect(indexed).toBe("   b fit  b    café grade naïve");
    const headline = indexed.replace("fit", "[fit]").replace("café", "[café]").replace("naïve", "[naïve]");
    expect(show(restoreHighlights(text, mark(headline), open, close))).toBe("😀 <b>[Fit]</b> & [café]-grade [naïve]");
  });

  test("joins the words of one piece as typed into one span (don't, t-shirt), not words apart", () => {
    expect(show(restoreHighlights("I don’t love it", mark("i [don] [t] love it"), open, close))).toBe("I [don’t] love it");
    expect(show(restoreHighlights("a t-shirt, fits", mark("a [t] [shirt]  [fits]"), open, close))).toBe("a [t-shirt], [fits]");
  });

  test("leaves the text unmarked when the headline does not line up with it", () => {
    expect(restoreHighlights("İstanbul", mark("[i̇stanbul]"), open, close)).toBe("İstanbul");
    expect(restoreHighlights("abc", mark("[ab]"), open, close)).toBe("abc");
  });
});
