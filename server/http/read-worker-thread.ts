/**
 * Entry of a read worker thread (`node:worker_threads`), started by `startReadWorkers`
 * (server/http/read-workers.ts). It builds its own services over its own connection to the same SQLite
 * file (WAL: readers never wait for the writer) and imports the same Remix build, then answers
 * `ReadJob`s by calling the loader of the resource route the HTTP thread matched, exactly as it would.
 *
 * workerData: `ReadThreadData`. Messages in: `ReadJob`, or `{ type: "stop" }` (close the database, exit).
 * Messages out: `ReadThreadMessage` — `{ type: "ready" }` once it can answer, then one `{ type: "done" }`
 * or `{ type: "failed" }` per job (the host then computes that answer itself).
 */
import type { ServerBuild } from "@remix-run/node";
import { parentPort, workerData } from "node:worker_threads";
import { createServices } from "../services.ts";
import { responseBody } from "../shared/response-body.ts";
import type { ReadJob, ReadThreadData, ReadThreadMessage } from "./read-workers.ts";

if (!parentPort) throw new Error("server/http/read-worker-thread.ts runs only as a worker thread (see read-workers.ts)");
const port = parentPort;
const data = workerData as ReadThreadData;
const post = (message: ReadThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

// No AI worker here (ai.worker false): the HTTP process or its AI thread runs the queue.
const services = createServices({ databasePath: data.databasePath, mediaPath: data.mediaPath, ai: { worker: false, workerInline: false } });
const build = (await import(data.buildUrl)) as ServerBuild;

/** The answer to one job: the loader's status, headers and body bytes (in a fresh, transferable buffer). */
async function answer(job: ReadJob): Promise<ReadThreadMessage> {
  const loader = build.routes[job.routeId]?.module.loader;
  if (!loader) return { type: "failed", id: job.id, reason: `no loader for route ${job.routeId}` };
  const request = new Request(job.url, { headers: job.headers });
  const result: unknown = await loader({ request, params: job.params, context: { services, clientIp: job.clientIp } });
  if (!(result instanceof Response)) return { type: "failed", id: job.id, reason: "the loader returned no Response" };
  const bytes = responseBody(result) ?? Buffer.from(await result.arrayBuffer());
  const body = new Uint8Array(bytes.length);
  body.set(bytes);
  return { type: "done", id: job.id, status: result.status, headers: [...result.headers.entries()], body };
}

port.on("message", (message: ReadJob | { type: "stop" }) => {
  if (message.type === "stop") {
    services.close();
    port.close(); // nothing keeps the thread alive any more: it exits with code 0
    return;
  }
  answer(message).then(
    (reply) => post(reply, reply.type === "done" ? [reply.body.buffer as ArrayBuffer] : []),
    (error: unknown) => post({ type: "failed", id: message.id, reason: error instanceof Error ? error.message : String(error) }),
  );
});

post({ type: "ready" });
