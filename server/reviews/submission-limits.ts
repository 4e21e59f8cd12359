/**
 * In-memory submission limits (issue 3 §1): a sliding window per client address (`addressKey`: IPv6
 * grouped by /64) and per e-mail, shared by reviews and questions; and a sliding window per client
 * address for storefront survey responses (issue #19 finding 9). State lives in `services` (one instance per process), so with several
 * processes each enforces its own window. Helpful-vote limits (issue #19 finding 5) are rules only
 * here: votes.repo.ts counts them in SQLite, inside the vote's transaction. Limits are documented in docs/writes.md.
 */
import { isIPv4, isIPv6 } from "node:net";
import { ApiError } from "../contract/errors.ts";

export type LimitRule = { max: number; windowMs: number };
export type SubmissionLimitsConfig = { perIp: LimitRule; perEmail: LimitRule };

/** Defaults: 20 submissions per IP and 5 per e-mail per hour. */
export const DEFAULT_SUBMISSION_LIMITS: SubmissionLimitsConfig = {
  perIp: { max: 20, windowMs: 60 * 60_000 },
  perEmail: { max: 5, windowMs: 60 * 60_000 },
};

/** Create a limiter. Memory is bounded: timestamps older than the window are pruned on each check. */
export function submissionLimiter(config: SubmissionLimitsConfig = DEFAULT_SUBMISSION_LIMITS) {
  let limits = config;
  const hits = new Map<string, number[]>();

  function check(key: string, rule: LimitRule, now: number): number {
    const list = (hits.get(key) ?? []).filter((t) => t > now - rule.windowMs);
    hits.set(key, list);
    return list.length >= rule.max ? Math.ceil((list[0] + rule.windowMs - now) / 1000) : 0;
  }

  return {
    /**
     * Count one submission of `ip` (keyed by `addressKey`, so one IPv6 /64 shares one window) and `email`
     * (lower-cased), or refuse it.
     * @throws ApiError 429 (code `rate_limited`, with `retryAfterSeconds`) when either window is full;
     * a refused submission is not counted.
     */
    consume(ip: string, email: string, now = Date.now()): void {
      const ipKey = `ip:${addressKey(ip)}`;
      const emailKey = `email:${email.trim().toLowerCase()}`;
      const ipWait = check(ipKey, limits.perIp, now);
      const emailWait = check(emailKey, limits.perEmail, now);
      if (ipWait || emailWait) {
        const error = new ApiError(429, `Too many submissions ${ipWait ? "from this network" : "with this e-mail"}: try again in ${Math.max(ipWait, emailWait)} seconds`, "rate_limited");
        (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds = Math.max(ipWait, emailWait);
        throw error;
      }
      hits.get(ipKey)!.push(now);
      hits.get(emailKey)!.push(now);
      if (hits.size > 50_000) for (const [k, v] of hits) if (v.length === 0 || v[v.length - 1] < now - 24 * 60 * 60_000) hits.delete(k);
    },
    /** Replace the limits (tests, configuration). */
    configure(next: Partial<SubmissionLimitsConfig>): void {
      limits = { ...limits, ...next };
    },
    /** Forget every count. */
    reset(): void {
      hits.clear();
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
  return `${full.slice(0, 4).map((g) => (g.includes(".") ? g : parseInt(g, 16).toString(16))).join(":")}::/64`;
}

const tooMany = (what: string, waitSeconds: number) => {
  const error = new ApiError(429, `Too many ${what} from this network: try again in ${waitSeconds} seconds`, "rate_limited");
  (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds = waitSeconds;
  return error;
};

/** Default storefront survey responses per client address per hour (`SURVEY_RESPONSES_PER_IP_PER_HOUR`). */
export const DEFAULT_SURVEY_RESPONSE_LIMIT: LimitRule = { max: 20, windowMs: 60 * 60_000 };

/**
 * A sliding-window limit per client address (`addressKey`), in memory, for one kind of write
 * (`what` names it in the 429 description, e.g. "survey responses").
 */
export function addressLimiter(what: string, rule: LimitRule) {
  let limit = rule;
  const hits = new Map<string, number[]>();
  return {
    /**
     * Run `write` for `ip` unless the address's window is full; count it when it returns and `counts`
     * says so (e.g. not an idempotent replay). A write that throws (400, 404, ...) uses no quota.
     * `write` must be synchronous, so the check and the count cannot interleave with another request.
     * @throws ApiError 429 `rate_limited` (with `retryAfterSeconds`) when the window is full; else what `write` throws.
     */
    run<T>(ip: string, write: () => T, counts: (result: T) => boolean = () => true, now = Date.now()): T {
      const key = addressKey(ip);
      const list = (hits.get(key) ?? []).filter((t) => t > now - limit.windowMs);
      if (list.length >= limit.max) {
        hits.set(key, list);
        throw tooMany(what, Math.max(1, Math.ceil((list[0] + limit.windowMs - now) / 1000)));
      }
      const result = write();
      if (result instanceof Promise) throw new Error("addressLimiter.run: write must be synchronous");
      if (counts(result)) list.push(now);
      if (list.length) hits.set(key, list);
      else hits.delete(key);
      if (hits.size > 50_000) for (const [k, v] of hits) if (v.length === 0 || v[v.length - 1] < now - limit.windowMs) hits.delete(k);
      return result;
    },
    /** Replace the rule (configuration, tests). */
    configure(next: LimitRule): void {
      limit = next;
    },
    /** Forget every count. */
    reset(): void {
      hits.clear();
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
  const error = refusal.refused === "review"
    ? new ApiError(429, `A vote on this review from this network was already counted: try again in ${seconds} seconds`, "vote_limited")
    : tooMany("votes", seconds);
  (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds = seconds;
  return error;
}
