/** The `<chorus-review-media>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, nothing, type PropertyValues } from "lit";
import { getJson, type ListReviewMediaResponse, type Review, type ReviewMedia } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { formatDate } from "../internal/format.ts";
import { decodeHtmlText } from "../internal/html-text.ts";
import { stars } from "../internal/stars.ts";
import { tokens } from "../internal/tokens.ts";
import { mediaStyles } from "./chorus-review-media.styles.ts";
import { controls } from "../internal/ui.ts";
import { MEDIA_TEXTS } from "../../server/contract/widget-strings/review-media.ts";

/**
 * @summary Gallery of review photos and videos (`GET …/review_media`, docs/api.md, Endpoints and scopes): a grid of
 * thumbnails (or with `layout="carousel"` one scroll-snapped row with previous/next buttons), newest first,
 * with "Load more", and a lightbox (modal `<dialog>`) showing the photo or video beside its review (stars,
 * title, text, reviewer, verified badge: `GET /stores/{storeId}/reviews/{reviewId}`, once per review; stacked
 * under the photo on narrow screens), with previous/next buttons, arrow-key navigation, a focus trap, Escape
 * to close (focus returns to the thumbnail), alt text and video playback. The lightbox is created on first open.
 * Left/Right (Home/End) on a thumbnail move focus to the previous/next (first/last) thumbnail.
 *
 * No layout shift (issue 8): the element reserves `--chorus-review-media-min-height` from the start
 * (placeholder thumbnails while loading) and never gets shorter than that while it has media; with none it
 * shows nothing and takes no space (`state="empty"`, `display: none`; issue #23 item 5). More media than the reservation grows the
 * element downwards (below the fold on a product page where the gallery sits under the summary).
 *
 * @tag chorus-review-media
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID; or group-id; neither → the whole store
 * @attr group-id - review group ID
 * @attr limit - thumbnails per page (1..25, default 12)
 * @attr layout - `grid` (default: rows of thumbnails) | `carousel` (one row that scrolls sideways: swipe, the
 *   previous/next buttons or the arrow keys; same height as one grid row, so the same reservation)
 * @attr api-base - origin of the Chorus server
 * @attr state - reflected, read-only: `loading` | `ready` | `empty` (no photos or videos: nothing shown) | `error`
 * @event chorus-media-open - `{ mediaId, index }` when the lightbox shows an item
 * @csspart grid - the thumbnail list (the scrolling row with `layout="carousel"`)
 * @csspart scroll-previous - carousel: the button showing the previous thumbnails
 * @csspart scroll-next - carousel: the button showing more thumbnails
 * @csspart thumbnail - a thumbnail button
 * @csspart load-more - the "Load more" button
 * @csspart lightbox - the dialog
 * @csspart lightbox-review - the review beside the photo (stars, title, text, reviewer, badge)
 * @csspart verified-badge - "Verified buyer" / "Verified reviewer" in the lightbox
 * @cssproperty --chorus-media-thumb-size - thumbnail size (default 96px)
 * @cssproperty --chorus-review-media-min-height - space reserved from the start and kept (default one row of thumbnails plus the "Load more" button)
 */
@chorusElement("chorus-review-media")
export class ChorusReviewMedia extends ChorusElement {
  static widget = "media" as const;
  static defaults = MEDIA_TEXTS;
  static properties = {
    limit: { type: Number },
    layout: { reflect: true },
    items: { state: true },
    nextUrl: { state: true },
    loading: { state: true },
    error: { state: true },
    loaded: { state: true },
    current: { state: true },
    state: { reflect: true },
  };
  static styles = [tokens, controls, mediaStyles];

  limit = 12;
  layout: "grid" | "carousel" = "grid";
  items: ReviewMedia[] = [];
  nextUrl?: string;
  loading = false;
  error = "";
  loaded = false;
  current = -1;
  state: "loading" | "ready" | "empty" | "error" = "loading";
  /** The lightbox (while open). */
  get #dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector("dialog")!;
  }
  #opener: HTMLElement | null = null;
  /** The lightbox's reviews by ID: the review, null while it loads, false when it could not be loaded. */
  #reviews = new Map<string, Review | null | false>();
  #abort?: AbortController;

  protected willUpdate(changed: PropertyValues): void {
    if (changed.has("storeId") || changed.has("productId") || changed.has("groupId") || changed.has("limit")) this.refresh();
    this.state = this.items.length ? "ready" : this.error ? "error" : this.loaded ? "empty" : "loading";
  }

  /** Reload the first page. */
  refresh(): void {
    this.items = [];
    this.nextUrl = undefined;
    this.loaded = false;
    if (this.storeId) void this.#load(`${this.scopeUrl}/review_media?limit=${Math.min(25, Math.max(1, this.limit))}`);
  }

  async #load(url: string): Promise<void> {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    this.loading = true;
    this.error = "";
    try {
      const page = await getJson<ListReviewMediaResponse>(url, { signal: abort.signal });
      const firstNew = this.items.length;
      this.items = [...this.items, ...page.reviewMedia];
      this.nextUrl = page.nextUrl;
      this.loaded = true;
      if (firstNew > 0) void this.updateComplete.then(() => this.renderRoot.querySelectorAll<HTMLElement>(".thumb")[firstNew]?.focus());
    } catch (error) {
      if (!abort.signal.aborted) this.error = this.describe(error);
    } finally {
      if (this.#abort === abort) this.loading = false;
    }
  }

  #altOf(m: ReviewMedia): string {
    return m.alt || this.t(m.type === "video" ? "media.videoAlt" : "media.photoAlt", { name: m.reviewer.displayName, rating: m.rating });
  }

  #open(index: number, opener: HTMLElement): void {
    this.#opener = opener;
    this.current = index;
    void this.updateComplete.then(() => {
      if (!this.#dialog.open) this.#dialog.showModal();
      this.renderRoot.querySelector<HTMLElement>(".close")?.focus();
    });
    this.#opened();
  }

  /** The lightbox shows item `current`: load its review (once per review) and say so. */
  #opened(): void {
    const { mediaId, reviewId } = this.items[this.current]!;
    if (!this.#reviews.has(reviewId)) {
      this.#reviews.set(reviewId, null);
      void getJson<{ review: Review }>(`${this.storeUrl}/reviews/${encodeURIComponent(reviewId)}`)
        .then(
          ({ review }) => this.#reviews.set(reviewId, review),
          () => this.#reviews.set(reviewId, false),
        )
        .then(() => this.requestUpdate());
    }
    this.emit("chorus-media-open", { mediaId, index: this.current });
  }

  #go(delta: number): void {
    if (this.current < 0 || !this.items.length) return;
    this.current = (this.current + delta + this.items.length) % this.items.length;
    this.#opened();
  }

  #close(): void {
    if (this.#dialog?.open) this.#dialog.close();
  }

  #onClose(): void {
    const index = this.current;
    this.current = -1;
    const thumb = this.renderRoot.querySelectorAll<HTMLElement>(".thumb")[index] ?? this.#opener;
    thumb?.focus();
  }

  #onKey(event: KeyboardEvent): void {
    if (event.key === "ArrowRight") {
      event.preventDefault();
      this.#go(1);
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      this.#go(-1);
    } else if (event.key === "Tab") {
      // Focus trap: cycle within the dialog's focusable elements.
      const focusable = [...this.#dialog.querySelectorAll<HTMLElement>("button, video[controls], [tabindex='0']")];
      if (!focusable.length) return;
      const active = this.renderRoot instanceof ShadowRoot ? this.renderRoot.activeElement : document.activeElement;
      const i = focusable.indexOf(active as HTMLElement);
      const next = event.shiftKey ? (i <= 0 ? focusable.length - 1 : i - 1) : i === focusable.length - 1 ? 0 : i + 1;
      event.preventDefault();
      focusable[next].focus();
    }
  }

  /** Carousel: scroll the row back (-1) or on (1) by most of its visible width. */
  #scroll(direction: number): void {
    const row = this.renderRoot.querySelector("ul")!;
    row.scrollBy({ left: direction * row.clientWidth * 0.8 });
  }

  /** Left/Right, Home/End on a thumbnail: focus the previous/next, first/last one (focus scrolls it into view). */
  #thumbKey(e: KeyboardEvent): void {
    const thumbs = [...this.renderRoot.querySelectorAll<HTMLElement>(".thumb")];
    const i = thumbs.indexOf(e.target as HTMLElement);
    const to = ({ ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: thumbs.length - 1 } as Record<string, number>)[e.key];
    if (i < 0 || to === undefined || !thumbs[to]) return;
    e.preventDefault();
    thumbs[to].focus();
  }

  /** The review of item `m` beside it in the lightbox: stars and reviewer at once, title and text once loaded. */
  #review(m: ReviewMedia) {
    const r = this.#reviews.get(m.reviewId);
    const verified = r && r.reviewer.isVerified ? this.t(r.reviewer.verifiedStatus === "verified-reviewer" ? "media.verifiedReviewer" : "media.verifiedBuyer") : "";
    return html`<div class="review" part="lightbox-review" tabindex="0">
      <p>${stars(m.rating)}<span class="visually-hidden">${this.t("media.rated", { rating: m.rating })}</span></p>
      ${
        r
          ? html`${r.title ? html`<p class="title">${r.title}</p>` : nothing}
              <p class="body">${decodeHtmlText(r.body)}</p>`
          : r === null
            ? html`<p class="muted">${this.t("media.reviewLoading")}</p>`
            : nothing
      }
      <p><span class="name">${m.reviewer.displayName}</span>${verified ? html` <span class="badge" part="verified-badge">${verified}</span>` : nothing}</p>
    </div>`;
  }

  #renderLightbox() {
    const m = this.items[this.current];
    return html`<dialog
      part="lightbox"
      aria-labelledby="lb-caption"
      @close=${this.#onClose}
      @keydown=${this.#onKey}
      @click=${(e: MouseEvent) => {
        if (e.target === this.#dialog) this.#close();
      }}
    >
      ${
        m
          ? html` <div class="lb">
                <div class="stage">
                  ${
                    m.type === "video" && m.streamUrl
                      ? html`<video src=${m.streamUrl} poster=${m.largeUrl} controls playsinline aria-label=${this.#altOf(m)}></video>`
                      : html`<img src=${m.largeUrl} alt=${this.#altOf(m)} />`
                  }
                </div>
                ${this.#review(m)}
              </div>
              <div class="bar">
                <p class="caption" id="lb-caption">
                  ${this.t("media.caption", { index: this.current + 1, total: `${this.items.length}${this.nextUrl ? "+" : ""}`, name: m.reviewer.displayName, rating: m.rating, date: formatDate(m.dateCreated) })}
                </p>
                <div>
                  <button class="btn secondary" @click=${() => this.#go(-1)} aria-label=${this.t("media.previousLabel")}>${this.t("media.previous")}</button>
                  <button class="btn secondary" @click=${() => this.#go(1)} aria-label=${this.t("media.nextLabel")}>${this.t("media.next")}</button>
                  <button class="btn secondary close" @click=${this.#close}>${this.t("media.close")}</button>
                </div>
              </div>`
          : nothing
      }
    </dialog>`;
  }

  render() {
    if (this.error && !this.items.length) {
      return html`<p class="error" role="alert">${this.error} <button class="btn secondary" @click=${this.refresh}>${this.t("media.retry")}</button></p>`;
    }
    if (!this.loaded) {
      return html`<ul part="grid" aria-busy="true" aria-label=${this.t("media.loading")}>
        ${[0, 1, 2, 3].map(() => html`<li class="skeleton"></li>`)}
      </ul>`;
    }
    if (!this.items.length) return nothing;
    const carousel = this.layout === "carousel";
    return html`
      <ul part="grid" aria-label=${this.t("media.grid")} @keydown=${this.#thumbKey}>
        ${this.items.map(
          (m, i) =>
            html`<li>
              <button
                class="thumb"
                part="thumbnail"
                aria-haspopup="dialog"
                aria-label=${this.t("media.open", { alt: this.#altOf(m) })}
                @click=${(e: Event) => this.#open(i, e.currentTarget as HTMLElement)}
              >
                <img src=${m.thumbnailUrl} alt="" width="120" height="120" loading="lazy" />
                ${m.type === "video" ? html`<span class="play" aria-hidden="true">${this.t("media.videoBadge")}</span>` : nothing}
              </button>
            </li>`,
        )}
      </ul>
      ${
        this.nextUrl || carousel
          ? html`<div class="more">
              ${
                carousel
                  ? html`<button class="btn secondary" part="scroll-previous" aria-label=${this.t("media.rowPrevious")} @click=${() => this.#scroll(-1)}>‹</button>
                      <button class="btn secondary" part="scroll-next" aria-label=${this.t("media.rowNext")} @click=${() => this.#scroll(1)}>›</button>`
                  : nothing
              }
              ${this.nextUrl ? html`<button class="btn secondary" part="load-more" ?disabled=${this.loading} @click=${() => this.#load(this.resolveNextUrl(this.nextUrl!))}>${this.t(this.loading ? "media.loadingMore" : "media.loadMore")}</button>` : nothing}
            </div>`
          : nothing
      }
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing} ${this.current >= 0 ? this.#renderLightbox() : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-review-media": ChorusReviewMedia;
  }
}
