/**
 * `npm run cluster`: the multi-node topology of docs/deployment.md on one machine, for trying it out — a
 * throwaway PostgreSQL 15 cluster, two Chorus nodes over it (DATABASE_URL), Varnish in front on PORT (default
 * 3000) purged by both nodes. Seeds the demo store once (the first node, before the second starts; CHORUS_DEMO=0
 * turns it off), prints the URLs, and stops everything, deleting the database, on Ctrl-C / SIGTERM.
 *
 * Env: PORT (Varnish's port, default 3000), CLUSTER_NODES (default 2); every other variable (READ_WORKERS,
 * DEMO_API_KEY, SMTP_URL, ...) is passed to the nodes. Needs the build (`npm run cluster` builds first), the
 * PostgreSQL 15 server binaries (postgresql-15) and Varnish with varnish-modules. The nodes' output is shown
 * prefixed with their name.
 */
import { startCluster, type Cluster } from "../../test/cluster.ts";

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const count = Number(process.env.CLUSTER_NODES ?? 2);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  if (!Number.isInteger(count) || count < 1 || count > 8) throw new Error(`CLUSTER_NODES must be 1 to 8, got "${process.env.CLUSTER_NODES}"`);
  const env: Record<string, string> = {};
  let cluster: Cluster | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping Varnish, the nodes and PostgreSQL ...`);
    await cluster?.stop();
    log("Stopped.");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  log(`Starting PostgreSQL, ${count} Chorus nodes (one after the other; the first migrates${process.env.CHORUS_DEMO === "0" ? "" : " and seeds the demo store"}) and Varnish on port ${port} ...`);
  cluster = await startCluster({
    port,
    nodes: count,
    demo: process.env.CHORUS_DEMO !== "0",
    env,
    // Everything but the per-request log lines (Varnish's health probes alone are two a second).
    output: (source, line) => {
      if (!line.includes('"msg":"request"')) log(`[${source}] ${line}`);
    },
  });
  if (stopping) return;
  log("");
  log("Chorus cluster running:");
  log(`  front (Varnish)  http://localhost:${cluster.port}   (admin: http://localhost:${cluster.port}/admin)`);
  for (const node of cluster.nodes) log(`  node ${node.name}           ${node.url}`);
  log(`  PostgreSQL       ${cluster.postgres.url}`);
  log(`  media            ${cluster.mediaPath}`);
  log("Ctrl-C stops everything and deletes the database.");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
