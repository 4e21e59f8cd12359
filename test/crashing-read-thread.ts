/**
 * A worker pool thread module for tests (server/http/read-workers.test.ts): it reports ready like the real
 * one (server/http/read-worker-thread.ts), then ends its thread on its first job, with that job running.
 */
import { parentPort, threadId } from "node:worker_threads";
import type { ReadThreadMessage } from "../server/http/read-workers.ts";

export default function crashingReadTask(): never {
  process.exit(1); // in a worker thread: ends the thread, not the process
}

parentPort!.postMessage({ type: "chorus-read-thread-ready", threadId } satisfies ReadThreadMessage);
