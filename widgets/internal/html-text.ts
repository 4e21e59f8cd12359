/**
 * The one decoder of the storefront's HTML-safe text fields (docs/api.md, Okendo-compatible; server/contract/html-text.ts):
 * a review's `body`, its reply's `body` and an answer's `body` come with `&`, `<` and `>` as `&amp;`,
 * `&lt;` and `&gt;`. Widgets decode them here and render the result as text (never as HTML), so the
 * shopper sees exactly what was typed.
 */
const DECODED: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/** Undo `htmlSafeText`: `&amp;`, `&lt;`, `&gt;` back to `&`, `<`, `>` in one pass (`&amp;lt;` → `&lt;`). */
export function decodeHtmlText(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (e) => DECODED[e]!);
}
