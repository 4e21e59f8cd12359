/**
 * Stores, products and review groups (SQL). Every query names the store (docs/api.md, Endpoints and scopes).
 */
import { transaction, type Db } from "../db/database.ts";

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
};
export type Product = { storeId: string; productId: string; name: string; url?: string; imageUrl?: string; groupId?: string };
export type ReviewGroup = { storeId: string; groupId: string; name: string; useGroupContent: boolean };

type StoreRow = { store_id: string; name: string; platform: string; moderation: ModerationSetting; translation: "off" | "on-load"; ai_auto_publish: number; publish_held_after_days: number | null };

const toStore = (r: StoreRow): Store => ({
  storeId: r.store_id, name: r.name, platform: r.platform, moderation: r.moderation,
  translation: r.translation, aiAutoPublish: r.ai_auto_publish === 1,
  publishHeldAfterDays: r.publish_held_after_days === null ? null : Number(r.publish_held_after_days),
});

/** Create the stores data module over `db`. */
export function storesRepo(db: Db) {
  const getStore = db.prepare<[string], StoreRow>("SELECT * FROM stores WHERE store_id = ?");
  const getProduct = db.prepare<[string, string], { store_id: string; product_id: string; name: string; url: string | null; image_url: string | null; group_id: string | null }>(
    "SELECT * FROM products WHERE store_id = ? AND product_id = ?",
  );
  const getGroup = db.prepare<[string, string], { store_id: string; group_id: string; name: string; use_group_content: number }>(
    "SELECT * FROM review_groups WHERE store_id = ? AND group_id = ?",
  );
  return {
    /** @returns the store, or undefined when no store has this subscriber ID. */
    get(storeId: string): Store | undefined {
      const row = getStore.get(storeId);
      return row && toStore(row);
    },
    /** Insert a store (no-op when it exists); `shopUrl` is the shop's own address (sign-up, migration 074). */
    create(store: { storeId: string; name: string; platform: string; moderation?: ModerationSetting; translation?: "off" | "on-load"; aiAutoPublish?: boolean; shopUrl?: string }): void {
      db.prepare(
        `INSERT INTO stores (store_id, name, platform, moderation, translation, ai_auto_publish, created_ms, shop_url)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (store_id) DO NOTHING`,
      ).run(store.storeId, store.name, store.platform, store.moderation ?? "manual", store.translation ?? "off", store.aiAutoPublish ? 1 : 0, Date.now(), store.shopUrl ?? null);
    },
    /**
     * Change store settings; only the given fields are written. Read and written in one transaction, so two
     * processes or nodes changing different fields at once both keep their change.
     */
    updateSettings(storeId: string, settings: Partial<Pick<Store, "moderation" | "translation" | "aiAutoPublish" | "name" | "publishHeldAfterDays">>): void {
      transaction(db, () => {
        const current = this.get(storeId);
        if (!current) return;
        const next = { ...current, ...settings };
        db.prepare("UPDATE stores SET name = ?, moderation = ?, translation = ?, ai_auto_publish = ?, publish_held_after_days = ? WHERE store_id = ?").run(
          next.name, next.moderation, next.translation, next.aiAutoPublish ? 1 : 0, next.publishHeldAfterDays, storeId,
        );
      });
    },
    list(): Store[] {
      return db.prepare<[], StoreRow>("SELECT * FROM stores ORDER BY name").all().map(toStore);
    },
    getProduct(storeId: string, productId: string): Product | undefined {
      const r = getProduct.get(storeId, productId);
      return r && { storeId: r.store_id, productId: r.product_id, name: r.name, url: r.url ?? undefined, imageUrl: r.image_url ?? undefined, groupId: r.group_id ?? undefined };
    },
    getGroup(storeId: string, groupId: string): ReviewGroup | undefined {
      const r = getGroup.get(storeId, groupId);
      return r && { storeId: r.store_id, groupId: r.group_id, name: r.name, useGroupContent: r.use_group_content === 1 };
    },
    /** Insert or update a review group. */
    upsertGroup(g: { storeId: string; groupId: string; name: string; useGroupContent?: boolean }): void {
      db.prepare(
        `INSERT INTO review_groups (store_id, group_id, name, use_group_content) VALUES (?, ?, ?, ?)
         ON CONFLICT (store_id, group_id) DO UPDATE SET name = excluded.name`,
      ).run(g.storeId, g.groupId, g.name, g.useGroupContent ? 1 : 0);
    },
    setGroupContent(storeId: string, groupId: string, useGroupContent: boolean): void {
      db.prepare("UPDATE review_groups SET use_group_content = ? WHERE store_id = ? AND group_id = ?").run(useGroupContent ? 1 : 0, storeId, groupId);
    },
    /** Insert or update a product; moving it to another group moves its reviews' aggregates (triggers). */
    upsertProduct(p: Product): void {
      db.prepare(
        `INSERT INTO products (store_id, product_id, name, url, image_url, group_id) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (store_id, product_id) DO UPDATE SET name = excluded.name, url = excluded.url,
           image_url = excluded.image_url, group_id = excluded.group_id`,
      ).run(p.storeId, p.productId, p.name, p.url ?? null, p.imageUrl ?? null, p.groupId ?? null);
    },
    /** Products with the most published reviews first (demo index, admin pickers). */
    topProducts(storeId: string, limit: number): (Product & { reviewCount: number; averageRating: number })[] {
      return db
        .prepare<[string, number], { product_id: string; name: string; group_id: string | null; review_count: number; rating_total: number }>(
          `SELECT p.product_id, p.name, p.group_id, a.review_count, a.rating_total
           FROM review_aggregates a JOIN products p ON p.store_id = a.store_id AND p.product_id = a.scope_id
           WHERE a.store_id = ? AND a.scope_type = 'product' AND a.review_count > 0
           ORDER BY a.review_count DESC, p.product_id LIMIT ?`,
        )
        .all(storeId, limit)
        .map((r) => ({
          storeId, productId: r.product_id, name: r.name, groupId: r.group_id ?? undefined,
          reviewCount: r.review_count, averageRating: r.review_count ? r.rating_total / r.review_count : 0,
        }));
    },
    listGroups(storeId: string): ReviewGroup[] {
      return db
        .prepare<[string], { group_id: string; name: string; use_group_content: number }>("SELECT group_id, name, use_group_content FROM review_groups WHERE store_id = ? ORDER BY name")
        .all(storeId)
        .map((r) => ({ storeId, groupId: r.group_id, name: r.name, useGroupContent: r.use_group_content === 1 }));
    },
  };
}
export type StoresRepo = ReturnType<typeof storesRepo>;
