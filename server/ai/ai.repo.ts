/**
 * AI content, keyword identifications, the generation queue and review translations: all their SQL.
 * Prepared statements only; every query names the store.
 */
import { dialect, transaction, type Db } from "../db/database.ts";
import type { KeywordMention, Polarity } from "./keywords.ts";

/** A scope that has its own AI content (docs/ai.md, Answers). */
export type AiScope = { type: "product"; id: string } | { type: "group"; id: string };

export type ReviewText = { review_id: string; title: string; body: string; rating: number };
export type ScopeStats = { review_count: number; rating_total: number; recommended: number; recommend_known: number };
export type KeywordCountRow = { keyword: string; topic: string; occurrences: number; praise: number; complaints: number };
export type MentionRow = { review_id: string; keyword: string; topic: string; polarity: Polarity };

export type VersionRow = {
  version_id: string; store_id: string; scope_type: "product" | "group"; scope_id: string; engine: string;
  summary_body: string | null; claims_json: string; keywords_json: string | null; contributing_review_count: number;
  generated_ms: number; published_ms: number | null;
};

export type JobRow = {
  job_id: number; store_id: string; scope_type: "product" | "group"; scope_id: string; reason: string;
  status: "queued" | "running" | "done" | "failed"; attempts: number; run_after_ms: number; created_ms: number;
  finished_ms: number | null; error: string | null;
  /** While `running`: the claim holds until then (epoch ms), renewed by the loop working on it (migration 086). */
  lease_until_ms: number | null;
  /** While `running`: the worker loop holding it (worker.ts `workerId`). */
  claimed_by: string | null;
};

/** How long a claim on an AI job holds unless renewed (ms); the loop renews it every AI_JOB_LEASE_MS / 4. */
export const AI_JOB_LEASE_MS = 60_000;

export type TranslationRow = { review_id: string; title: string; body: string };

/**
 * FROM … WHERE of the scopes of a store (`?`) due for (re)generation: products (and groups that use group-level
 * content) with at least `?` published reviews, never generated or grown by the fraction `?` since the last
 * generation, and without a job queued or running (another node's sweep may have queued it; its run is under way).
 */
const DUE_SCOPES = `FROM review_aggregates a
  LEFT JOIN ai_scope_state s ON s.store_id = a.store_id AND s.scope_type = a.scope_type AND s.scope_id = a.scope_id
  WHERE a.store_id = ? AND a.review_count >= ?
    AND (a.scope_type = 'product' OR (a.scope_type = 'group' AND EXISTS (
          SELECT 1 FROM review_groups g WHERE g.store_id = a.store_id AND g.group_id = a.scope_id AND g.use_group_content = 1)))
    AND (s.last_review_count IS NULL OR a.review_count >= s.last_review_count * (1.0 + ?))
    AND NOT EXISTS (SELECT 1 FROM ai_jobs j WHERE j.store_id = a.store_id AND j.scope_type = a.scope_type AND j.scope_id = a.scope_id AND j.status IN ('queued', 'running'))`;

/** The columns of a VersionRow (not PostgreSQL's extra `version_seq`). */
const VERSION = "version_id, store_id, scope_type, scope_id, engine, summary_body, claims_json, keywords_json, contributing_review_count, generated_ms, published_ms";

const scopeColumn = (scope: AiScope) => (scope.type === "product" ? "r.product_id" : "r.group_id");

/** Create the AI data module over `db`. */
export function aiRepo(db: Db) {
  const stmt = new Map<string, import("better-sqlite3").Statement<unknown[]>>();
  /** Prepared once per distinct SQL text (scope column varies). */
  const prepared = (sql: string) => {
    let s = stmt.get(sql);
    if (!s) stmt.set(sql, (s = db.prepare<unknown[]>(sql)));
    return s;
  };

  const insertMention = db.prepare(
    `INSERT INTO ai_review_keywords (store_id, keyword, review_id, topic, polarity) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (store_id, keyword, review_id) DO UPDATE SET topic = excluded.topic, polarity = excluded.polarity`,
  );
  const deleteMentions = db.prepare("DELETE FROM ai_review_keywords WHERE store_id = ? AND review_id = ?");
  const markAnalysed = db.prepare(
    `INSERT INTO ai_review_analysis (review_id, store_id, engine_version, analysed_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (review_id) DO UPDATE SET engine_version = excluded.engine_version, analysed_ms = excluded.analysed_ms`,
  );

  /** Queue `jobs` (running ones) again, or mark them failed when their scope is queued again meanwhile (call inside a transaction). */
  const requeue = (jobs: JobRow[]): number => {
    for (const j of jobs) {
      const queued = db.prepare("SELECT 1 FROM ai_jobs WHERE store_id = ? AND scope_type = ? AND scope_id = ? AND status = 'queued'").get(j.store_id, j.scope_type, j.scope_id);
      db.prepare(`UPDATE ai_jobs SET ${queued ? "status = 'failed', error = 'superseded after restart'" : "status = 'queued'"}, lease_until_ms = NULL, claimed_by = NULL WHERE job_id = ? AND store_id = ?`)
        .run(j.job_id, j.store_id);
    }
    return jobs.length;
  };
  const requeueRunning = (): number =>
    transaction(db, () => requeue(db.prepare("SELECT job_id, store_id, scope_type, scope_id FROM ai_jobs WHERE status = 'running'").all() as JobRow[]));
  /** Newest first among versions of one scope: SQLite's insertion order (rowid), PostgreSQL's `version_seq` (its migration 005). */
  const newest = dialect(db) === "postgres" ? "generated_ms DESC, version_seq DESC" : "generated_ms DESC, rowid DESC";

  return {
    /** Published reviews of the scope not yet analysed by `engineVersion` (or edited since), up to `limit`. */
    reviewsToAnalyse(storeId: string, scope: AiScope, engineVersion: string, limit: number): ReviewText[] {
      return prepared(
        `SELECT r.review_id, r.title, r.body, r.rating FROM reviews r
         LEFT JOIN ai_review_analysis a ON a.review_id = r.review_id
         WHERE r.store_id = ? AND r.status = 'published' AND ${scopeColumn(scope)} = ?
           AND (a.review_id IS NULL OR a.engine_version <> ? OR COALESCE(r.updated_ms, 0) > a.analysed_ms)
         LIMIT ?`,
      ).all(storeId, scope.id, engineVersion, limit) as ReviewText[];
    },

    /** Replace the keyword identifications of reviews (one transaction per call; the caller wraps). */
    saveAnalysis(storeId: string, engineVersion: string, analysed: { reviewId: string; mentions: KeywordMention[] }[], nowMs: number): void {
      for (const a of analysed) {
        deleteMentions.run(storeId, a.reviewId);
        for (const m of a.mentions) insertMention.run(storeId, m.keyword, a.reviewId, m.topic, m.polarity);
        markAnalysed.run(a.reviewId, storeId, engineVersion, nowMs);
      }
    },

    /** Published-review statistics of a scope (count, rating total, recommendation counts). */
    scopeStats(storeId: string, scope: AiScope): ScopeStats {
      return prepared(
        `SELECT count(*) AS review_count, COALESCE(sum(r.rating), 0) AS rating_total,
                COALESCE(sum(CASE WHEN r.is_recommended = 1 THEN 1 ELSE 0 END), 0) AS recommended, count(r.is_recommended) AS recommend_known
         FROM reviews r WHERE r.store_id = ? AND r.status = 'published' AND ${scopeColumn(scope)} = ?`,
      ).get(storeId, scope.id) as ScopeStats;
    },

    /** Per keyword: number of published reviews of the scope in which it was identified, and how many as praise / complaint. */
    keywordCounts(storeId: string, scope: AiScope): KeywordCountRow[] {
      return prepared(
        `SELECT k.keyword, k.topic, count(*) AS occurrences, sum(CASE WHEN k.polarity = 1 THEN 1 ELSE 0 END) AS praise, sum(CASE WHEN k.polarity = -1 THEN 1 ELSE 0 END) AS complaints
         FROM ai_review_keywords k JOIN reviews r ON r.review_id = k.review_id
         WHERE k.store_id = ? AND r.store_id = ? AND r.status = 'published' AND ${scopeColumn(scope)} = ?
         GROUP BY k.keyword, k.topic ORDER BY occurrences DESC, k.keyword`,
      ).all(storeId, storeId, scope.id) as KeywordCountRow[];
    },

    /** Every praise/complaint identification in published reviews of the scope (for claims' supporting IDs). */
    polarMentions(storeId: string, scope: AiScope): MentionRow[] {
      return prepared(
        `SELECT k.review_id, k.keyword, k.topic, k.polarity FROM ai_review_keywords k JOIN reviews r ON r.review_id = k.review_id
         WHERE k.store_id = ? AND r.store_id = ? AND r.status = 'published' AND ${scopeColumn(scope)} = ? AND k.polarity <> 0`,
      ).all(storeId, storeId, scope.id) as MentionRow[];
    },

    /** Up to `limit` short published review texts of the scope, most helpful first (language-model context). */
    sampleTexts(storeId: string, scope: AiScope, limit: number): ReviewText[] {
      return prepared(
        `SELECT r.review_id, r.title, r.body, r.rating FROM reviews r
         WHERE r.store_id = ? AND r.status = 'published' AND ${scopeColumn(scope)} = ? AND length(r.body) > 0
         ORDER BY r.helpful_count DESC, r.created_ms DESC, r.review_id LIMIT ?`,
      ).all(storeId, scope.id, limit) as ReviewText[];
    },

    insertVersion(v: VersionRow): void {
      db.prepare(
        `INSERT INTO ai_content_versions (version_id, store_id, scope_type, scope_id, engine, summary_body, claims_json, keywords_json,
           contributing_review_count, generated_ms, published_ms)
         VALUES (@version_id, @store_id, @scope_type, @scope_id, @engine, @summary_body, @claims_json, @keywords_json,
           @contributing_review_count, @generated_ms, @published_ms)`,
      ).run(v);
      db.prepare(
        `INSERT INTO ai_scope_state (store_id, scope_type, scope_id, last_review_count, last_generated_ms) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (store_id, scope_type, scope_id) DO UPDATE SET last_review_count = excluded.last_review_count, last_generated_ms = excluded.last_generated_ms`,
      ).run(v.store_id, v.scope_type, v.scope_id, v.contributing_review_count, v.generated_ms);
    },

    /** Publish a version. @returns false when the store has no such version. */
    publishVersion(storeId: string, versionId: string, nowMs: number): boolean {
      return db.prepare("UPDATE ai_content_versions SET published_ms = COALESCE(published_ms, ?) WHERE store_id = ? AND version_id = ?").run(nowMs, storeId, versionId).changes === 1;
    },

    getVersion(storeId: string, versionId: string): VersionRow | undefined {
      return db.prepare(`SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ? AND version_id = ?`).get(storeId, versionId) as VersionRow | undefined;
    },

    /** The most recently published version with a summary. */
    latestPublished(storeId: string, scope: AiScope): VersionRow | undefined {
      return db
        .prepare(
          `SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ? AND scope_type = ? AND scope_id = ? AND published_ms IS NOT NULL AND summary_body IS NOT NULL
           ORDER BY published_ms DESC, generated_ms DESC LIMIT 1`,
        )
        .get(storeId, scope.type, scope.id) as VersionRow | undefined;
    },

    /** The most recently generated version with keywords. */
    latestKeywords(storeId: string, scope: AiScope): VersionRow | undefined {
      return db
        .prepare(
          `SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ? AND scope_type = ? AND scope_id = ? AND keywords_json IS NOT NULL
           ORDER BY ${newest} LIMIT 1`,
        )
        .get(storeId, scope.type, scope.id) as VersionRow | undefined;
    },

    /** Delete a version that was never published (merchant discard). @returns false when the store has no such unpublished version. */
    deleteUnpublishedVersion(storeId: string, versionId: string): boolean {
      return db.prepare("DELETE FROM ai_content_versions WHERE store_id = ? AND version_id = ? AND published_ms IS NULL").run(storeId, versionId).changes === 1;
    },

    /**
     * Delete every version of a scope, published or not, and its generation state (call inside a transaction):
     * after a shopper's erasure no summary or keyword list built from their reviews may be served.
     * @returns versions deleted.
     */
    deleteScopeContent(storeId: string, scope: AiScope): number {
      db.prepare("DELETE FROM ai_scope_state WHERE store_id = ? AND scope_type = ? AND scope_id = ?").run(storeId, scope.type, scope.id);
      return db.prepare("DELETE FROM ai_content_versions WHERE store_id = ? AND scope_type = ? AND scope_id = ?").run(storeId, scope.type, scope.id).changes;
    },

    /** How many of `reviewIds` are published reviews of the store. */
    countPublished(storeId: string, reviewIds: string[]): number {
      if (reviewIds.length === 0) return 0;
      return db.prepare(dialect(db) === "postgres"
        ? "SELECT count(*) FROM reviews WHERE store_id = ? AND status = 'published' AND review_id IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))"
        : "SELECT count(*) FROM reviews WHERE store_id = ? AND status = 'published' AND review_id IN (SELECT value FROM json_each(?))")
        .pluck().get(storeId, JSON.stringify(reviewIds)) as number;
    },

    /** The most recently generated version of a scope (published or not). */
    latestVersion(storeId: string, scope: AiScope): VersionRow | undefined {
      return db
        .prepare(`SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ? AND scope_type = ? AND scope_id = ? ORDER BY ${newest} LIMIT 1`)
        .get(storeId, scope.type, scope.id) as VersionRow | undefined;
    },

    /** Queued or running generation jobs of a store's scopes (`scope_type:scope_id` keys). */
    pendingJobScopes(storeId: string): Set<string> {
      const rows = db.prepare("SELECT scope_type, scope_id FROM ai_jobs WHERE store_id = ? AND status IN ('queued', 'running')").all(storeId) as { scope_type: string; scope_id: string }[];
      return new Set(rows.map((r) => `${r.scope_type}:${r.scope_id}`));
    },

    /** Every version of a scope, newest first. */
    listVersions(storeId: string, scope: AiScope): VersionRow[] {
      return db
        .prepare(`SELECT ${VERSION} FROM ai_content_versions WHERE store_id = ? AND scope_type = ? AND scope_id = ? ORDER BY ${newest}`)
        .all(storeId, scope.type, scope.id) as VersionRow[];
    },

    /**
     * Scopes of a store due for (re)generation: products (and groups that use group-level content) with at
     * least `minReviews` published reviews, never generated or grown by `fraction` since the last generation, and
     * with no job queued or running.
     */
    dueScopes(storeId: string, minReviews: number, fraction: number): (AiScope & { reviewCount: number })[] {
      return db
        .prepare<[string, number, number], { scope_type: "product" | "group"; scope_id: string; review_count: number }>(
          `SELECT a.scope_type, a.scope_id, a.review_count ${DUE_SCOPES} ORDER BY a.review_count DESC, a.scope_id`,
        )
        .all(storeId, minReviews, fraction)
        .map((r) => ({ type: r.scope_type, id: r.scope_id, reviewCount: r.review_count }));
    },

    /**
     * Queue a job for `scope` if it is still due (as `dueScopes`, which skips scopes with a queued or running job),
     * checked by the INSERT itself: a sweep's reading and its inserts are not one transaction, and another node may
     * have queued, started or finished the scope in between (call inside the sweep's transaction).
     * @returns true when a job was added.
     */
    enqueueIfDue(storeId: string, scope: AiScope, reason: string, nowMs: number, minReviews: number, fraction: number): boolean {
      return db.prepare(
        `INSERT INTO ai_jobs (store_id, scope_type, scope_id, reason, run_after_ms, created_ms)
         SELECT a.store_id, a.scope_type, a.scope_id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT) ${DUE_SCOPES} AND a.scope_type = ? AND a.scope_id = ?
         ON CONFLICT DO NOTHING`,
      ).run(reason, nowMs, nowMs, storeId, minReviews, fraction, scope.type, scope.id).changes === 1;
    },

    // ---- the persisted queue ----

    /** Queue a job (no-op when the same scope is already queued). @returns true when a job was added. */
    enqueue(storeId: string, scope: AiScope, reason: string, nowMs: number): boolean {
      return db
        .prepare("INSERT INTO ai_jobs (store_id, scope_type, scope_id, reason, run_after_ms, created_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
        .run(storeId, scope.type, scope.id, reason, nowMs, nowMs).changes === 1;
    },

    /**
     * Claim the oldest runnable job (queued, `run_after_ms <= nowMs`) for the worker loop `workerId`: it becomes
     * `running` until `leaseUntilMs` (the loop renews the lease while it works: `renewJob`), its attempt counted.
     * One transaction of its own, entered only when a job looks runnable (an idle poll takes no write lock). On
     * PostgreSQL the row is selected `FOR UPDATE SKIP LOCKED`, so the loops of several nodes never take one job.
     */
    claimNext(nowMs: number, leaseUntilMs: number = nowMs + AI_JOB_LEASE_MS, workerId = "worker"): JobRow | undefined {
      const next = "SELECT * FROM ai_jobs WHERE status = 'queued' AND run_after_ms <= ? ORDER BY run_after_ms, job_id LIMIT 1";
      if (!db.prepare(next).get(nowMs)) return undefined;
      return transaction(db, () => {
        const job = db.prepare(dialect(db) === "postgres" ? `${next} FOR UPDATE SKIP LOCKED` : next).get(nowMs) as JobRow | undefined;
        if (!job) return undefined;
        db.prepare("UPDATE ai_jobs SET status = 'running', attempts = attempts + 1, lease_until_ms = ?, claimed_by = ? WHERE job_id = ? AND store_id = ?")
          .run(leaseUntilMs, workerId, job.job_id, job.store_id);
        return { ...job, status: "running" as const, attempts: job.attempts + 1, lease_until_ms: leaseUntilMs, claimed_by: workerId };
      });
    },

    /** Extend the lease of a job this loop holds (`job.lease_until_ms` as claimed or last renewed) to `leaseUntilMs`. @returns false when the claim was lost. */
    renewJob(job: JobRow, leaseUntilMs: number): boolean {
      const renewed = db.prepare("UPDATE ai_jobs SET lease_until_ms = ? WHERE job_id = ? AND store_id = ? AND status = 'running' AND lease_until_ms = ?")
        .run(leaseUntilMs, job.job_id, job.store_id, job.lease_until_ms).changes === 1;
      if (renewed) job.lease_until_ms = leaseUntilMs;
      return renewed;
    },

    /** Record a job this loop holds as done. @returns false when the claim was lost (its lease ran out and another loop took it). */
    finishJob(job: JobRow, nowMs: number): boolean {
      return db.prepare("UPDATE ai_jobs SET status = 'done', finished_ms = ?, error = NULL, lease_until_ms = NULL WHERE job_id = ? AND store_id = ? AND status = 'running' AND lease_until_ms = ?")
        .run(nowMs, job.job_id, job.store_id, job.lease_until_ms).changes === 1;
    },

    /** Record a failure of a job this loop holds: back to the queue after `retryAfterMs`, or failed for good when `final`. @returns false when the claim was lost. */
    failJob(job: JobRow, error: string, nowMs: number, retryAfterMs: number, final: boolean): boolean {
      return transaction(db, () => {
        const held = "WHERE job_id = ? AND store_id = ? AND status = 'running' AND lease_until_ms = ?";
        // a newer queued job for the scope wins over this retry
        const superseded = !final && db.prepare("SELECT 1 FROM ai_jobs WHERE store_id = ? AND scope_type = ? AND scope_id = ? AND status = 'queued'").get(job.store_id, job.scope_type, job.scope_id);
        if (final || superseded) {
          return db.prepare(`UPDATE ai_jobs SET status = 'failed', finished_ms = ?, error = ?, lease_until_ms = NULL ${held}`)
            .run(nowMs, error, job.job_id, job.store_id, job.lease_until_ms).changes === 1;
        }
        return db.prepare(`UPDATE ai_jobs SET status = 'queued', run_after_ms = ?, error = ?, lease_until_ms = NULL, claimed_by = NULL ${held}`)
          .run(nowMs + retryAfterMs, error, job.job_id, job.store_id, job.lease_until_ms).changes === 1;
      });
    },

    /** Re-queue every running job (an operator's or test's explicit recovery; see `requeueInterrupted` for the loop's). @returns how many. */
    requeueRunning,

    /**
     * Re-queue the running jobs no live loop holds any more: those of an earlier run of the loop `workerId` (it is
     * starting again, e.g. after its thread died; null for the periodic check of a running loop) and those whose
     * lease ran out (their loop, process or node stopped or hangs). Never a job another live loop works on, so the
     * loops of several processes or nodes share one queue. A job whose scope was queued again meanwhile is marked
     * failed (superseded). On PostgreSQL the rows are selected `FOR UPDATE SKIP LOCKED`. @returns how many.
     */
    requeueInterrupted(nowMs: number, workerId: string | null): number {
      const stale = "SELECT job_id, store_id, scope_type, scope_id FROM ai_jobs WHERE status = 'running' AND (lease_until_ms IS NULL OR lease_until_ms <= ? OR claimed_by = ?)";
      if (!db.prepare(`${stale} LIMIT 1`).get(nowMs, workerId)) return 0;
      return transaction(db, () => requeue(db.prepare(dialect(db) === "postgres" ? `${stale} FOR UPDATE SKIP LOCKED` : stale).all(nowMs, workerId) as JobRow[]));
    },

    jobCounts(): Record<JobRow["status"], number> {
      const out = { queued: 0, running: 0, done: 0, failed: 0 };
      for (const r of db.prepare("SELECT status, count(*) AS n FROM ai_jobs GROUP BY status").all() as { status: JobRow["status"]; n: number }[]) out[r.status] = r.n;
      return out;
    },

    listJobs(storeId: string): JobRow[] {
      return db.prepare("SELECT * FROM ai_jobs WHERE store_id = ? ORDER BY job_id").all(storeId) as JobRow[];
    },

    // ---- translations ----

    /** Cached translations of reviews into `localeKey`. */
    translations(storeId: string, reviewIds: string[], localeKey: string): TranslationRow[] {
      if (reviewIds.length === 0) return [];
      return db
        .prepare(dialect(db) === "postgres"
          ? "SELECT review_id, title, body FROM review_translations WHERE store_id = ? AND locale_key = ? AND review_id IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))"
          : "SELECT review_id, title, body FROM review_translations WHERE store_id = ? AND locale_key = ? AND review_id IN (SELECT value FROM json_each(?))")
        .all(storeId, localeKey, JSON.stringify(reviewIds)) as TranslationRow[];
    },

    saveTranslations(storeId: string, localeKey: string, provider: string, rows: TranslationRow[], nowMs: number): void {
      const put = db.prepare(
        `INSERT INTO review_translations (review_id, store_id, locale_key, title, body, provider, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (review_id, locale_key) DO UPDATE SET title = excluded.title, body = excluded.body, provider = excluded.provider, created_ms = excluded.created_ms`,
      );
      for (const r of rows) put.run(r.review_id, storeId, localeKey, r.title, r.body, provider, nowMs);
    },
  };
}
export type AiRepo = ReturnType<typeof aiRepo>;
