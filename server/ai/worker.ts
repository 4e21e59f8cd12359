/**
 * The background worker of AI generation: takes jobs from the persisted queue (`ai_jobs`) one at a
 * time, runs them, and periodically sweeps for scopes due for (re)generation. Jobs survive restarts:
 * a job a stopped process left `running` is queued again on `start()`. A failed job is retried with
 * backoff (1 s, 2 s, 4 s ...) up to MAX_ATTEMPTS, then marked `failed` with its error.
 * Logging: one line per failure, and one summary line each time the queue runs dry after generating
 * (`AI content generated for 1,095 scopes in 212 s (latest: product 1088, 30 reviews, embedded)`), so a
 * first start's thousand demo products do not push the start-up output (URLs, credentials) off screen.
 */
import type { AiRepo } from "./ai.repo.ts";
import type { AiService } from "./ai.service.ts";

export const MAX_ATTEMPTS = 3;

export type AiWorker = {
  /** Start the loop (idempotent). */
  start(): void;
  /** Stop after the current job; resolves when the loop has stopped. */
  stop(): Promise<void>;
  /** Run queued jobs until none is runnable (tests, CLI). @returns jobs completed. */
  runUntilIdle(): Promise<number>;
  readonly running: boolean;
};

/**
 * @param options.idleMs poll interval when the queue is empty (ms, default 1000)
 * @param options.sweepIntervalMs how often to look for scopes due for regeneration (ms; 0 = never)
 */
export function aiWorker(deps: { repo: AiRepo; ai: AiService; log?: (line: string) => void }, options: { idleMs?: number; sweepIntervalMs?: number } = {}): AiWorker {
  const { repo, ai } = deps;
  const log = deps.log ?? (() => {});
  const idleMs = options.idleMs ?? 1000;
  const sweepIntervalMs = options.sweepIntervalMs ?? 0;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let lastSweep = 0;
  // Generated since the queue last ran dry: summarised in one line when it does.
  let batch: { count: number; startedMs: number; latest: string } | null = null;

  /** Run one job if one is runnable. @returns whether a job ran. */
  async function runOne(): Promise<boolean> {
    const job = repo.claimNext(Date.now());
    if (!job) return false;
    const scope = { type: job.scope_type, id: job.scope_id };
    try {
      const result = await ai.generate(job.store_id, scope);
      repo.finishJob(job, Date.now());
      if (result.status === "generated") {
        batch ??= { count: 0, startedMs: Date.now(), latest: "" };
        batch.count++;
        batch.latest = `${job.scope_type} ${job.scope_id}, ${result.reviewCount} reviews, ${result.version.engine}`;
      }
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      repo.failJob(job, message, Date.now(), 1000 * 2 ** (job.attempts - 1), job.attempts >= MAX_ATTEMPTS);
      log(`AI job ${job.job_id} failed (attempt ${job.attempts}): ${message}`);
    }
    return true;
  }

  async function run(): Promise<void> {
    while (running) {
      if (sweepIntervalMs > 0 && Date.now() - lastSweep >= sweepIntervalMs) {
        lastSweep = Date.now();
        try {
          const added = ai.sweep();
          if (added) log(`AI: ${added} products or groups queued for (re)generation`);
        } catch (error) {
          log(`AI sweep failed: ${(error as Error).message}`);
        }
      }
      let ran = false;
      try {
        ran = await runOne();
      } catch (error) {
        log(`AI worker: ${(error as Error).message}`);
      }
      if (!ran && batch) {
        const seconds = Math.round((Date.now() - batch.startedMs) / 1000);
        log(`AI content generated for ${batch.count.toLocaleString("en")} ${batch.count === 1 ? "scope" : "scopes"} in ${seconds} s (latest: ${batch.latest})`);
        batch = null;
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ran ? 0 : idleMs);
        wake = () => { clearTimeout(timer); resolve(); };
      });
      wake = null;
    }
  }

  return {
    get running() { return running; },
    start() {
      if (running) return;
      const requeued = repo.requeueRunning();
      if (requeued) log(`AI: ${requeued} interrupted jobs queued again`);
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    async runUntilIdle() {
      repo.requeueRunning();
      let n = 0;
      while (await runOne()) n++;
      return n;
    },
  };
}
