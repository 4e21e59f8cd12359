/** The `<chorus-reviews-keywords>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, nothing } from "lit";
import type { KeywordTopic, ReviewsKeywordsResponse } from "../../server/contract/storefront.ts";
import { getJson } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { formatCount } from "../internal/format.ts";
import { tokens } from "../internal/tokens.ts";
import { keywordsStyles } from "./chorus-reviews-keywords.styles.ts";
import { controls, showInSteps } from "../internal/ui.ts";
import { KEYWORDS_TEXTS } from "../../server/contract/widget-strings/reviews-keywords.ts";

/**
 * @summary Keyword topics of a product's reviews (docs/ai.md, Answers) as groups of toggle chips with
 * counts. Topic names come in the element's language (`?locale=`, docs/ai.md, Languages), and so do the sizing
 * keywords Chorus generates ("runs small": the answer's `label`); the other keywords are the shoppers' own words,
 * shown as written. Choosing a chip dispatches `chorus-keyword-selected` with that keyword (the stored `name`, the
 * filter value, plus the `label` shown when there is one); choosing the active chip again clears it (`keyword: null`). `<chorus-reviews>` on the same page listens and filters its list.
 *
 * No layout shift (issue 8): the element reserves `--chorus-reviews-keywords-min-height` from the start
 * (placeholder bars while loading). When the API answers `{}` or fails, it shows nothing and takes no
 * space (`state="empty"`, `display: none`; issue #23 item 5: no shopper reads about missing AI content).
 * Nor does it get taller on its own: until the shopper presses "Show all N topics" (beside the heading),
 * it is clipped to the reservation and shows only the topics that fit whole (at least one); the others
 * are invisible and out of the tab order. Opening them is a shift right after input, which is not a
 * layout shift. A topic is shown once an IntersectionObserver (root: this element) reports it whole
 * inside: as topics render, and whenever a new width moves them (no layout read in a script of ours).
 *
 * @tag chorus-reviews-keywords
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID (`shopify-1078`)
 * @attr api-base - Chorus origin (default: where chorus.js came from)
 * @attr state - reflected, read-only: `loading` | `ready` | `empty` (no keywords, or they could not be loaded)
 *
 * @event chorus-keyword-selected - `{ keyword: string | null, label?: string, storeId, productId }`, bubbles and composed
 *
 * @csspart topics - the wrapper
 * @csspart topic - one topic group
 * @csspart chip - a keyword button; `chip active` when chosen
 * @csspart count - the occurrences count in a chip
 * @csspart toggle - the "Show all N topics" / "Show fewer topics" button
 *
 * @cssproperty --chorus-reviews-keywords-min-height - space reserved from the start and kept (default 11rem: a heading and two topics of one chip row)
 * @cssproperty --chorus-accent - active chip background, focus ring
 * @cssproperty --chorus-accent-contrast - active chip text
 * @cssproperty --chorus-border - chip border
 */
@chorusElement("chorus-reviews-keywords")
export class ChorusReviewsKeywords extends ChorusElement {
  static widget = "keywords" as const;
  static defaults = KEYWORDS_TEXTS;
  static properties = {
    topics: { state: true },
    active: { state: true },
    shown: { state: true },
    open: { state: true },
    state: { reflect: true },
  };
  static styles = [tokens, controls, keywordsStyles];

  topics: KeywordTopic[] = [];
  active: string | null = null;
  /** How many topics are rendered: one or two per task (issue 8: no long task). */
  shown = 0;
  /** Whether the shopper opened every topic ("Show all N topics"). */
  open = false;
  /** The last intersection ratio of each rendered topic with the element's box (1: inside it whole). */
  #ratios: number[] = [];
  state: "loading" | "ready" | "empty" = "loading";
  #abort?: AbortController;
  // Which topics lie whole inside the element (root: the host, as tall as the reservation while the topics are
  // clipped). Its callbacks run in a task after the frame that laid the topics out, with their geometry: no
  // layout is read or forced by a script of ours, and none of ours runs inside the rendering frame.
  #fit = new IntersectionObserver(
    (entries) => {
      // While open, the element grows to hold every topic: keep what was measured closed (the button stays).
      if (this.open) return;
      const topics = [...this.renderRoot.querySelectorAll(".topic")];
      for (const e of entries) {
        if (e.target.isConnected) this.#ratios[topics.indexOf(e.target)] = e.intersectionRatio;
        else this.#fit.unobserve(e.target); // a topic of an earlier product
      }
      this.requestUpdate(); // #ratios is read by render
    },
    { root: this, threshold: 1 },
  );

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has("storeId") || changed.has("productId") || changed.has("apiBase")) void this.#load();
    for (const topic of this.renderRoot.querySelectorAll(".topic")) this.#fit.observe(topic);
  }

  /**
   * The first render also prepares the "Show all" button's template (ChorusElement.scheduleUpdate), so
   * that the update that shows it does not wait a task for it. (Buttons here have no `type`: no form
   * reaches into the shadow root.)
   */
  protected override warmUps(): unknown[] {
    return [this.render(), this.#toggle(0)];
  }

  #toggle(n: number) {
    const { open } = this;
    return html`<button class="toggle" part="toggle" aria-expanded=${open} @click=${() => (this.open = !open)}>${this.t(open ? "keywords.showFewer" : "keywords.showAll", { count: n })}</button>`;
  }

  async #load(): Promise<void> {
    this.#abort?.abort();
    if (!this.storeId || !this.productId) {
      this.state = "empty";
      return;
    }
    const abort = (this.#abort = new AbortController());
    let topics: KeywordTopic[] = [];
    try {
      // topic names in the element's language (docs/ai.md, Languages); the keywords are the shoppers' words, as written
      const locale = this.uiLocale;
      const body = await getJson<ReviewsKeywordsResponse>(`${this.scopeUrl}/reviews_keywords${locale === "en" ? "" : `?locale=${locale}`}`, { signal: abort.signal });
      if ("reviewsKeywords" in body && body.reviewsKeywords) topics = (body.reviewsKeywords as { keywordTopics: KeywordTopic[] }).keywordTopics;
    } catch {
      if (abort.signal.aborted) return;
    }
    this.topics = topics;
    this.shown = 0;
    this.#ratios = [];
    this.open = false;
    if (
      !(await showInSteps(
        0,
        topics.length,
        (n) => ((this.shown = n), this.updateComplete),
        () => this.topics !== topics,
        1,
      ))
    )
      return;
    this.state = topics.length ? "ready" : "empty";
  }

  #choose(keyword: string, label?: string): void {
    this.active = this.active === keyword ? null : keyword;
    this.emit("chorus-keyword-selected", { keyword: this.active, ...(this.active && label ? { label } : {}), storeId: this.storeId, productId: this.productId });
  }

  render() {
    if (this.topics.length === 0) {
      return this.state === "loading" ? html`<div aria-hidden="true"><span class="skeleton"></span><span class="skeleton"></span><span class="skeleton"></span></div>` : nothing;
    }
    const { open } = this;
    // The leading topics reported whole inside the reservation (at least one is shown).
    let fits = 1;
    while (this.#ratios[fits]! > 0.99) fits++;
    const n = this.topics.length;
    return html`<section part="topics" aria-labelledby="kw-title" class=${open ? "" : "clip"}>
      <div class="head">
        <h2 id="kw-title">${this.t("keywords.title")}</h2>
        ${open || this.#ratios.some((r) => r <= 0.99) ? this.#toggle(n) : ""}
      </div>
      <div class="topics">
        ${this.topics.slice(0, this.shown).map(
          (t, i) =>
            html`<div class=${i < fits ? "topic" : "topic over"} part="topic" role="group" aria-labelledby="topic-${i}">
              <h3 id="topic-${i}">${t.topic}</h3>
              <ul>
                ${t.keywords.map(
                  (k) =>
                    html`<li>
                      <button part=${this.active === k.name ? "chip active" : "chip"} aria-pressed=${this.active === k.name} @click=${() => this.#choose(k.name, k.label)}>
                        ${k.label ?? k.name} <span class="count" part="count">${formatCount(k.occurrences)}</span><span class="visually-hidden"> ${this.t("keywords.reviews")}</span>
                      </button>
                    </li>`,
                )}
              </ul>
            </div>`,
        )}
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-reviews-keywords": ChorusReviewsKeywords;
  }
}
