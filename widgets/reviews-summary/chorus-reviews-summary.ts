/**
 * @summary The AI-generated summary of a product's reviews (interface.md §2.3): the text, "Based on N
 * reviews", the generation date and a visible "AI-generated" label. Hidden entirely when the API answers
 * `{}` (no published summary) or fails: a summary is optional content, never an error on a product page.
 *
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID (`shopify-1078`)
 * @attr api-base - Chorus origin (default: where chorus.js came from)
 *
 * @csspart summary - the card
 * @csspart label - the "AI-generated" label
 * @csspart body - the summary text
 * @csspart meta - "Based on N reviews · generated on …"
 *
 * @cssproperty --chorus-accent - label colour
 * @cssproperty --chorus-border - card border
 * @cssproperty --chorus-surface - card background
 */
import { css, html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import type { ReviewsSummary, ReviewsSummaryResponse } from "../../server/contract/storefront.ts";
import { getJson } from "../internal/api.ts";
import { ChorusElement } from "../internal/chorus-element.ts";
import { formatDate, plural } from "../internal/format.ts";
import { tokens } from "../internal/tokens.ts";

@customElement("chorus-reviews-summary")
export class ChorusReviewsSummary extends ChorusElement {
  static styles = [
    tokens,
    css`
      :host { display: block; }
      .card {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
        padding: 1rem 1.25rem;
        margin: 0 0 1rem;
      }
      .label {
        display: inline-block;
        font-size: 0.75rem;
        font-weight: 600;
        letter-spacing: 0.02em;
        color: var(--_accent);
        border: 1px solid currentColor;
        border-radius: 999px;
        padding: 0.1rem 0.5rem;
        margin: 0 0 0.5rem;
      }
      h2 { font-size: 1rem; margin: 0 0 0.5rem; }
      p { margin: 0; line-height: 1.5; }
      .meta { color: var(--_muted); font-size: 0.85rem; margin-top: 0.5rem; }
    `,
  ];

  @state() accessor summary: ReviewsSummary | null = null;
  #abort?: AbortController;

  override updated(changed: Map<string, unknown>): void {
    if (changed.has("storeId") || changed.has("productId") || changed.has("apiBase")) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  private async load(): Promise<void> {
    this.#abort?.abort();
    if (!this.storeId || !this.productId) return;
    const abort = (this.#abort = new AbortController());
    try {
      const body = await getJson<ReviewsSummaryResponse>(`${this.scopeUrl}/reviews_summary`, { signal: abort.signal });
      this.summary = "reviewsSummary" in body && body.reviewsSummary ? (body.reviewsSummary as ReviewsSummary) : null;
    } catch {
      if (!abort.signal.aborted) this.summary = null;
    }
    this.hidden = this.summary === null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.hidden = this.summary === null; // nothing shown (and no space taken) until a summary exists
  }

  render() {
    const s = this.summary;
    if (!s) return nothing;
    return html`<section class="card" part="summary" aria-labelledby="title">
      <span class="label" part="label">AI-generated</span>
      <h2 id="title">What shoppers say</h2>
      <p part="body">${s.body}</p>
      <p class="meta" part="meta">Based on ${plural(s.contributingReviewCount, "review", "reviews")} · generated on <time datetime=${s.dateGenerated}>${formatDate(s.dateGenerated)}</time></p>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-reviews-summary": ChorusReviewsSummary;
  }
}
