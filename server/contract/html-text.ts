/**
 * Text that is safe as HTML (docs/api.md, Okendo-compatible): Okendo's published clients insert a review's `body`, its
 * reply's `body` and an answer's `body` into the page as HTML (Vue `v-html`), so the storefront serves
 * those fields with `&`, `<` and `>` as `&amp;`, `&lt;` and `&gt;`. Quotes stay as typed: these fields
 * are only ever element content, never attribute values, where quotes cannot end anything. Our own
 * widgets decode the three entities (widgets/internal/html-text.ts) and render the result as text, so
 * shoppers see exactly what was typed.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** `text` with `&`, `<` and `>` escaped as HTML entities (quotes unchanged). */
export function htmlSafeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => ENTITIES[c]!);
}
