/**
 * SQL of a store's admin home (docs/admin.md "Home: getting started and the last 30 days"): the facts the
 * getting-started checklist is derived from, the latest "check my page" (`widget_page_checks`, migration 108),
 * and the dashboard's counts. Every query names the store; times are epoch milliseconds.
 */
import { all, one, run, sql, type Db } from "../db/database.ts";

/** What the store has done so far, each a 0/1 flag read from the store's own data. */
export type ChecklistFacts = {
  /** An app secret is set or a platform webhook has arrived (docs/platforms.md). */
  platformConnected: boolean;
  /** At least one review came from an import (a CSV file or another review app: `reviews.source` is set). */
  reviewsImported: boolean;
  /** The loyalty program is set up and on. */
  loyaltyOn: boolean;
  /** A survey of the store's own (not sample data). */
  surveyCreated: boolean;
};

/** The latest "check my page" of a store. `elements`: tags with the store's ID found, in page order. */
export type PageCheckRow = { pageUrl: string; checkedMs: number; scriptFound: boolean; elements: string[] };

/** One UTC day of reviews written: `day` is days since 1970-01-01. */
export type ReviewDayRow = { day: number; received: number; published: number; ratingTotal: number };

/** Loyalty figures since a moment: members now, new members, points earned and redeemed (positive numbers). */
export type LoyaltyFigures = { members: number; newMembers: number; pointsEarned: number; pointsRedeemed: number };

/** NPS answers since a moment, not archived, per category. */
export type NpsCounts = { promoters: number; passives: number; detractors: number };

/** The repository (async; `db` is the store's database). */
export function overviewRepo(db: Db) {
  return {
    /** The checklist facts of `storeId` in one query. */
    async checklistFacts(storeId: string): Promise<ChecklistFacts> {
      const row = await one<{ platform: number; imported: number; loyalty: number; survey: number }>(
        db,
        sql`SELECT
          CASE WHEN EXISTS (SELECT 1 FROM platform_connections WHERE store_id = ${storeId} AND secret_encrypted IS NOT NULL)
            OR EXISTS (SELECT 1 FROM platform_webhooks WHERE store_id = ${storeId}) THEN 1 ELSE 0 END AS platform,
          CASE WHEN EXISTS (SELECT 1 FROM reviews WHERE store_id = ${storeId} AND source IS NOT NULL) THEN 1 ELSE 0 END AS imported,
          CASE WHEN EXISTS (SELECT 1 FROM loyalty_programs WHERE store_id = ${storeId} AND enabled = 1) THEN 1 ELSE 0 END AS loyalty,
          CASE WHEN EXISTS (SELECT 1 FROM surveys WHERE store_id = ${storeId} AND sample_data = 0) THEN 1 ELSE 0 END AS survey`,
      );
      return { platformConnected: row?.platform === 1, reviewsImported: row?.imported === 1, loyaltyOn: row?.loyalty === 1, surveyCreated: row?.survey === 1 };
    },

    /** The shop's own address given at sign-up (`stores.shop_url`), or null. */
    async shopUrl(storeId: string): Promise<string | null> {
      return (await one<{ shop_url: string | null }>(db, sql`SELECT shop_url FROM stores WHERE store_id = ${storeId}`))?.shop_url ?? null;
    },

    /** The latest page check of the store, or undefined. */
    async pageCheck(storeId: string): Promise<PageCheckRow | undefined> {
      const r = await one<{ page_url: string; checked_ms: number; script_found: number; elements: string }>(
        db,
        sql`SELECT page_url, checked_ms, script_found, elements FROM widget_page_checks WHERE store_id = ${storeId}`,
      );
      return r && { pageUrl: r.page_url, checkedMs: r.checked_ms, scriptFound: r.script_found === 1, elements: r.elements ? r.elements.split(",") : [] };
    },

    /** Keep a page check as the store's latest (one upsert; the last check wins, which is the intent). */
    async savePageCheck(storeId: string, check: PageCheckRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO widget_page_checks (store_id, page_url, checked_ms, script_found, elements)
        VALUES (${storeId}, ${check.pageUrl}, ${check.checkedMs}, ${check.scriptFound ? 1 : 0}, ${check.elements.join(",")})
        ON CONFLICT (store_id) DO UPDATE SET page_url = excluded.page_url, checked_ms = excluded.checked_ms,
          script_found = excluded.script_found, elements = excluded.elements`,
      );
    },

    /** Reviews written from `sinceMs` to `untilMs` per UTC day (days without reviews are absent). */
    async reviewsByDay(storeId: string, sinceMs: number, untilMs: number): Promise<ReviewDayRow[]> {
      return all<ReviewDayRow>(
        db,
        sql`SELECT created_ms / 86400000 AS day, COUNT(*) AS received,
          COALESCE(SUM(CASE WHEN status = 'published' THEN 1 ELSE 0 END), 0) AS published,
          COALESCE(SUM(CASE WHEN status = 'published' THEN rating ELSE 0 END), 0) AS "ratingTotal"
        FROM reviews WHERE store_id = ${storeId} AND created_ms >= ${sinceMs} AND created_ms <= ${untilMs}
        GROUP BY created_ms / 86400000 ORDER BY day`,
      );
    },

    /** Loyalty members (enrolled) now and since `sinceMs`, and the points earned and redeemed since then. */
    async loyaltyFigures(storeId: string, sinceMs: number, untilMs: number): Promise<LoyaltyFigures> {
      const r = await one<LoyaltyFigures>(
        db,
        sql`SELECT
          (SELECT COUNT(*) FROM loyalty_customers WHERE store_id = ${storeId} AND status = 'enrolled') AS members,
          (SELECT COUNT(*) FROM loyalty_customers WHERE store_id = ${storeId} AND status = 'enrolled'
            AND enrolled_ms >= ${sinceMs} AND enrolled_ms <= ${untilMs}) AS "newMembers",
          (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions WHERE store_id = ${storeId} AND type = 'earning'
            AND created_ms >= ${sinceMs} AND created_ms <= ${untilMs}) AS "pointsEarned",
          (SELECT COALESCE(-SUM(points), 0) FROM loyalty_transactions WHERE store_id = ${storeId} AND type = 'redemption'
            AND created_ms >= ${sinceMs} AND created_ms <= ${untilMs}) AS "pointsRedeemed"`,
      );
      return r ?? { members: 0, newMembers: 0, pointsEarned: 0, pointsRedeemed: 0 };
    },

    /** NPS answers of every survey of the store from `sinceMs` to `untilMs`, archived responses left out. */
    async npsCounts(storeId: string, sinceMs: number, untilMs: number): Promise<NpsCounts> {
      const r = await one<NpsCounts>(
        db,
        sql`SELECT
          COALESCE(SUM(CASE WHEN nps_category = 'promoter' THEN 1 ELSE 0 END), 0) AS promoters,
          COALESCE(SUM(CASE WHEN nps_category = 'passive' THEN 1 ELSE 0 END), 0) AS passives,
          COALESCE(SUM(CASE WHEN nps_category = 'detractor' THEN 1 ELSE 0 END), 0) AS detractors
        FROM survey_responses WHERE store_id = ${storeId} AND is_archived = 0 AND nps_score IS NOT NULL
          AND created_ms >= ${sinceMs} AND created_ms <= ${untilMs}`,
      );
      return r ?? { promoters: 0, passives: 0, detractors: 0 };
    },
  };
}
export type OverviewRepo = ReturnType<typeof overviewRepo>;
