/**
 * Read worker threads: computing a public storefront answer the response cache does not hold (a *miss*)
 * on another core.
 *
 * A miss costs the HTTP thread 0.4–0.6 ms (SQL, building ~21 review objects, JSON, ETag) against
 * ~0.07 ms for a cached answer, and that thread is the server's only one: on a spread of distinct URLs
 * it ran at 100% of a core while the second core sat two-thirds idle (docs/performance.md). Each read
 * worker is a `node:worker_threads` Worker (server/http/read-worker-thread.ts) with its own SQLite
 * connection and its own copy of the Remix build; the HTTP thread sends it the URL and headers of a miss
 * and gets back status, headers and body bytes, which it caches and sends as before.
 *
 * The caller chooses what to send (app.ts sends only loaders that only read, `READ_WORKER_ROUTE_IDS`),
 * with the route it matched, so the thread does not match the path again. Freshness: the HTTP thread takes the
 * content version before it sends a job, and the worker starts its read transaction after, so an answer
 * is never older than the version it is cached under (WAL readers see every commit made before they start).
 *
 * Failure never loses a request: a job the thread reports as failed, or that was pending when the thread
 * died, or that found no answer within `jobTimeoutMs`, resolves to `null` and the caller computes the answer
 * itself. A crashed or stuck thread is started again.
 */
import { Worker } from "node:worker_threads";

/** workerData of a read thread (plain data only). */
export type ReadThreadData = {
  databasePath: string;
  mediaPath?: string;
  /** file: URL of the Remix server build (build/server/index.js). */
  buildUrl: string;
};
/**
 * One miss to compute: the id and decoded params of the resource route the caller matched, the absolute
 * URL, request headers, client address (for the load context).
 */
export type ReadJob = {
  type: "job"; id: number; routeId: string; params: Record<string, string | undefined>; url: string; headers: [string, string][]; clientIp: string;
};
/** The loader's answer, body in its own ArrayBuffer (transferred, not copied). */
export type ReadAnswer = { status: number; headers: [string, string][]; body: Uint8Array };
/** Messages from a read thread. */
export type ReadThreadMessage =
  | { type: "ready" }
  | ({ type: "done"; id: number } & ReadAnswer)
  | { type: "failed"; id: number; reason: string };

export type ReadWorkers = {
  /** Threads currently able to take jobs. */
  readonly ready: number;
  /** Times a thread was started again after it died. */
  readonly restarts: number;
  /** Jobs a thread answered (`run` resolved to an answer, not null). */
  readonly answered: number;
  /**
   * Compute `job` on the least busy ready thread. Resolves to null when no thread is ready, or the
   * thread failed the job, died with it pending or did not answer within `jobTimeoutMs`: the caller then
   * computes the answer itself. Never rejects.
   */
  run(job: Omit<ReadJob, "type" | "id">): Promise<ReadAnswer | null>;
  /** Stop every thread after its pending jobs are answered (at most `timeoutMs`, default 5000 ms), then close their databases. */
  stop(timeoutMs?: number): Promise<void>;
};

export type ReadWorkersOptions = Omit<ReadThreadData, "buildUrl"> & {
  /** Number of threads (≥ 1). */
  threads: number;
  buildUrl: URL | string;
  /** Receives crash and restart lines. Default: silent. */
  log?: (line: string) => void;
  /** Delay before a crashed thread is started again (ms, default 1000). */
  restartDelayMs?: number;
  /** Longest wait for a job's answer (ms, default 10000); then the caller computes it and the thread is replaced. */
  jobTimeoutMs?: number;
  /** The thread entry (tests only; default server/http/read-worker-thread.ts). */
  entry?: URL;
};

type Thread = { worker: Worker; ready: boolean; pending: Map<number, (answer: ReadAnswer | null) => void>; exited: Promise<void> };

/** Start `options.threads` read worker threads. Jobs sent before a thread is ready are computed by the caller. */
export function startReadWorkers(options: ReadWorkersOptions): ReadWorkers {
  const log = options.log ?? (() => {});
  const entry = options.entry ?? new URL("./read-worker-thread.ts", import.meta.url);
  const data: ReadThreadData = { databasePath: options.databasePath, mediaPath: options.mediaPath, buildUrl: String(options.buildUrl) };
  const restartDelayMs = options.restartDelayMs ?? 1000;
  const threads: (Thread | null)[] = Array.from({ length: options.threads }, () => null);
  let nextId = 1;
  let stopping = false;
  let restarts = 0;
  let answered = 0;
  const jobTimeoutMs = options.jobTimeoutMs ?? 10_000;

  function spawn(slot: number): void {
    const worker = new Worker(entry, { workerData: data, name: `chorus-read-${slot + 1}` });
    const thread: Thread = { worker, ready: false, pending: new Map(), exited: Promise.resolve() };
    threads[slot] = thread;
    worker.on("message", (message: ReadThreadMessage) => {
      if (message.type === "ready") {
        thread.ready = true;
        return;
      }
      const settle = thread.pending.get(message.id);
      thread.pending.delete(message.id);
      if (message.type === "done" && settle) {
        answered++;
        settle({ status: message.status, headers: message.headers, body: message.body });
      } else settle?.(null);
    });
    worker.on("error", (error) => log(`Read worker thread ${slot + 1} crashed: ${error instanceof Error ? error.message : String(error)}`));
    thread.exited = new Promise<void>((resolve) => {
      worker.once("exit", (code) => {
        thread.ready = false;
        for (const settle of thread.pending.values()) settle(null);
        thread.pending.clear();
        if (threads[slot] === thread) threads[slot] = null;
        resolve();
        if (stopping) return;
        log(`Read worker thread ${slot + 1} exited (code ${code}); restarting in ${restartDelayMs} ms`);
        setTimeout(() => {
          if (stopping) return;
          restarts++;
          spawn(slot);
        }, restartDelayMs).unref();
      });
    });
  }

  for (let slot = 0; slot < options.threads; slot++) spawn(slot);

  return {
    get ready() {
      return threads.filter((t) => t?.ready).length;
    },
    get restarts() {
      return restarts;
    },
    get answered() {
      return answered;
    },
    run(job) {
      let best: Thread | null = null;
      for (const t of threads) if (t?.ready && (!best || t.pending.size < best.pending.size)) best = t;
      if (!best || stopping) return Promise.resolve(null);
      const id = nextId++;
      const thread = best;
      return new Promise((resolve) => {
        // A thread that does not answer in time is stuck (a read route answers in milliseconds): the caller
        // computes the answer, and the thread is replaced (its exit settles its other pending jobs).
        const timer = setTimeout(() => {
          if (!thread.pending.delete(id)) return;
          resolve(null);
          log(`Read worker thread did not answer within ${jobTimeoutMs} ms; replacing it`);
          void thread.worker.terminate();
        }, jobTimeoutMs);
        timer.unref();
        thread.pending.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        thread.worker.postMessage({ type: "job", id, ...job } satisfies ReadJob);
      });
    },
    async stop(timeoutMs = 5000) {
      stopping = true;
      const live = threads.filter((t): t is Thread => t !== null);
      await Promise.all(
        live.map(async (t) => {
          const deadline = Date.now() + timeoutMs;
          while (t.pending.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          t.worker.postMessage({ type: "stop" });
          const timer = setTimeout(() => void t.worker.terminate(), Math.max(0, deadline - Date.now()) + 1000);
          await t.exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
