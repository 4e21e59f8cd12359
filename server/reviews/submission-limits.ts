/**
 * In-memory submission limits (issue 3 §1): a sliding window per client IP and per e-mail, shared by
 * reviews and questions. State lives in `services` (one instance per process), so with several
 * processes each enforces its own window. Limits are documented in docs/writes.md.
 */
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
     * Count one submission of `ip` and `email` (lower-cased), or refuse it.
     * @throws ApiError 429 (code `rate_limited`, with `retryAfterSeconds`) when either window is full;
     * a refused submission is not counted.
     */
    consume(ip: string, email: string, now = Date.now()): void {
      const ipKey = `ip:${ip}`;
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
