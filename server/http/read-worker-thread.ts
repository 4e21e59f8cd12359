/**
 * The module every thread of the worker pool loads (server/http/read-workers.ts, `piscina`) when the
 * server computes read misses there. At load it builds its own read-only services over its own connection to
 * the same SQLite file (WAL: readers never wait for the writer; on PostgreSQL a small pool of its own) and imports the same Remix build, then tells
 * the pool it is ready, or that it could not load (`ReadThreadMessage`). Its default export is the piscina task: one `ReadJob` in, one
 * `ReadAnswer` out (body bytes transferred, not copied), computed by the route's declared GET operation,
 * exactly as the HTTP thread runs it (server/api/operation.ts); a job it cannot answer rejects, and the
 * HTTP thread then computes that answer itself.
 *
 * workerData: `ReadThreadData`.
 */
import type { ServerBuild } from "@remix-run/node";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { declaredOperations } from "../api/remix.ts";
import { operationFor, runOperation } from "../api/operation.ts";
import { operationTable } from "../api/route-table.ts";
import { createServices } from "../services.ts";
import type { ReadAnswer, ReadJob, ReadThreadData, ReadThreadMessage } from "./read-workers.ts";

if (!parentPort) throw new Error("server/http/read-worker-thread.ts runs only in a worker thread (see read-workers.ts)");
const port = parentPort;
const data = workerData as ReadThreadData;

/** What a read needs, loaded once per thread. */
async function load() {
  // No AI worker here (ai.worker false): the pool's AI loop, or the HTTP thread, runs the queue.
  // Read-only services: a read-only SQLite connection of this thread's own (or a small PostgreSQL pool), not migrated.
  const services = await createServices({ databasePath: data.databasePath, mediaPath: data.mediaPath, ai: { worker: false, workerInline: false }, readonly: true });
  const build = (await import(data.buildUrl)) as ServerBuild;
  return { services, build, operations: operationTable(build).operations };
}
// A thread that cannot load says so instead of failing its start-up: the pool terminates it after a delay
// and piscina starts another (a thread that fails to start would not be replaced).
const loaded = await load().then(
  (ready) => {
    port.postMessage({ type: "chorus-read-thread-ready", threadId } satisfies ReadThreadMessage);
    return ready;
  },
  (error: unknown) => {
    port.postMessage({ type: "chorus-read-thread-failed", threadId, reason: error instanceof Error ? error.message : String(error) } satisfies ReadThreadMessage);
    return null;
  },
);

/**
 * The answer to one read: the GET operation the route the HTTP thread matched declares, run exactly as the
 * HTTP thread runs it (same request, params and context). @throws when the route declares no GET operation.
 */
async function computeRead(job: ReadJob): Promise<ReadAnswer> {
  if (!loaded) throw new Error("this thread could not load its services or the Remix build");
  const { services, build, operations } = loaded;
  const declared = declaredOperations(build.routes[job.routeId]?.module ?? {});
  const op = declared && operationFor(declared, "GET");
  if (!op) throw new Error(`no GET operation for route ${job.routeId}`);
  const request = new Request(job.url, { headers: job.headers });
  const result = await runOperation(op, request, job.params, { services, clientIp: job.clientIp, publicOrigin: job.publicOrigin, operations });
  const body = new Uint8Array(result.body.length); // a buffer of its own, to transfer
  body.set(result.body);
  return { status: result.status, headers: Object.entries(result.headers), body, scopes: result.scopes };
}

/** The piscina task: compute `job` and hand its answer back with the body's buffer transferred. */
export default async function readTask(job: ReadJob) {
  const answer = await computeRead(job);
  return move({ [transferableSymbol]: [answer.body.buffer], [valueSymbol]: answer });
}
