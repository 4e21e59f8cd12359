/**
 * AI content, keyword identifications, the generation queue and review translations: all their SQL.
 * Bound parameters only; every query names the store.
 */
import { all, dialect, forUpdate, isUniqueViolation, one, run, sql, transaction, value, type Db, type RawBuilder } from "../db/database.ts";
import type { KeywordMention, Polarity } from "./keywords.ts";

/** A scope that has its own AI content (docs/ai.md, Answers). */
export type AiScope = { type: "product"; id: string } | { type: "group"; id: string };

export type ReviewText = { review_id: string; title: string; body: string; rating: number };
export type ScopeStats = { review_count: number; rating_total: number; recommended: number; recommend_known: number };
export type KeywordCountRow = { keyword: string; topic: string; occurrences: number; praise: number; complaints: number };
export type MentionRow = { review_id: string; keyword: string; topic: string; polarity: Polarity };

export type VersionRow = {
  version_id: string;
  store_id: string;
  scope_type: "product" | "group";
  scope_id: string;
  engine: string;
  summary_body: string | null;
  claims_json: string;
  keywords_json: string | null;
  contributing_review_count: number;
  generated_ms: number;
  published_ms: number | null;
};

export type JobRow = {
  job_id: number;
  store_id: string;
  scope_type: "product" | "group";
  scope_id: string;
  reason: string;
  status: "queued" | "running" | "done" | "failed";
  attempts: number;
  run_after_ms: number;
  created_ms: number;
  finished_ms: number | null;
  error: string | null;
  /** While `running`: the claim holds until then (epoch ms), renewed by the loop working on it (migration 086). */
  lease_until_ms: number | null;
  /** While `running`: the worker loop holding it (worker.ts `workerId`). */
  claimed_by: string | null;
};

/** How long a claim on an AI job holds unless renewed (ms); the loop renews it every AI_JOB_LEASE_MS / 4. */
export const AI_JOB_LEASE_MS = 60_000;

export type TranslationRow = { review_id: string; title: string; body: string };

/**
 * FROM … WHERE of the scopes of store `storeId` due for (re)generation: products (and groups that use group-level
 * content) with at least `minReviews` published reviews, never generated or grown by `fraction` since the last
 * generation, and without a job queued or running (another node's sweep may have queued it; its run is under way).
 */
const dueScopes = (storeId: string, minReviews: number, fraction: number) => sql`FROM review_aggregates a
  LEFT JOIN ai_scope_state s ON s.store_id = a.store_id AND s.scope_type = a.scope_type AND s.scope_id = a.scope_id
  WHERE a.store_id = ${storeId} AND a.review_count >= ${minReviews}
    AND (a.scope_type = 'product' OR (a.scope_type = 'group' AND EXISTS (
          SELECT 1 FROM review_groups g WHERE g.store_id = a.store_id AND g.group_id = a.scope_id AND g.use_group_content = 1)))
    AND (s.last_review_count IS NULL OR a.review_count >= s.last_review_count * (1.0 + ${fraction}))
    AND NOT EXISTS (SELECT 1 FROM ai_jobs j WHERE j.store_id = a.store_id AND j.scope_type = a.scope_type AND j.scope_id = a.scope_id AND j.status IN ('queued', 'running'))`;

/** The columns of a VersionRow (not PostgreSQL's extra `version_seq`). */
const VERSION = sql.raw("version_id, store_id, scope_type, scope_id, engine, summary_body, claims_json, keywords_json, contributing_review_count, generated_ms, published_ms");

/** The review column of a scope (code-owned text). */
const scopeColumn = (scope: AiScope) => sql.raw(scope.type === "product" ? "r.product_id" : "r.group_id");

/** Create the AI data module over `db`. */
export function aiRepo(db: Db) {
  const pg = dialect(db) === "postgres";
  /** `review_id IN (…the JSON array…)` of an ID list (one parameter, whatever its length). */
  const idsIn = (ids: string[]): RawBuilder<unknown> =>
    pg ? sql`(SELECT jsonb_array_elements_text(CAST(${JSON.stringify(ids)} AS jsonb)))` : sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

  /**
   * Queue `jobs` (running ones, locked by the caller's transaction) again, or mark them failed when their scope is
   * queued again meanwhile. The check and the write race with another node's enqueue of the scope (the one-queued
   * unique index): the write runs in a savepoint and, on that conflict, the job is marked superseded instead.
   */
  const requeue = async (jobs: JobRow[]): Promise<number> => {
    const superseded = (j: JobRow) =>
      run(
        db,
        sql`UPDATE ai_jobs SET status = 'failed', error = 'superseded after restart', lease_until_ms = NULL, claimed_by = NULL
      WHERE job_id = ${j.job_id} AND store_id = ${j.store_id}`,
      );
    for (const j of jobs) {
      const queued = await one(db, sql`SELECT 1 AS x FROM ai_jobs WHERE store_id = ${j.store_id} AND scope_type = ${j.scope_type} AND scope_id = ${j.scope_id} AND status = 'queued'`);
      if (queued) {
        await superseded(j);
        continue;
      }
      try {
        await transaction(db, () => run(db, sql`UPDATE ai_jobs SET status = 'queued', lease_until_ms = NULL, claimed_by = NULL WHERE job_id = ${j.job_id} AND store_id = ${j.store_id}`));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        await superseded(j);
      }
    }
    return jobs.length;
  };
  /** Newest first among versions of one scope: SQLite's insertion order (rowid), PostgreSQL's `version_seq` (its migration 005). */
  const newest = sql.raw(pg ? "generated_ms DESC, version_seq DESC" : "generated_ms DESC, rowid DESC");
  /** A job this loop holds: still running under the lease it claimed or last renewed (the lease is the fencing token). */
  const held = (job: JobRow) => sql`job_id = ${job.job_id} AND store_id = ${job.store_id} AND status = 'running' AND lease_until_ms = ${job.lease_until_ms}`;

  return {
    /** Published reviews of the scope not yet analysed by `engineVersion` (or edited since), up to `limit`. */
    reviewsToAnalyse(storeId: string, scope: AiScope, engineVersion: string, limit: number): Promise<ReviewText[]> {
      return all<ReviewText>(
        db,
        sql`SELECT r.review_id, r.title, r.body, r.rating FROM reviews r
         LEFT JOIN ai_review_analysis a ON a.review_id = r.review_id
         WHERE r.store_id = ${storeId} AND r.status = 'published' AND ${scopeColumn(scope)} = ${scope.id}
           AND (a.review_id IS NULL OR a.engine_version <> ${engineVersion} OR COALESCE(r.updated_ms, 0) > a.analysed_ms)
         LIMIT ${limit}`,
      );
    },

    /** Replace the keyword identifications of reviews (call inside a transaction: the caller wraps). */
    async saveAnalysis(storeId: string, engineVersion: string, analysed: { reviewId: string; mentions: KeywordMention[] }[], nowMs: number): Promise<void> {
      for (const a of analysed) {
        await run(db, sql`DELETE FROM ai_review_keywords WHERE store_id = ${storeId} AND review_id = ${a.reviewId}`);
        // one statement per review; a keyword named twice keeps its last mention (as one upsert per mention did)
        const mentions = [...new Map(a.mentions.map((m) => [m.keyword, m])).values()];
        if (mentions.length) {
          await run(
            db,
            sql`INSERT INTO ai_review_keywords (store_id, keyword, review_id, topic, polarity)
            VALUES ${sql.join(mentions.map((m) => sql`(${storeId}, ${m.keyword}, ${a.reviewId}, ${m.topic}, ${m.polarity})`))}
            ON CONFLICT (store_id, keyword, review_id) DO UPDATE SET topic = excluded.topic, polarity = excluded.polarity`,
          );
        }
        await run(
          db,
          sql`INSERT INTO ai_review_analysis (review_id, store_id, engine_version, analysed_ms) VALUES (${a.reviewId}, ${storeId}, ${engineVersion}, ${nowMs})
          ON CONFLICT (review_id) DO UPDATE SET engine_version = excluded.engine_version, analysed_ms = excluded.analysed_ms`,
        );
      }
    },

    /** Published-review statistics of a scope (count, rating total, recommendation counts). */
    async scopeStats(storeId: string, scope: AiScope): Promise<ScopeStats> {
      return (await one<ScopeStats>(
        db,
        sql`SELECT count(*) AS review_count, COALESCE(sum(r.rating), 0) AS rating_total,
                COALESCE(sum(CASE WHEN r.is_recommended = 1 THEN 1 ELSE 0 END), 0) AS recommended, count(r.is_recommended) AS recommend_known
         FROM reviews r WHERE r.store_id = ${storeId} AND r.status = 'published' AND ${scopeColumn(scope)} = ${scope.id}`,
      ))!;
    },

    /** Per keyword: number of published reviews of the scope in which it was identified, and how many as praise / complaint. */
    keywordCounts(storeId: string, scope: AiScope): Promise<KeywordCountRow[]> {
      return all<KeywordCountRow>(
        db,
        sql`SELECT k.keyword, k.topic, count(*) AS occurrences, sum(CASE WHEN k.polarity = 1 THEN 1 ELSE 0 END) AS praise, sum(CASE WHEN k.polarity = -1 THEN 1 ELSE 0 END) AS complaints
         FROM ai_review_keywords k JOIN reviews r ON r.review_id = k.review_id
         WHERE k.store_id = ${storeId} AND r.store_id = ${storeId} AND r.status = 'published' AND ${scopeColumn(scope)} = ${scope.id}
         GROUP BY k.keyword, k.topic ORDER BY occurrences DESC, k.keyword`,
      );
    },

    /** Every praise/complaint identification in published reviews of the scope (for claims' supporting IDs). */
    polarMentions(storeId: string, scope: AiScope): Promise<MentionRow[]> {
      return all<MentionRow>(
        db,
        sql`SELECT k.review_id, k.keyword, k.topic, k.polarity FROM ai_review_keywords k JOIN reviews r ON r.review_id = k.review_id
         WHERE k.store_id = ${storeId} AND r.store_id = ${storeId} AND r.status = 'published' AND ${scopeColumn(scope)} = ${scope.id} AND k.polarity <> 0`,
      );
    },

    /** Up to `limit` short published review texts of the scope, most helpful first (language-model context). */
    sampleTexts(storeId: string, scope: AiScope, limit: number): Promise<ReviewText[]> {
      return all<ReviewText>(
        db,
        sql`SELECT r.review_id, r.title, r.body, r.rating FROM reviews r
         WHERE r.store_id = ${storeId} AND r.status = 'published' AND ${scopeColumn(scope)} = ${scope.id} AND length(r.body) > 0
         ORDER BY r.helpful_count DESC, r.created_ms DESC, r.review_id LIMIT ${limit}`,
      );
    },

    /** Store a generated version and the scope's generation state (call inside a transaction). */
    async insertVersion(v: VersionRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO ai_content_versions (version_id, store_id, scope_type, scope_id, engine, summary_body, claims_json, keywords_json,
           contributing_review_count, generated_ms, published_ms)
         VALUES (${v.version_id}, ${v.store_id}, ${v.scope_type}, ${v.scope_id}, ${v.engine}, ${v.summary_body}, ${v.claims_json}, ${v.keywords_json},
           ${v.contributing_review_count}, ${v.generated_ms}, ${v.published_ms})`,
      );
      await run(
        db,
        sql`INSERT INTO ai_scope_state (store_id, scope_type, scope_id, last_review_count, last_generated_ms)
         VALUES (${v.store_id}, ${v.scope_type}, ${v.scope_id}, ${v.contributing_review_count}, ${v.generated_ms})
         ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET last_review_count = excluded.last_review_count, last_generated_ms = excluded.last_generated_ms`,
      );
    },

    /** Publish a version. @returns false when the store has no such version. */
    async publishVersion(storeId: string, versionId: string, nowMs: number): Promise<boolean> {
      return (await run(db, sql`UPDATE ai_content_versions SET published_ms = COALESCE(published_ms, ${nowMs}) WHERE store_id = ${storeId} AND version_id = ${versionId}`)).changes === 1;
    },

    getVersion(storeId: string, versionId: string): Promise<VersionRow | undefined> {
      return one<VersionRow>(db, sql`SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ${storeId} AND version_id = ${versionId}`);
    },

    /** The most recently published version with a summary. */
    latestPublished(storeId: string, scope: AiScope): Promise<VersionRow | undefined> {
      return one<VersionRow>(
        db,
        sql`SELECT ${VERSION} FROM ai_content_versions
         WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.id} AND published_ms IS NOT NULL AND summary_body IS NOT NULL
         ORDER BY published_ms DESC, generated_ms DESC LIMIT 1`,
      );
    },

    /** The most recently published version with keywords (the same approval rule as the summary: docs/ai.md, Availability and publish flow). */
    latestKeywords(storeId: string, scope: AiScope): Promise<VersionRow | undefined> {
      return one<VersionRow>(
        db,
        sql`SELECT ${VERSION} FROM ai_content_versions
         WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.id} AND keywords_json IS NOT NULL AND published_ms IS NOT NULL
         ORDER BY published_ms DESC, generated_ms DESC LIMIT 1`,
      );
    },

    /** Delete a version that was never published (merchant discard). @returns false when the store has no such unpublished version. */
    async deleteUnpublishedVersion(storeId: string, versionId: string): Promise<boolean> {
      return (await run(db, sql`DELETE FROM ai_content_versions WHERE store_id = ${storeId} AND version_id = ${versionId} AND published_ms IS NULL`)).changes === 1;
    },

    /**
     * Delete every version of a scope, published or not, and its generation state (call inside a transaction):
     * after a shopper's erasure no summary or keyword list built from their reviews may be served.
     * @returns versions deleted.
     */
    async deleteScopeContent(storeId: string, scope: AiScope): Promise<number> {
      await run(db, sql`DELETE FROM ai_scope_state WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.id}`);
      return (await run(db, sql`DELETE FROM ai_content_versions WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.id}`)).changes;
    },

    /** How many of `reviewIds` are published reviews of the store. */
    async countPublished(storeId: string, reviewIds: string[]): Promise<number> {
      if (reviewIds.length === 0) return 0;
      return Number(await value<number>(db, sql`SELECT count(*) AS n FROM reviews WHERE store_id = ${storeId} AND status = 'published' AND review_id IN ${idsIn(reviewIds)}`));
    },

    /**
     * How many of the store's products and groups have a newest version that is not published (waiting for the
     * merchant's approval: docs/ai.md, Availability and publish flow).
     */
    async countAwaitingApproval(storeId: string): Promise<number> {
      return Number(
        await value<number>(
          db,
          sql`SELECT count(*) AS n FROM (
           SELECT DISTINCT v.scope_type, v.scope_id FROM ai_content_versions v
            WHERE v.store_id = ${storeId} AND v.published_ms IS NULL
              AND NOT EXISTS (SELECT 1 FROM ai_content_versions w WHERE w.store_id = v.store_id AND w.scope_type = v.scope_type
                AND w.scope_id = v.scope_id AND w.published_ms IS NOT NULL AND w.generated_ms >= v.generated_ms)) AS waiting`,
        ),
      );
    },

    /** The most recently generated version of a scope (published or not). */
    latestVersion(storeId: string, scope: AiScope): Promise<VersionRow | undefined> {
      return one<VersionRow>(db, sql`SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.id} ORDER BY ${newest} LIMIT 1`);
    },

    /** Queued or running generation jobs of a store's scopes (`scope_type:scope_id` keys). */
    async pendingJobScopes(storeId: string): Promise<Set<string>> {
      const rows = await all<{ scope_type: string; scope_id: string }>(db, sql`SELECT scope_type, scope_id FROM ai_jobs WHERE store_id = ${storeId} AND status IN ('queued', 'running')`);
      return new Set(rows.map((r) => `${r.scope_type}:${r.scope_id}`));
    },

    /** Every version of a scope, newest first. */
    listVersions(storeId: string, scope: AiScope): Promise<VersionRow[]> {
      return all<VersionRow>(db, sql`SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.id} ORDER BY ${newest}`);
    },

    /**
     * Scopes of a store due for (re)generation: products (and groups that use group-level content) with at
     * least `minReviews` published reviews, never generated or grown by `fraction` since the last generation, and
     * with no job queued or running.
     */
    async dueScopes(storeId: string, minReviews: number, fraction: number): Promise<(AiScope & { reviewCount: number })[]> {
      const rows = await all<{ scope_type: "product" | "group"; scope_id: string; review_count: number }>(
        db,
        sql`SELECT a.scope_type, a.scope_id, a.review_count ${dueScopes(storeId, minReviews, fraction)} ORDER BY a.review_count DESC, a.scope_id`,
      );
      return rows.map((r) => ({ type: r.scope_type, id: r.scope_id, reviewCount: r.review_count }));
    },

    /**
     * Queue a job for `scope` if it is still due (as `dueScopes`, which skips scopes with a queued or running job),
     * checked by the INSERT itself: a sweep's reading and its inserts are not one transaction, and another node may
     * have queued, started or finished the scope in between (call inside the sweep's transaction).
     * Exactly-once: the one-queued unique index with ON CONFLICT DO NOTHING (two nodes' sweeps add one job).
     * @returns true when a job was added.
     */
    async enqueueIfDue(storeId: string, scope: AiScope, reason: string, nowMs: number, minReviews: number, fraction: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`INSERT INTO ai_jobs (store_id, scope_type, scope_id, reason, run_after_ms, created_ms)
         SELECT a.store_id, a.scope_type, a.scope_id, CAST(${reason} AS TEXT), CAST(${nowMs} AS BIGINT), CAST(${nowMs} AS BIGINT)
         ${dueScopes(storeId, minReviews, fraction)} AND a.scope_type = ${scope.type} AND a.scope_id = ${scope.id}
         ON CONFLICT DO NOTHING`,
          )
        ).changes === 1
      );
    },

    // ---- the persisted queue ----

    /** Queue a job (no-op when the same scope is already queued: the one-queued unique index). @returns true when a job was added. */
    async enqueue(storeId: string, scope: AiScope, reason: string, nowMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`INSERT INTO ai_jobs (store_id, scope_type, scope_id, reason, run_after_ms, created_ms)
        VALUES (${storeId}, ${scope.type}, ${scope.id}, ${reason}, ${nowMs}, ${nowMs}) ON CONFLICT DO NOTHING`,
          )
        ).changes === 1
      );
    },

    /**
     * Claim the oldest runnable job (queued, `run_after_ms <= nowMs`) for the worker loop `workerId`: it becomes
     * `running` until `leaseUntilMs` (the loop renews the lease while it works: `renewJob`), its attempt counted.
     * One transaction of its own, entered only when a job looks runnable (an idle poll takes no write lock).
     * Exactly-once: on PostgreSQL the row is selected `FOR UPDATE SKIP LOCKED` (the loops of several nodes never
     * take one job, and a row another claim changed meanwhile is read again and no longer matches); on SQLite the
     * transaction holds the write lock.
     */
    async claimNext(nowMs: number, leaseUntilMs: number = nowMs + AI_JOB_LEASE_MS, workerId = "worker"): Promise<JobRow | undefined> {
      const next = sql`SELECT * FROM ai_jobs WHERE status = 'queued' AND run_after_ms <= ${nowMs} ORDER BY run_after_ms, job_id LIMIT 1`;
      if (!(await one(db, next))) return undefined;
      return transaction(db, async () => {
        const job = await one<JobRow>(db, sql`${next}${forUpdate(db, { skipLocked: true })}`);
        if (!job) return undefined;
        await run(
          db,
          sql`UPDATE ai_jobs SET status = 'running', attempts = attempts + 1, lease_until_ms = ${leaseUntilMs}, claimed_by = ${workerId}
          WHERE job_id = ${job.job_id} AND store_id = ${job.store_id}`,
        );
        return { ...job, status: "running" as const, attempts: job.attempts + 1, lease_until_ms: leaseUntilMs, claimed_by: workerId };
      });
    },

    /** Extend the lease of a job this loop holds (`job.lease_until_ms` as claimed or last renewed) to `leaseUntilMs`. @returns false when the claim was lost. */
    async renewJob(job: JobRow, leaseUntilMs: number): Promise<boolean> {
      // conditional write on the lease this loop holds: a loop whose lease was taken over changes nothing
      const renewed = (await run(db, sql`UPDATE ai_jobs SET lease_until_ms = ${leaseUntilMs} WHERE ${held(job)}`)).changes === 1;
      if (renewed) job.lease_until_ms = leaseUntilMs;
      return renewed;
    },

    /** Record a job this loop holds as done. @returns false when the claim was lost (its lease ran out and another loop took it). */
    async finishJob(job: JobRow, nowMs: number): Promise<boolean> {
      return (await run(db, sql`UPDATE ai_jobs SET status = 'done', finished_ms = ${nowMs}, error = NULL, lease_until_ms = NULL WHERE ${held(job)}`)).changes === 1;
    },

    /** Record a failure of a job this loop holds: back to the queue after `retryAfterMs`, or failed for good when `final`. @returns false when the claim was lost. */
    failJob(job: JobRow, error: string, nowMs: number, retryAfterMs: number, final: boolean): Promise<boolean> {
      const failed = async () => (await run(db, sql`UPDATE ai_jobs SET status = 'failed', finished_ms = ${nowMs}, error = ${error}, lease_until_ms = NULL WHERE ${held(job)}`)).changes === 1;
      return transaction(db, async () => {
        // a newer queued job for the scope wins over this retry
        const superseded =
          !final && (await one(db, sql`SELECT 1 AS x FROM ai_jobs WHERE store_id = ${job.store_id} AND scope_type = ${job.scope_type} AND scope_id = ${job.scope_id} AND status = 'queued'`));
        if (final || superseded) return failed();
        try {
          // a savepoint: a scope queued by another node between the check and this write (the one-queued unique index) wins too
          return await transaction(
            db,
            async () =>
              (
                await run(
                  db,
                  sql`UPDATE ai_jobs SET status = 'queued', run_after_ms = ${nowMs + retryAfterMs}, error = ${error},
            lease_until_ms = NULL, claimed_by = NULL WHERE ${held(job)}`,
                )
              ).changes === 1,
          );
        } catch (e) {
          if (!isUniqueViolation(e)) throw e;
          return failed();
        }
      });
    },

    /** Re-queue every running job (an operator's or test's explicit recovery; see `requeueInterrupted` for the loop's). @returns how many. */
    requeueRunning(): Promise<number> {
      return transaction(db, async () => requeue(await all<JobRow>(db, sql`SELECT job_id, store_id, scope_type, scope_id FROM ai_jobs WHERE status = 'running'${forUpdate(db)}`)));
    },

    /**
     * Re-queue the running jobs no live loop holds any more: those of an earlier run of the loop `workerId` (it is
     * starting again, e.g. after its thread died; null for the periodic check of a running loop) and those whose
     * lease ran out (their loop, process or node stopped or hangs). Never a job another live loop works on, so the
     * loops of several processes or nodes share one queue. A job whose scope was queued again meanwhile is marked
     * failed (superseded). Exactly-once: on PostgreSQL the rows are selected `FOR UPDATE SKIP LOCKED` (a row another
     * node is requeueing or renewing is left to it; a row renewed meanwhile is read again and no longer matches).
     * @returns how many.
     */
    async requeueInterrupted(nowMs: number, workerId: string | null): Promise<number> {
      const stale = sql`SELECT job_id, store_id, scope_type, scope_id FROM ai_jobs
        WHERE status = 'running' AND (lease_until_ms IS NULL OR lease_until_ms <= ${nowMs} OR claimed_by = ${workerId})`;
      if (!(await one(db, sql`${stale} LIMIT 1`))) return 0;
      return transaction(db, async () => requeue(await all<JobRow>(db, sql`${stale}${forUpdate(db, { skipLocked: true })}`)));
    },

    async jobCounts(): Promise<Record<JobRow["status"], number>> {
      const out = { queued: 0, running: 0, done: 0, failed: 0 };
      for (const r of await all<{ status: JobRow["status"]; n: number }>(db, sql`SELECT status, count(*) AS n FROM ai_jobs GROUP BY status`)) out[r.status] = Number(r.n);
      return out;
    },

    listJobs(storeId: string): Promise<JobRow[]> {
      return all<JobRow>(db, sql`SELECT * FROM ai_jobs WHERE store_id = ${storeId} ORDER BY job_id`);
    },

    // ---- translations ----

    /** Cached translations of reviews into `localeKey`. */
    async translations(storeId: string, reviewIds: string[], localeKey: string): Promise<TranslationRow[]> {
      if (reviewIds.length === 0) return [];
      return all<TranslationRow>(
        db,
        sql`SELECT review_id, title, body FROM review_translations
        WHERE store_id = ${storeId} AND locale_key = ${localeKey} AND review_id IN ${idsIn(reviewIds)}`,
      );
    },

    async saveTranslations(storeId: string, localeKey: string, provider: string, rows: TranslationRow[], nowMs: number): Promise<void> {
      for (const r of rows) {
        await run(
          db,
          sql`INSERT INTO review_translations (review_id, store_id, locale_key, title, body, provider, created_ms)
          VALUES (${r.review_id}, ${storeId}, ${localeKey}, ${r.title}, ${r.body}, ${provider}, ${nowMs})
          ON CONFLICT (review_id, locale_key) DO UPDATE SET title = excluded.title, body = excluded.body, provider = excluded.provider, created_ms = excluded.created_ms`,
        );
      }
    },
  };
}
export type AiRepo = ReturnType<typeof aiRepo>;
