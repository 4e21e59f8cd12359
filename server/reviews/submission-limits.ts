/**
 * Submission limits (issue 3 item 1): a sliding window per client address (`addressKey`: IPv6
 * grouped by /64) and per e-mail, shared by reviews and questions; and a sliding window per client
 * address for storefront survey responses (issue #19 finding 9). Helpful-vote limits (issue #19 finding 5) are
 * rules only here: votes.repo.ts counts them in the database, inside the vote's transaction. Limits are
 * documented in docs/writes.md.
 *
 * Where the windows' hits live (`WindowCounter`): in this process's memory on SQLite (`memoryWindowCounter`: one
 * process serves the database), or in the PostgreSQL table `rate_limit_hits` (migration
 * server/db/schema/postgres.ts, `sharedWindowCounter`), shared by every node, each hit counted or
 * refused by one atomic upsert, so N nodes together admit `max` hits per window, not N × `max`.
 */
import { createHash } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { ApiError } from "../contract/errors.ts";
import { one, run, sql, type Db } from "../db/database.ts";

export type LimitRule = { max: number; windowMs: number };
export type SubmissionLimitsConfig = { perIp: LimitRule; perEmail: LimitRule };

/** Defaults: 20 submissions per IP and 5 per e-mail per hour. */
export const DEFAULT_SUBMISSION_LIMITS: SubmissionLimitsConfig = {
  perIp: { max: 20, windowMs: 60 * 60_000 },
  perEmail: { max: 5, windowMs: 60 * 60_000 },
};

/**
 * The outcome of one hit on a sliding window: counted, or refused because the window already holds `max`
 * hits, the oldest of them at `oldestMs` (epoch ms; the window has room again at `oldestMs + windowMs`).
 */
export type WindowHit = { counted: true } | { counted: false; oldestMs: number };

/**
 * The hits of sliding windows, by key: `take` counts a hit at `now` when fewer than `rule.max` hits of the key are
 * younger than `rule.windowMs`, atomically (no two callers can both take the last place); `refund` uncounts a hit
 * `take` counted (a write that failed or must not count); `reset` forgets every key. Each returns a promise (the
 * shared counter is a database table).
 */
export type WindowCounter = {
  take(key: string, rule: LimitRule, now: number): Promise<WindowHit>;
  refund(key: string, now: number): Promise<void>;
  reset(): Promise<void>;
};

/**
 * Windows in this process's memory (SQLite: one process). Memory is bounded: a key's hits older than the
 * window are pruned at each of its hits, and keys idle for `idleMs` (default a day) once more than 50,000 are kept.
 * Each test-and-count runs synchronously (the promise is already settled), so it is atomic in the process.
 */
export function memoryWindowCounter(idleMs = 24 * 60 * 60_000): WindowCounter {
  const hits = new Map<string, number[]>();
  const take = (key: string, rule: LimitRule, now: number): WindowHit => {
    const list = (hits.get(key) ?? []).filter((t) => t > now - rule.windowMs);
    if (list.length >= rule.max) {
      hits.set(key, list);
      return { counted: false, oldestMs: list[0] };
    }
    list.push(now);
    hits.set(key, list);
    if (hits.size > 50_000) for (const [k, v] of hits) if (v.length === 0 || v[v.length - 1] < now - idleMs) hits.delete(k);
    return { counted: true };
  };
  return {
    take(key, rule, now) {
      return Promise.resolve(take(key, rule, now));
    },
    refund(key, now) {
      const list = hits.get(key);
      const i = list ? list.lastIndexOf(now) : -1;
      if (i >= 0) list!.splice(i, 1);
      if (list?.length === 0) hits.delete(key);
      return Promise.resolve();
    },
    reset() {
      hits.clear();
      return Promise.resolve();
    },
  };
}

/** Rows of `rate_limit_hits` whose newest hit left its window are deleted at most this often (ms). */
const SHARED_PRUNE_INTERVAL_MS = 60_000;

/**
 * Windows in the PostgreSQL table `rate_limit_hits` (server/db/schema/postgres.ts), shared by every node
 * of the database. Keys are stored as `<name>:<key>`, so limiters with different names never share a window.
 * Exactly-once across nodes: each `take` is one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`, and the row lock
 * of the upsert makes the test-and-count atomic (a second node's upsert of the key waits, then sees the first's
 * hit). `reset` forgets only this limiter's keys. Every statement autocommits (or joins the caller's transaction).
 */
export function sharedWindowCounter(db: Db, name: string): WindowCounter {
  let prunedMs = 0;
  return {
    async take(key, rule, now) {
      if (now - prunedMs > SHARED_PRUNE_INTERVAL_MS) {
        prunedMs = now;
        await run(db, sql`DELETE FROM rate_limit_hits WHERE expires_ms < ${now}`);
      }
      const nowMs = sql`CAST(${now} AS bigint)`;
      const max = sql`CAST(${rule.max} AS bigint)`;
      const windowMs = sql`CAST(${rule.windowMs} AS bigint)`;
      // A key's live hits: those younger than the window, oldest first.
      const live = sql`ARRAY(SELECT t FROM unnest(h.hits_ms) AS t WHERE t > ${nowMs} - ${windowMs} ORDER BY t)`;
      const row = (await one<{ counted: number; oldest_ms: number | null }>(
        db,
        sql`
        INSERT INTO rate_limit_hits AS h (limit_key, hits_ms, counted, expires_ms)
        VALUES (${`${name}:${key}`}, CASE WHEN ${max} > 0 THEN ARRAY[${nowMs}] ELSE '{}'::bigint[] END,
          CASE WHEN ${max} > 0 THEN 1 ELSE 0 END, ${nowMs} + ${windowMs})
        ON CONFLICT (limit_key) DO UPDATE SET
          hits_ms = CASE WHEN cardinality(${live}) < ${max} THEN ${live} || ${nowMs} ELSE ${live} END,
          counted = CASE WHEN cardinality(${live}) < ${max} THEN 1 ELSE 0 END,
          expires_ms = GREATEST(h.expires_ms, ${nowMs} + ${windowMs})
        RETURNING counted, (SELECT min(t) FROM unnest(hits_ms) AS t) AS oldest_ms`,
      ))!;
      return row.counted === 1 ? { counted: true } : { counted: false, oldestMs: row.oldest_ms ?? now };
    },
    async refund(key, now) {
      // Remove one hit at `now` (a take's own), wherever it is in the list.
      const nowMs = sql`CAST(${now} AS bigint)`;
      await run(
        db,
        sql`
        UPDATE rate_limit_hits
        SET hits_ms = ARRAY(SELECT u.t FROM unnest(hits_ms) WITH ORDINALITY AS u(t, i) WHERE u.i <> array_position(hits_ms, ${nowMs}) ORDER BY u.i)
        WHERE limit_key = ${`${name}:${key}`} AND array_position(hits_ms, ${nowMs}) IS NOT NULL`,
      );
    },
    async reset() {
      await run(db, sql`DELETE FROM rate_limit_hits WHERE starts_with(limit_key, ${`${name}:`})`);
    },
  };
}

/** Whole seconds until a refused window has room again (at least 1). */
const waitSeconds = (hit: WindowHit, rule: LimitRule, now: number): number => (hit.counted ? 0 : Math.max(1, Math.ceil((hit.oldestMs + rule.windowMs - now) / 1000)));

/**
 * Create a limiter over `counter` (default: in memory, `memoryWindowCounter`; services.ts passes
 * `sharedWindowCounter` on PostgreSQL).
 */
export function submissionLimiter(config: SubmissionLimitsConfig = DEFAULT_SUBMISSION_LIMITS, counter: WindowCounter = memoryWindowCounter()) {
  let limits = config;

  return {
    /**
     * Count one submission of `ip` (keyed by `addressKey`, so one IPv6 /64 shares one window) and `email`
     * (lower-cased, keyed by its SHA-256: on PostgreSQL the window is a table row, which then names no shopper
     * and needs nothing from an erasure), or refuse it.
     * @throws ApiError 429 (code `rate_limited`, with `retryAfterSeconds`; the promise rejects) when either window
     * is full; a refused submission is not counted (in either window).
     */
    async consume(ip: string, email: string, now = Date.now()): Promise<void> {
      const ipKey = `ip:${addressKey(ip)}`;
      const emailKey = `email:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;
      const ipHit = await counter.take(ipKey, limits.perIp, now);
      const emailHit = await counter.take(emailKey, limits.perEmail, now);
      if (ipHit.counted && emailHit.counted) return;
      if (ipHit.counted) await counter.refund(ipKey, now);
      if (emailHit.counted) await counter.refund(emailKey, now);
      const ipWait = waitSeconds(ipHit, limits.perIp, now);
      const emailWait = waitSeconds(emailHit, limits.perEmail, now);
      const error = new ApiError(429, `Too many submissions ${ipWait ? "from this network" : "with this e-mail"}: try again in ${Math.max(ipWait, emailWait)} seconds`, "rate_limited");
      (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds = Math.max(ipWait, emailWait);
      throw error;
    },
    /** Replace the limits (tests, configuration). */
    configure(next: Partial<SubmissionLimitsConfig>): void {
      limits = { ...limits, ...next };
    },
    /** Forget every count. */
    reset(): Promise<void> {
      return counter.reset();
    },
  };
}
export type SubmissionLimiter = ReturnType<typeof submissionLimiter>;

/**
 * The key of a client address for per-address limits: an IPv4 address as is (also when written as
 * IPv4-mapped IPv6, `::ffff:1.2.3.4`), an IPv6 address as its /64 network (one subscriber usually holds a
 * whole /64, so rotating the low 64 bits does not buy new quota), anything else as given.
 */
export function addressKey(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ""] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  // An embedded IPv4 tail (a:b::1.2.3.4) lies in the low 64 bits, which are dropped anyway.
  const left = groups(head);
  const right = address.includes("::") ? groups(tail) : [];
  const full = address.includes("::") ? [...left, ...Array(Math.max(8 - left.length - right.length, 0)).fill("0"), ...right] : left;
  return `${full
    .slice(0, 4)
    .map((g) => (g.includes(".") ? g : parseInt(g, 16).toString(16)))
    .join(":")}::/64`;
}

const tooMany = (what: string, waitSeconds: number) => {
  const error = new ApiError(429, `Too many ${what} from this network: try again in ${waitSeconds} seconds`, "rate_limited");
  (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds = waitSeconds;
  return error;
};

/** Default storefront survey responses per client address per hour (`SURVEY_RESPONSES_PER_IP_PER_HOUR`). */
export const DEFAULT_SURVEY_RESPONSE_LIMIT: LimitRule = { max: 20, windowMs: 60 * 60_000 };
/** Referral links (`POST /referral_senders`) per client address per hour (docs/loyalty.md "Referrals"). */
export const DEFAULT_REFERRAL_SENDER_LIMIT: LimitRule = { max: 20, windowMs: 60 * 60_000 };

/**
 * A sliding-window limit per client address (`addressKey`) for one kind of write (`what` names it in the 429
 * description, e.g. "survey responses"), over `counter` (default: in memory; services.ts passes
 * `sharedWindowCounter` on PostgreSQL).
 */
export function addressLimiter(what: string, rule: LimitRule, counter: WindowCounter = memoryWindowCounter(rule.windowMs)) {
  let limit = rule;
  return {
    /**
     * Run `write` for `ip` unless the address's window is full; count it when it resolves and `counts`
     * says so (e.g. not an idempotent replay). A write that rejects (400, 404, ...) uses no quota.
     * The place in the window is taken before `write` runs and given back when it rejects or does not count,
     * so concurrent writes (of this process or of other nodes) never exceed the limit together.
     * @returns a promise of what `write` resolves to.
     * @throws ApiError 429 `rate_limited` (with `retryAfterSeconds`) when the window is full; else what `write` throws.
     */
    async run<T>(ip: string, write: () => Promise<T>, counts: (result: T) => boolean = () => true, now = Date.now()): Promise<T> {
      const key = addressKey(ip);
      const hit = await counter.take(key, limit, now);
      if (!hit.counted) throw tooMany(what, waitSeconds(hit, limit, now));
      let result: T;
      try {
        result = await write();
      } catch (error) {
        await counter.refund(key, now);
        throw error;
      }
      if (!counts(result)) await counter.refund(key, now);
      return result;
    },
    /** Replace the rule (configuration, tests). */
    configure(next: LimitRule): void {
      limit = next;
    },
    /** Forget every count. */
    reset(): Promise<void> {
      return counter.reset();
    },
  };
}
export type AddressLimiter = ReturnType<typeof addressLimiter>;

/** Helpful-vote limits per client address (`addressKey`): votes on one review, and new votes in the store. */
export type VoteLimitsConfig = { perAddressPerReview: LimitRule; perAddress: LimitRule };

/**
 * Defaults: 1 counted vote per address per review per 24 hours (addresses are reassigned, so not for ever),
 * and 30 new votes per address per hour in a store (`VOTES_PER_IP_PER_HOUR`). Switching or repeating
 * one's own vote is not a new vote.
 */
export const DEFAULT_VOTE_LIMITS: VoteLimitsConfig = {
  perAddressPerReview: { max: 1, windowMs: 24 * 60 * 60_000 },
  perAddress: { max: 30, windowMs: 60 * 60_000 },
};

/** The current vote limits, read by votes.repo.ts at each vote; `configure` replaces them (configuration, tests). */
export function voteLimits(config: VoteLimitsConfig = DEFAULT_VOTE_LIMITS) {
  let limits = config;
  return {
    current(): VoteLimitsConfig {
      return limits;
    },
    configure(next: Partial<VoteLimitsConfig>): void {
      limits = { ...limits, ...next };
    },
  };
}
export type VoteLimits = ReturnType<typeof voteLimits>;

/** Why a vote was not counted (votes.repo.ts `castVote`). */
export type VoteRefusal = { refused: "review" | "address"; retryAfterMs: number };

/**
 * The 429 of a refused vote: `vote_limited` (this address already has a counted vote on the review) or
 * `rate_limited` (too many new votes from this address); both carry `retryAfterSeconds`.
 */
export function voteRefusedError(refusal: VoteRefusal): ApiError {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  const error =
    refusal.refused === "review" ? new ApiError(429, `A vote on this review from this network was already counted: try again in ${seconds} seconds`, "vote_limited") : tooMany("votes", seconds);
  (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds = seconds;
  return error;
}
