import type { Services } from "../server/services.ts";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Built once by the HTTP server (server/services.ts) and passed to every loader and action. */
    services: Services;
    /** The TCP peer address of the request (set for non-cached requests; rate limits use it). */
    clientIp?: string;
  }
}
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    services: Services;
    clientIp?: string;
  }
}
