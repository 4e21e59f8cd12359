/**
 * A read worker thread entry for tests (server/http/read-workers.test.ts): the real thread
 * (server/http/read-worker-thread.ts), except that each answer is posted 300 ms after it was computed, so a test can commit while an answer read before the commit is on its way.
 */
import { parentPort } from "node:worker_threads";

const DELAY_MS = 300;

const port = parentPort!;
const post = port.postMessage.bind(port);
port.postMessage = ((message: { type: string }, transfer?: readonly Transferable[]) => {
  if (message.type === "ready") post(message, transfer as never);
  else setTimeout(() => post(message, transfer as never), DELAY_MS);
}) as typeof port.postMessage;
await import("../server/http/read-worker-thread.ts");
