/**
 * Entry of the AI worker thread (`node:worker_threads`), started by `startAiWorkerThread`
 * (server/ai/worker-host.ts) from the HTTP process. It opens its own connection to the same SQLite file
 * (WAL, busy_timeout 5000 ms, see openDatabase) through the composition root, and runs the existing queue
 * loop (`services.aiWorker`: claim / generate / retry, sweeps, requeue of interrupted jobs) on its own
 * event loop, so the synchronous NLP of analysis batches never delays an HTTP response. On Linux the thread
 * runs at nice 10, so on busy cores the HTTP thread gets the CPU first.
 *
 * workerData: `AiThreadData`. Messages in: `{ type: "stop" }` (stop after the current job, close the
 * database, exit). Messages out: `{ type: "log", line }`
 * (log lines for the main process's log), `{ type: "ready" }`, `{ type: "stopped" }`.
 */
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { createServices } from "../services.ts";
import type { AiThreadData, AiThreadMessage, HostMessage } from "./worker-host.ts";

/** Nice value of the thread on Linux (0 = normal, 19 = lowest priority). */
const AI_THREAD_NICE = 10;

if (!parentPort) throw new Error("server/ai/worker-thread.ts runs only as a worker thread (see worker-host.ts)");
const port = parentPort;
const data = workerData as AiThreadData;
const post = (message: AiThreadMessage) => port.postMessage(message);
const log = (line: string) => post({ type: "log", line });

// Linux nice values are per thread: lower this thread's CPU priority so that, when cores are busy, HTTP
// requests win over background NLP (elsewhere setPriority would apply to the whole process: skipped).
if (process.platform === "linux") {
  try {
    setPriority(AI_THREAD_NICE);
  } catch (error) {
    log(`AI worker thread: could not lower its priority (${(error as Error).message})`);
  }
}

const services = createServices({ databasePath: data.databasePath, mediaPath: data.mediaPath, ai: data.ai, log });
const worker = services.aiWorker;
let stopping = false;

port.on("message", (message: HostMessage) => {
  if (message.type === "stop" && !stopping) {
    stopping = true;
    void worker.stop().then(() => {
      services.close();
      post({ type: "stopped" });
      port.close(); // nothing keeps the thread alive any more: it exits with code 0
    });
  }
});

worker.start();
post({ type: "ready" });
