/**
 * A job run on this process's timers: once right away (what fell due while the server was down), then every
 * `intervalMs` after the previous run ended. Timers are unref'd, so the loop never keeps a process alive.
 * A run that throws is reported to `onError` and tried again at the next interval; the loop holds no state
 * of its own (each job keeps its schedule in the database). Used by the review-request scheduler and the
 * held-review publisher.
 */
export type PeriodicJob<T> = {
  /** Run once now (also what each interval does). @returns the run's result, or null after an error (reported). */
  tick(): T | null;
  /** End the loop; a run in progress finishes. */
  stop(): void;
};

/** Start the loop. @param options.intervalMs time between runs (ms). */
export function startPeriodicJob<T>(options: { run: () => T; intervalMs: number; onError: (error: unknown) => void }): PeriodicJob<T> {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = (): T | null => {
    try {
      return options.run();
    } catch (error) {
      options.onError(error);
      return null;
    }
  };
  const loop = () => {
    if (stopped) return;
    tick();
    timer = setTimeout(loop, options.intervalMs);
    timer.unref();
  };
  timer = setTimeout(loop, 0);
  timer.unref();
  return {
    tick,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** An error's message for a log line. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
