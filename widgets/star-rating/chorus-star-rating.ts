/** The `<chorus-star-rating>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, isServer, nothing, type PropertyValues } from "lit";
import { getJson, type ReviewAggregateResponse } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { roundRating } from "../internal/rating.ts";
import { formatRatingNumber } from "../internal/format.ts";
import { stars } from "../internal/stars.ts";
import { STAR_RATING_TEXTS } from "../../server/contract/widget-strings/star-rating.ts";
import { tokens } from "../internal/tokens.ts";
import { starRatingStyles } from "./chorus-star-rating.styles.ts";

type State = "loading" | "ready" | "empty" | "error";

/**
 * `<chorus-star-rating>`: the review aggregate of a product, group or store as a star badge
 * (docs/api.md, Responses: shown with one decimal, half up).
 *
 * @summary Star badge: stars, average to one decimal and review count, with one accessible name.
 *
 * @tag chorus-star-rating
 * @attr store-id - the store's subscriber ID (required)
 * @attr product-id - platform-prefixed product ID (`shopify-1078`)
 * @attr group-id - review group ID; omit product-id and group-id for the whole store
 * @attr api-base - Chorus origin; defaults to the origin chorus.js came from
 * @attr href - makes the badge a link (e.g. `#reviews`)
 * @attr show-empty - with zero reviews, show "No reviews yet" instead of nothing
 * @attr state - reflected, read-only: `loading` | `ready` | `empty` | `error` (for styling)
 *
 * @event chorus-rating-loaded - the aggregate loaded: `{ reviewCount, averageRating }` (averageRating unrounded)
 *
 * @csspart badge - the group carrying the accessible name (`role="img"`)
 * @csspart link - the `<a>` around the badge when `href` is set
 * @csspart stars - the star icons
 * @csspart average - the average, e.g. "4.3"
 * @csspart count - the count, e.g. "(128 reviews)"
 * @csspart empty - the "No reviews yet" text (with `show-empty`)
 *
 * @cssproperty [--chorus-star-rating-height=1.5em] - height reserved while loading and kept (default 1.5em). The badge is
 *   top-aligned in its line (`vertical-align: top`), so the empty placeholder and the drawn badge give the
 *   line the same height: no layout shift when it renders. While loading it is 10em wide; inline in running
 *   text, the words after it move by the difference (put it on its own line, as the demo page does).
 */
@chorusElement("chorus-star-rating")
export class ChorusStarRating extends ChorusElement {
  static widget = "starRating" as const;
  static defaults = STAR_RATING_TEXTS;
  static properties = {
    href: {},
    showEmpty: { attribute: "show-empty", type: Boolean },
    state: { reflect: true },
    reviewCount: { state: true },
    averageRating: { state: true },
  };
  href = "";
  showEmpty = false;
  state: State = "loading";
  reviewCount = 0;
  averageRating = 0;

  #abort?: AbortController;
  #started = false;

  static styles = [tokens, starRatingStyles];

  protected willUpdate(changed: PropertyValues<this>): void {
    if (!this.#started || changed.has("storeId") || changed.has("productId") || changed.has("groupId") || changed.has("apiBase")) {
      this.#started = true;
      void this.#load();
    }
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  async #load(): Promise<void> {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    // A server-rendered snippet carries the aggregate: shown without a request.
    const snapshot = this.storeId ? this.takeSnapshot<ReviewAggregateResponse>(`${this.scopeUrl}/review_aggregate`) : undefined;
    if (snapshot) return this.#show(snapshot);
    this.state = "loading";
    if (!this.storeId) {
      this.state = "error";
      return;
    }
    try {
      const answer = await getJson<ReviewAggregateResponse>(`${this.scopeUrl}/review_aggregate`, { signal: abort.signal });
      if (abort.signal.aborted) return;
      this.#show(answer);
    } catch (error) {
      if (abort.signal.aborted) return;
      // A broken badge beside a product title helps nobody: hide it and tell the developer.
      this.state = "error";
      console.warn("[chorus] star rating could not be loaded", error);
    }
  }

  #show({ reviewAggregate }: ReviewAggregateResponse): void {
    this.reviewCount = reviewAggregate.reviewCount;
    this.averageRating = reviewAggregate.averageRating;
    this.state = reviewAggregate.reviewCount > 0 ? "ready" : "empty";
    if (!isServer) this.emit("chorus-rating-loaded", { reviewCount: this.reviewCount, averageRating: this.averageRating });
  }

  render() {
    if (this.state === "loading" || this.state === "error") return nothing;
    if (this.state === "empty") {
      return this.showEmpty ? this.#wrap(html`<span class="badge empty" part="empty">${this.t("starRating.empty")}</span>`) : nothing;
    }
    const average = formatRatingNumber(roundRating(this.averageRating));
    const count = this.plural("starRating.count", this.reviewCount);
    const badge = html`<span class="badge" part="badge" role="img" aria-label=${this.t("starRating.label", { average, count })}>
      ${stars(this.averageRating)}<span class="average" part="average" aria-hidden="true">${average}</span><span class="count" part="count" aria-hidden="true">(${count})</span>
    </span>`;
    return this.#wrap(badge);
  }

  #wrap(content: unknown) {
    return this.href ? html`<a part="link" href=${this.href}>${content}</a>` : content;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-star-rating": ChorusStarRating;
  }
}
