/**
 * The background worker of AI generation: takes jobs from the persisted queue (`ai_jobs`) one at a
 * time, runs them, and periodically sweeps for scopes due for (re)generation. A failed job is retried with
 * backoff (1 s, 2 s, 4 s ...) up to MAX_ATTEMPTS, then marked `failed` with its error.
 *
 * Claims (issue #26 item 3): a job is claimed by one loop (`workerId`) with a persisted lease of AI_JOB_LEASE_MS,
 * committed before the generation is awaited and renewed every AI_JOB_LEASE_MS / 4 while it runs (a row lock
 * could not be held across the await); done / retried / failed is recorded only by the holder of the lease. On
 * PostgreSQL the claim selects the job `FOR UPDATE SKIP LOCKED`, so the loops of any number of nodes share one
 * queue and each job runs once (two processes on one SQLite file too). Jobs survive restarts: on `start()` the
 * loop queues again the jobs it left `running` before (its `workerId`: the AI thread host keeps one across the
 * thread's restarts) and, then every AI_JOB_LEASE_MS / 2, any job whose lease ran out (its process or node died):
 * it runs again within about 1.5 leases (90 s) of the end of its last claim.
 * Logging: one line per failure, and one summary line each time the queue runs dry after generating
 * (`AI content generated for 1,095 scopes in 212 s (latest: product 1088, 30 reviews, embedded)`), so a
 * first start's thousand demo products do not push the start-up output (URLs, credentials) off screen.
 */
import { randomUUID } from "node:crypto";
import { AI_JOB_LEASE_MS, type AiRepo } from "./ai.repo.ts";
import type { AiService } from "./ai.service.ts";

export const MAX_ATTEMPTS = 3;

export type AiWorker = {
  /**
   * Start the loop (idempotent). `workerId`: this loop's identity in claims (default: one random per aiWorker);
   * the AI thread host passes the same one to every restart of its loop, so a restarted loop takes back its jobs.
   * Resolves once those jobs are queued again and the loop runs. @throws when they cannot be (the loop does not run).
   */
  start(options?: { workerId?: string }): Promise<void>;
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
  let workerId: string = randomUUID();
  let lastExpiryCheck = 0;
  // Generated since the queue last ran dry: summarised in one line when it does.
  let batch: { count: number; startedMs: number; latest: string } | null = null;

  /** Run one job if one is runnable. @returns whether a job ran. */
  async function runOne(): Promise<boolean> {
    const at = Date.now();
    if (at - lastExpiryCheck >= AI_JOB_LEASE_MS / 2) {
      lastExpiryCheck = at;
      const requeued = await repo.requeueInterrupted(at, null);
      if (requeued) log(`AI: ${requeued} jobs whose claim ran out queued again`);
    }
    const job = await repo.claimNext(at, at + AI_JOB_LEASE_MS, workerId);
    if (!job) return false;
    const scope = { type: job.scope_type, id: job.scope_id };
    // Keep the claim while the job runs (the loop's own thread: renewals wait for the NLP batches' yields).
    const renew = setInterval(() => {
      repo.renewJob(job, Date.now() + AI_JOB_LEASE_MS).then(
        (renewed) => {
          if (!renewed) log(`AI job ${job.job_id}: its claim was lost (lease ran out)`);
        },
        (error: unknown) => log(`AI job ${job.job_id}: lease not renewed: ${(error as Error).message}`),
      );
    }, AI_JOB_LEASE_MS / 4);
    renew.unref();
    try {
      const result = await ai.generate(job.store_id, scope);
      clearInterval(renew);
      if (!(await repo.finishJob(job, Date.now()))) log(`AI job ${job.job_id} finished after its claim was lost`);
      if (result.status === "generated") {
        batch ??= { count: 0, startedMs: Date.now(), latest: "" };
        batch.count++;
        batch.latest = `${job.scope_type} ${job.scope_id}, ${result.reviewCount} reviews, ${result.version.engine}`;
      }
    } catch (error) {
      clearInterval(renew);
      const message = (error as Error).message ?? String(error);
      await repo.failJob(job, message, Date.now(), 1000 * 2 ** (job.attempts - 1), job.attempts >= MAX_ATTEMPTS);
      log(`AI job ${job.job_id} failed (attempt ${job.attempts}): ${message}`);
    }
    return true;
  }

  async function run(): Promise<void> {
    while (running) {
      if (sweepIntervalMs > 0 && Date.now() - lastSweep >= sweepIntervalMs) {
        lastSweep = Date.now();
        try {
          const added = await ai.sweep();
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
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  }

  return {
    get running() {
      return running;
    },
    async start(options = {}) {
      if (running) return;
      if (options.workerId) workerId = options.workerId;
      running = true;
      let requeued: number;
      try {
        requeued = await repo.requeueInterrupted(Date.now(), workerId);
      } catch (error) {
        running = false;
        throw error;
      }
      if (requeued) log(`AI: ${requeued} interrupted jobs queued again`);
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    async runUntilIdle() {
      await repo.requeueInterrupted(Date.now(), workerId);
      let n = 0;
      while (await runOne()) n++;
      return n;
    },
  };
}
