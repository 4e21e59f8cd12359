/**
 * The loyalty lifecycle loop (docs/loyalty.md "Birthdays", "Expiry", "Pending points and refunds"): `runDue(now)` of
 * server/loyalty/lifecycle.ts at start and every 15 minutes. The schedule lives in the database, so the loop holds no
 * state; each award, reminder and expiry is made once even when several nodes run the loop.
 */
import { errorMessage, startPeriodicJob, type PeriodicJob } from "../shared/periodic-job.ts";
import type { LoyaltyLifecycle } from "./lifecycle.ts";

/** Time between runs (ms): a birthday is awarded within 15 minutes of local midnight. */
export const LIFECYCLE_INTERVAL_MS = 15 * 60_000;

/** Start the loop (first run right away). @param options.clock current time in ms (default Date.now). */
export function startLoyaltyLifecycleJob(options: {
  service: Pick<LoyaltyLifecycle, "runDue">;
  clock?: () => number;
  intervalMs?: number;
  log?: (line: string) => void;
}): PeriodicJob<Awaited<ReturnType<LoyaltyLifecycle["runDue"]>>> {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => {});
  return startPeriodicJob({
    intervalMs: options.intervalMs ?? LIFECYCLE_INTERVAL_MS,
    run: async () => {
      const c = await options.service.runDue(clock());
      if (c.birthdays || c.reminders || c.expired || c.confirmed) {
        log(`Loyalty: ${c.birthdays} birthdays awarded, ${c.reminders} expiry reminders, ${c.expired} balances expired, ${c.confirmed} pending orders confirmed`);
      }
      return c;
    },
    onError: (error) => log(`Loyalty: the lifecycle run failed: ${errorMessage(error)}`),
  });
}
