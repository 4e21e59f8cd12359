/**
 * The server's one pool of worker threads (`piscina`, decision 0008), and its use for computing a public
 * storefront answer the response cache does not hold (a *miss*) on another core.
 *
 * A miss costs the HTTP thread 0.4–0.6 ms (SQL, building ~21 review objects, JSON, ETag) against ~0.07 ms
 * for a cached answer, and that thread is the server's only one (docs/performance.md). Each pool thread
 * loads server/http/read-worker-thread.ts: its own SQLite connection and its own copy of the Remix build.
 * The HTTP thread sends it a miss (the route it matched, URL, headers) as a task and gets back status,
 * headers, body bytes and content scopes, which it caches and sends as its own. The same pool runs the AI queue loop
 * (server/ai/worker-host.ts) as one long task, on one thread more than `READ_WORKERS`.
 *
 * Freshness: the HTTP thread takes the content version before it sends a job, and the thread starts its
 * read transaction after, so an answer is never older than the version it is cached under (WAL readers see
 * every commit made before they start).
 *
 * Failure never loses a request: a job the thread fails, that was running when the thread died, or that
 * found no answer within `jobTimeoutMs` resolves to `null`, and the caller computes the answer itself.
 * piscina replaces a thread that died; a thread that timed out a job is terminated and replaced, and one
 * that could not load (its database or the build) is terminated and replaced after `restartDelayMs`.
 */
import { Piscina, queueOptionsSymbol } from "piscina";

/** workerData of every pool thread (plain data only). */
export type ReadThreadData = {
  databasePath: string;
  mediaPath?: string;
  /** file: URL of the Remix server build (build/server/index.js). */
  buildUrl: string;
};
/**
 * One miss to compute: the id and decoded params of the API route the caller matched, the absolute URL,
 * request headers, client address and public origin (for the operation's context).
 */
export type ReadJob = { routeId: string; params: Record<string, string | undefined>; url: string; headers: [string, string][]; clientIp: string; publicOrigin: string };
/**
 * The operation's answer: status, headers, body in its own ArrayBuffer (transferred, not copied), and the
 * content scopes it read (null: stale after any commit).
 */
export type ReadAnswer = { status: number; headers: [string, string][]; body: Uint8Array; scopes: readonly string[] | null };
/**
 * Posted on `parentPort` by a thread (piscina emits it as the pool's 'message') once it can compute reads,
 * or when it could not load its services or the Remix build (the pool then replaces it after `restartDelayMs`).
 */
export type ReadThreadMessage = { type: "chorus-read-thread-ready"; threadId: number } | { type: "chorus-read-thread-failed"; threadId: number; reason: string };

export type ReadWorkers = {
  /** Pool threads able to compute reads now (those that loaded the read thread module). */
  readonly ready: number;
  /** Pool threads replaced after they died or were terminated for a job past its timeout. */
  readonly restarts: number;
  /** Jobs a thread answered (`run` resolved to an answer, not null). */
  readonly answered: number;
  /**
   * Compute `job` on the pool (the least busy thread; queued while all are busy). Resolves to null when
   * no thread is ready, or the thread failed the job, died with it or did not answer within `jobTimeoutMs`:
   * the caller then computes the answer itself. Never rejects.
   */
  run(job: ReadJob): Promise<ReadAnswer | null>;
  /**
   * Stop taking jobs, let running ones finish (at most `timeoutMs`, default 5000 ms), then terminate the
   * threads; a thread's SQLite connection closes with it. For a pool of its own (`startReadWorkers`); the
   * shared pool is closed by `WorkerPool.close`.
   */
  stop(timeoutMs?: number): Promise<void>;
};

export type WorkerPoolOptions = Omit<ReadThreadData, "buildUrl"> & {
  /** Threads computing read misses (`READ_WORKERS`, ≥ 0). */
  readThreads: number;
  /** One more thread, for the AI queue loop (server/ai/worker-host.ts). */
  aiThread?: boolean;
  buildUrl: URL | string;
  /** Receives lines about failed jobs and replaced threads. Default: silent. */
  log?: (line: string) => void;
  /** Longest wait for a job's answer (ms, default 10000); then the caller computes it and the thread is replaced. */
  jobTimeoutMs?: number;
  /** Delay before a thread that could not load the read module is replaced (ms, default 1000). */
  restartDelayMs?: number;
  /** The module each thread loads (tests only; default server/http/read-worker-thread.ts). */
  entry?: URL;
};

export type WorkerPool = {
  /** The piscina pool: `readThreads` (+ 1 with `aiThread`) threads, all started at once and kept. */
  readonly piscina: Piscina;
  /** The read interface, or undefined when `readThreads` is 0. */
  readonly readWorkers?: ReadWorkers;
  /** Stop taking jobs, wait for running tasks (at most `timeoutMs`, default 5000 ms), then terminate every thread. */
  close(timeoutMs?: number): Promise<void>;
};

/** Reads a thread may have in flight at once (piscina `concurrentTasksPerWorker`). */
const READS_IN_FLIGHT = 8;

/**
 * Piscina's least-busy choice, which also notes on a read job the thread it goes to (so a stuck read's
 * thread can be replaced): an idle thread first, else the least busy one under READS_IN_FLIGHT, never a
 * thread running an abortable task (the AI loop, server/ai/worker-host.ts). piscina does not export its
 * own balancer, which has the same rules.
 */
const readBalancer: NonNullable<ConstructorParameters<typeof Piscina>[0]>["loadBalancer"] = (task, workers) => {
  let chosen: (typeof workers)[number] | null = null;
  for (const worker of workers) {
    if (worker.terminating || worker.destroyed || worker.isRunningAbortableTask) continue;
    if (worker.currentUsage === 0) {
      chosen = worker;
      break;
    }
    if (!task.isAbortable && worker.currentUsage < READS_IN_FLIGHT && (!chosen || worker.currentUsage < chosen.currentUsage)) chosen = worker;
  }
  // A read job carries a note under piscina's queue-options symbol (not sent to the thread): record the thread there.
  const note = (task as unknown as Record<symbol, unknown>)[queueOptionsSymbol] as { threadId?: number } | null;
  if (chosen && note && typeof note === "object") note.threadId = chosen.id;
  return chosen;
};

/**
 * Start the pool: `readThreads` threads (plus one for the AI loop when `aiThread`), each loading the read
 * thread module when `readThreads` > 0. @throws when the thread count is 0.
 */
export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const threads = options.readThreads + (options.aiThread ? 1 : 0);
  if (threads < 1) throw new Error("startWorkerPool: no threads asked for");
  const log = options.log ?? (() => {});
  const reads = options.readThreads > 0;
  const data: ReadThreadData = { databasePath: options.databasePath, mediaPath: options.mediaPath, buildUrl: String(options.buildUrl) };
  const piscina = new Piscina({
    // Every thread loads the read module at start (services, Remix build), so a read never waits for it.
    filename: reads ? String(options.entry ?? new URL("./read-worker-thread.ts", import.meta.url)) : null,
    workerData: data,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // Threads keep their event loops running between tasks (the AI loop's timers, a read thread still
    // loading its build); by default piscina parks an idle thread in a blocking wait on shared memory.
    atomics: "disabled",
    closeTimeout: 5000,
    // Several reads in flight per thread: the HTTP thread does not wait a message round trip per miss
    // (one read at a time per thread was slower than computing misses on the HTTP thread).
    concurrentTasksPerWorker: READS_IN_FLIGHT,
    loadBalancer: readBalancer,
  });
  let closing = false;
  let restarts = 0;
  /** Threads that said they can compute reads (a thread that is gone is no longer in `piscina.threads`). */
  const readyIds = new Set<number>();
  const readyCount = () => piscina.threads.filter((worker) => readyIds.has(worker.threadId)).length;
  piscina.on("message", (message: ReadThreadMessage) => {
    if (message?.type === "chorus-read-thread-ready") readyIds.add(message.threadId);
    else if (message?.type === "chorus-read-thread-failed") {
      const delayMs = options.restartDelayMs ?? 1000;
      log(`Worker pool: thread ${message.threadId} could not load (${message.reason}); replacing it in ${delayMs} ms`);
      setTimeout(() => {
        if (!closing) void piscina.threads.find((worker) => worker.threadId === message.threadId)?.terminate();
      }, delayMs).unref();
    }
  });
  piscina.on("workerDestroy", () => {
    if (closing) return;
    restarts++;
    log("Worker pool: a thread died or was terminated; piscina starts another");
  });
  // Without a listener an 'error' event (a thread failing with no task on it) would throw in this thread.
  piscina.on("error", (error: unknown) => log(`Worker pool: ${error instanceof Error ? error.message : String(error)}`));

  const jobTimeoutMs = options.jobTimeoutMs ?? 10_000;
  let answered = 0;
  const readWorkers: ReadWorkers | undefined = reads
    ? {
        get ready() {
          return readyCount();
        },
        get restarts() {
          return restarts;
        },
        get answered() {
          return answered;
        },
        async run(job) {
          if (closing || readyCount() === 0) return null;
          // A read answers in milliseconds: one not answered in time is stuck. Its thread (noted by the
          // balancer) is terminated and piscina starts another; the caller computes the answer.
          const note: { threadId?: number } = {};
          const task = Object.assign({ ...job }, { [queueOptionsSymbol]: note });
          let timer: NodeJS.Timeout | undefined;
          const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), jobTimeoutMs)));
          try {
            const answer = await Promise.race([piscina.run(task) as Promise<ReadAnswer>, timedOut]);
            if (answer === "timeout") {
              log(`Read job ${job.url} computed on the HTTP thread: no answer within ${jobTimeoutMs} ms; replacing its thread`);
              if (!closing) void piscina.threads.find((worker) => worker.threadId === note.threadId)?.terminate();
              return null;
            }
            answered++;
            return answer;
          } catch (error) {
            if (closing) return null;
            log(`Read job ${job.url} computed on the HTTP thread: ${error instanceof Error ? error.message : String(error)}`);
            return null;
          } finally {
            clearTimeout(timer);
          }
        },
        stop: (timeoutMs) => close(timeoutMs),
      }
    : undefined;

  async function close(timeoutMs = 5000): Promise<void> {
    if (closing) return;
    closing = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([piscina.close(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    await piscina.destroy();
  }

  return { piscina, readWorkers, close };
}

export type ReadWorkersOptions = Omit<WorkerPoolOptions, "readThreads" | "aiThread"> & {
  /** Number of threads (≥ 1). */
  threads: number;
};

/** Start a pool of `options.threads` threads for read misses only (tests; the server shares one pool with the AI loop). */
export function startReadWorkers(options: ReadWorkersOptions): ReadWorkers {
  const { threads, ...rest } = options;
  return startWorkerPool({ ...rest, readThreads: threads }).readWorkers!;
}
