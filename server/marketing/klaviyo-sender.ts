/**
 * The Klaviyo outbox's send job (docs/klaviyo.md "Delivery"), the same pattern as the outgoing webhooks' queue
 * (server/webhooks/delivery.ts). `runDue(nowMs)`:
 * 1. claims due jobs in a write transaction (`sending` with a persisted lease, the attempt counted, committed before
 *    any request; FOR UPDATE SKIP LOCKED on PostgreSQL, so any number of nodes share the jobs and each is claimed by
 *    one node: klaviyo.repo.ts `claimDue`);
 * 2. builds each request (klaviyo-requests.ts) and POSTs it through the outgoing-request guard
 *    (server/shared/outgoing-request.ts) to KLAVIYO_API_URL (default https://a.klaviyo.com) with the store's private
 *    key, no redirects followed;
 * 3. records the outcome, only while it holds the lease: `delivered` on a 2xx; on a 429, queued again after its
 *    `Retry-After` (seconds or an HTTP date; at most MAX_RETRY_AFTER_MS); on a 5xx, 408 or a network failure, queued
 *    again after RETRY_BASE_MS · 2^(attempt − 1) (at most RETRY_MAX_MS), `failed` after MAX_ATTEMPTS; any other
 *    4xx (a wrong key, a refused body) is `failed` at once; a resource gone by then is `skipped`.
 * A job is AT-LEAST-ONCE (a crash after Klaviyo answered and before the outcome is committed sends it again after
 * LEASE_MS); an event's `unique_id` is the job's ID, so Klaviyo keeps one event. Nothing is lost across a restart:
 * the jobs are rows, written in the transaction of the change. The clock is injectable (`now`, epoch ms).
 */
import { isOpen, transaction, type Db } from "../db/database.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import { erasedAddressKey } from "../shared/erased-address.ts";
import { guardedFetch, isOutgoingRequestError } from "../shared/outgoing-request.ts";
import { buildRequest, KLAVIYO_DEFAULT_API_URL, KLAVIYO_REVISION, type RequestDeps } from "./klaviyo-requests.ts";
import type { ClaimedKlaviyoJob, KlaviyoRepo } from "./klaviyo.repo.ts";

/** First retry delay after a failure (ms); doubled per attempt. */
export const RETRY_BASE_MS = 30_000;
/** Longest retry delay (ms): 6 hours. */
export const RETRY_MAX_MS = 6 * 3_600_000;
/** Attempts of one job (about 2 days with the doubling delays) before it is `failed`. */
export const MAX_ATTEMPTS = 12;
/** Longest wait a 429's Retry-After is obeyed for (ms): 1 hour. */
export const MAX_RETRY_AFTER_MS = 3_600_000;
/** Wait after a 429 without a readable Retry-After (ms). */
export const DEFAULT_RETRY_AFTER_MS = 60_000;
/** How long a claim holds (ms): longer than a request can last. */
export const LEASE_MS = 60_000;
/** Longest time for one request, answer included (ms). */
export const TIMEOUT_MS = 15_000;
/** Time between two passes of the loop (ms). */
export const POLL_MS = 1_000;
/** How long finished jobs stay in the delivery log (ms): 30 days. */
export const RETENTION_MS = 30 * 86_400_000;
/** Most bytes of Klaviyo's answer read (enough for its error document). */
const MAX_RESPONSE_BYTES = 64 * 1024;
const PRUNE_EVERY_MS = 3_600_000;
const BATCH = 20;

export type KlaviyoReport = { delivered: number; retried: number; failed: number; skipped: number };

export type KlaviyoSenderDeps = RequestDeps & {
  db: Db;
  repo: KlaviyoRepo;
  box: SecretBox;
  /** KLAVIYO_API_URL, read at call time (a stand-in in tests); default https://a.klaviyo.com. */
  apiUrl: () => string | undefined;
  /** ALLOW_LOOPBACK_REQUESTS=1: a loopback stand-in is reachable. */
  allowLoopback: boolean;
  now?: () => number;
  log?: (line: string) => void;
};

/**
 * The wait a 429 asks for (ms) from its `Retry-After` header: delay-seconds or an HTTP date (docs/klaviyo.md "Delivery"),
 * bounded to [0, MAX_RETRY_AFTER_MS]; DEFAULT_RETRY_AFTER_MS when absent or unreadable.
 */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number {
  const raw = Array.isArray(header) ? header[0] : header;
  if (!raw) return DEFAULT_RETRY_AFTER_MS;
  const text = raw.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return DEFAULT_RETRY_AFTER_MS;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** The delay before the attempt after `attempts` failed ones (ms). */
export const backoffMs = (attempts: number): number => Math.min(RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), RETRY_MAX_MS);

/** Create the send job. */
export function klaviyoSender(deps: KlaviyoSenderDeps) {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let last: Promise<unknown> = Promise.resolve();
  let prunedAt = -Infinity;

  type Outcome = { status: "delivered" | "failed" | "skipped" | "queued"; nextAttemptMs: number | null; statusCode: number | null; error: string | null };

  async function attempt(job: ClaimedKlaviyoJob, nowMs: number): Promise<Outcome> {
    const retry = (statusCode: number | null, error: string, delayMs: number): Outcome =>
      job.attempts >= MAX_ATTEMPTS ? { status: "failed", nextAttemptMs: null, statusCode, error } : { status: "queued", nextAttemptMs: nowMs + delayMs, statusCode, error };
    let key: string;
    try {
      if (!job.api_key_sealed) return { status: "failed", nextAttemptMs: null, statusCode: null, error: "Klaviyo is not connected" };
      key = deps.box.open(job.api_key_sealed);
    } catch {
      return { status: "failed", nextAttemptMs: null, statusCode: null, error: "the private API key could not be read: set it again" };
    }
    let request;
    try {
      request = await buildRequest(deps, job);
    } catch (error) {
      return retry(null, `the request could not be built: ${String(error).slice(0, 200)}`, backoffMs(job.attempts));
    }
    if (!request) return { status: "skipped", nextAttemptMs: null, statusCode: null, error: "the review, question, transaction or response is gone" };
    const origin = (deps.apiUrl() || KLAVIYO_DEFAULT_API_URL).replace(/\/+$/, "");
    try {
      const res = await guardedFetch(`${origin}${request.path}`, {
        method: "POST",
        headers: {
          authorization: `Klaviyo-API-Key ${key}`,
          revision: KLAVIYO_REVISION,
          accept: "application/vnd.api+json",
          "content-type": "application/vnd.api+json",
          "user-agent": "Chorus-Klaviyo/1",
        },
        body: JSON.stringify(request.body),
        allowLoopback: deps.allowLoopback,
        redirects: 0,
        maxBytes: MAX_RESPONSE_BYTES,
        overflow: "truncate",
        timeoutMs: TIMEOUT_MS,
        idleTimeoutMs: TIMEOUT_MS,
      });
      if (res.status >= 200 && res.status < 300) return { status: "delivered", nextAttemptMs: null, statusCode: res.status, error: null };
      const detail = klaviyoError(res.body);
      if (res.status === 429) return retry(429, `rate limited${detail}`, retryAfterMs(res.headers["retry-after"], nowMs));
      if (res.status >= 500 || res.status === 408) return retry(res.status, `answered ${res.status}${detail}`, backoffMs(job.attempts));
      return { status: "failed", nextAttemptMs: null, statusCode: res.status, error: `answered ${res.status}${detail}` };
    } catch (error) {
      const message = isOutgoingRequestError(error) ? (error.kind === "refused" ? `refused: ${error.message}` : error.message) : String(error);
      return retry(null, message.slice(0, 300), backoffMs(job.attempts));
    }
  }

  async function sendOne(job: ClaimedKlaviyoJob, nowMs: number, report: KlaviyoReport): Promise<void> {
    const o = await attempt(job, nowMs);
    if (!isOpen(deps.db)) return;
    // Only the lease holder's outcome is recorded (the conditional UPDATE on lease_until_ms). A deletion job's address
    // was kept only to send it: once it is finished, the log keeps its hashed key (docs/klaviyo.md "Erasure").
    const recorded = await transaction(deps.db, async () => {
      if (!(await deps.repo.recordOutcome(job.seq, job.lease_until_ms!, { ...o, nowMs }))) return false;
      if (job.kind === "deletion" && o.status !== "queued") await deps.repo.scrubEmail(job.seq, erasedAddressKey(job.email));
      return true;
    });
    if (!recorded) return;
    if (o.status === "queued") report.retried++;
    else report[o.status]++;
    log(`klaviyo: ${job.name} ${job.job_id} attempt ${job.attempts}: ${o.status}${o.error ? ` (${o.error})` : ""}`);
  }

  async function pass(nowMs: number): Promise<KlaviyoReport> {
    const report: KlaviyoReport = { delivered: 0, retried: 0, failed: 0, skipped: 0 };
    if (nowMs - prunedAt >= PRUNE_EVERY_MS && isOpen(deps.db)) {
      prunedAt = nowMs;
      await deps.repo.prune(nowMs - RETENTION_MS);
    }
    for (;;) {
      if (!isOpen(deps.db)) return report;
      // Exactly-once claim: FOR UPDATE SKIP LOCKED (PostgreSQL) and a lease committed before any request.
      const claimed = await transaction(deps.db, () => deps.repo.claimDue(nowMs, nowMs + LEASE_MS, BATCH));
      // One job after the other: Klaviyo's rate limits are per account, and a 429 answers for the ones after it.
      for (const job of claimed) await sendOne(job, nowMs, report);
      if (claimed.length < BATCH) return report;
    }
  }

  function tick(): void {
    timer = null;
    if (!started) return;
    if (!isOpen(deps.db)) {
      started = false;
      return;
    }
    const at = now();
    const run = deps.repo.nextDueMs().then((due) => (due !== null && due <= at ? sender.runDue(at) : undefined));
    void run
      .catch((error) => log(`klaviyo: send pass failed: ${String(error)}`))
      .finally(() => {
        if (started && !timer) {
          timer = setTimeout(tick, POLL_MS);
          timer.unref();
        }
      });
  }

  const sender = {
    /** One pass at `nowMs` (default: the clock): send every job due. Passes run one at a time. @returns counts of this pass. */
    runDue(nowMs: number = now()): Promise<KlaviyoReport> {
      const run = last.then(() => pass(nowMs));
      last = run.catch(() => {});
      return run;
    },
    /** Start the loop: a pass whenever a job is due, checked every POLL_MS. */
    start(): void {
      if (started) return;
      started = true;
      timer = setTimeout(tick, 0);
      timer.unref();
    },
    /** Stop the loop after the pass in flight. */
    async stop(): Promise<void> {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await last;
    },
  };
  return sender;
}
export type KlaviyoSender = ReturnType<typeof klaviyoSender>;

/** Klaviyo's first error detail from a JSON:API error document, as ": <detail>", or "". */
function klaviyoError(body: Buffer): string {
  try {
    const doc = JSON.parse(body.toString("utf8")) as { errors?: { detail?: string; title?: string }[] };
    const first = doc.errors?.[0];
    const text = first?.detail ?? first?.title;
    return text ? `: ${String(text).slice(0, 200)}` : "";
  } catch {
    return "";
  }
}
