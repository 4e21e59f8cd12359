/**
 * Structured request logs (pino, one JSON line per request): request ID, method, route ID, status and
 * duration in ms. Never the URL's query, headers, cookies, tokens, bodies or e-mail addresses: the
 * route ID (e.g. `routes/v1.stores.$storeId.reviews`) names the operation without its values.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import pino, { type Logger } from "pino";

export type { Logger };

/**
 * A pino logger writing to stdout at `level` (LOG_LEVEL), or undefined for `silent` (no per-request work
 * at all). Lines are buffered (4 KB, asynchronous writes): a write system call per request cost about a
 * sixth of a cached answer's throughput. `flushLogs` writes what is buffered (on shutdown).
 */
export function createLogger(level = "info"): Logger | undefined {
  if (level === "silent") return undefined;
  return pino({ level, base: undefined }, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}

/** Write out buffered log lines (call before the process exits). */
export function flushLogs(logger: Logger | undefined): void {
  try {
    logger?.flush();
  } catch {
    /* stdout closed: nothing to do */
  }
}

const REQUEST_ID = /^[\w.-]{1,64}$/;
/** Request IDs this process makes: a random prefix per start and a counter (unique, and cheaper than a UUID per request). */
const ID_PREFIX = randomBytes(6).toString("base64url");
let lastId = 0;

/**
 * Give the request an ID (a well-formed `X-Request-Id` from the client, else `<process prefix>-<n>`),
 * echo it in the response, and log one line when the response is done or the client left (`aborted`).
 * Times: `time` epoch ms, `ms` the request's duration.
 * @param routeOf the route ID of the request (set once it is known), or undefined for no route.
 */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, routeOf: () => string | undefined): void {
  const started = performance.now();
  const given = req.headers["x-request-id"];
  const reqId = typeof given === "string" && REQUEST_ID.test(given) ? given : `${ID_PREFIX}-${++lastId}`;
  res.setHeader("x-request-id", reqId);
  // 'close' follows 'finish' for every response, and comes alone when the client left first.
  res.once("close", () => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    if (res.writableFinished) logger.info({ reqId, method: req.method, route: routeOf() ?? null, status: res.statusCode, ms }, "request");
    else logger.info({ reqId, method: req.method, route: routeOf() ?? null, status: res.statusCode, ms, aborted: true }, "request");
  });
}
