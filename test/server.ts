/**
 * Test harness: a real Chorus HTTP server (the same createHttpServer as production, over the real
 * Remix build) on a random loopback port, with its own temp SQLite file.
 *
 *   const t = await startTestServer();            // empty database, migrated
 *   await seedStore(t.services, { ... });         // data through the real data modules
 *   const res = await fetch(t.url("/v1/stores/..."));
 *   await t.close();                              // stops the server, deletes the files
 */
import type { ServerBuild } from "@remix-run/node";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../server/config.ts";
import { createHttpServer } from "../server/http/app.ts";
import { createServices, type Services } from "../server/services.ts";

export type TestServer = {
  services: Services;
  baseUrl: string;
  dir: string;
  url(path: string): string;
  close(): Promise<void>;
};

let buildPromise: Promise<ServerBuild> | null = null;
/** The production Remix build (build/server/index.js). @throws when `npm run build` has not run. */
export function loadBuild(): Promise<ServerBuild> {
  const file = join(PROJECT_ROOT, "build/server/index.js");
  if (!existsSync(file)) throw new Error("build/server/index.js is missing: run `npm run build` before the tests (npm test does).");
  buildPromise ??= import(pathToFileURL(file).href) as Promise<ServerBuild>;
  return buildPromise;
}

/** Start a server over a fresh temp database. `cache: false` disables the response cache. */
export async function startTestServer(options: { cache?: boolean; databasePath?: string; trustedProxies?: string } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "chorus-test-"));
  const services = createServices({ databasePath: options.databasePath ?? join(dir, "chorus.sqlite"), mediaPath: join(dir, "media") });
  const server = createHttpServer({ services, build: await loadBuild(), root: PROJECT_ROOT, cache: options.cache, trustedProxies: options.trustedProxies });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    services,
    baseUrl,
    dir,
    url: (path) => baseUrl + path,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      services.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
