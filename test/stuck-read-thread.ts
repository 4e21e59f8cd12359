/**
 * A worker pool thread module for tests (server/http/read-workers.test.ts): it reports ready like the real
 * one (server/http/read-worker-thread.ts), then never answers a job, as a thread stuck in a loop would not.
 */
import { parentPort, threadId } from "node:worker_threads";
import type { ReadThreadMessage } from "../server/http/read-workers.ts";

export default function stuckReadTask(): Promise<never> {
  return new Promise(() => {});
}

parentPort!.postMessage({ type: "chorus-read-thread-ready", threadId } satisfies ReadThreadMessage);
