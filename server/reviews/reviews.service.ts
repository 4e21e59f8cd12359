/**
 * Storefront reviews rules: scope resolution (decisions.md §1 404 rules), keyset paging with signed
 * cursors and relative `nextUrl`s, and shaping rows into the contract of decisions.md §2.
 */
import type {
  ListQuestionsResponse, ListReviewMediaResponse, ListReviewsQuery, ListReviewsResponse, ListPageQuery,
  Review, ReviewAggregateResponse, ReviewMedia, ReviewOrder, ReviewScope,
} from "../contract/storefront.ts";
import { notFound } from "../contract/errors.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { Store, StoresRepo } from "../stores/stores.repo.ts";
import { ORDER_SPECS, reviewCursorKey, type ListedProductRow, type ListedReviewRow, type MediaRow, type ReviewsRepo } from "./reviews.repo.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";

/** Path parameters of a storefront request, as the router gives them. */
export type ScopeParams = { storeId: string; productKey?: string; groupId?: string };
export type ResolvedScope = { store: Store; scope: ReviewScope; path: string };

/**
 * Translation hook for `locale` (interface.md §4.2 locale rules). The default returns reviews
 * unchanged; the AI/translation module replaces it.
 */
export type ReviewTranslator = (store: Store, reviews: Review[], locale: string) => Promise<Review[]> | Review[];

/** Create the reviews service. `secret` signs cursors; `translate` serves `locale`. */
export function reviewsService(deps: { reviews: ReviewsRepo; stores: StoresRepo; secret: string; translate?: ReviewTranslator }) {
  const { reviews, stores, secret } = deps;

  /**
   * Resolve the store and scope of a request.
   * @throws ApiError 404 for an unknown store, a product key with another platform's prefix, or an unknown group.
   */
  function resolveScope(params: ScopeParams): ResolvedScope {
    const store = stores.get(params.storeId);
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
      if (!stores.getGroup(store.storeId, params.groupId)) throw notFound("Group not found", "group_not_found");
      return { store, scope: { type: "group", groupId: params.groupId }, path: `/collections/${encodeURIComponent(params.groupId)}` };
    }
    return { store, scope: { type: "store" }, path: "" };
  }

  const scopeContext = (kind: string, r: ResolvedScope, extra = "") =>
    `${kind}|${r.store.storeId}|${r.scope.type}:${r.scope.type === "product" ? r.scope.productId : r.scope.type === "group" ? r.scope.groupId : ""}|${extra}`;

  const nextUrl = (path: string, params: Record<string, string | number>) =>
    `${path}?${Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join("&")}`;

  const productKey = (store: Store, productId: string) => `${store.platform}-${productId}`;

  function toMedia(m: MediaRow, origin: string): ReviewMedia {
    const abs = (u: string) => (u.startsWith("/") ? origin + u : u);
    return {
      mediaId: m.media_id, reviewId: m.review_id, type: m.type, thumbnailUrl: abs(m.thumbnail_url), largeUrl: abs(m.large_url),
      fullSizeUrl: abs(m.full_size_url), ...(m.stream_url ? { streamUrl: abs(m.stream_url) } : {}),
      ...(m.alt ? { alt: m.alt } : {}), dateCreated: iso(m.created_ms), rating: m.rating, reviewer: { displayName: m.reviewer_name },
    };
  }

  /** Shape one stored review of `product` as the storefront sees it (decisions.md §2). Never exposes e-mail. */
  function toReview(store: Store, r: ListedReviewRow, product: ListedProductRow | undefined, media: ReviewMedia[]): Review {
    const location = r.reviewer_country_code
      ? { country: { code: r.reviewer_country_code, name: r.reviewer_country_name ?? r.reviewer_country_code }, ...(r.reviewer_zone_code ? { zoneCode: r.reviewer_zone_code } : {}) }
      : undefined;
    return {
      reviewId: r.review_id, productId: productKey(store, r.product_id), productName: product?.name ?? "",
      ...(product?.url ? { productUrl: product.url } : {}), ...(product?.image_url ? { productImageUrl: product.image_url } : {}),
      ...(r.variant_id ? { variantId: r.variant_id } : {}), ...(r.variant_name ? { variantName: r.variant_name } : {}),
      rating: r.rating, title: r.title, body: r.body, dateCreated: iso(r.created_ms),
      ...(r.updated_ms ? { dateUpdated: iso(r.updated_ms) } : {}),
      helpfulCount: r.helpful_count, unhelpfulCount: r.unhelpful_count,
      ...(r.is_recommended === null ? {} : { isRecommended: r.is_recommended === 1 }),
      isIncentivized: r.is_incentivized === 1, ...(r.language_code ? { languageCode: r.language_code } : {}),
      reviewer: {
        displayName: r.reviewer_name, isVerified: r.verified_status !== "unverified", verifiedStatus: r.verified_status,
        ...(location ? { location } : {}),
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
    statusCounts(storeId: string): Record<string, number> {
      return reviews.countByStatus(storeId);
    },

    /**
     * The content scopes a scope's public reads (reviews, media, aggregate, questions) depend on, for the
     * response cache (server/db/content-scopes.ts): the store's settings and the product's, the group's or
     * the store's review content. @throws ApiError 404 as `resolveScope`.
     */
    cacheScopes(params: ScopeParams): string[] {
      const { store, scope } = resolveScope(params);
      const s = store.storeId;
      if (scope.type === "product") return [contentScope.store(s), contentScope.product(s, scope.productId)];
      if (scope.type === "group") return [contentScope.store(s), contentScope.group(s, scope.groupId)];
      return [contentScope.store(s), contentScope.storeReviews(s)];
    },

    /** List published reviews (interface.md §4.2). @throws ApiError 404 (scope) or 400 (cursor). */
    async listReviews(params: ScopeParams, query: ListReviewsQuery, origin: string): Promise<ListReviewsResponse> {
      const order: ReviewOrder = query.orderBy;
      // One snapshot for the page, its media and its products (a commit in between cannot mix them).
      const { resolved, next, list: shaped } = reviews.snapshot(() => {
        const resolved = resolveScope(params);
        const { rows: page, next } = keysetPage({
          secret, context: scopeContext("reviews", resolved, query.keyword === undefined ? order : `${order}|keyword:${query.keyword}`), cursor: query.lastEvaluated,
          shape: ORDER_SPECS[order].key ? (["number", "number", "string"] as const) : (["number", "string"] as const), limit: query.limit,
          fetch: (after) => reviews.listPublished(resolved.store.storeId, resolved.scope, order, query.limit, after, query.keyword), // the repo reads limit + 1 rows
          keyOf: (r) => reviewCursorKey(r, order),
        });
        const mediaByReview = new Map<string, ReviewMedia[]>();
        for (const m of reviews.mediaOfReviews(page.filter((r) => r.media_count > 0).map((r) => r.review_id))) {
          const list = mediaByReview.get(m.review_id) ?? [];
          list.push(toMedia(m, origin));
          mediaByReview.set(m.review_id, list);
        }
        const products = new Map(reviews.productsOf(resolved.store.storeId, [...new Set(page.map((r) => r.product_id))]).map((p) => [p.product_id, p]));
        const list = page.map((r) => toReview(resolved.store, r, products.get(r.product_id), mediaByReview.get(r.review_id) ?? []));
        return { resolved, next, list };
      });
      let list = shaped;
      if (query.locale && deps.translate) list = await deps.translate(resolved.store, list, query.locale);
      const out: ListReviewsResponse = { reviews: list };
      if (next) {
        out.nextUrl = nextUrl(`${resolved.path}/reviews`, {
          limit: query.limit, orderBy: order, ...(query.locale ? { locale: query.locale } : {}), ...(query.keyword ? { keyword: query.keyword } : {}),
          lastEvaluated: next,
        });
      }
      return out;
    },

    /** Aggregate of published reviews (decisions.md §2); zeros for a scope without reviews. */
    getAggregate(params: ScopeParams): ReviewAggregateResponse {
      const resolved = resolveScope(params);
      const a = reviews.aggregate(resolved.store.storeId, resolved.scope);
      return {
        reviewAggregate: {
          reviewCount: a.review_count, reviewRatingValuesTotal: a.rating_total,
          averageRating: a.review_count ? a.rating_total / a.review_count : 0,
          reviewCountByLevel: { level1Count: a.level1, level2Count: a.level2, level3Count: a.level3, level4Count: a.level4, level5Count: a.level5 },
        },
      };
    },

    /** Published media, newest first (interface.md §4.2). */
    listMedia(params: ScopeParams, query: ListPageQuery, origin: string): ListReviewMediaResponse {
      const resolved = resolveScope(params);
      const { rows: page, next } = keysetPage({
        secret, context: scopeContext("media", resolved), cursor: query.lastEvaluated, shape: ["number", "string"], limit: query.limit,
        fetch: (after) => reviews.listPublishedMedia(resolved.store.storeId, resolved.scope, query.limit, after), // the repo reads limit + 1 rows
        keyOf: (m) => [m.created_ms, m.media_id],
      });
      const out: ListReviewMediaResponse = { reviewMedia: page.map((m) => toMedia(m, origin)) };
      if (next) out.nextUrl = nextUrl(`${resolved.path}/review_media`, { limit: query.limit, lastEvaluated: next });
      return out;
    },

    /** Published questions with their public published answers, newest first. Product or group scope only. */
    listQuestions(params: ScopeParams, query: ListPageQuery): ListQuestionsResponse {
      const resolved = resolveScope(params);
      const { rows: page, next } = keysetPage({
        secret, context: scopeContext("questions", resolved), cursor: query.lastEvaluated, shape: ["number", "string"], limit: query.limit,
        fetch: (after) => reviews.listPublishedQuestions(resolved.store.storeId, resolved.scope, query.limit, after), // the repo reads limit + 1 rows
        keyOf: (q) => [q.created_ms, q.question_id],
      });
      const answers = reviews.publicAnswers(page.map((q) => q.question_id));
      const out: ListQuestionsResponse = {
        questions: page.map((q) => ({
          questionId: q.question_id, productId: productKey(resolved.store, q.product_id), body: q.body,
          dateCreated: iso(q.created_ms), customer: { displayName: q.asker_name },
          answers: answers.filter((a) => a.question_id === q.question_id).map((a) => ({
            answerId: a.answer_id, body: a.body, dateCreated: iso(a.created_ms), isStoreAnswer: a.is_store_answer === 1, author: { displayName: a.author_name },
          })),
        })),
      };
      if (next) out.nextUrl = nextUrl(`${resolved.path}/questions`, { limit: query.limit, lastEvaluated: next });
      return out;
    },
  };
}
export type ReviewsService = ReturnType<typeof reviewsService>;
