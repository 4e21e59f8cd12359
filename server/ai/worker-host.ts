/**
 * The HTTP process's side of the AI worker thread (issue 8): starts server/ai/worker-thread.ts in a
 * `node:worker_threads` Worker, forwards its log lines, restarts it with backoff when it crashes, and
 * stops it gracefully on shutdown. The HTTP process itself only writes jobs to the queue (`ai_jobs`);
 * the thread claims them (polling every 1 s when idle).
 *
 * Imported only by server/http/main.ts (and tests), never by routes, so the Remix build does not bundle
 * it nor the thread entry; the entry is loaded by URL and runs natively (Node type stripping).
 */
import { Worker } from "node:worker_threads";
import type { AiConfig } from "./config.ts";

/** workerData of the thread. `ai`: overrides over the environment's AI settings (plain data only). */
export type AiThreadData = { databasePath: string; mediaPath?: string; ai?: Partial<AiConfig> };
/** Messages from the thread to the host. */
export type AiThreadMessage = { type: "log"; line: string } | { type: "ready" } | { type: "stopped" };
/** Messages from the host to the thread. */
export type HostMessage = { type: "stop" };

export type AiWorkerThread = {
  /**
   * Stop after the current job: the thread finishes it, closes its database connection and exits.
   * After `timeoutMs` the thread is terminated; a job it was running stays `running` in the queue and
   * is queued again when a worker next starts (nothing is lost). Resolves once the thread is gone.
   */
  stop(timeoutMs?: number): Promise<void>;
  /** Times the thread was started again after a crash. */
  readonly restarts: number;
};

export type AiWorkerThreadOptions = AiThreadData & {
  /** Receives the thread's log lines and the host's own (crashes, restarts). */
  log: (line: string) => void;
  /** First restart delay after a crash (ms, default 1000); doubles per consecutive crash up to `maxBackoffMs`. */
  backoffMs?: number;
  /** Longest restart delay (ms, default 60000). */
  maxBackoffMs?: number;
  /** A thread that ran this long before crashing restarts after `backoffMs` again (ms, default 60000). */
  healthyAfterMs?: number;
  /** The thread entry (tests only; default server/ai/worker-thread.ts). */
  entry?: URL;
};

/** Default wait for the current job in `stop()` (ms); main.ts exits hard after 10 s in any case. */
export const STOP_TIMEOUT_MS = 5000;

/** Start the AI worker thread over the SQLite file at `options.databasePath`. Never throws for thread failures. */
export function startAiWorkerThread(options: AiWorkerThreadOptions): AiWorkerThread {
  const { log } = options;
  const entry = options.entry ?? new URL("./worker-thread.ts", import.meta.url);
  const firstBackoff = options.backoffMs ?? 1000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const healthyAfter = options.healthyAfterMs ?? 60_000;
  const data: AiThreadData = { databasePath: options.databasePath, mediaPath: options.mediaPath, ai: options.ai };

  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stopping = false;
  let restarts = 0;
  let backoff = firstBackoff;
  let restartTimer: NodeJS.Timeout | null = null;

  function spawn(): void {
    const startedAt = Date.now();
    const w = new Worker(entry, { workerData: data, name: "chorus-ai-worker" });
    worker = w;
    w.on("message", (message: AiThreadMessage) => {
      if (message.type === "log") log(message.line);
    });
    w.on("error", (error) => log(`AI worker thread crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));
    exited = new Promise<void>((resolve) => {
      w.once("exit", (code) => {
        worker = null;
        resolve();
        if (stopping) return;
        // any exit we did not ask for is a crash: start again after a backoff
        if (Date.now() - startedAt >= healthyAfter) backoff = firstBackoff;
        log(`AI worker thread exited (code ${code}); restarting in ${backoff} ms`);
        restartTimer = setTimeout(() => {
          restartTimer = null;
          if (stopping) return;
          restarts++;
          spawn();
        }, backoff);
        restartTimer.unref();
        backoff = Math.min(backoff * 2, maxBackoff);
      });
    });
  }

  spawn();
  return {
    get restarts() { return restarts; },
    async stop(timeoutMs = STOP_TIMEOUT_MS) {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      if (!w) return;
      w.postMessage({ type: "stop" } satisfies HostMessage);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), timeoutMs); }),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        log(`AI worker thread did not stop within ${timeoutMs} ms; terminated (its job is queued again on the next start)`);
        await w.terminate();
        await exited;
      }
    },
  };
}
