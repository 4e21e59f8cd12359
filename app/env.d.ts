import type { OperationContext } from "../server/api/operation.ts";

/**
 * The load context every loader and action gets (server/http/app.ts builds it): the services, the
 * client address, the public origin of absolute URLs, and the operation table's operations.
 */
declare module "@remix-run/node" {
  interface AppLoadContext extends OperationContext {}
}
declare module "@remix-run/server-runtime" {
  interface AppLoadContext extends OperationContext {}
}
