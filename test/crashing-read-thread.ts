/**
 * A read worker thread entry for tests (server/http/read-workers.test.ts): it reports ready like the real
 * one (server/http/read-worker-thread.ts), then dies on its first job, leaving that job pending.
 */
import { parentPort } from "node:worker_threads";

parentPort!.on("message", (message: { type: string }) => {
  if (message.type === "job") process.exit(1);
  if (message.type === "stop") parentPort!.close();
});
parentPort!.postMessage({ type: "ready" });
