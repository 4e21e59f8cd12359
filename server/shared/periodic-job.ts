/**
 * A job run on this process's timers: once right away (what fell due while the server was down), then every
 * `intervalMs` after the previous run ended (runs never overlap). Timers are unref'd, so the loop never keeps a
 * process alive. A run that throws (or whose promise rejects) is reported to `onError` and tried again at the
 * next interval; the loop holds no state of its own (each job keeps its schedule in the database). Used by the
 * review-request scheduler and the held-review publisher.
 */
export type PeriodicJob<T> = {
  /** Run once now (also what each interval does). @returns a promise of the run's result, or null after an error (reported). */
  tick(): Promise<T | null>;
  /** End the loop; a run in progress finishes. */
  stop(): void;
};

/** Start the loop. @param options.intervalMs time between runs (ms). */
export function startPeriodicJob<T>(options: { run: () => T | Promise<T>; intervalMs: number; onError: (error: unknown) => void }): PeriodicJob<T> {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = async (): Promise<T | null> => {
    try {
      return await options.run();
    } catch (error) {
      options.onError(error);
      return null;
    }
  };
  const loop = async () => {
    if (stopped) return;
    await tick();
    if (stopped) return;
    timer = setTimeout(() => void loop(), options.intervalMs);
    timer.unref();
  };
  timer = setTimeout(() => void loop(), 0);
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
