/**
 * The HTTP process's side of the AI worker: runs the AI queue loop (server/ai/worker-thread.ts) as one
 * long task of the server's worker pool (`piscina`, decision 0008), forwards its log lines, runs it again
 * with backoff when it fails (its thread died, or it could not start), and stops it gracefully on shutdown.
 * The HTTP process itself only writes jobs to the queue (`ai_jobs`); the loop claims them (polling every
 * 1 s when idle). A job whose thread died stays `running` and is queued again when the loop starts again.
 *
 * Imported only by server/http/main.ts (and tests), never by routes, so the Remix build does not bundle
 * it nor the task module; that module is loaded by URL and runs natively (Node type stripping).
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import type { AiConfig } from "./config.ts";

/** What the loop needs: the database, and overrides over the environment's AI settings (plain data only). */
export type AiThreadData = {
  databasePath: string;
  mediaPath?: string;
  ai?: Partial<AiConfig>;
  /** The loop's identity in job claims, the same for each restart of it (worker.ts `start`). */
  workerId?: string;
};
/** Messages from the loop to the host. */
export type AiThreadMessage = { type: "log"; line: string } | { type: "ready"; threadId: number } | { type: "stopped" };
/** Messages from the host to the loop. */
export type HostMessage = { type: "stop" };
/** The pool task that runs the loop (server/ai/worker-thread.ts): its data, and the port it talks on (transferred). */
export type AiLoopTask = { data: AiThreadData; port: MessagePort };

export type AiWorkerThread = {
  /**
   * Stop after the current job: the loop finishes it, closes its database connection and ends its task.
   * After `timeoutMs` its thread is terminated; a job it was running stays `running` in the queue and
   * is queued again when a worker next starts (nothing is lost). Resolves once the loop (and, with
   * `terminate`, its thread) is gone; a pool of its own is closed too.
   */
  stop(timeoutMs?: number): Promise<void>;
  /** Times the loop was started again after it failed. */
  readonly restarts: number;
};

export type AiWorkerThreadOptions = AiThreadData & {
  /** The server's worker pool, with a thread to spare for this loop; default: a one-thread pool of its own. */
  pool?: Piscina;
  /** Receives the loop's log lines and the host's own (failures, restarts). */
  log: (line: string) => void;
  /** First restart delay after a failure (ms, default 1000); doubles per consecutive failure up to `maxBackoffMs`. */
  backoffMs?: number;
  /** Longest restart delay (ms, default 60000). */
  maxBackoffMs?: number;
  /** A loop that ran this long before failing restarts after `backoffMs` again (ms, default 60000). */
  healthyAfterMs?: number;
  /** The task module (tests only; default server/ai/worker-thread.ts). */
  entry?: URL;
};

/** Default wait for the current job in `stop()` (ms); main.ts exits hard after 10 s in any case. */
export const STOP_TIMEOUT_MS = 5000;

/** Run the AI queue loop over the SQLite file at `options.databasePath` in the pool. Never throws for loop failures. */
export function startAiWorkerThread(options: AiWorkerThreadOptions): AiWorkerThread {
  const { log } = options;
  const entry = String(options.entry ?? new URL("./worker-thread.ts", import.meta.url));
  const firstBackoff = options.backoffMs ?? 1000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const healthyAfter = options.healthyAfterMs ?? 60_000;
  // One identity for every run of this loop: a loop restarted after its thread died takes back the job it held.
  const data: AiThreadData = { databasePath: options.databasePath, mediaPath: options.mediaPath, ai: options.ai, workerId: options.workerId ?? randomUUID() };
  const ownPool = options.pool ? null : new Piscina({ minThreads: 1, maxThreads: 1, idleTimeout: Infinity, atomics: "disabled" });
  ownPool?.on("error", (error: unknown) => log(`AI worker pool: ${error instanceof Error ? error.message : String(error)}`));
  const pool = options.pool ?? ownPool!;

  /** The running loop: its port, the thread it runs on once known, and its task's end. */
  let current: { port: MessagePort; threadId: number | null; abort: AbortController; ended: Promise<void> } | null = null;
  let stopping = false;
  let restarts = 0;
  let backoff = firstBackoff;
  let restartTimer: NodeJS.Timeout | null = null;

  function spawn(): void {
    const startedAt = Date.now();
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    const loop = { port: port1, threadId: null as number | null, abort, ended: Promise.resolve() };
    port1.on("message", (message: AiThreadMessage) => {
      if (message.type === "log") log(message.line);
      else if (message.type === "ready") loop.threadId = message.threadId;
    });
    const task = pool.run({ data, port: port2 } satisfies AiLoopTask, { filename: entry, transferList: [port2], signal: abort.signal }) as Promise<void>;
    loop.ended = task
      .then(
        () => {},
        (error: unknown) => {
          if (stopping) return;
          // Any end we did not ask for is a failure: start again after a backoff.
          if (Date.now() - startedAt >= healthyAfter) backoff = firstBackoff;
          log(`AI worker loop failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          log(`AI worker loop restarting in ${backoff} ms`);
          restartTimer = setTimeout(() => {
            restartTimer = null;
            if (stopping) return;
            restarts++;
            spawn();
          }, backoff);
          restartTimer.unref();
          backoff = Math.min(backoff * 2, maxBackoff);
        },
      )
      .finally(() => {
        port1.close();
        if (current === loop) current = null;
      });
    current = loop;
  }

  spawn();
  return {
    get restarts() {
      return restarts;
    },
    async stop(timeoutMs = STOP_TIMEOUT_MS) {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const loop = current;
      if (loop) {
        loop.port.postMessage({ type: "stop" } satisfies HostMessage);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          loop.ended.then(() => false),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), timeoutMs);
          }),
        ]);
        clearTimeout(timer);
        if (timedOut) {
          log(`AI worker thread did not stop within ${timeoutMs} ms; terminated (its job is queued again on the next start)`);
          // Aborting a running piscina task terminates its thread (with its database connection).
          const thread = pool.threads.find((worker) => worker.threadId === loop.threadId);
          const exited = thread ? once(thread, "exit") : Promise.resolve();
          loop.abort.abort();
          await Promise.all([exited, loop.ended]);
        }
      }
      await ownPool?.destroy();
    },
  };
}
