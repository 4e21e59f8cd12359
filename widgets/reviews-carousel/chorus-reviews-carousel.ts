/** The `<chorus-reviews-carousel>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, nothing, type PropertyValues } from "lit";
import { getJson, type ListReviewsResponse, type Review } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { decodeHtmlText } from "../internal/html-text.ts";
import { stars } from "../internal/stars.ts";
import { tokens } from "../internal/tokens.ts";
import { controls } from "../internal/ui.ts";
import { CAROUSEL_TEXTS } from "../../server/contract/widget-strings/reviews-carousel.ts";
import { carouselStyles } from "./chorus-reviews-carousel.styles.ts";

const still = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * `<chorus-reviews-carousel>`: featured recent reviews of a store, a product or a group as a carousel, newest
 * first (List reviews with `orderBy=date desc`, docs/api.md, Query parameters and limits; filtered with `rating=` to `min-rating` and
 * up, and `media=any` with `with-media`). Follows the WAI-ARIA APG carousel pattern: a region with
 * `aria-roledescription="carousel"`, slides `role="group"` / `aria-roledescription="slide"` labelled "N of M",
 * previous/next buttons, a visible "N of M" status (`aria-live="polite"`, off while rotating), arrow keys
 * (Left/Right, Home/End) anywhere in the carousel, swipe (native scroll-snap for touch, a horizontal drag with
 * a mouse or pen). With `autoplay` it moves on every 6 s, with a stop/start button (WCAG 2.2.2),
 * paused while the pointer is over it or focus is in it, and never under `prefers-reduced-motion: reduce`.
 *
 * @summary A carousel of recent, well-rated customer reviews.
 *
 * No layout shift: the element is `--chorus-reviews-carousel-min-height` tall while loading and when ready (the
 * loader and the integration snippet reserve the same before its code loads: server/contract/widget-reservations.ts).
 * No reviews, or none could be loaded: nothing shown and no space taken (`state="empty"`, `display: none`).
 * The store's "Reviews" widget switch shows or hides it.
 *
 * @tag chorus-reviews-carousel
 * @attr store-id - the store's subscriber ID (required)
 * @attr product-id - platform-prefixed product ID; or group-id; neither → the whole store (reviews of every product)
 * @attr group-id - review group ID
 * @attr api-base - Chorus origin; defaults to the origin chorus.js came from
 * @attr min-rating - lowest star rating shown, 1..5 (default 4)
 * @attr with-media - only reviews with a photo or video
 * @attr limit - most reviews shown, 1..25 (default 10)
 * @attr autoplay - move to the next review on its own (not under reduced motion)
 * @attr state - reflected, read-only: `loading` | `ready` | `empty` (no reviews, or the request failed)
 *
 * @csspart carousel - the region (`<section>`)
 * @csspart controls - the row of buttons and status
 * @csspart pause - the stop/start button (with `autoplay`)
 * @csspart previous - the previous button
 * @csspart next - the next button
 * @csspart status - "3 of 10"
 * @csspart track - the scrolling row of slides
 * @csspart slide - one review
 * @csspart stars - the star icons
 * @csspart title - a review's title (one line)
 * @csspart body - a review's text (clamped to `--chorus-reviews-carousel-lines` lines)
 * @csspart meta - reviewer name and badge
 * @csspart reviewer - the reviewer's display name
 * @csspart verified-badge - "Verified buyer" / "Verified reviewer"
 * @csspart product - "Review of {product}" (when the product's name is known)
 * @csspart skeleton - the placeholder while loading
 *
 * @cssproperty --chorus-reviews-carousel-min-height - the element's height, loading and ready (default 18rem)
 * @cssproperty --chorus-reviews-carousel-lines - lines of review text shown (default 3)
 */
@chorusElement("chorus-reviews-carousel")
export class ChorusReviewsCarousel extends ChorusElement {
  static widget = "reviews" as const;
  static defaults = CAROUSEL_TEXTS;
  static properties = {
    minRating: { attribute: "min-rating", type: Number },
    withMedia: { attribute: "with-media", type: Boolean },
    limit: { type: Number },
    autoplay: { type: Boolean },
    state: { reflect: true },
    reviews: { state: true },
    loaded: { state: true },
    current: { state: true },
    stopped: { state: true },
  };
  static styles = [tokens, controls, carouselStyles];

  minRating = 4;
  withMedia = false;
  limit = 10;
  autoplay = false;
  state: "loading" | "ready" | "empty" = "loading";
  reviews: Review[] = [];
  loaded = false;
  current = 0;
  /** The shopper stopped the rotation (the stop/start button). */
  stopped = false;
  /** What holds the rotation now: `pointer` (hovered), `focus` (focus inside). */
  #held = { pointer: false, focus: false };
  #abort?: AbortController;
  #timer?: ReturnType<typeof setInterval>;
  #x = NaN;
  /** Where the track stood when `go` last started a scroll (px), until a scroll ends elsewhere; null: no move pending. */
  #from: number | null = null;

  constructor() {
    super();
    for (const [type, key, on] of [
      ["pointerenter", "pointer", true],
      ["pointerleave", "pointer", false],
      ["focusin", "focus", true],
      ["focusout", "focus", false],
    ] as const) {
      this.addEventListener(type, () => {
        this.#held[key] = on;
        this.requestUpdate();
      });
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.autoplay) this.#timer = setInterval(() => this.#rotating() && this.go(this.current + 1), 6000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
  }

  /** Whether the slides move on their own now: `autoplay`, not stopped, not held by hover or focus, motion allowed. */
  #rotating(): boolean {
    return this.autoplay && !this.stopped && !this.#held.pointer && !this.#held.focus && this.reviews.length > 1 && !still();
  }

  protected willUpdate(changed: PropertyValues): void {
    if (["storeId", "productId", "groupId", "minRating", "withMedia", "limit"].some((k) => changed.has(k))) void this.#load();
    this.state = !this.loaded ? "loading" : this.reviews.length ? "ready" : "empty";
  }

  async #load(): Promise<void> {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    this.loaded = false;
    this.reviews = [];
    this.current = 0;
    if (!this.storeId) return;
    // A limit or min-rating out of range is a 400 answer: nothing shown.
    const query = `orderBy=date%20desc&limit=${this.limit}${this.minRating > 1 ? `&rating=${[1, 2, 3, 4, 5].filter((l) => l >= this.minRating)}` : ""}${this.withMedia ? "&media=any" : ""}`;
    try {
      this.reviews = (await getJson<ListReviewsResponse>(`${this.scopeUrl}/reviews?${query}`, { signal: abort.signal })).reviews;
    } catch {
      if (abort.signal.aborted) return;
    }
    this.loaded = true;
  }

  /** Make slide `index` current (wrapping around) and scroll it into view. */
  go(index: number): void {
    const n = this.reviews.length;
    if (!n) return;
    this.current = (index + n) % n;
    const track = this.renderRoot.querySelector(".track");
    this.#from = track ? track.scrollLeft : null;
    track?.scrollTo({ left: this.current * track.clientWidth });
  }

  /**
   * After a swipe or any scroll has settled: the slide in view (each is the track's width) is current. The end of an
   * earlier scroll that arrives just after `go` started a new one (a click as a scroll ends) finds the track still
   * where `go` found it: that is not a swipe, and the new move stands.
   */
  #settled(track: HTMLElement): void {
    if (this.#from !== null && track.scrollLeft === this.#from) return;
    this.#from = null;
    const index = Math.round(track.scrollLeft / track.clientWidth);
    if (index !== this.current) this.go(index);
  }

  #key(e: KeyboardEvent): void {
    const n = this.reviews.length;
    const to = ({ ArrowLeft: this.current - 1, ArrowRight: this.current + 1, Home: 0, End: n - 1 } as Record<string, number>)[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.go(to);
  }

  #slide(r: Review, i: number, n: number) {
    const verified = r.reviewer.isVerified ? this.t(r.reviewer.verifiedStatus === "verified-reviewer" ? "carousel.verifiedReviewer" : "carousel.verifiedBuyer") : "";
    return html`<div class="slide" part="slide" role="group" aria-roledescription="slide" aria-label=${this.t("carousel.slide", { index: i + 1, total: n })} aria-hidden=${i !== this.current}>
      <p>${stars(r.rating)}<span class="visually-hidden">${this.t("carousel.rated", { rating: r.rating })}</span></p>
      ${r.title ? html`<p class="title" part="title">${r.title}</p>` : nothing}
      <p class="body" part="body">${decodeHtmlText(r.body)}</p>
      <p class="meta" part="meta"><span part="reviewer">${r.reviewer.displayName}</span>${verified ? html`<span class="badge" part="verified-badge">${verified}</span>` : nothing}</p>
      ${r.productName ? html`<p class="product" part="product">${this.t("carousel.product", { product: r.productName })}</p>` : nothing}
    </div>`;
  }

  render() {
    if (!this.loaded) return html`<div class="skeleton" part="skeleton" aria-busy="true"></div>`;
    const n = this.reviews.length;
    if (!n) return nothing;
    const pausable = this.autoplay && !still();
    return html`<section part="carousel" aria-roledescription="carousel" aria-label=${this.t("carousel.region")} @keydown=${this.#key}>
      <div class="bar" part="controls">
        ${pausable ? html`<button class="btn secondary" part="pause" aria-label=${this.t(this.stopped ? "carousel.start" : "carousel.stop")} @click=${() => (this.stopped = !this.stopped)}>${this.stopped ? "▶" : "❚❚"}</button>` : nothing}
        <button class="btn secondary" part="previous" aria-label=${this.t("carousel.previous")} @click=${() => this.go(this.current - 1)}>‹</button>
        <p class="status" part="status" aria-live=${this.#rotating() ? "off" : "polite"}>${this.t("carousel.slide", { index: this.current + 1, total: n })}</p>
        <button class="btn secondary" part="next" aria-label=${this.t("carousel.next")} @click=${() => this.go(this.current + 1)}>›</button>
      </div>
      <div
        class="track"
        part="track"
        tabindex="0"
        @scrollend=${(e: Event) => this.#settled(e.currentTarget as HTMLElement)}
        @pointerdown=${(e: PointerEvent) => (this.#x = e.pointerType === "touch" ? NaN : e.clientX)}
        @pointerup=${(e: PointerEvent) => {
          const dx = e.clientX - this.#x;
          if (Math.abs(dx) > 40) this.go(this.current + (dx < 0 ? 1 : -1));
        }}
      >
        ${this.reviews.map((r, i) => this.#slide(r, i, n))}
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-reviews-carousel": ChorusReviewsCarousel;
  }
}
