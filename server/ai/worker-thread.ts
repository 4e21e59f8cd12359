/**
 * The AI queue loop as one long task of the server's worker pool (`piscina`, server/http/read-workers.ts),
 * started by `startAiWorkerThread` (server/ai/worker-host.ts). It opens its own connection to the same
 * SQLite file (WAL, busy_timeout 5000 ms, see openDatabase) through the composition root, and runs the
 * existing queue loop (`services.aiWorker`: claim / generate / retry, sweeps, requeue of interrupted jobs)
 * on its thread's event loop, so the synchronous NLP of analysis batches never delays an HTTP response.
 * On Linux the thread then runs at nice 10, so on busy cores the HTTP thread gets the CPU first.
 *
 * Task: `AiLoopTask` (worker-host.ts; its `port` is transferred). Messages in on the port: `{ type: "stop" }` (stop after
 * the current job, close the database, resolve). Messages out: `{ type: "log", line }` (for the main
 * process's log), `{ type: "ready", threadId }` once the loop runs, `{ type: "stopped" }`.
 * The task rejects when the services cannot be built (e.g. the database cannot be opened).
 */
import { setPriority } from "node:os";
import { threadId } from "node:worker_threads";
import { createServices } from "../services.ts";
import type { AiLoopTask, AiThreadMessage, HostMessage } from "./worker-host.ts";

/** Nice value of the thread on Linux (0 = normal, 19 = lowest priority). */
const AI_THREAD_NICE = 10;

/** Run the AI queue loop until the host posts `stop`. @throws when the services cannot be built. */
export default async function aiLoopTask({ data, port }: AiLoopTask): Promise<void> {
  const post = (message: AiThreadMessage) => port.postMessage(message);
  const log = (line: string) => post({ type: "log", line });
  const stopAsked = new Promise<void>((resolve) => port.on("message", (message: HostMessage) => message.type === "stop" && resolve()));
  const services = await createServices({ databasePath: data.databasePath, mediaPath: data.mediaPath, ai: data.ai, log });
  try {
    await services.aiWorker.start({ workerId: data.workerId });
    // Linux nice values are per thread: lower this thread's CPU priority so that, when cores are busy, HTTP
    // requests win over background NLP (elsewhere setPriority would apply to the whole process: skipped).
    // Only once the loop runs: the loop ends only when the pool is being stopped, so no read lands on a
    // thread lowered for it. (An unprivileged thread cannot raise its priority again.)
    if (process.platform === "linux") {
      try {
        setPriority(AI_THREAD_NICE);
      } catch (error) {
        log(`AI worker thread: could not lower its priority (${(error as Error).message})`);
      }
    }
    post({ type: "ready", threadId });
    await stopAsked;
    await services.aiWorker.stop();
  } finally {
    await services.close();
  }
  post({ type: "stopped" });
  port.close();
}
