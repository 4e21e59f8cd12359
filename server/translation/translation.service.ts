/**
 * Review translation for `locale` on list reviews (docs/ai.md, Translation; docs/api.md, Responses):
 * only when the store's translation setting is `on-load`, only reviews whose language was auto-detected
 * (`languageCode` present) and differs from the locale. Translations are cached in the database per review and
 * locale (`review_translations`). With no provider, or when the provider fails, the original text comes
 * back without `translatedLocale`.
 */
import type { Review } from "../contract/storefront.ts";
import { transaction, type Db } from "../db/database.ts";
import type { Store } from "../stores/stores.repo.ts";
import type { AiRepo } from "../ai/ai.repo.ts";
import { needsTranslation, toTargetLocale } from "./locales.ts";
import type { TranslationProvider } from "./providers.ts";

/** Create the translator plugged into the reviews service as `deps.translate`. */
export function translationService(deps: { db: Db; repo: AiRepo; provider: TranslationProvider | null; log?: (line: string) => void }) {
  const { db, repo, provider } = deps;
  const log = deps.log ?? (() => {});

  return {
    /**
     * Translate a page of reviews into `locale` (a code of either list). Never throws for a provider failure.
     * @returns the reviews, translated ones with `title`, `body` and `translatedLocale` (the code as requested).
     */
    async translate(store: Store, reviews: Review[], locale: string): Promise<Review[]> {
      const target = toTargetLocale(locale);
      if (!target || store.translation !== "on-load") return reviews;
      const due = reviews.filter((r) => needsTranslation(r.languageCode, target));
      if (due.length === 0) return reviews;
      const cached = new Map(
        (
          await repo.translations(
            store.storeId,
            due.map((r) => r.reviewId),
            target.key,
          )
        ).map((t) => [t.review_id, t]),
      );
      const missing = due.filter((r) => !cached.has(r.reviewId));
      if (missing.length && provider) {
        const bySource = new Map<string, Review[]>();
        for (const r of missing) {
          const lang = r.languageCode!.toLowerCase().split("-")[0];
          bySource.set(lang, [...(bySource.get(lang) ?? []), r]);
        }
        for (const [source, group] of bySource) {
          try {
            const texts = group.flatMap((r) => [r.title, r.body]);
            const out = await provider.translate(texts, source, target);
            const rows = group.map((r, i) => ({ review_id: r.reviewId, title: r.title ? out[2 * i] : "", body: r.body ? out[2 * i + 1] : "" }));
            await transaction(db, () => repo.saveTranslations(store.storeId, target.key, provider.name, rows, Date.now()));
            for (const row of rows) cached.set(row.review_id, row);
          } catch (error) {
            log(`Translation into ${target.key} failed (${(error as Error).message}); original text served`);
          }
        }
      }
      return reviews.map((r) => {
        const t = cached.get(r.reviewId);
        return t ? { ...r, title: t.title, body: t.body, translatedLocale: locale } : r;
      });
    },
  };
}
export type TranslationService = ReturnType<typeof translationService>;
