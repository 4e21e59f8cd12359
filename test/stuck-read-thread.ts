/**
 * A read worker thread entry for tests (server/http/read-workers.test.ts): it reports ready like the real
 * one (server/http/read-worker-thread.ts), then never answers a job, as a thread stuck in a loop would not.
 */
import { parentPort } from "node:worker_threads";

parentPort!.on("message", (message: { type: string }) => {
  if (message.type === "stop") parentPort!.close();
});
parentPort!.postMessage({ type: "ready" });
