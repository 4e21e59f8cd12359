/**
 * Test harness: a real Chorus HTTP server (the same createHttpServer as production, over the real
 * Remix build) on a random loopback port, with its own temp SQLite file.
 *
 *   const t = await startTestServer();            // empty database, migrated (a copy of the run's template: test/sqlite-template.ts)
 *   await seedStore(t.services, { ... });         // data through the real data modules
 *   const res = await fetch(t.url("/v1/stores/..."));
 *   await t.close();                              // stops the server, deletes the files
 *
 * With env CHORUS_TEST_POSTGRES_URL (an admin URL of a throwaway cluster, test/postgres.ts; set by
 * `npm run test:postgres`), each server runs on its own PostgreSQL database instead, copied from a migrated
 * template and dropped on close. With env CHORUS_TEST_FRONT=varnish, each server is behind a real Varnish
 * (test/varnish.ts, deploy/varnish/chorus.vcl) and `url()` is the front's; CHORUS_TEST_NODES=2 puts a second
 * node (services of its own over the same database) beside it, so requests alternate between the two.
 *
 * Behind the front, tests still write in-process (`t.services...`) and then read through Varnish. A real client
 * sees such a change once the purge window has passed (each node's purger polls the content-scope log every
 * 200 ms, server/http/cache-purge.ts); the harness makes every GET/HEAD sent with `fetch` to the front wait
 * for exactly that first: `t.settled()` (each node's response cache has seen every commit so far, and each
 * node's purger has sent their tags and Varnish answered; nothing to wait for when this process has committed
 * nothing since the last). Code that reads with `node:http` calls `await t.settled()` itself. Limits configured on `t.services` (`submissionLimiter`, `surveyLimiter`,
 * `voteLimits`: `configure`, `reset`) apply to every node, as the same configuration would on real nodes.
 */
import type { ServerBuild } from "@remix-run/node";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { AiConfig } from "../server/ai/config.ts";
import { PROJECT_ROOT } from "../server/config.ts";
import { contentScopeLog } from "../server/db/content-scopes.ts";
import { dialect } from "../server/db/database.ts";
import { cachePurgerOf, createHttpServer } from "../server/http/app.ts";
import type { Logger } from "../server/http/logging.ts";
import { startReadWorkers, type ReadWorkers } from "../server/http/read-workers.ts";
import { createServices, type Services } from "../server/services.ts";
import { createTestDatabase, freeLoopbackPort } from "./postgres.ts";
import { copySqliteTemplate } from "./sqlite-template.ts";
import { startVarnish } from "./varnish.ts";

export type TestServer = {
  services: Services;
  /** The read worker threads, when started with `readWorkers`. */
  readWorkers?: ReadWorkers;
  baseUrl: string;
  dir: string;
  /** The database's location: the SQLite file's path, or the PostgreSQL URL (for another process over the same database). */
  databasePath: string;
  /** "varnish" when behind the front (env CHORUS_TEST_FRONT=varnish), else null (the node itself). */
  front: "varnish" | null;
  /**
   * Resolves once what is committed so far reaches every read: each node's response cache has seen it and,
   * behind the front, each node's purger has purged its tags from Varnish (see the module comment). Direct:
   * nothing to wait for.
   */
  settled(): Promise<void>;
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

/**
 * Start a server over a fresh temp database. `cache: false` disables the response cache; `readWorkers: n`
 * starts n read worker threads (server/http/read-workers.ts; `readWorkerEntry` replaces their entry,
 * `readWorkerTimeoutMs` their job timeout) and
 * waits until they are ready. `publicUrl` is PUBLIC_URL, `logger` receives the request logs (server/http/logging.ts).
 * `mail` configures outgoing mail (server/mail): `smtpUrl` (SMTP_URL, e.g. test/smtp.ts `startTestSmtp().url`;
 * absent: mail is kept, not sent), `from` (MAIL_FROM), `now` the outbox clock (epoch ms), and `sender`: "loop"
 * (default: the send job runs as in production, right after each enqueue) or "manual" (tests call
 * `services.mailSender.runOnce()` themselves, e.g. after moving `now`).
 * `cachePurgeUrls` is CACHE_PURGE_URLS (an HTTP cache in front, server/http/cache-purge.ts); `port` a fixed
 * port (default a free one).
 * `allowLoopbackRequests` is ALLOW_LOOPBACK_REQUESTS (outgoing requests may reach loopback receivers, import photo
 * servers, platform stand-ins; server/shared/outgoing-request.ts). `webhooks` configures outgoing webhooks
 * (server/webhooks): `allowInsecure` (ALLOW_INSECURE_WEBHOOKS, the older name of the same switch), `now` the
 * queue's clock, `delivery`: "manual" (default: tests call `services.webhookDelivery.runDue(nowMs)`) or "loop".
 * `ai` overrides the AI settings of the environment (server/ai/config.ts), e.g. `minReviews` or `llm`.
 * `loyalty.now` is the clock of the loyalty lifecycle (birthday changes; server/loyalty/lifecycle.ts).
 * `rewards` sets the loyalty rewards' clock and Shopify call timeout (server/loyalty/platform-rewards.ts).
 */
export async function startTestServer(
  options: {
    cache?: boolean;
    databasePath?: string;
    trustedProxies?: string;
    readWorkers?: number;
    readWorkerEntry?: URL;
    readWorkerTimeoutMs?: number;
    publicUrl?: string;
    logger?: Logger;
    cachePurgeUrls?: string[];
    port?: number;
    allowLoopbackRequests?: boolean;
    mail?: { smtpUrl?: string; from?: string; now?: () => number; sender?: "loop" | "manual" };
    webhooks?: { allowInsecure?: boolean; now?: () => number; delivery?: "loop" | "manual" };
    ai?: Partial<AiConfig>;
    loyalty?: { now?: () => number };
    rewards?: { now?: () => number; shopifyTimeoutMs?: number; demoStoreId?: string };
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "chorus-test-"));
  // On PostgreSQL (env CHORUS_TEST_POSTGRES_URL, an admin URL: `npm run test:postgres`), a fresh copy of the
  // migrated template database per server, dropped on close; an explicit `databasePath` still wins.
  const postgresUrl = process.env.CHORUS_TEST_POSTGRES_URL;
  const postgres = postgresUrl && !options.databasePath ? await createTestDatabase(postgresUrl) : undefined;
  const databasePath = options.databasePath ?? postgres?.url ?? join(dir, "chorus.sqlite");
  // On SQLite, a copy of the run's migrated template (test/sqlite-template.ts) when there is one: no migrations to run.
  if (!options.databasePath && !postgres) copySqliteTemplate(databasePath);
  const services = await createServices({
    databasePath,
    mediaPath: join(dir, "media"),
    mail: options.mail,
    webhooks: options.webhooks,
    ai: options.ai,
    allowLoopbackRequests: options.allowLoopbackRequests,
    loyalty: options.loyalty,
    rewards: options.rewards,
  });
  if (options.webhooks?.delivery === "loop") services.webhookDelivery.start();
  if (options.mail?.sender !== "manual") services.mailSender.start();
  const readWorkers = options.readWorkers
    ? startReadWorkers({
        threads: options.readWorkers,
        databasePath,
        mediaPath: join(dir, "media"),
        buildUrl: pathToFileURL(join(PROJECT_ROOT, "build/server/index.js")),
        entry: options.readWorkerEntry,
        jobTimeoutMs: options.readWorkerTimeoutMs,
        restartDelayMs: 50,
      })
    : undefined;
  while (readWorkers && readWorkers.ready < options.readWorkers!) await new Promise((r) => setTimeout(r, 20));
  // Behind Varnish (env CHORUS_TEST_FRONT=varnish; with CHORUS_TEST_NODES=2 a second node, its own services over the
  // same database, joins the first behind it): baseUrl and url() are the front's, and every node purges it.
  const behindVarnish = process.env.CHORUS_TEST_FRONT === "varnish" && options.port === undefined;
  const nodePorts = behindVarnish ? await Promise.all(Array.from({ length: Number(process.env.CHORUS_TEST_NODES ?? 1) }, () => freeLoopbackPort())) : [options.port ?? 0];
  const varnish = behindVarnish ? await startVarnish({ port: await freeLoopbackPort(), backends: nodePorts.map((p) => `127.0.0.1:${p}`), patientProbe: true }) : undefined;
  const cachePurgeUrls = varnish ? [...(options.cachePurgeUrls ?? []), `${varnish.url}/`] : options.cachePurgeUrls;
  const build = await loadBuild();
  const others = await Promise.all(nodePorts.slice(1).map(() => createServices({ databasePath, mediaPath: join(dir, "media"), allowLoopbackRequests: services.allowLoopbackRequests })));
  const servers = [services, ...others].map((nodeServices, i) =>
    createHttpServer({
      services: nodeServices,
      build,
      root: PROJECT_ROOT,
      cache: options.cache,
      trustedProxies: options.trustedProxies,
      readWorkers: i === 0 ? readWorkers : undefined,
      publicUrl: options.publicUrl,
      logger: options.logger,
      cachePurgeUrls,
    }),
  );
  const server = servers[0]!;
  await Promise.all(servers.map((s, i) => new Promise<void>((resolve) => s.listen(nodePorts[i], "127.0.0.1", resolve))));
  await varnish?.healthy();
  const baseUrl = varnish?.url ?? `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const nodes = [services, ...others];
  const log = dialect(services.db) === "sqlite" ? contentScopeLog(services.db) : null;
  // Commits made in this process through any node (the test's own writes, the requests each node served, their jobs).
  // A read with no commit since the last completed settle has nothing to wait for.
  const commitsOf = () => nodes.reduce((sum, node) => sum + node.db.commits, 0);
  let settledAt = -1;
  const settled = async () => {
    if (!varnish) return;
    const commits = commitsOf();
    if (commits === settledAt) return;
    if (log) {
      // SQLite: each node's watcher reads the content-scope log after a commit: wait until its stamp has caught up.
      const latest = await log.seq();
      for (const node of nodes) {
        for (const deadline = Date.now() + 2_000; (await node.contentScopes.current()).seq < latest;) {
          if (Date.now() > deadline) throw new Error(`A node's response cache has not seen commit ${latest} after 2 s`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
    } else {
      // PostgreSQL: a watcher waits until it has heard every commit before its `current()` only after a commit of
      // its own node (server/db/content-scopes.ts). The tests write through the first node; the others are told
      // one happened (their commit counter), so their `current()` makes the same round trip.
      for (const node of others) (node.db as { commits: number }).commits++;
      for (const node of nodes) await node.contentScopes.current();
    }
    await Promise.all(servers.map((s) => cachePurgerOf(s)?.flush() ?? Promise.resolve()));
    // On PostgreSQL the loop above counted one commit on each other node (not a real one).
    settledAt = commits + (log ? 0 : others.length);
  };
  if (varnish) {
    mirrorLimits(services, others);
    settleReadsOf(baseUrl, settled);
  }
  return {
    services,
    readWorkers,
    baseUrl,
    dir,
    databasePath,
    front: varnish ? "varnish" : null,
    settled,
    url: (path) => baseUrl + path,
    async close() {
      frontsToSettle.delete(baseUrl);
      // The purgers first: a commit while closing would otherwise be sent to a Varnish already gone (a logged failure).
      await Promise.all(servers.map((s) => cachePurgerOf(s)?.stop() ?? Promise.resolve()));
      await varnish?.stop();
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      for (const other of others) await other.close();
      await readWorkers?.stop();
      await services.mailSender.stop();
      await services.webhookDelivery.stop();
      await services.close();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Front origins whose reads wait for `settled()` first (startTestServer behind Varnish). */
const frontsToSettle = new Map<string, () => Promise<void>>();
let fetchWrapped = false;

/**
 * From now on, every GET/HEAD that `fetch` sends to `origin` first awaits `settled` (see the module comment).
 * Installs the wrapper around `globalThis.fetch` once per test worker; other requests (writes, the purgers'
 * PURGE, other hosts) pass unchanged.
 */
function settleReadsOf(origin: string, settled: () => Promise<void>): void {
  frontsToSettle.set(origin, settled);
  if (fetchWrapped) return;
  fetchWrapped = true;
  const plainFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method === "GET" || method === "HEAD") {
      const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const settle = URL.canParse(href) ? frontsToSettle.get(new URL(href).origin) : undefined;
      if (settle) await settle();
    }
    return plainFetch(input, init);
  };
}

/** The limits tests configure on the first node's services: their `configure` and `reset` apply to every other node too. */
function mirrorLimits(first: Services, others: Services[]): void {
  if (others.length === 0) return;
  for (const name of ["submissionLimiter", "surveyLimiter", "voteLimits"] as const) {
    const limits = first[name] as unknown as Record<string, unknown>;
    for (const method of ["configure", "reset"]) {
      const own = limits[method];
      if (typeof own !== "function") continue;
      // Synchronous methods stay synchronous; one that returns a promise settles once every node has done it.
      limits[method] = (...args: unknown[]) => {
        const mine: unknown = own.apply(limits, args);
        const theirs = others.map((other) => (other[name] as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args));
        return mine instanceof Promise || theirs.some((t) => t instanceof Promise) ? Promise.all([mine, ...theirs]).then(() => undefined) : mine;
      };
    }
  }
}
