import type { Services } from "../server/services.ts";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Built once by the HTTP server (server/services.ts) and passed to every loader and action. */
    services: Services;
  }
}
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    services: Services;
  }
}
