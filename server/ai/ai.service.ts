/**
 * AI reviews summary and keyword topics: generation, the publish flow and the storefront reads
 * (docs/ai.md, Answers; docs/ai.md, Availability and publish flow).
 *
 * - Generation analyses the scope's published reviews not yet analysed (in batches of 100, yielding to
 *   the event loop between them; analyses are committed per 1,000 reviews), then stores a new version with
 *   `dateGenerated`: keywords when the scope has ≥ keywordsMinReviews published reviews, a summary
 *   when it has ≥ minReviews. The summary comes from the language model when one is configured and its
 *   text passes `checkSummary`, else from the embedded engine.
 * - One approval rule for summary and keywords (docs/ai.md, Availability and publish flow): a version (its
 *   summary and its keywords together) is published (`datePublished`) at once when the store's AI auto-publish
 *   is on, else on approval (`approve`). Both endpoints serve the latest published version that has their part.
 * - Languages (docs/ai.md, Languages): with a `locale`, the summary is rendered from its stored facts in that
 *   language and the topic names are translated; the shoppers' keywords stay as written.
 */
import { randomUUID } from "node:crypto";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { ReviewsKeywordsResponse, ReviewsSummaryResponse, KeywordTopic } from "../contract/storefront.ts";
import { ApiError, notFound } from "../contract/errors.ts";
import { readSnapshot, transaction, type Db } from "../db/database.ts";
import type { ReviewsService, ScopeParams } from "../reviews/reviews.service.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { AiRepo, AiScope, VersionRow } from "./ai.repo.ts";
import type { AiConfig } from "./config.ts";
import type { KeywordEngine } from "./keywords.ts";
import { checkSummary, llmSummary } from "./llm.ts";
import { buildKeywordTopics, buildSummary, keywordLabel, renderSummary, topicName, type SummaryClaim } from "./summary.ts";
import { uiLocaleFor } from "../contract/widget-locales.ts";
import { contentScope as scopeName } from "../shared/content-scopes.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";

/** Reviews analysed per batch before yielding to the event loop. */
export const ANALYSIS_BATCH = 100;
/**
 * Reviews whose analyses are saved per commit (a multiple of ANALYSIS_BATCH). Every commit changes the
 * response caches' content version, so fewer, larger commits keep cached storefront responses valid
 * longer while a sweep runs; the write lock is held only for the inserts (a few ms).
 */
export const ANALYSIS_COMMIT = 1000;

/** One product or group with its AI content, as the merchant admin lists it (issue 7 item 4). */
export type AdminAiScope = {
  scope: AiScope;
  name: string;
  reviewCount: number;
  /** The most recently generated version (may be the published one). */
  latest?: VersionRow;
  /** The version the storefront serves (latest published with a summary). */
  published?: VersionRow;
  /** A (re)generation job is queued or running. */
  queued: boolean;
};

export type GenerationResult =
  { status: "skipped"; reason: string; reviewCount: number } | { status: "generated"; version: VersionRow; analysed: number; reviewCount: number; fallbackReason?: string };

/** Create the AI service. `log` receives one line per notable event (fallbacks). */
export function aiService(deps: { db: Db; repo: AiRepo; stores: StoresRepo; reviews: ReviewsService; engine: KeywordEngine; config: AiConfig; log?: (line: string) => void; now?: () => number }) {
  const { db, repo, stores, engine, config } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});

  /** Analyse every published review of the scope the engine has not analysed yet. @returns how many. */
  async function analyseScope(storeId: string, scope: AiScope, onProgress?: (analysed: number) => void): Promise<number> {
    let analysed = 0;
    for (;;) {
      const chunk = await repo.reviewsToAnalyse(storeId, scope, engine.version, ANALYSIS_COMMIT);
      if (chunk.length === 0) return analysed;
      const results: { reviewId: string; mentions: ReturnType<KeywordEngine["analyse"]> }[] = [];
      for (let i = 0; i < chunk.length; i += ANALYSIS_BATCH) {
        for (const r of chunk.slice(i, i + ANALYSIS_BATCH)) results.push({ reviewId: r.review_id, mentions: engine.analyse(r.title, r.body, r.rating) });
        onProgress?.(analysed + results.length);
        await yieldToEventLoop();
      }
      await transaction(db, () => repo.saveAnalysis(storeId, engine.version, results, now()));
      analysed += chunk.length;
    }
  }

  /**
   * The scope whose content a product shows (docs/ai.md, Answers): its group's when
   * the product belongs to a group configured to use group-level content, else its own.
   * Also returns the product's ID (without the platform prefix).
   * @throws ApiError 404 for an unknown store or a product key with another platform's prefix.
   */
  async function contentScope(params: ScopeParams): Promise<{ storeId: string; productId: string; scope: AiScope }> {
    const resolved = await deps.reviews.resolveScope(params);
    if (resolved.scope.type !== "product") throw notFound("Summaries and keywords exist for products only", "not_found");
    const storeId = resolved.store.storeId;
    const product = await stores.getProduct(storeId, resolved.scope.productId);
    const productId = resolved.scope.productId;
    if (product?.groupId && (await stores.getGroup(storeId, product.groupId))?.useGroupContent) return { storeId, productId, scope: { type: "group", id: product.groupId } };
    return { storeId, productId, scope: { type: "product", id: productId } };
  }

  return {
    contentScope,
    analyseScope,

    /**
     * The content scopes a product's summary and keywords depend on, for the response cache
     * (server/db/content-scopes.ts): the store's settings (its groups' too), the product (its group), and
     * the group whose content it shows, if any. @throws ApiError 404 as `contentScope`.
     */
    async cacheScopes(params: ScopeParams): Promise<string[]> {
      const { storeId, productId, scope } = await contentScope(params);
      const scopes = [scopeName.store(storeId), scopeName.product(storeId, productId)];
      if (scope.type === "group") scopes.push(scopeName.group(storeId, scope.id));
      return scopes;
    },

    /**
     * Generate a new version for a product or group scope (see module doc). Never throws for a model
     * failure (falls back); throws only for database errors.
     */
    async generate(storeId: string, scope: AiScope, options: { onProgress?: (analysed: number) => void; publish?: boolean } = {}): Promise<GenerationResult> {
      const store = await stores.get(storeId);
      if (!store) return { status: "skipped", reason: "unknown store", reviewCount: 0 };
      const before = await repo.scopeStats(storeId, scope);
      const floor = Math.min(config.minReviews, config.keywordsMinReviews);
      if (before.review_count < floor) return { status: "skipped", reason: `${before.review_count} published reviews, ${floor} needed`, reviewCount: before.review_count };

      const analysed = await analyseScope(storeId, scope, options.onProgress);
      // one consistent snapshot of counts for the version (a read transaction: no write lock, on either engine)
      const { stats, counts, mentions } = await readSnapshot(db, async () => ({
        stats: await repo.scopeStats(storeId, scope),
        counts: await repo.keywordCounts(storeId, scope),
        mentions: await repo.polarMentions(storeId, scope),
      }));
      const n = stats.review_count;
      if (n < floor) return { status: "skipped", reason: `${n} published reviews, ${floor} needed`, reviewCount: n };

      const keywordTopics: KeywordTopic[] | null = n >= config.keywordsMinReviews ? buildKeywordTopics(counts) : null;
      let body: string | null = null;
      let claims: SummaryClaim[] = [];
      let engineName = "embedded";
      let fallbackReason: string | undefined;
      /** Reviews whose words the language model was given (it may quote them). */
      let excerptIds: string[] = [];
      if (n >= config.minReviews) {
        const subject = scope.type === "group" ? "these products" : "this product";
        const embedded = buildSummary(stats, counts, mentions, subject);
        body = embedded.body;
        claims = embedded.claims;
        if (config.llm) {
          try {
            const supported = new Set(counts.filter((c) => c.occurrences > 0).map((c) => c.topic));
            const samples = await repo.sampleTexts(storeId, scope, 12);
            excerptIds = samples.map((r) => r.review_id);
            const text = await llmSummary(config.llm, {
              subject,
              reviewCount: n,
              averageRating: Math.round((stats.rating_total / n) * 10) / 10,
              claims,
              keywordTopics: keywordTopics ?? [],
              excerpts: samples.map((r) => `${r.rating}/5: ${r.title ? `${r.title}. ` : ""}${r.body}`.slice(0, 300)),
            });
            const problem = checkSummary(text, supported);
            if (problem) throw new Error(`rejected: ${problem}`);
            body = text;
            engineName = `llm:${config.llm.model}`;
          } catch (error) {
            fallbackReason = (error as Error).message;
            log(`AI summary for ${scope.type} ${scope.id}: language model not used (${fallbackReason}); embedded engine used`);
          }
        }
      }
      const t = now();
      const version: VersionRow = {
        version_id: randomUUID(),
        store_id: storeId,
        scope_type: scope.type,
        scope_id: scope.id,
        engine: engineName,
        summary_body: body,
        claims_json: JSON.stringify(claims),
        keywords_json: keywordTopics ? JSON.stringify(keywordTopics) : null,
        contributing_review_count: n,
        generated_ms: t,
        published_ms: (body !== null || keywordTopics !== null) && (store.aiAutoPublish || options.publish) ? t : null,
      };
      // A review the model was given may have been erased (or unpublished) while it wrote: its words must not be
      // stored. The erasure queued a new generation (`withdraw`), which runs without it.
      // The check and the insert are one transaction; an erasure committing after it deletes the version (`withdraw`).
      const stored = await transaction(db, async () => {
        if (engineName !== "embedded" && (await repo.countPublished(storeId, excerptIds)) < excerptIds.length) return false;
        await repo.insertVersion(version);
        return true;
      });
      if (!stored) return { status: "skipped", reason: "a review the summary drew on was removed while it was written", reviewCount: n };
      return { status: "generated", version, analysed, reviewCount: n, ...(fallbackReason ? { fallbackReason } : {}) };
    },

    /** Merchant approval: publish a generated version (its summary and keywords together). @throws ApiError 404 when the store has no such version or it has neither. */
    async approve(storeId: string, versionId: string): Promise<VersionRow> {
      const v = await repo.getVersion(storeId, versionId);
      if (!v || (v.summary_body === null && v.keywords_json === null)) throw notFound("AI content version not found", "version_not_found");
      await transaction(db, () => repo.publishVersion(storeId, versionId, now()));
      return (await repo.getVersion(storeId, versionId))!;
    },

    /**
     * Merchant discard of a generated version that was never published: the version is deleted, so the
     * storefront keeps serving the published one, and the keywords fall back to the previous version's.
     * @throws ApiError 404 when the store has no such version, 409 when it is already published.
     */
    async discard(storeId: string, versionId: string): Promise<void> {
      await transaction(db, async () => {
        // the DELETE is conditional (published_ms IS NULL): an approval committed meanwhile leaves the version
        const v = await repo.getVersion(storeId, versionId);
        if (!v) throw notFound("AI content version not found", "version_not_found");
        if (v.published_ms !== null) throw new ApiError(409, "This version is already published; generate a new one instead", "version_published");
        if (!(await repo.deleteUnpublishedVersion(storeId, versionId))) {
          throw new ApiError(409, "This version is already published; generate a new one instead", "version_published");
        }
      });
    },

    /**
     * The merchant admin's list (issue 7 item 4): every group that uses group-level content and every product
     * with at least min(minReviews, keywordsMinReviews) published reviews whose content is its own (products
     * of such groups show their group's), most reviewed first, up to `limit` products. Each with its
     * latest generated and its published version.
     */
    async adminScopes(storeId: string, options: { limit: number; product?: string }): Promise<AdminAiScope[]> {
      const min = Math.min(config.minReviews, config.keywordsMinReviews);
      const groups = (await stores.listGroups(storeId)).filter((g) => g.useGroupContent);
      const groupContent = new Set(groups.map((g) => g.groupId));
      const queued = await repo.pendingJobScopes(storeId);
      const withContent = async (scope: AiScope, name: string, reviewCount: number): Promise<AdminAiScope> => ({
        scope,
        name,
        reviewCount,
        latest: await repo.latestVersion(storeId, scope),
        published: await repo.latestPublished(storeId, scope),
        queued: queued.has(`${scope.type}:${scope.id}`),
      });
      const out: AdminAiScope[] = [];
      if (!options.product) {
        for (const g of groups) {
          const n = (await repo.scopeStats(storeId, { type: "group", id: g.groupId })).review_count;
          if (n >= min) out.push(await withContent({ type: "group", id: g.groupId }, g.name, n));
        }
      }
      const products = options.product ? (await stores.topProducts(storeId, 1_000_000)).filter((p) => p.productId === options.product) : await stores.topProducts(storeId, options.limit * 2);
      for (const p of products) {
        if (p.reviewCount < min || (p.groupId && groupContent.has(p.groupId))) continue;
        out.push(await withContent({ type: "product", id: p.productId }, p.name, p.reviewCount));
        if (out.length >= options.limit + groups.length) break;
      }
      return out;
    },

    /**
     * Merchant "regenerate": queue a generation job for one of the store's products or groups.
     * @returns true when a job was added, false when one was already queued. @throws ApiError 404 for a scope of another store.
     */
    async regenerate(storeId: string, scope: AiScope): Promise<boolean> {
      const exists = scope.type === "product" ? await stores.getProduct(storeId, scope.id) : await stores.getGroup(storeId, scope.id);
      if (!exists) throw notFound(`No ${scope.type} with this ID in the store`, `${scope.type}_not_found`);
      return transaction(db, () => repo.enqueue(storeId, scope, "merchant asked to regenerate", now()));
    },

    /**
     * Products and groups whose newest summary and keywords wait for the merchant's approval (the admin's notice;
     * docs/ai.md, Availability and publish flow). Always 0 while the store's auto-publish is on, except for versions
     * generated before it was switched on.
     */
    awaitingApproval(storeId: string): Promise<number> {
      return repo.countAwaitingApproval(storeId);
    },

    /** Every version of a scope, newest first (admin review of drafts). */
    versions(storeId: string, scope: AiScope): Promise<VersionRow[]> {
      return repo.listVersions(storeId, scope);
    },

    /**
     * Withdraw a scope's AI content at once and queue its regeneration (a shopper's erasure, docs/privacy.md): every
     * version, published or not, is deleted with its generation state, so no summary, keyword or quote built from
     * the erased reviews is served (the storefront answers `{}` until a new version is published: at once with AI
     * auto-publish, else on approval; never while the scope is below the review floor). Joins the caller's
     * transaction. @returns versions deleted.
     */
    withdraw(storeId: string, scope: AiScope, reason: string): Promise<number> {
      return transaction(db, async () => {
        const deleted = await repo.deleteScopeContent(storeId, scope);
        await repo.enqueue(storeId, scope, reason, now());
        return deleted;
      });
    },

    /** Queue a (re)generation job (persisted). @returns true when a job was added, false when one was already queued. */
    enqueue(storeId: string, scope: AiScope, reason: string): Promise<boolean> {
      return transaction(db, () => repo.enqueue(storeId, scope, reason, now()));
    },

    /**
     * Queue every scope of every store due for (re)generation (regeneration trigger), in one transaction
     * (one commit per sweep, whatever the number of scopes). @returns jobs added.
     */
    async sweep(): Promise<number> {
      // read first, then take the write lock only for the inserts, each of which checks again that its scope is still
      // due and has no job queued or running (on several nodes another node's sweep or worker may have got there first)
      const minReviews = Math.min(config.minReviews, config.keywordsMinReviews);
      const due: { storeId: string; scope: AiScope }[] = [];
      for (const store of await stores.list()) {
        for (const scope of await repo.dueScopes(store.storeId, minReviews, config.regenerateFraction)) due.push({ storeId: store.storeId, scope });
      }
      if (due.length === 0) return 0;
      return transaction(db, async () => {
        let added = 0;
        for (const d of due) {
          const scope: AiScope = { type: d.scope.type, id: d.scope.id };
          if (await repo.enqueueIfDue(d.storeId, scope, "published reviews reached the threshold or grew", now(), minReviews, config.regenerateFraction)) added++;
        }
        return added;
      });
    },

    /**
     * GET …/products/{key}/reviews_summary: docs/ai.md, Answers, or `{}` when none is published. With `locale`
     * (a language tag) other than English, `body` is rendered from the version's facts in that language (docs/ai.md,
     * Languages); without it, or for a version stored without facts, the stored text (the language model's, if it wrote it).
     */
    async getSummary(params: ScopeParams, locale?: string): Promise<ReviewsSummaryResponse> {
      const { storeId, scope } = await contentScope(params);
      const v = await repo.latestPublished(storeId, scope);
      if (!v || v.summary_body === null || v.published_ms === null) return {};
      const body = locale && uiLocaleFor(locale) !== "en" ? (renderSummary(JSON.parse(v.claims_json) as SummaryClaim[], locale) ?? v.summary_body) : v.summary_body;
      return { reviewsSummary: { body, contributingReviewCount: v.contributing_review_count, dateGenerated: iso(v.generated_ms), datePublished: iso(v.published_ms) } };
    },

    /**
     * GET …/products/{key}/reviews_keywords: docs/ai.md, Answers, or `{}` when none are published or too few reviews.
     * With `locale`, topic names in that language and a `label` in that language beside each keyword Chorus generates
     * (sizing advice, "runs small"), docs/ai.md "Languages"; keyword `name`s always as identified (the filter value).
     */
    async getKeywords(params: ScopeParams, locale?: string): Promise<ReviewsKeywordsResponse> {
      const { storeId, scope } = await contentScope(params);
      const v = await repo.latestKeywords(storeId, scope);
      const keywordTopics = v?.keywords_json ? (JSON.parse(v.keywords_json) as KeywordTopic[]) : [];
      if (!keywordTopics.length) return {};
      if (!locale) return { reviewsKeywords: { keywordTopics } };
      const labelled = (k: KeywordTopic["keywords"][number]) => {
        const label = keywordLabel(k.name, locale);
        return label === k.name ? k : { ...k, label };
      };
      return { reviewsKeywords: { keywordTopics: keywordTopics.map((t) => ({ ...t, topic: topicName(t.topic, locale), keywords: t.keywords.map(labelled) })) } };
    },
  };
}
export type AiService = ReturnType<typeof aiService>;
