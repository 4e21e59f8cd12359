/**
 * The front door's one rule for request methods (docs/api.md "Methods"), applied before Express or Remix see
 * a request. What each kind of path accepts:
 * - API paths (`/v1`, `/enterprise`, `/platforms`, `/healthz`): GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS
 *   (each route then answers 405 with its own `Allow` for the ones it does not declare); any other method
 *   (TRACE, TRACK, CONNECT, PROPFIND, an unknown token such as `BREW`, a lower-case `get`: methods are
 *   case-sensitive, RFC 9110, section 9.1) → 501 Not Implemented with the JSON error body;
 * - static files (`/widgets`, `/assets`, `/media`): GET and HEAD;
 * - pages (admin, demo, everything else): GET, HEAD and POST (forms);
 * anything else on a static file or page → 405 in plain text with `Allow`.
 * Node's HTTP parser itself rejects methods it does not know (TRACK, BREW, `get`) as a client error, and
 * hands CONNECT to a `connect` listener; both are answered here by the same rule (`refuseMethods`), from the
 * raw request line. None of it is logged as an error.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "./logging.ts";

/** The methods the API implements; a route may accept fewer (405 with `Allow` from its declarations). */
export const API_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const STATIC_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);
const PAGE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST"]);

/** Whether `pathname` is answered by the API side (JSON errors): `/v1`, `/enterprise`, `/platforms`, `/healthz`. */
export function isApiPath(pathname: string): boolean {
  return /^\/(v1|enterprise|platforms)(\/|$)/.test(pathname) || pathname === "/healthz";
}

const STATIC_PATH = /^\/(widgets|assets|media)(\/|$)/;

/** The methods a path of this kind accepts (see the module comment). */
function methodsOf(pathname: string): ReadonlySet<string> {
  return isApiPath(pathname) ? API_METHODS : STATIC_PATH.test(pathname) ? STATIC_METHODS : PAGE_METHODS;
}

/** Whether the front door lets `method` on `target` (a request target: only its path counts) through. */
export function methodAccepted(method: string, target: string): boolean {
  return methodsOf(target.split("?", 1)[0]).has(method);
}

type Refusal = { status: number; headers: Record<string, string>; body: string };

/** The answer to `method` on `target` when `methodAccepted` is false (a request target as sent; only its path counts). */
export function methodRefusal(method: string, target: string): Refusal {
  const pathname = target.split("?", 1)[0];
  const shown = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/.test(method) ? method : "this method";
  if (isApiPath(pathname)) {
    return {
      status: 501,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
      body: JSON.stringify({
        error: {
          description: `The method ${shown} is not implemented: the API accepts GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS (see Allow on a 405 for a path's own)`,
          code: "method_not_implemented",
        },
      }),
    };
  }
  const allow = [...methodsOf(pathname)].join(", ");
  return {
    status: 405,
    headers: { allow, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
    body: `Method not allowed: use ${allow}\n`,
  };
}

/** Answer a parsed request whose method `methodAccepted` refuses (the connection closes: a body may follow). */
export function refuseMethod(req: IncomingMessage, res: ServerResponse): void {
  const { status, headers, body } = methodRefusal(req.method ?? "", req.url ?? "/");
  res.writeHead(status, { ...headers, connection: "close", "content-length": String(Buffer.byteLength(body)) });
  res.end(req.method === "HEAD" ? undefined : body);
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
  501: "Not Implemented",
};

/** Write `refusal` as a whole HTTP/1.1 answer on a raw socket and close it. */
function writeRaw(socket: Duplex, refusal: Refusal): void {
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status]}`,
    ...Object.entries(refusal.headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${Buffer.byteLength(refusal.body)}`,
    "connection: close",
  ];
  // Closed once written: Node's parser stopped at this request, so nothing after it can be read.
  socket.end(`${head.join("\r\n")}\r\n\r\n${refusal.body}`, () => socket.destroy());
}

/**
 * Answer, on `server`, the requests Node's parser does not hand to the request listener: CONNECT (the
 * `connect` event) and request lines with a method it does not know (`clientError` HPE_INVALID_METHOD),
 * by `methodRefusal`. Other client errors keep Node's own answers (400; 431 headers too large; 413 chunk
 * extensions too large; 408 timeout). Each refused request is logged as one `request` line (info).
 */
export function refuseMethods(server: Server, logger?: Logger): void {
  const log = (method: string, status: number) => logger?.info({ method, route: null, status }, "request");
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => {});
    const refusal = methodRefusal(req.method ?? "CONNECT", req.url ?? "");
    writeRaw(socket, refusal);
    log(req.method ?? "CONNECT", refusal.status);
  });
  server.on("clientError", (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (!inFlight || !inFlight.headersSent)) {
      if (error.code === "HPE_INVALID_METHOD") {
        const line = /^([^ \r\n]{0,64}) +([^ \r\n]*)/.exec(error.rawPacket?.toString("latin1") ?? "");
        const refusal = methodRefusal(line?.[1] ?? "", line?.[2] ?? "/");
        writeRaw(socket, refusal);
        log(line?.[1] ?? "", refusal.status);
        return;
      }
      const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW" ? 413 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
      socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\n\r\n`);
    }
    socket.destroy(error);
  });
}
