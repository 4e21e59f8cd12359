/**
 * A second Chorus node for test/queues-two-nodes.test.ts, run in a worker thread: its own event loop and its own
 * database connection (its own `createServices` over the same database), so its claims race the test's node for
 * real. Loaded natively by URL (type stripping), like server/ai/worker-thread.ts.
 *
 * workerData: `QueueNodeOptions`. Messages in: `{ queue, nowMs }` (drain that queue once, as the node's loop would:
 * mail `runOnce`, webhooks `runDue`, AI `runUntilIdle`, review requests `runDue`), `{ close: true }`.
 * Messages out: `{ ready: true }` once the services are built; `{ armed: true }` when a drain is about to start:
 * the thread then waits (Atomics) until the test's node bumps `startSignal[0]`, so both start in the same
 * microsecond; `{ queue, count }` after each drain (how many items this node completed); `{ error }` when a drain throws.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createServices, type Services } from "../server/services.ts";

export type QueueName = "mail" | "webhooks" | "ai" | "review-requests";
export type QueueNodeOptions = {
  queueNode: true;
  databasePath: string;
  mediaPath: string;
  smtpUrl: string;
  mailFrom: string;
  origin: string;
  /** An Int32Array over a SharedArrayBuffer: a drain starts when its element 0 changes. */
  startSignal: Int32Array;
};
export type QueueNodeRequest = { queue: QueueName; nowMs: number } | { close: true };

/** Drain `queue` once on `services` at `nowMs`. @returns how many items this node completed (sent, delivered, run). */
export async function drain(services: Services, queue: QueueName, nowMs: number, origin: string): Promise<number> {
  switch (queue) {
    case "mail":
      return (await services.mailSender.runOnce()).sent;
    case "webhooks":
      return (await services.webhookDelivery.runDue(nowMs)).delivered;
    case "ai":
      return services.aiWorker.runUntilIdle();
    case "review-requests":
      return (await services.reviewRequests.runDue(nowMs, origin)).sent;
  }
}

if (parentPort && (workerData as Partial<QueueNodeOptions> | undefined)?.queueNode === true) {
  const port = parentPort;
  const options = workerData as QueueNodeOptions;
  const services = await createServices({
    databasePath: options.databasePath,
    mediaPath: options.mediaPath,
    mail: { smtpUrl: options.smtpUrl, from: options.mailFrom },
    webhooks: { allowInsecure: true },
    ai: { llm: null, translation: null, sweepIntervalMs: 0 },
  });
  port.on("message", (message: QueueNodeRequest) => {
    if ("close" in message) {
      void services.mailSender.stop().then(async () => {
        await services.close();
        port.close();
      });
      return;
    }
    const seen = Atomics.load(options.startSignal, 0);
    port.postMessage({ armed: true });
    Atomics.wait(options.startSignal, 0, seen, 10_000);
    drain(services, message.queue, message.nowMs, options.origin).then(
      (count) => port.postMessage({ queue: message.queue, count }),
      (error: unknown) => port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  port.postMessage({ ready: true });
}
