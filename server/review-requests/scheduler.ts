/**
 * The review-request scheduler loop (docs/review-requests.md "When messages are sent"): every `intervalMs` it runs
 * `runDue(clock(), origin)`. The schedule itself lives in the database (review_requests.due_ms), so the
 * loop holds no state: after a restart it sends what fell due meanwhile, and each step is sent once
 * (review-requests.service.ts). The clock is injectable so tests move time without sleeping.
 */
import { errorMessage, startPeriodicJob, type PeriodicJob } from "../shared/periodic-job.ts";
import type { ReviewRequestsService } from "./review-requests.service.ts";

/** Default time between runs (ms): one minute. */
export const SCHEDULER_INTERVAL_MS = 60_000;

/** The loop: `tick()` runs once now (@returns the counts of `runDue`, or null after an error, logged). */
export type ReviewRequestScheduler = PeriodicJob<{ sent: number; skipped: number; postponed: number; failed: number }>;

/**
 * Start the loop. The first run is right away (what fell due while the server was down).
 * @param options.clock current time in ms (default Date.now). @param options.origin public origin of links (PUBLIC_URL).
 */
export function startReviewRequestScheduler(options: {
  service: Pick<ReviewRequestsService, "runDue">;
  origin: string;
  clock?: () => number;
  intervalMs?: number;
  log?: (line: string) => void;
}): ReviewRequestScheduler {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => {});
  return startPeriodicJob({
    intervalMs: options.intervalMs ?? SCHEDULER_INTERVAL_MS,
    run: async () => {
      const counts = await options.service.runDue(clock(), options.origin);
      if (counts.sent || counts.skipped || counts.failed)
        log(`Review requests: ${counts.sent} sent, ${counts.skipped} skipped, ${counts.postponed} postponed for quiet hours, ${counts.failed} failed`);
      return counts;
    },
    onError: (error) => log(`Review requests: the scheduled run failed: ${errorMessage(error)}`),
  });
}
