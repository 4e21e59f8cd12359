/** The `<chorus-reviews-summary>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, isServer, nothing } from "lit";
import type { ReviewsSummary, ReviewsSummaryResponse } from "../../server/contract/storefront.ts";
import { getJson } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { formatDate } from "../internal/format.ts";
import { SUMMARY_TEXTS } from "../../server/contract/widget-strings/reviews-summary.ts";
import { fillParts } from "../internal/strings.ts";
import { tokens } from "../internal/tokens.ts";
import { summaryStyles } from "./chorus-reviews-summary.styles.ts";
import { controls } from "../internal/ui.ts";

/**
 * @summary The AI-generated summary of a product's reviews (docs/ai.md, Answers): the text, "Based on N
 * reviews", the generation date and a visible "AI-generated" label. The text comes in the element's language
 * (`?locale=`, docs/ai.md, Languages): short sentences rendered from the summary's facts, numbers formatted for the
 * language, the shoppers' own words quoted as written.
 *
 * No layout shift (issue 8): the element reserves `--chorus-reviews-summary-min-height` from the start
 * (a pulsing placeholder card while loading). When the API answers `{}` (no published summary yet) or fails,
 * the element shows nothing and takes no space (`state="empty"`, `display: none`; issue #23 item 5: no shopper
 * reads about missing AI content); the page below moves up by the reservation then, unless the page keeps
 * the element out of its layout before that (docs/widgets.md "Empty products"). Nor does a long summary make it taller on its own: the card keeps to the reservation, its text clipped
 * with a fade, and a "Read more" button (top right, out of the flow) opens it; a shift right after input is
 * not a layout shift. Whether the text is clipped is reported by an IntersectionObserver on a marker after
 * its last word, in a task after the frame (no layout read by a script of ours).
 *
 * @tag chorus-reviews-summary
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID (`shopify-1078`)
 * @attr api-base - Chorus origin (default: where chorus.js came from)
 * @attr state - reflected, read-only: `loading` | `ready` | `empty` (no summary, or it could not be loaded)
 *
 * @csspart summary - the card (also the placeholder and the empty note)
 * @csspart label - the "AI-generated" label
 * @csspart body - the summary text
 * @csspart meta - "Based on N reviews · generated on …"
 * @csspart more - the "Read more" / "Show less" button (shown when the text does not fit)
 *
 * @cssproperty --chorus-reviews-summary-min-height - space reserved from the start and kept (default 14rem: the card with a summary of about four lines at 60rem wide)
 * @cssproperty --chorus-accent - label colour
 * @cssproperty --chorus-border - card border
 * @cssproperty --chorus-surface - card background
 */
@chorusElement("chorus-reviews-summary")
export class ChorusReviewsSummary extends ChorusElement {
  static widget = "summary" as const;
  static defaults = SUMMARY_TEXTS;
  static properties = {
    summary: { state: true },
    fold: { state: true },
    state: { reflect: true },
  };
  static styles = [tokens, controls, summaryStyles];

  summary: ReviewsSummary | null = null;
  /** Whether the text does not fit the reservation (`cut`), and whether the shopper opened it (`open`). */
  fold = { cut: false, open: false };
  state: "loading" | "ready" | "empty" = "loading";
  #abort?: AbortController;
  // Is the marker after the text's last word inside the card's clip? Reported in a task after the frame (none on the server).
  #fit = isServer
    ? undefined
    : new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.target.isConnected)
              this.#fit!.unobserve(e.target); // the text of an earlier summary
            else if (!this.fold.open) this.fold = { cut: !e.isIntersecting, open: false };
          }
        },
        { root: this },
      );
  /** The summary came with a server-rendered snippet: the first update requests nothing. */
  #fromSnapshot = false;

  override willUpdate(): void {
    if (this.summary || !this.storeId || !this.productId) return;
    const body = this.takeSnapshot<ReviewsSummaryResponse>(this.#url());
    if (!body) return;
    this.summary = "reviewsSummary" in body && body.reviewsSummary ? (body.reviewsSummary as ReviewsSummary) : null;
    this.state = this.summary ? "ready" : "empty";
    this.#fromSnapshot = true;
  }

  override updated(changed: Map<string, unknown>): void {
    if ((changed.has("storeId") || changed.has("productId") || changed.has("apiBase")) && !this.#fromSnapshot) void this.#load();
    this.#fromSnapshot = false;
    const end = this.renderRoot.querySelector(".end");
    if (end) this.#fit?.observe(end);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  /** The summary's URL: in the element's language unless English (docs/ai.md, Languages: sentences rendered from the summary's facts). */
  #url(): string {
    const locale = this.uiLocale;
    return `${this.scopeUrl}/reviews_summary${locale === "en" ? "" : `?locale=${locale}`}`;
  }

  async #load(): Promise<void> {
    this.#abort?.abort();
    if (!this.storeId || !this.productId) {
      this.state = "empty";
      return;
    }
    const abort = (this.#abort = new AbortController());
    try {
      const body = await getJson<ReviewsSummaryResponse>(this.#url(), { signal: abort.signal });
      this.summary = "reviewsSummary" in body && body.reviewsSummary ? (body.reviewsSummary as ReviewsSummary) : null;
    } catch {
      if (abort.signal.aborted) return;
      this.summary = null;
    }
    this.fold = { cut: false, open: false };
    this.state = this.summary ? "ready" : "empty";
  }

  render() {
    const s = this.summary;
    if (!s) {
      return this.state === "loading" ? html`<div class="card skeleton" part="summary" aria-hidden="true"></div>` : nothing;
    }
    const { cut, open } = this.fold;
    return html`<section class="card ${open ? "" : "shut"} ${cut && !open ? "cut" : ""}" part="summary" aria-labelledby="title">
      <span class="label" part="label">${this.t("summary.label")}</span>
      ${
        cut || open
          ? html`<button class="more" part="more" aria-expanded=${open} aria-controls="body" @click=${() => (this.fold = { cut, open: !open })}>
              ${this.t(open ? "summary.showLess" : "summary.readMore")}
            </button>`
          : ""
      }
      <h2 id="title">${this.t("summary.title")}</h2>
      <p part="body" id="body">${s.body}<span class="end"></span></p>
      <p class="meta" part="meta">
        ${this.plural("summary.basedOn", s.contributingReviewCount)} ·
        ${fillParts(this.t("summary.generatedOn"), { date: html`<time datetime=${s.dateGenerated}>${formatDate(s.dateGenerated)}</time>` })}
      </p>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-reviews-summary": ChorusReviewsSummary;
  }
}
