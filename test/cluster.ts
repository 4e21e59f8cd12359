/**
 * A Chorus cluster on one machine (issue #26 item 4): a throwaway PostgreSQL (test/postgres.ts), N Chorus node
 * processes (`node server/http/main.ts`, each with DATABASE_URL and its own PORT), and Varnish in front of
 * them (test/varnish.ts, deploy/varnish/chorus.vcl) on `port`, which every node purges (CACHE_PURGE_URLS).
 * Used by `npm run cluster` (server/cli/cluster.ts), test/cluster.test.ts and the bench's cluster column.
 *
 *   const c = await startCluster({ port: 3000, nodes: 2 });
 *   await fetch(`${c.frontUrl}/v1/stores/...`);   // through Varnish
 *   await c.nodes[0].kill();                      // SIGKILL one node; c.nodes[0].start() brings it back
 *   await c.stop();
 *
 * Nodes start one after the other: the first one migrates the database and, with `demo`, seeds the demo store
 * (server/demo/demo.ts) before the next one starts, so seeding runs once. Needs `npm run build`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";
import { freeLoopbackPort, startPostgres, type Postgres } from "./postgres.ts";
import { startVarnish, type Varnish } from "./varnish.ts";

export type ClusterNode = {
  name: string;
  port: number;
  url: string;
  /** The running process, or null while stopped. */
  process: ChildProcess | null;
  /** Start (or restart) the node; resolves when its /healthz answers 200. @throws when it exits or is not healthy within `timeoutMs` (default 120 s). */
  start(timeoutMs?: number): Promise<void>;
  /** SIGKILL the node (a crash); resolves when it has exited. */
  kill(): Promise<void>;
  /** SIGTERM the node (graceful stop); resolves when it has exited (SIGKILL after 15 s). */
  stop(): Promise<void>;
};

export type Cluster = {
  /** Varnish's address: what shoppers use. */
  frontUrl: string;
  port: number;
  nodes: ClusterNode[];
  postgres: Postgres;
  varnish: Varnish;
  /** Shared media folder of the nodes (MEDIA_PATH). */
  mediaPath: string;
  /** Stop Varnish, the nodes (SIGTERM) and PostgreSQL, and delete their directories. */
  stop(): Promise<void>;
};

/**
 * Start the cluster. `port`: Varnish's (default a free one); `nodes`: how many Chorus nodes (default 2);
 * `demo`: seed the demo store (CHORUS_DEMO, default false); `env`: more environment for every node (e.g.
 * READ_WORKERS, DEMO_API_KEY); `output(node, line)`: the nodes' and Varnish's output lines (default dropped).
 * Node ports are free ports chosen at start. @throws when the build is missing or a part does not start
 * (whatever started is stopped again).
 */
export async function startCluster(
  options: {
    port?: number;
    nodes?: number;
    demo?: boolean;
    env?: Record<string, string>;
    output?: (source: string, line: string) => void;
  } = {},
): Promise<Cluster> {
  if (!existsSync(join(PROJECT_ROOT, "build/server/index.js"))) throw new Error("build/server/index.js is missing: run `npm run build` first.");
  const output = options.output ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), "chorus-cluster-"));
  const mediaPath = join(dir, "media");
  const postgres = await startPostgres();
  const nodes: ClusterNode[] = [];
  let varnish: Varnish | undefined;
  const port = options.port ?? (await freeLoopbackPort());
  try {
    for (let i = 0; i < (options.nodes ?? 2); i++) {
      const nodePort = await freeLoopbackPort();
      nodes.push(
        chorusNode(
          String.fromCharCode(97 + i),
          nodePort,
          {
            ...process.env,
            // DATABASE_PATH only matters if a node ignored DATABASE_URL: a throwaway file, never data/chorus.sqlite.
            DATABASE_URL: postgres.url,
            DATABASE_PATH: join(dir, "unused", "chorus.sqlite"),
            MEDIA_PATH: mediaPath,
            HOST: "127.0.0.1",
            PORT: String(nodePort),
            PUBLIC_URL: `http://localhost:${port}`,
            CACHE_PURGE_URLS: `http://127.0.0.1:${port}/`,
            TRUSTED_PROXIES: "127.0.0.1",
            CHORUS_DEMO: options.demo ? "1" : "0",
            DEMO_IMPORT: "before-listen",
            ...options.env,
          },
          output,
        ),
      );
    }
    // Varnish first, so the nodes' first purges find it (it answers 503 until a node's probe passes).
    varnish = await startVarnish({ port, backends: nodes.map((n) => `127.0.0.1:${n.port}`), output: (line) => output("varnish", line) });
    // One after the other: the first migrates (and seeds the demo store, minutes on PostgreSQL) alone.
    for (const [i, node] of nodes.entries()) await node.start(i === 0 && options.demo ? 45 * 60_000 : 120_000);
    await varnish.healthy(30_000);
  } catch (error) {
    await varnish?.stop();
    await Promise.all(nodes.map((n) => n.stop()));
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const front = varnish;
  return {
    frontUrl: `http://127.0.0.1:${port}`,
    port,
    nodes,
    postgres,
    varnish: front,
    mediaPath,
    async stop() {
      await front.stop();
      await Promise.all(nodes.map((n) => n.stop()));
      await postgres.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Chorus node process description; started by `start()`. */
function chorusNode(name: string, port: number, env: NodeJS.ProcessEnv, output: (source: string, line: string) => void): ClusterNode {
  const url = `http://127.0.0.1:${port}`;
  let exited: Promise<void> = Promise.resolve();
  const node: ClusterNode = {
    name,
    port,
    url,
    process: null,
    async start(timeoutMs = 120_000) {
      if (node.process) return;
      const child = spawn(process.execPath, [join(PROJECT_ROOT, "server/http/main.ts")], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      node.process = child;
      let log = "";
      const collect = (chunk: Buffer) => {
        const text = chunk.toString();
        log = (log + text).slice(-8000);
        for (const line of text.split("\n")) if (line.trim()) output(name, line);
      };
      child.stdout!.on("data", collect);
      child.stderr!.on("data", collect);
      exited = new Promise((resolve) =>
        child.once("exit", () => {
          if (node.process === child) node.process = null;
          resolve();
        }),
      );
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Chorus node ${name} exited (${child.exitCode ?? child.signalCode}) while starting:\n${log}`);
        const status = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
          async (r) => (await r.arrayBuffer(), r.status),
          () => 0,
        );
        if (status === 200) {
          if (/^Database: (?!postgres)/m.test(log)) {
            await node.kill();
            throw new Error(`Chorus node ${name} does not run on PostgreSQL (DATABASE_URL not honoured):\n${log}`);
          }
          return;
        }
        if (Date.now() > deadline) {
          child.kill("SIGKILL");
          throw new Error(`Chorus node ${name} not healthy on ${url} within ${timeoutMs} ms:\n${log}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async kill() {
      node.process?.kill("SIGKILL");
      await exited;
    },
    async stop() {
      const child = node.process;
      if (!child) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return node;
}
