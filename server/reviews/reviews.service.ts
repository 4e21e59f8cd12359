/**
 * Storefront reviews rules: scope resolution (docs/api.md, Endpoints and scopes: the 404 rules), keyset paging with signed
 * cursors and relative `nextUrl`s, and shaping rows into the contract of docs/api.md, Responses.
 */
import type {
  GetReviewResponse,
  ListQuestionsQuery,
  ListQuestionsResponse,
  ListReviewMediaResponse,
  ListReviewsQuery,
  ListReviewsResponse,
  ListPageQuery,
  ProductAttributesResponse,
  QuestionAggregateResponse,
  Review,
  ReviewAggregateResponse,
  ReviewMedia,
  ReviewOrder,
  ReviewScope,
} from "../contract/storefront.ts";
import { htmlSafeText } from "../contract/html-text.ts";
import { notFound } from "../contract/errors.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { Store, StoresRepo } from "../stores/stores.repo.ts";
import {
  ORDER_SPECS,
  QUESTION_ORDER_SPECS,
  reviewCursorKey,
  reviewSearchMatch,
  type ListedProductRow,
  type ListedReviewRow,
  type MediaRow,
  type ReviewListFilters,
  type ReviewsRepo,
} from "./reviews.repo.ts";
import { badRequest } from "../contract/errors.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";

/**
 * A review as the storefront serves it (docs/api.md, Okendo-compatible): its `body` and its reply's `body` safe as HTML
 * (server/contract/html-text.ts), as Okendo's clients insert them as HTML.
 */
export function storefrontReview(review: Review): Review {
  return { ...review, body: htmlSafeText(review.body), ...(review.reply ? { reply: { ...review.reply, body: htmlSafeText(review.reply.body) } } : {}) };
}

/** A review's `highlights` in a search answer: [start, end) ranges in UTF-16 code units of the text as typed. */
export type ReviewHighlights = { title?: [number, number][]; body?: [number, number][] };

/**
 * Two characters that occur in none of `texts`, to mark matched words with (FTS5 highlight()). Private-use
 * characters first; a text that holds them only moves the search on.
 */
export function highlightMarkers(texts: string[]): [string, string] {
  const found: string[] = [];
  for (let code = 0xe000; found.length < 2; code++) {
    const c = String.fromCharCode(code);
    if (!texts.some((t) => t.includes(c))) found.push(c);
  }
  return [found[0]!, found[1]!];
}

/**
 * The ranges between `open` and `close` markers of a highlighted text, as positions in the text without
 * the markers (UTF-16 code units, end exclusive), in order; touching ranges are merged.
 */
export function markedRanges(marked: string, open: string, close: string): [number, number][] {
  const ranges: [number, number][] = [];
  let pos = 0;
  let start = -1;
  for (const c of marked) {
    if (c === open) start = pos;
    else if (c === close) {
      if (start >= 0 && pos > start) {
        const last = ranges[ranges.length - 1];
        if (last && last[1] >= start) last[1] = pos;
        else ranges.push([start, pos]);
      }
      start = -1;
    } else pos += c.length;
  }
  return ranges;
}

/** At most this many attributes, and values per attribute, in `GET …/attributes`. */
const ATTRIBUTE_LIST_LIMITS = { attributes: 20, options: 50 } as const;

/** Path parameters of a storefront request, as the router gives them. */
export type ScopeParams = { storeId: string; productKey?: string; groupId?: string };
export type ResolvedScope = { store: Store; scope: ReviewScope; path: string };

/**
 * Translation hook for `locale` (docs/ai.md, Translation). The default returns reviews
 * unchanged; the AI/translation module replaces it.
 */
export type ReviewTranslator = (store: Store, reviews: Review[], locale: string) => Promise<Review[]> | Review[];

/** Create the reviews service. `secret` signs cursors; `translate` serves `locale`. */
export function reviewsService(deps: { reviews: ReviewsRepo; stores: StoresRepo; secret: string; translate?: ReviewTranslator }) {
  const { reviews, stores, secret } = deps;

  /**
   * Resolve the store and scope of a request. @returns a promise of the store, the scope and its path.
   * @throws ApiError 404 for an unknown store, a product key with another platform's prefix, or an unknown group.
   */
  async function resolveScope(params: ScopeParams): Promise<ResolvedScope> {
    const store = await stores.get(params.storeId);
    if (!store) throw notFound("Store not found", "store_not_found");
    if (params.productKey !== undefined) {
      const prefix = `${store.platform}-`;
      if (!params.productKey.startsWith(prefix) || params.productKey.length === prefix.length) {
        throw notFound(`Product not found: product paths use ${prefix}{product_id}`, "product_not_found");
      }
      const productId = params.productKey.slice(prefix.length);
      return { store, scope: { type: "product", productId }, path: `/products/${encodeURIComponent(params.productKey)}` };
    }
    if (params.groupId !== undefined) {
      if (!(await stores.getGroup(store.storeId, params.groupId))) throw notFound("Group not found", "group_not_found");
      return { store, scope: { type: "group", groupId: params.groupId }, path: `/collections/${encodeURIComponent(params.groupId)}` };
    }
    return { store, scope: { type: "store" }, path: "" };
  }

  const scopeContext = (kind: string, r: ResolvedScope, extra = "") =>
    `${kind}|${r.store.storeId}|${r.scope.type}:${r.scope.type === "product" ? r.scope.productId : r.scope.type === "group" ? r.scope.groupId : ""}|${extra}`;

  /**
   * A storefront `nextUrl`: relative to the API root `/v1` (docs/api.md, Paging; as Okendo's clients prefix it with
   * their `/v1` base), so `/stores/{storeId}` + the scope path + the query. `params` values may be lists (repeated).
   */
  const nextUrl = (r: ResolvedScope, path: string, params: Record<string, string | number | string[]>) =>
    `/stores/${encodeURIComponent(r.store.storeId)}${path}?${Object.entries(params)
      .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}=${encodeURIComponent(String(x))}`))
      .join("&")}`;

  const productKey = (store: Store, productId: string) => `${store.platform}-${productId}`;

  function toMedia(m: MediaRow, origin: string): ReviewMedia {
    const abs = (u: string) => (u.startsWith("/") ? origin + u : u);
    return {
      mediaId: m.media_id,
      reviewId: m.review_id,
      type: m.type,
      thumbnailUrl: abs(m.thumbnail_url),
      largeUrl: abs(m.large_url),
      fullSizeUrl: abs(m.full_size_url),
      ...(m.stream_url ? { streamUrl: abs(m.stream_url) } : {}),
      ...(m.alt ? { alt: m.alt } : {}),
      dateCreated: iso(m.created_ms),
      rating: m.rating,
      reviewer: { displayName: m.reviewer_name },
      // Okendo-compatible (docs/api.md, Okendo-compatible): the shapes its gallery reads.
      streamId: m.media_id,
      ...(m.type === "image"
        ? { imageUrls: { largeUrl: abs(m.large_url), thumbnailUrl: abs(m.thumbnail_url) } }
        : { videoUrls: { fullSizeUrl: abs(m.full_size_url), thumbnailUrl: abs(m.thumbnail_url), videoPosterUrl: abs(m.large_url) }, videoPosterUrl: abs(m.large_url) }),
    };
  }

  /** Shape one stored review of `product` as the storefront sees it (docs/api.md, Responses). Never exposes e-mail. */
  function toReview(store: Store, r: ListedReviewRow, product: ListedProductRow | undefined, media: ReviewMedia[]): Review {
    const location = r.reviewer_country_code
      ? { country: { code: r.reviewer_country_code, name: r.reviewer_country_name ?? r.reviewer_country_code }, ...(r.reviewer_zone_code ? { zoneCode: r.reviewer_zone_code } : {}) }
      : undefined;
    return {
      reviewId: r.review_id,
      productId: productKey(store, r.product_id),
      productName: product?.name ?? "",
      ...(product?.url ? { productUrl: product.url } : {}),
      ...(product?.image_url ? { productImageUrl: product.image_url } : {}),
      ...(r.variant_id ? { variantId: r.variant_id } : {}),
      ...(r.variant_name ? { variantName: r.variant_name } : {}),
      rating: r.rating,
      title: r.title,
      body: r.body,
      dateCreated: iso(r.created_ms),
      ...(r.updated_ms ? { dateUpdated: iso(r.updated_ms) } : {}),
      helpfulCount: r.helpful_count,
      unhelpfulCount: r.unhelpful_count,
      ...(r.is_recommended === null ? {} : { isRecommended: r.is_recommended === 1 }),
      isIncentivized: r.is_incentivized === 1,
      ...(r.language_code ? { languageCode: r.language_code } : {}),
      reviewer: {
        displayName: r.reviewer_name,
        isVerified: r.verified_status !== "unverified",
        verifiedStatus: r.verified_status,
        ...(location ? { location, country: location.country } : {}),
      },
      media,
      ...(r.reply_body ? { reply: { body: r.reply_body, dateCreated: iso(r.reply_created_ms ?? r.created_ms) } } : {}),
      ...(r.product_attributes_json ? { productAttributes: JSON.parse(r.product_attributes_json) } : {}),
      ...(r.attributes_with_rating_json ? { attributesWithRating: JSON.parse(r.attributes_with_rating_json) } : {}),
    };
  }

  return {
    resolveScope,
    toReview,
    toMedia,

    /** How many of the store's reviews are in each moderation status (the admin's overview). */
    statusCounts(storeId: string): Promise<Record<string, number>> {
      return reviews.countByStatus(storeId);
    },

    /**
     * The content scopes a scope's public reads (reviews, media, aggregate, questions) depend on, for the
     * response cache (server/db/content-scopes.ts): the store's settings and the product's, the group's or
     * the store's review content. @throws ApiError 404 as `resolveScope`.
     */
    async cacheScopes(params: ScopeParams): Promise<string[]> {
      const { store, scope } = await resolveScope(params);
      const s = store.storeId;
      if (scope.type === "product") return [contentScope.store(s), contentScope.product(s, scope.productId)];
      if (scope.type === "group") return [contentScope.store(s), contentScope.group(s, scope.groupId)];
      return [contentScope.store(s), contentScope.storeReviews(s)];
    },

    /**
     * List published reviews (docs/api.md, Endpoints and scopes), kept by the filters of `query` (attribute filters,
     * docs/api.md, Okendo-compatible; `rating`, `media`, `verified` and `search`, docs/api.md "Search and filters"); bodies
     * safe as HTML (`storefrontReview`). With `search`, each review carries `highlights` (ranges of the
     * matched words in its title and body as typed; empty for a review served translated).
     * @throws ApiError 404 (scope) or 400 (cursor, a search without words).
     */
    async listReviews(params: ScopeParams, query: ListReviewsQuery, origin: string): Promise<ListReviewsResponse> {
      const order: ReviewOrder = query.orderBy;
      const attributes = query.attributeFilters ?? [];
      const match = query.search === undefined ? undefined : reviewSearchMatch(query.search);
      if (match === null) throw badRequest("search must contain at least one letter or digit");
      const filters: ReviewListFilters = {
        keyword: query.keyword,
        attributes,
        ratings: query.rating,
        media: query.media,
        verifiedBuyers: query.verified === "true",
        search: match,
      };
      // A cursor is valid only for the filters it was made with (the context of before when there are none).
      const extra = { rating: query.rating, media: query.media, verified: filters.verifiedBuyers || undefined, search: match };
      const filterContext = (attributes.length ? `|attributes:${JSON.stringify(attributes)}` : "") + (Object.values(extra).some((v) => v !== undefined) ? `|filters:${JSON.stringify(extra)}` : "");
      // One snapshot for the page, its media, its products and its highlights (a commit in between cannot mix them).
      const {
        resolved,
        next,
        list: shaped,
        highlights,
      } = await reviews.snapshot(async () => {
        const resolved = await resolveScope(params);
        const { rows: page, next } = await keysetPage({
          secret,
          context: scopeContext("reviews", resolved, (query.keyword === undefined ? order : `${order}|keyword:${query.keyword}`) + filterContext),
          cursor: query.lastEvaluated,
          shape: ORDER_SPECS[order].key ? (["number", "number", "string"] as const) : (["number", "string"] as const),
          limit: query.limit,
          fetch: (after) => reviews.listPublished(resolved.store.storeId, resolved.scope, order, query.limit, after, filters), // the repo reads limit + 1 rows
          keyOf: (r) => reviewCursorKey(r, order),
        });
        const mediaByReview = new Map<string, ReviewMedia[]>();
        for (const m of await reviews.mediaOfReviews(page.filter((r) => r.media_count > 0).map((r) => r.review_id))) {
          const list = mediaByReview.get(m.review_id) ?? [];
          list.push(toMedia(m, origin));
          mediaByReview.set(m.review_id, list);
        }
        const products = new Map((await reviews.productsOf(resolved.store.storeId, [...new Set(page.map((r) => r.product_id))])).map((p) => [p.product_id, p]));
        const list = page.map((r) => toReview(resolved.store, r, products.get(r.product_id), mediaByReview.get(r.review_id) ?? []));
        const highlights = new Map<string, ReviewHighlights>();
        if (match !== undefined && page.length) {
          // The stored title and body are the text as typed (the storefront escapes the body only when serving it).
          const [open, close] = highlightMarkers(page.flatMap((r) => [r.title, r.body]));
          for (const h of await reviews.searchHighlights(
            page.map((r) => r.review_id),
            match,
            open,
            close,
          )) {
            const title = markedRanges(h.title, open, close);
            const body = markedRanges(h.body, open, close);
            highlights.set(h.review_id, { ...(title.length ? { title } : {}), ...(body.length ? { body } : {}) });
          }
        }
        return { resolved, next, list, highlights };
      });
      let list = shaped;
      if (query.locale && deps.translate) list = await deps.translate(resolved.store, list, query.locale);
      // Ranges point into the original text: a review served translated has none.
      if (match !== undefined) list = list.map((r) => ({ ...r, highlights: r.translatedLocale ? {} : (highlights.get(r.reviewId) ?? {}) }));
      const out: ListReviewsResponse = { reviews: list.map(storefrontReview) };
      if (next) {
        out.nextUrl = nextUrl(resolved, `${resolved.path}/reviews`, {
          limit: query.limit,
          orderBy: order,
          ...(query.locale ? { locale: query.locale } : {}),
          ...(query.keyword ? { keyword: query.keyword } : {}),
          ...(attributes.length ? { generalAttributes: attributes.map((f) => [f.title, ...f.options].join(",")) } : {}),
          ...(query.rating ? { rating: query.rating.join(",") } : {}),
          ...(query.media ? { media: query.media } : {}),
          ...(query.verified ? { verified: query.verified } : {}),
          ...(query.search !== undefined ? { search: query.search } : {}),
          lastEvaluated: next,
        });
      }
      return out;
    },

    /**
     * GET /stores/{storeId}/reviews/{reviewId} (docs/api.md, Okendo-compatible): one published review of the store, as in
     * the listings. @throws ApiError 404 (store, or no published review with that ID).
     */
    getReview(storeId: string, reviewId: string, origin: string): Promise<GetReviewResponse> {
      return reviews.snapshot(async () => {
        const { store } = await resolveScope({ storeId });
        const row = await reviews.getPublished(store.storeId, reviewId);
        if (!row) throw notFound("Review not found", "review_not_found");
        const media = row.media_count > 0 ? (await reviews.mediaOfReviews([row.review_id])).map((m) => toMedia(m, origin)) : [];
        const [product] = await reviews.productsOf(store.storeId, [row.product_id]);
        return { review: storefrontReview(toReview(store, row, product, media)) };
      });
    },

    /** The content scopes of one review's answer (its product's, and the store's). @throws ApiError 404 (store). */
    async reviewCacheScopes(storeId: string, reviewId: string): Promise<string[]> {
      const { store } = await resolveScope({ storeId });
      const row = await reviews.getPublished(store.storeId, reviewId);
      return row ? [contentScope.store(store.storeId), contentScope.product(store.storeId, row.product_id)] : [contentScope.store(store.storeId), contentScope.storeReviews(store.storeId)];
    },

    /** GET /products/{key}/question_aggregate (docs/api.md, Okendo-compatible). @throws ApiError 404 (store, product key). */
    async questionAggregate(params: ScopeParams): Promise<QuestionAggregateResponse> {
      const { store, scope } = await resolveScope(params);
      const productId = scope.type === "product" ? scope.productId : "";
      return { questionAggregate: { approvedQuestionCount: await reviews.publishedQuestionCount(store.storeId, productId) } };
    },

    /**
     * GET /products/{key}/attributes (docs/api.md, Okendo-compatible): the product attributes of the product's published
     * reviews with the values given, each `target: "general"`. @throws ApiError 404 (store, product key).
     */
    async productAttributes(params: ScopeParams): Promise<ProductAttributesResponse> {
      const { store, scope } = await resolveScope(params);
      const byTitle = new Map<string, string[]>();
      for (const { title, value } of await reviews.productAttributeValues(store.storeId, scope.type === "product" ? scope.productId : "")) {
        let options = byTitle.get(title);
        if (!options) {
          if (byTitle.size >= ATTRIBUTE_LIST_LIMITS.attributes) continue;
          byTitle.set(title, (options = []));
        }
        if (options.length < ATTRIBUTE_LIST_LIMITS.options) options.push(value);
      }
      return { productAttributes: [...byTitle].map(([title, options]) => ({ title, options, target: "general" as const })) };
    },

    /** Aggregate of published reviews (docs/api.md, Responses); zeros for a scope without reviews. */
    async getAggregate(params: ScopeParams): Promise<ReviewAggregateResponse> {
      const resolved = await resolveScope(params);
      const { store, scope } = resolved;
      return reviews.snapshot(async () => {
        const a = await reviews.aggregate(store.storeId, scope);
        const byLevel = { level1Count: a.level1, level2Count: a.level2, level3Count: a.level3, level4Count: a.level4, level5Count: a.level5 };
        const productName = scope.type === "product" ? (await reviews.productsOf(store.storeId, [scope.productId]))[0]?.name : undefined;
        const attributeRatings = await reviews.attributeRatings(store.storeId, scope);
        return {
          reviewAggregate: {
            reviewCount: a.review_count,
            reviewRatingValuesTotal: a.rating_total,
            averageRating: a.review_count ? a.rating_total / a.review_count : 0,
            reviewCountByLevel: byLevel,
            // Okendo-compatible (docs/api.md, Okendo-compatible)
            ratingAndReviewCount: a.review_count,
            ratingAndReviewValuesTotal: a.rating_total,
            ratingAndReviewCountByLevel: { ...byLevel },
            recommendationCount: a.recommended_count,
            ratingCount: 0,
            ...(productName ? { productName } : {}),
            ...(attributeRatings.length ? { attributeRatings } : {}),
          },
        };
      });
    },

    /** Published media, newest first (docs/api.md, Endpoints and scopes). */
    async listMedia(params: ScopeParams, query: ListPageQuery, origin: string): Promise<ListReviewMediaResponse> {
      const resolved = await resolveScope(params);
      const { rows: page, next } = await keysetPage({
        secret,
        context: scopeContext("media", resolved),
        cursor: query.lastEvaluated,
        shape: ["number", "string"],
        limit: query.limit,
        fetch: (after) => reviews.listPublishedMedia(resolved.store.storeId, resolved.scope, query.limit, after), // the repo reads limit + 1 rows
        keyOf: (m) => [m.created_ms, m.media_id],
      });
      const items = page.map((m) => toMedia(m, origin));
      const out: ListReviewMediaResponse = { reviewMedia: items, media: items };
      if (next) out.nextUrl = nextUrl(resolved, `${resolved.path}/review_media`, { limit: query.limit, lastEvaluated: next });
      return out;
    },

    /**
     * Published questions with their public published answers in `query.orderBy` (QUESTION_ORDER_SPECS;
     * default newest first), answer bodies safe as HTML. Product or group scope only.
     */
    async listQuestions(params: ScopeParams, query: ListQuestionsQuery | ListPageQuery): Promise<ListQuestionsResponse> {
      const resolved = await resolveScope(params);
      const order = "orderBy" in query ? query.orderBy : "date desc";
      const { key } = QUESTION_ORDER_SPECS[order];
      const { rows: page, next } = await keysetPage({
        // The default order keeps the context of before (its cursors stay valid).
        secret,
        context: scopeContext("questions", resolved, order === "date desc" ? "" : order),
        cursor: query.lastEvaluated,
        shape: key ? ["number", "number", "string"] : ["number", "string"],
        limit: query.limit,
        fetch: (after) => reviews.listPublishedQuestions(resolved.store.storeId, resolved.scope, query.limit, after, order), // the repo reads limit + 1 rows
        keyOf: (q) => (key ? [q[key], q.created_ms, q.question_id] : [q.created_ms, q.question_id]),
      });
      const answers = await reviews.publicAnswers(page.map((q) => q.question_id));
      const out: ListQuestionsResponse = {
        questions: page.map((q) => ({
          questionId: q.question_id,
          productId: productKey(resolved.store, q.product_id),
          body: q.body,
          dateCreated: iso(q.created_ms),
          customer: { displayName: q.asker_name },
          author: { displayName: q.asker_name },
          helpfulCount: q.helpful_count,
          unhelpfulCount: q.unhelpful_count,
          answers: answers
            .filter((a) => a.question_id === q.question_id)
            .map((a) => ({
              answerId: a.answer_id,
              body: htmlSafeText(a.body),
              dateCreated: iso(a.created_ms),
              isStoreAnswer: a.is_store_answer === 1,
              author: { displayName: a.author_name },
              helpfulCount: a.helpful_count,
              unhelpfulCount: a.unhelpful_count,
            })),
        })),
      };
      if (next) out.nextUrl = nextUrl(resolved, `${resolved.path}/questions`, { limit: query.limit, ...(order === "date desc" ? {} : { orderBy: order }), lastEvaluated: next });
      return out;
    },
  };
}
export type ReviewsService = ReturnType<typeof reviewsService>;
