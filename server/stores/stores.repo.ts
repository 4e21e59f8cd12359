/**
 * Stores, products and review groups (SQL). Every query names the store (docs/api.md, Endpoints and scopes).
 */
import { all, forUpdate, one, run, sql, transaction, type Db } from "../db/database.ts";
import { uiLocaleFor, type UiLocale } from "../contract/widget-locales.ts";

export type ModerationSetting = "manual" | "auto-publish-4-5" | "auto-publish-all";
export type Store = {
  storeId: string;
  name: string;
  platform: string;
  moderation: ModerationSetting;
  translation: "off" | "on-load";
  aiAutoPublish: boolean;
  /** Days after which a review still pending is published (held-review job, server/admin/held-reviews.ts); null = never (an explicit choice). */
  publishHeldAfterDays: number | null;
  /** The language of shopper-facing pages when the shopper's Accept-Language names none of the 16 widget languages (docs/surveys.md "Languages of the hosted pages"). */
  defaultLanguage: UiLocale;
};
export type Product = { storeId: string; productId: string; name: string; url?: string; imageUrl?: string; groupId?: string };
export type ReviewGroup = { storeId: string; groupId: string; name: string; useGroupContent: boolean };

type StoreRow = {
  store_id: string;
  name: string;
  platform: string;
  moderation: ModerationSetting;
  translation: "off" | "on-load";
  ai_auto_publish: number;
  publish_held_after_days: number | null;
  default_language: string | null;
};

const toStore = (r: StoreRow): Store => ({
  storeId: r.store_id,
  name: r.name,
  platform: r.platform,
  moderation: r.moderation,
  translation: r.translation,
  aiAutoPublish: r.ai_auto_publish === 1,
  publishHeldAfterDays: r.publish_held_after_days === null ? null : Number(r.publish_held_after_days),
  defaultLanguage: uiLocaleFor(r.default_language ?? "en"),
});

/** Create the stores data module over `db`. */
export function storesRepo(db: Db) {
  type ProductRow = { store_id: string; product_id: string; name: string; url: string | null; image_url: string | null; group_id: string | null };
  return {
    /** @returns a promise of the store, or undefined when no store has this subscriber ID. */
    async get(storeId: string): Promise<Store | undefined> {
      const row = await one<StoreRow>(db, sql`SELECT * FROM stores WHERE store_id = ${storeId}`);
      return row && toStore(row);
    },
    /** Insert a store (no-op when it exists); `shopUrl` is the shop's own address (sign-up, migration 074). */
    async create(store: {
      storeId: string;
      name: string;
      platform: string;
      moderation?: ModerationSetting;
      translation?: "off" | "on-load";
      aiAutoPublish?: boolean;
      shopUrl?: string;
    }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO stores (store_id, name, platform, moderation, translation, ai_auto_publish, created_ms, shop_url)
         VALUES (${store.storeId}, ${store.name}, ${store.platform}, ${store.moderation ?? "manual"}, ${store.translation ?? "off"},
           ${store.aiAutoPublish ? 1 : 0}, ${Date.now()}, ${store.shopUrl ?? null}) ON CONFLICT (store_id) DO NOTHING`,
      );
    },
    /**
     * Change store settings; only the given fields are written. Read and written in one transaction, the store's
     * row locked from the read (exactly-once: row lock on the store), so two processes or nodes changing different
     * fields at once both keep their change.
     */
    async updateSettings(storeId: string, settings: Partial<Pick<Store, "moderation" | "translation" | "aiAutoPublish" | "name" | "publishHeldAfterDays" | "defaultLanguage">>): Promise<void> {
      await transaction(db, async () => {
        const row = await one<StoreRow>(db, sql`SELECT * FROM stores WHERE store_id = ${storeId}${forUpdate(db)}`);
        if (!row) return;
        const next = { ...toStore(row), ...settings };
        await run(
          db,
          sql`UPDATE stores SET name = ${next.name}, moderation = ${next.moderation}, translation = ${next.translation},
          ai_auto_publish = ${next.aiAutoPublish ? 1 : 0}, publish_held_after_days = ${next.publishHeldAfterDays},
          default_language = ${next.defaultLanguage} WHERE store_id = ${storeId}`,
        );
      });
    },
    async list(): Promise<Store[]> {
      return (await all<StoreRow>(db, sql`SELECT * FROM stores ORDER BY name`)).map(toStore);
    },
    async getProduct(storeId: string, productId: string): Promise<Product | undefined> {
      const r = await one<ProductRow>(db, sql`SELECT * FROM products WHERE store_id = ${storeId} AND product_id = ${productId}`);
      return r && { storeId: r.store_id, productId: r.product_id, name: r.name, url: r.url ?? undefined, imageUrl: r.image_url ?? undefined, groupId: r.group_id ?? undefined };
    },
    async getGroup(storeId: string, groupId: string): Promise<ReviewGroup | undefined> {
      const r = await one<{ store_id: string; group_id: string; name: string; use_group_content: number }>(db, sql`SELECT * FROM review_groups WHERE store_id = ${storeId} AND group_id = ${groupId}`);
      return r && { storeId: r.store_id, groupId: r.group_id, name: r.name, useGroupContent: r.use_group_content === 1 };
    },
    /** Insert or update a review group. */
    async upsertGroup(g: { storeId: string; groupId: string; name: string; useGroupContent?: boolean }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO review_groups (store_id, group_id, name, use_group_content) VALUES (${g.storeId}, ${g.groupId}, ${g.name}, ${g.useGroupContent ? 1 : 0})
         ON CONFLICT (store_id, group_id) DO UPDATE SET name = excluded.name`,
      );
    },
    async setGroupContent(storeId: string, groupId: string, useGroupContent: boolean): Promise<void> {
      await run(db, sql`UPDATE review_groups SET use_group_content = ${useGroupContent ? 1 : 0} WHERE store_id = ${storeId} AND group_id = ${groupId}`);
    },
    /** Insert or update a product; moving it to another group moves its reviews' aggregates (triggers). */
    async upsertProduct(p: Product): Promise<void> {
      await run(
        db,
        sql`INSERT INTO products (store_id, product_id, name, url, image_url, group_id)
         VALUES (${p.storeId}, ${p.productId}, ${p.name}, ${p.url ?? null}, ${p.imageUrl ?? null}, ${p.groupId ?? null})
         ON CONFLICT (store_id, product_id) DO UPDATE SET name = excluded.name, url = excluded.url,
           image_url = excluded.image_url, group_id = excluded.group_id`,
      );
    },
    /** Products with the most published reviews first (demo index, admin pickers). */
    async topProducts(storeId: string, limit: number): Promise<(Product & { reviewCount: number; averageRating: number })[]> {
      const rows = await all<{ product_id: string; name: string; group_id: string | null; review_count: number; rating_total: number }>(
        db,
        sql`
        SELECT p.product_id, p.name, p.group_id, a.review_count, a.rating_total
        FROM review_aggregates a JOIN products p ON p.store_id = a.store_id AND p.product_id = a.scope_id
        WHERE a.store_id = ${storeId} AND a.scope_type = 'product' AND a.review_count > 0
        ORDER BY a.review_count DESC, p.product_id LIMIT ${limit}`,
      );
      return rows.map((r) => ({
        storeId,
        productId: r.product_id,
        name: r.name,
        groupId: r.group_id ?? undefined,
        reviewCount: r.review_count,
        averageRating: r.review_count ? r.rating_total / r.review_count : 0,
      }));
    },
    async listGroups(storeId: string): Promise<ReviewGroup[]> {
      const rows = await all<{ group_id: string; name: string; use_group_content: number }>(
        db,
        sql`SELECT group_id, name, use_group_content FROM review_groups WHERE store_id = ${storeId} ORDER BY name`,
      );
      return rows.map((r) => ({ storeId, groupId: r.group_id, name: r.name, useGroupContent: r.use_group_content === 1 }));
    },
  };
}
export type StoresRepo = ReturnType<typeof storesRepo>;
