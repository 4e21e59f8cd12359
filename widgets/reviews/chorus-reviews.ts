/** The `<chorus-reviews>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, isServer, nothing } from "lit";
import { getJson, postJson, type ListReviewsResponse, type Review, type ReviewAggregateResponse, type ReviewOrder } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { reviewLocaleFor } from "../../server/contract/review-locales.ts";
import { formatCount, formatDate, formatRatingNumber } from "../internal/format.ts";
import { roundRating } from "../internal/rating.ts";
import { REVIEWS_TEXTS } from "../../server/contract/widget-strings/reviews.ts";
import { stars } from "../internal/stars.ts";
import { tokens } from "../internal/tokens.ts";
import { reviewsStyles } from "./chorus-reviews.styles.ts";
import { nextTask } from "../internal/tasks.ts";
import { controls, showInSteps } from "../internal/ui.ts";
import { rememberVisitorId, visitorId } from "../internal/visitor.ts";
import { decodeHtmlText } from "../internal/html-text.ts";

/**
 * The seven orders of docs/api.md, Query parameters and limits, with the ID of their text in the words shoppers know (the API's
 * eighth, `unhelpful desc`, is for Okendo's clients: docs/api.md, Okendo-compatible).
 */
const ORDER_LABELS: Record<Exclude<ReviewOrder, "unhelpful desc">, string> = {
  "date desc": "reviews.order.dateDesc",
  "date asc": "reviews.order.dateAsc",
  "rating desc": "reviews.order.ratingDesc",
  "rating asc": "reviews.order.ratingAsc",
  "helpful desc": "reviews.order.helpfulDesc",
  "helpful asc": "reviews.order.helpfulAsc",
  "has_media desc": "reviews.order.hasMediaDesc",
};

type VoteKind = "helpful" | "unhelpful";
/** Interface 1 (search): matched ranges, UTF-16 code units [start, end) of the title and the decoded body. */
type Ranges = [number, number][];
type Shown = Review & { highlights?: { title?: Ranges; body?: Ranges } };
type Attribute = { title: string; options: string[] };
/** Breakdown rows, top to bottom. */
const LEVELS = [5, 4, 3, 2, 1];
/** The shopper's vote on one review: `vote` is the one pending or counted. */
type Vote = { state: "pending" | "done" | "error"; vote: VoteKind; message?: string };
type Status = "loading" | "ready" | "error";

/** A review with every part of a card (partial star, title, badge, body, media, reply), never shown: see firstUpdated. */
const WARM_UP = {
  reviewId: "",
  rating: 4.5,
  title: "-",
  body: "-",
  dateCreated: "2024-01-01",
  isRecommended: true,
  helpfulCount: 2,
  unhelpfulCount: 0,
  reviewer: { displayName: "-", isVerified: true },
  media: [{ type: "image", thumbnailUrl: "", fullSizeUrl: "" }],
  reply: { body: "-" },
} as unknown as Review;
/** The same card without its optional parts (title, badge, recommendation, media, reply). */
const WARM_UP_PLAIN = { ...WARM_UP, title: "", isRecommended: false, reviewer: { displayName: "-", isVerified: false }, media: [], reply: undefined } as unknown as Review;

/**
 * `<chorus-reviews>`: the published reviews of a product, a group or the whole store
 * (docs/api.md, Endpoints and scopes), with a sort control, review cards, helpful / not helpful votes
 * (docs/writes.md, Helpful votes: one per visitor, sent with the localStorage visitor ID of widgets/internal/visitor.ts;
 * switching moves the vote), "Load more" over `nextUrl`, and loading / empty / error states.
 * Shopper filters (issue #23 item 2): a rating breakdown from the scope's `review_aggregate` whose rows toggle
 * `rating=N` (several combine), "With photos/videos" (`media=any`), "Verified buyers" (`verified=true`), the
 * product's attributes (`GET …/attributes`, shown only when it has some; `shopperAttributes=Title,option`) and a
 * search over title and body (`search=`, debounced, Enter applies at once) whose matched words are `<mark>`ed
 * from the answer's `highlights` ranges; every filter is a query parameter of the list and of each `nextUrl`.
 * Cards show a review's product attributes and its attribute scales (`attributesWithRating`).
 *
 * @summary A list of published customer reviews with a rating breakdown, filters, search, sorting, paging and helpful votes.
 *
 * @tag chorus-reviews
 * @attr store-id - the store's subscriber ID (required)
 * @attr product-id - platform-prefixed product ID (`shopify-1078`); enables "Write a review"
 * @attr group-id - review group ID; omit product-id and group-id for the whole store
 * @attr api-base - Chorus origin; defaults to the origin chorus.js came from
 * @attr order-by - initial order: `date desc` (default), `date asc`, `rating desc`, `rating asc`, `helpful desc`, `helpful asc`, `has_media desc`
 * @attr page-size - reviews per page, 1..25 (default 25; out-of-range values are clamped)
 * @attr locale - the language to translate reviews into: any language tag, sent as the `locale` query parameter in
 *   a code the API accepts (`de` → `de-formal`, `pt-BR` → `pt-br`: server/contract/widget-locales.ts `reviewLocaleFor`);
 *   a language the API cannot translate into sends none (reviews in their original text)
 * @attr keyword - reflected; sent as the `keyword` query parameter; also set by `chorus-keyword-selected` on `document`
 * @attr state - reflected, read-only: `loading` | `ready` | `error` | `empty` (no reviews at all: one line inviting the
 *   first review, "No reviews yet" and the "Write a review" button, with no sort and no reserved height)
 *
 * @event chorus-reviews-loaded - a page loaded: `{ count, hasMore, orderBy }` (count = cards shown)
 * @event chorus-reviews-sort - the shopper changed the order: `{ orderBy }`
 * @event chorus-vote - the server counted a vote: `{ reviewId, vote, helpfulCount, unhelpfulCount }`
 *
 * @csspart toolbar - the row holding the sort control and the "Write a review" button
 * @csspart sort-label - the label of the sort control
 * @csspart sort - the sort `<select>`
 * @csspart write-review - the "Write a review" button
 * @csspart form-region - the region that holds `<chorus-review-form>`
 * @csspart list - the `<ol>` of reviews
 * @csspart card - one review (`<article>`)
 * @csspart rating - a card's star rating (stars + hidden text)
 * @csspart stars - the star icons
 * @csspart title - a review's title
 * @csspart meta - reviewer name, badge and date line
 * @csspart reviewer - the reviewer's display name
 * @csspart verified-badge - "Verified buyer" / "Verified reviewer"
 * @csspart incentive-note - "Received a reward for this review" on a review whose reviewer received points or a coupon for it (`isIncentivized`)
 * @csspart date - the review date (`<time>`)
 * @csspart body - the review text
 * @csspart recommends - "Recommends this product"
 * @csspart media - the media thumbnails row
 * @csspart media-link - a link to a full-size image or video
 * @csspart media-thumbnail - a thumbnail `<img>`
 * @csspart reply - the merchant's reply
 * @csspart helpful - the helpful count and vote button row
 * @csspart helpful-count - "N people found this helpful"
 * @csspart vote-button - the "Helpful" and "Not helpful" buttons (light: text with a hairline on hover)
 * @csspart vote-error - the inline error after a failed vote
 * @csspart load-more - the "Load more reviews" button
 * @csspart open - the button over the lower edge of the first page's box that opens it (see "No layout shift" in docs/widgets.md)
 * @csspart header - the reviews header: the score beside the rating breakdown
 * @csspart score - the average (large), its stars and the number of reviews
 * @csspart average - the average rating, e.g. "4.3"
 * @csspart total - the number of reviews, e.g. "1,024 reviews"
 * @csspart breakdown - the rating breakdown: five rows, 5 to 1 stars
 * @csspart breakdown-row - one row (a toggle button, `aria-pressed`): the stars, a bar and the count of that rating
 * @csspart breakdown-bar - a row's bar (its fill is the share of all reviews)
 * @csspart filters - the row of search box and filter toggles
 * @csspart search - the search form
 * @csspart search-input - the search box (`<input type="search">`)
 * @csspart search-clear - the button clearing the search
 * @csspart filter-chip - the "With photos/videos" and "Verified buyers" toggle buttons (`aria-pressed`)
 * @csspart attribute-filter - a product attribute's `<select>` (only for products whose reviews have attributes)
 * @csspart clear-filters - the "Clear filters" button (while a filter or search applies; also under an empty result)
 * @csspart match - a matched word of a search (`<mark>`)
 * @csspart attributes - a card's product attributes ("Title: value" each)
 * @csspart attribute-scale - a card's rated attribute: "Title: label nearest the value", then the scale (a bar filled to the value) between its end labels
 * @csspart skeleton - a placeholder card while loading
 * @csspart empty - the "No reviews yet" message (with no reviews at all: the invitation line holding it and the button)
 * @csspart error - the error message box
 * @csspart retry - the Retry button
 *
 * @cssproperty --chorus-reviews-min-height - space reserved for the list while the first page loads (default 28rem); the
 *   sort toolbar above it takes 3.75rem more (one row, at least 2.75rem, and its 1rem margin)
 */
@chorusElement("chorus-reviews")
export class ChorusReviews extends ChorusElement {
  static widget = "reviews" as const;
  static defaults = REVIEWS_TEXTS;
  static properties = {
    orderBy: { attribute: "order-by" },
    pageSize: { attribute: "page-size", type: Number },
    locale: {},
    keyword: { reflect: true },
    status: { state: true },
    reviews: { state: true },
    nextUrl: { state: true },
    errorMessage: { state: true },
    loadingMore: { state: true },
    moreError: { state: true },
    announcement: { state: true },
    votes: { state: true },
    formOpen: { state: true },
    formReady: { state: true },
    state: { reflect: true },
    shown: { state: true },
    aggregate: { state: true },
    filterAttributes: { state: true },
    ratings: { state: true },
    media: { state: true },
    verified: { state: true },
    picked: { state: true },
    search: { state: true },
    query: { state: true },
    browsing: { state: true },
    open: { state: true },
  };
  orderBy: string = "date desc";
  pageSize = 25;
  locale = "";
  keyword = "";

  status: Status = "loading";
  reviews: Review[] = [];
  nextUrl?: string;
  errorMessage = "";
  loadingMore = false;
  moreError = "";
  announcement = "";
  votes: Record<string, Vote> = {};
  formOpen = false;
  formReady = false;
  state: "loading" | "ready" | "error" | "empty" = "loading";
  /** How many of `reviews` are rendered: cards are added a few per task (issue 8: no long task). */
  shown = 0;
  /** The scope's aggregate (breakdown counts); null until loaded or when it fails. */
  aggregate: ReviewAggregateResponse["reviewAggregate"] | null = null;
  /** The product's filterable attributes (`GET …/attributes`). */
  filterAttributes: Attribute[] = [];
  /** Filters (each a query parameter of the list): star levels, media, verified buyers, attribute title → option, search. */
  ratings: number[] = [];
  media = false;
  verified = false;
  picked: Record<string, string> = {};
  search = "";
  /** The search box's text (applied to `search` after a pause or on Enter). */
  query = "";
  /** Whether the list has shown reviews: the breakdown and filters stay from then on (also over an empty result). */
  browsing = false;
  /**
   * Whether the first page's box may grow (no layout shift, docs/widgets.md): until then the header, filters and
   * cards stay inside the box the element had while loading (`--chorus-reviews-min-height`), with a button that opens
   * it. It opens on that button, on keyboard focus inside it, or by itself once its lower edge is below the
   * viewport (the page content it then moves is out of view). A server-rendered first page has no box.
   */
  open = false;

  /**
   * The list state's requests: one controller per first page (configuration and filters), shared by its "Load more"
   * requests, aborted when the list is requested again; an answer of an aborted list state is never applied.
   */
  #abort?: AbortController;
  /** The aggregate URL last requested (a new scope requests the aggregate and attributes again). */
  #aggregateFor = "";
  #debounce?: ReturnType<typeof setTimeout>;
  /** The first page's URL last requested: a change of any attribute it depends on reloads the list. */
  #url = "";
  #revealRun = 0;
  /** Watches the end of the first page's box: open it while that is below the viewport. */
  #fold = isServer
    ? undefined
    : new IntersectionObserver((entries) => {
        for (const e of entries) if (!e.isIntersecting && e.boundingClientRect.top >= (e.rootBounds?.bottom ?? innerHeight)) this.#open();
      });

  #open = (): void => {
    if (this.open) return;
    this.open = true;
    this.#fold?.disconnect();
  };

  protected updated(): void {
    const end = this.open ? null : this.renderRoot.querySelector(".fold-end");
    if (end) this.#fold?.observe(end);
  }

  static styles = [tokens, controls, reviewsStyles];

  /** The sort toolbar, then the whole first render, in separate tasks (see ChorusElement.scheduleUpdate). */
  protected warmUps(): unknown[] {
    return [this.#renderToolbar(), this.render()];
  }

  /**
   * While the first page loads: prepare a card's templates off the page, so showing the first review costs
   * less. Two tasks (issue 8: as one, the whole card took 40–55 ms at 4x CPU): a plain card (WARM_UP_PLAIN),
   * then one with every optional part (WARM_UP), whose shared templates are then already prepared.
   */
  protected firstUpdated(): void {
    void nextTask()
      .then(() => this.warmUp(this.#renderReview(WARM_UP_PLAIN)))
      .then(nextTask)
      .then(() => this.warmUp(this.#renderReview(WARM_UP)));
  }

  connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener("chorus-keyword-selected", this.#onKeyword);
    // Put back on a page: watch the box's end again.
    if (this.hasUpdated) this.updated();
    // Request the first page at once: the first render waits for a few tasks (ChorusElement.scheduleUpdate).
    if (!this.#url || (this.#abort?.signal.aborted && this.status !== "ready")) void this.#loadFirstPage();
    else if (this.#abort?.signal.aborted) {
      // Removed and put back while "Load more" loaded (disconnectedCallback aborted it): the list stays, the next press loads.
      this.#abort = new AbortController();
      this.loadingMore = false;
    }
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("chorus-keyword-selected", this.#onKeyword);
    this.#abort?.abort();
    this.#fold?.disconnect();
  }

  /** The chosen keyword as the keywords element shows it (in the page's language), for the "no reviews" line. */
  #keywordLabel = "";

  /** Apply a keyword chosen in `<chorus-reviews-keywords>` when it targets this store and scope. */
  #onKeyword = (event: Event): void => {
    const detail = (event as CustomEvent<{ keyword: string | null; label?: string; storeId: string; productId?: string; groupId?: string }>).detail;
    if (!detail || detail.storeId !== this.storeId) return;
    if ((detail.productId ?? "") !== this.productId || (detail.groupId ?? "") !== this.groupId) return;
    this.keyword = detail.keyword ?? "";
    this.#keywordLabel = detail.keyword ? (detail.label ?? detail.keyword) : "";
  };

  protected willUpdate(): void {
    if (this.#firstPageUrl() !== this.#url) void this.#loadFirstPage();
    if (this.storeId && this.#aggregateFor !== this.scopeUrl) this.#loadAggregate();
    if (this.reviews.length) this.browsing = true;
    this.state = this.status !== "ready" ? this.status : this.reviews.length || this.keyword || this.#filtered ? "ready" : "empty";
  }

  /** Whether a filter or search applies. */
  get #filtered(): boolean {
    return Boolean(this.ratings.length || this.media || this.verified || this.search || Object.values(this.picked).some(Boolean));
  }

  /**
   * The scope's aggregate and, for a product, its filterable attributes: from a server-rendered snapshot, else
   * requested (not on the server). Failures leave the breakdown without counts and no attribute filters.
   */
  #loadAggregate(): void {
    const scope = (this.#aggregateFor = this.scopeUrl);
    this.aggregate = null;
    this.filterAttributes = [];
    const load = <T>(url: string, use: (body: T) => void) => {
      const taken = this.takeSnapshot<T>(url);
      if (taken) use(taken);
      else if (!isServer)
        void getJson<T>(url).then(
          (body) => this.#aggregateFor === scope && use(body),
          () => {},
        );
    };
    load<ReviewAggregateResponse>(`${scope}/review_aggregate`, (b) => (this.aggregate = b.reviewAggregate));
    // Options with a comma cannot be sent (`Title,option` splits at commas).
    if (this.productId)
      load<{ productAttributes: Attribute[] }>(
        `${scope}/attributes`,
        (b) => (this.filterAttributes = b.productAttributes.map((a) => ({ ...a, options: a.options.filter((o) => !o.includes(",")) })).filter((a) => a.options.length)),
      );
  }

  get #order(): ReviewOrder {
    return (this.orderBy in ORDER_LABELS ? this.orderBy : "date desc") as ReviewOrder;
  }

  get #limit(): number {
    const n = Math.trunc(Number(this.pageSize));
    return Number.isFinite(n) ? Math.min(25, Math.max(1, n)) : 25;
  }

  /** URL of the first page for the current configuration. */
  #firstPageUrl(): string {
    const params = new URLSearchParams({ limit: String(this.#limit), orderBy: this.#order });
    const locale = reviewLocaleFor(this.locale);
    if (locale) params.set("locale", locale);
    if (this.keyword) params.set("keyword", this.keyword);
    if (this.ratings.length) params.set("rating", [...this.ratings].sort().join());
    if (this.media) params.set("media", "any");
    if (this.verified) params.set("verified", "true");
    if (this.search) params.set("search", this.search);
    for (const [title, option] of Object.entries(this.picked)) if (option) params.append("shopperAttributes", `${title},${option}`);
    return `${this.scopeUrl}/reviews?${params}`;
  }

  /** Absolute URL of the next page; adds the first page's parameters (keyword, locale, filters) the server's nextUrl does not carry. */
  #nextPageUrl(nextUrl: string): string {
    const url = new URL(this.resolveNextUrl(nextUrl));
    const has = new Set(url.searchParams.keys());
    for (const [name, value] of new URL(this.#firstPageUrl()).searchParams) if (!has.has(name)) url.searchParams.append(name, value);
    return url.href;
  }

  async #loadFirstPage(): Promise<void> {
    this.#url = this.#firstPageUrl();
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    // A "Load more" in flight is cancelled with the list it extended, and the old list's cursor is dropped: its
    // "Load more" would append a page of the filters before to the new list.
    this.moreError = "";
    this.loadingMore = false;
    this.nextUrl = undefined;
    // A server-rendered snippet carries the first page: all of it shown at once, without a request.
    const first = this.storeId ? this.takeSnapshot<ListReviewsResponse>(this.#url) : undefined;
    if (first) {
      // Its first page is in the page's HTML at its full height (and readable without JavaScript): no box.
      this.open = true;
      this.reviews = first.reviews;
      this.shown = first.reviews.length;
      this.nextUrl = first.nextUrl;
      this.votes = {};
      this.status = "ready";
      return;
    }
    this.status = "loading";
    if (!this.storeId) {
      this.status = "error";
      this.errorMessage = this.t("reviews.missingStore");
      return;
    }
    try {
      const page = await getJson<ListReviewsResponse>(this.#firstPageUrl(), { signal: abort.signal });
      if (abort.signal.aborted) return;
      this.reviews = page.reviews;
      this.shown = 0;
      this.nextUrl = page.nextUrl;
      this.votes = {};
      this.status = "ready";
      if (this.#filtered) this.announcement = this.plural("reviews.shown", page.reviews.length);
      if (!(await this.#reveal())) return;
      this.#loaded(page);
    } catch (error) {
      if (abort.signal.aborted) return;
      this.status = "error";
      this.errorMessage = this.describe(error);
    }
  }

  /**
   * Append the page after the last one shown. One at a time (a press while a page loads does nothing), under the
   * list state's AbortController: a filter, search or order changed meanwhile aborts it and its answer is dropped.
   */
  async #loadMore(): Promise<void> {
    const abort = this.#abort;
    if (!this.nextUrl || this.loadingMore || this.status !== "ready" || !abort || abort.signal.aborted) return;
    this.loadingMore = true;
    this.moreError = "";
    try {
      const page = await getJson<ListReviewsResponse>(this.#nextPageUrl(this.nextUrl), { signal: abort.signal });
      if (abort.signal.aborted) return;
      const seen = new Set(this.reviews.map((r) => r.reviewId));
      const added = page.reviews.filter((r) => !seen.has(r.reviewId));
      const firstNew = this.reviews.length;
      this.reviews = [...this.reviews, ...added];
      this.nextUrl = page.nextUrl;
      this.announcement = this.plural("reviews.moreLoaded", added.length);
      const revealed = this.#reveal();
      await this.updateComplete;
      // The button may be gone (last page): move focus to the first new review so keyboard users continue reading there.
      this.renderRoot.querySelectorAll<HTMLElement>("article")[firstNew]?.focus();
      if (!(await revealed)) return;
      this.#loaded(page);
    } catch (error) {
      if (!abort.signal.aborted) this.moreError = this.describe(error);
    } finally {
      if (!abort.signal.aborted) this.loadingMore = false;
    }
  }

  /** Tell the page a page of reviews is shown (`chorus-reviews-loaded`). */
  #loaded(page: ListReviewsResponse): void {
    this.emit("chorus-reviews-loaded", { count: this.reviews.length, hasMore: Boolean(page.nextUrl), orderBy: this.#order });
  }

  /** Render the cards from `shown` up to all of `reviews`, a few per task (ui.ts showInSteps). False when superseded. */
  #reveal(): Promise<boolean> {
    const run = ++this.#revealRun;
    return showInSteps(
      this.shown,
      this.reviews.length,
      (n) => ((this.shown = n), this.updateComplete),
      () => run !== this.#revealRun,
    );
  }

  #onSort(event: Event): void {
    const value = (event.target as HTMLSelectElement).value;
    if (value === this.orderBy) return;
    this.orderBy = value;
    this.announcement = "";
    this.emit("chorus-reviews-sort", { orderBy: value });
  }

  /**
   * POST a vote (docs/writes.md, Helpful votes) with this browser's signed visitor ID (kept from the previous vote's
   * answer, stored again from this one) and show the server's counts.
   * Ignored while a vote of this review is pending or when it repeats the counted vote. Never throws.
   */
  async #vote(review: Review, vote: VoteKind): Promise<void> {
    const current = this.votes[review.reviewId];
    if (current?.state === "pending" || (current?.state === "done" && current.vote === vote)) return;
    this.votes = { ...this.votes, [review.reviewId]: { state: "pending", vote } };
    try {
      const id = visitorId();
      const counts = await postJson<{ helpfulCount: number; unhelpfulCount: number; visitorId?: string }>(
        `${this.storeUrl}/reviews/${encodeURIComponent(review.reviewId)}/votes`,
        id ? { vote, visitorId: id } : { vote },
      );
      rememberVisitorId(counts?.visitorId);
      this.reviews = this.reviews.map((r) =>
        r.reviewId === review.reviewId && counts && typeof counts.helpfulCount === "number"
          ? { ...r, helpfulCount: counts.helpfulCount, unhelpfulCount: counts.unhelpfulCount ?? r.unhelpfulCount }
          : r,
      );
      this.votes = { ...this.votes, [review.reviewId]: { state: "done", vote } };
      this.announcement = this.t("reviews.voteCounted");
      this.emit("chorus-vote", { reviewId: review.reviewId, vote, helpfulCount: counts.helpfulCount, unhelpfulCount: counts.unhelpfulCount });
    } catch (error) {
      this.votes = { ...this.votes, [review.reviewId]: { state: "error", vote, message: this.t("reviews.voteFailed", { error: this.describe(error) }) } };
    }
  }

  async #toggleForm(): Promise<void> {
    if (this.formOpen) {
      this.formOpen = false;
      return;
    }
    this.formOpen = true;
    try {
      await import("../review-form/chorus-review-form.ts");
      await customElements.whenDefined("chorus-review-form");
    } catch {
      /* the region still shows the element; the loader error is in the console */
    }
    this.formReady = true;
    await this.updateComplete;
    const form = this.renderRoot.querySelector<HTMLElement & { updateComplete?: Promise<unknown> }>("chorus-review-form");
    await form?.updateComplete;
    const focusable = form?.shadowRoot?.querySelector<HTMLElement>("input, select, textarea, button, [tabindex]");
    (focusable ?? this.renderRoot.querySelector<HTMLElement>(".form-region"))?.focus();
  }

  #writeButton() {
    return html`<button class="btn secondary" part="write-review" aria-expanded=${this.formOpen} aria-controls="form-region" @click=${this.#toggleForm}>${this.t("reviews.writeReview")}</button>`;
  }

  #renderToolbar() {
    // No reviews at all: one line inviting the first review instead of the sort toolbar (issue #23 item 5).
    if (this.state === "empty") {
      return html`<div class="invite" part="empty">
          <p>${this.t("reviews.empty")}</p>
          ${this.productId ? this.#writeButton() : nothing}
        </div>
        ${this.#formRegion()}`;
    }
    return html`<div class="toolbar" part="toolbar">
        <div class="sort">
          <label part="sort-label" for="sort">${this.t("reviews.sortLabel")}</label>
          <select id="sort" part="sort" .value=${this.#order} @change=${this.#onSort}>
            ${Object.entries(ORDER_LABELS).map(([value, label]) => html`<option value=${value} ?selected=${value === this.#order}>${this.t(label)}</option>`)}
          </select>
        </div>
        ${this.productId ? this.#writeButton() : nothing}
      </div>
      ${this.#formRegion()}`;
  }

  #formRegion() {
    return html`${
      this.productId
        ? html`<div id="form-region" class="form-region" part="form-region" role="region" aria-label=${this.t("reviews.writeReview")} tabindex="-1">
            ${this.formOpen && this.formReady ? html`<chorus-review-form store-id=${this.storeId} product-id=${this.productId} api-base=${this.apiBase || nothing}></chorus-review-form>` : nothing}
          </div>`
        : nothing
    }`;
  }

  #renderReview(r: Shown) {
    const vote = this.votes[r.reviewId];
    const titleId = `t-${r.reviewId}`;
    const verified = r.reviewer.isVerified ? this.t(r.reviewer.verifiedStatus === "verified-reviewer" ? "reviews.verifiedReviewer" : "reviews.verifiedBuyer") : "";
    return html`<li>
      <article
        part="card"
        data-review-id=${r.reviewId}
        tabindex="-1"
        aria-labelledby=${r.title ? titleId : nothing}
        aria-label=${r.title ? nothing : this.t("reviews.reviewBy", { name: r.reviewer.displayName })}
      >
        <div class="head">
          <span part="rating">${stars(r.rating)}<span class="visually-hidden">${this.t("reviews.rated", { rating: r.rating })}</span></span>
          ${r.title ? html`<h3 part="title" id=${titleId}>${this.#marked(r.title, r.highlights?.title)}</h3>` : nothing}
        </div>
        <p class="meta" part="meta">
          <span part="reviewer">${r.reviewer.displayName}</span>
          ${verified ? html`<span class="badge" part="verified-badge">${verified}</span>` : nothing}
          <time part="date" datetime=${r.dateCreated}>${formatDate(r.dateCreated)}</time>
        </p>
        ${r.body ? html`<p class="body" part="body">${this.#marked(decodeHtmlText(r.body), r.highlights?.body)}</p>` : nothing}
        ${r.productAttributes?.length ? html`<p class="meta" part="attributes">${r.productAttributes.map((a) => html`<span>${this.t("reviews.attributeValue", a)}</span>`)}</p>` : nothing}
        ${r.attributesWithRating?.map((a) => this.#scale(a)) ?? nothing} ${r.isIncentivized ? html`<p class="incentive" part="incentive-note">${this.t("reviews.incentivized")}</p>` : nothing}
        ${r.isRecommended ? html`<p class="recommends" part="recommends">${this.t("reviews.recommends")}</p>` : nothing}
        ${
          r.media.length
            ? html`<ul class="media" part="media" aria-label=${this.t("reviews.mediaList")}>
                ${r.media.map((m, i) => {
                  const label = m.alt || this.t(m.type === "video" ? "reviews.videoAlt" : "reviews.photoAlt", { index: i + 1, name: r.reviewer.displayName });
                  return html`<li>
                    <a part="media-link" href=${m.type === "video" ? (m.streamUrl ?? m.fullSizeUrl) : m.fullSizeUrl} target="_blank" rel="noopener">
                      <img part="media-thumbnail" src=${m.thumbnailUrl} alt=${this.t("reviews.opensFullSize", { alt: label })} width="72" height="72" loading="lazy" />
                    </a>
                  </li>`;
                })}
              </ul>`
            : nothing
        }
        ${
          r.reply
            ? html`<div class="reply" part="reply">
                <p class="label">${this.t("reviews.reply")}</p>
                <p>${decodeHtmlText(r.reply.body)}</p>
              </div>`
            : nothing
        }
        <div class="helpful" part="helpful">
          <span part="helpful-count">${this.plural("reviews.helpfulCount", r.helpfulCount)}</span>
          ${this.#voteButton(r, "helpful", vote)}${this.#voteButton(r, "unhelpful", vote)}
          ${vote?.state === "error" ? html`<span class="error" part="vote-error" role="alert">${vote.message}</span>` : nothing}
        </div>
      </article>
    </li>`;
  }

  /** One vote button; the counted vote reads "Thanks for your vote" and is disabled (repeating changes nothing). */
  #voteButton(r: Review, kind: VoteKind, vote: Vote | undefined) {
    const counted = vote?.state === "done" && vote.vote === kind;
    return html`<button class="vote" part="vote-button" aria-disabled=${vote?.state === "pending" || counted} @click=${() => this.#vote(r, kind)}>
      ${counted ? this.t("reviews.voteThanks") : kind === "helpful" ? this.t("reviews.voteHelpful") : this.t("reviews.voteUnhelpful", { count: r.unhelpfulCount })}<span class="visually-hidden"
        >: ${r.title || this.t("reviews.reviewBy", { name: r.reviewer.displayName })}</span
      >
    </button>`;
  }

  /** Toggle star level `n` in the rating filter. */
  #toggleRating(n: number): void {
    this.ratings = this.ratings.includes(n) ? this.ratings.filter((r) => r !== n) : [...this.ratings, n];
  }

  /** Apply the search box's text now (Enter, or the pause after typing); 1..100 characters (`maxlength`). */
  #applySearch(): void {
    clearTimeout(this.#debounce);
    // Text without a letter or digit finds nothing (the API answers 400): no search.
    this.search = /[\p{L}\p{N}]/u.test(this.query) ? this.query.trim() : "";
  }

  #onQuery(event: Event): void {
    this.query = (event.target as HTMLInputElement).value;
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => this.#applySearch(), 400);
  }

  /** Clear every filter and the search (focus moves to the search box: the button pressed is gone). */
  #clear(): void {
    this.ratings = [];
    this.media = this.verified = false;
    this.picked = {};
    this.#clearSearch();
  }

  #clearSearch(): void {
    this.query = "";
    this.#applySearch();
    void this.updateComplete.then(() => this.renderRoot.querySelector("input")?.focus());
  }

  /** `text` with the `ranges` (sorted, [start, end)) wrapped in `<mark>`: slices of the text, never HTML. */
  #marked(text: string, ranges: Ranges = []): unknown {
    let at = 0;
    const out: unknown[] = [];
    for (const [start, end] of ranges) {
      if (start < at || end <= start) continue;
      out.push(text.slice(at, start), html`<mark part="match">${text.slice(start, end)}</mark>`);
      at = end;
    }
    out.push(text.slice(at));
    return out;
  }

  #chip(label: string, pressed: boolean, toggle: () => void) {
    return html`<button class="chip" part="filter-chip" aria-pressed=${pressed} @click=${toggle}>${this.t(label)}</button>`;
  }

  /**
   * The reviews header (the average large, its stars and the number of reviews, beside the rating breakdown, whose
   * rows filter the list by their rating), then the filter row. Before the aggregate arrives the header keeps its
   * size: the score is an empty box of the same height, the rows have no counts.
   */
  #renderFilters() {
    const a = this.aggregate;
    const levels = a?.reviewCountByLevel as Record<string, number> | undefined;
    const average = a?.reviewCount ? roundRating(a.averageRating) : 0;
    return html`<div class="header" part="header">
        <div class="score" part="score">
          ${
            a?.reviewCount
              ? html`<span class="average" part="average" aria-hidden="true">${formatRatingNumber(average)}</span>
                  <span>${stars(average, 22)}<span class="visually-hidden">${this.t("reviews.rated", { rating: formatRatingNumber(average) })}</span></span>
                  <span class="total" part="total">${this.plural("reviews.count", a.reviewCount)}</span>`
              : nothing
          }
        </div>
        <div class="breakdown" part="breakdown" role="group" aria-label=${this.t("reviews.breakdown")}>
          ${LEVELS.map((n) => {
            const count = levels?.[`level${n}Count`];
            // The name is the hidden sentence ("5 out of 5 stars: 12 reviews"); the short visible parts are hidden from it.
            return html`<button part="breakdown-row" aria-pressed=${this.ratings.includes(n)} ?disabled=${count === 0} @click=${() => this.#toggleRating(n)}>
              <span aria-hidden="true">${n} ★</span><span class="bar" part="breakdown-bar"><span style="width:${a?.reviewCount ? (100 * (count ?? 0)) / a.reviewCount : 0}%"></span></span
              ><span class="count" aria-hidden="true">${count === undefined ? "" : formatCount(count)}</span>
              <span class="visually-hidden">${count === undefined ? this.t("reviews.rated", { rating: n }) : this.plural("reviews.ratingRow", count, { rating: n })}</span>
            </button>`;
          })}
        </div>
      </div>
      <div class="filters" part="filters" role="group" aria-label=${this.t("reviews.filters")}>
        <form role="search" part="search" @submit=${(e: Event) => (e.preventDefault(), this.#applySearch())}>
          <input type="search" part="search-input" maxlength="100" aria-label=${this.t("reviews.search")} placeholder=${this.t("reviews.search")} .value=${this.query} @input=${this.#onQuery} />
          ${this.query ? html`<button type="button" class="chip" part="search-clear" aria-label=${this.t("reviews.clearSearch")} @click=${this.#clearSearch}>×</button>` : nothing}
        </form>
        ${this.#chip("reviews.filterMedia", this.media, () => (this.media = !this.media))} ${this.#chip("reviews.filterVerified", this.verified, () => (this.verified = !this.verified))}
        ${this.filterAttributes.map(
          (attr) =>
            html`<label class="chip"
              >${attr.title}
              <select part="attribute-filter" .value=${this.picked[attr.title] ?? ""} @change=${(e: Event) => (this.picked = { ...this.picked, [attr.title]: (e.target as HTMLSelectElement).value })}>
                <option value="">${this.t("reviews.attributeAll")}</option>
                ${attr.options.map((o) => html`<option ?selected=${this.picked[attr.title] === o}>${o}</option>`)}
              </select></label
            >`,
        )}
        ${this.#filtered ? this.#clearButton() : nothing}
      </div>`;
  }

  #clearButton() {
    return html`<button class="btn secondary" part="clear-filters" @click=${this.#clear}>${this.t("reviews.clearFilters")}</button>`;
  }

  /** A rated attribute: the reviewer's position between the scale's labels (`range`: 1..5, else -1..1, as Okendo's clients draw it). */
  #scale(a: NonNullable<Review["attributesWithRating"]>[number]) {
    const at = Math.max(0, Math.min(1, a.type === "range" ? (a.value - 1) / 4 : (a.value + 1) / 2));
    const label = (at < 0.34 ? a.minLabel : at > 0.66 ? a.maxLabel : a.midLabel) || String(a.value);
    return html`<p class="meta" part="attribute-scale">
      ${this.t("reviews.attributeValue", { title: a.title, value: label })}
      <span class="meta" aria-hidden="true"
        >${a.minLabel}<span class="bar"><span style="width:${100 * at}%"></span></span>${a.maxLabel}</span
      >
    </p>`;
  }

  #renderResults() {
    if (this.status === "error") {
      return html`<div part="error" role="alert">
        <p class="error">${this.t("reviews.loadFailed", { error: this.errorMessage })}</p>
        <button class="btn" part="retry" @click=${this.#loadFirstPage}>${this.t("reviews.retry")}</button>
      </div>`;
    }
    if (this.status === "loading" && this.reviews.length === 0) {
      return html`<ol aria-hidden="true">
        ${[0, 1, 2].map(() => html`<li class="skeleton" part="skeleton"></li>`)}
      </ol>`;
    }
    if (this.reviews.length === 0) {
      return this.#filtered
        ? html`<div class="invite" part="empty">
            <p>${this.t("reviews.emptyFiltered")}</p>
            ${this.#clearButton()}
          </div>`
        : html`<p part="empty">${this.keyword ? this.t("reviews.emptyKeyword", { keyword: this.#keywordLabel || this.keyword }) : this.t("reviews.empty")}</p>`;
    }
    return html`<ol part="list">
        ${this.reviews.slice(0, this.shown).map((r) => this.#renderReview(r))}
      </ol>
      ${
        this.nextUrl || this.moreError
          ? html`<div class="more">
              ${this.moreError ? html`<p class="error" role="alert">${this.moreError}</p>` : nothing}
              ${
                this.nextUrl
                  ? html`<button class="btn" part="load-more" aria-disabled=${this.loadingMore || this.status !== "ready"} @click=${this.#loadMore}>
                      ${this.t(this.loadingMore ? "reviews.loadingMore" : "reviews.loadMore")}
                    </button>`
                  : nothing
              }
            </div>`
          : nothing
      }`;
  }

  render() {
    // While the first page loads, the header and filters are drawn already (rows without counts), so nothing moves
    // down when the reviews arrive; all of it in the box of the loading state until the box opens (`open`).
    const first = this.status === "loading" && !this.reviews.length;
    const shut = first || (!this.open && this.status === "ready");
    return html`${this.#renderToolbar()}${
        this.state === "empty"
          ? nothing
          : html`<div class=${shut ? "box shut" : "box"} @focusin=${this.#open}>
                ${this.browsing || first ? this.#renderFilters() : nothing}
                <div class="results" aria-busy=${this.status === "loading"} aria-label=${this.t("reviews.region")} role="region">${this.#renderResults()}</div>
                ${shut && !first ? html`<div class="reveal"><button class="btn secondary" part="open" aria-hidden="true" tabindex="-1" @click=${this.#open}>${this.t("reviews.loadMore")}</button></div>` : nothing}
              </div>
              <div class="fold-end"></div>`
      }
      <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-reviews": ChorusReviews;
  }
}
