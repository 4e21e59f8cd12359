/**
 * Test, bench and `npm run cluster` harness: a throwaway PostgreSQL 15 cluster (Debian's `postgresql-15`
 * server binaries) in a temp directory, on a free loopback port, with durability off (`fsync`,
 * `synchronous_commit`, `full_page_writes`) since its data lives only as long as the run.
 *
 *   const pg = await startPostgres();   // initdb --no-locale -E UTF8 -A trust -U chorus, then postgres
 *   openDatabase(pg.url);               // database "chorus" (created empty)
 *   await pg.stop();                    // stops the server, deletes the directory
 *
 * The cluster uses the C collation (`--no-locale`): text sorts byte-wise, as in SQLite. As root (CI,
 * these machines) initdb and postgres run as user `postgres` through `runuser`, since PostgreSQL refuses
 * to run as root. A cluster still running when the process exits is stopped (immediate mode) and removed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PROJECT_ROOT } from "../server/config.ts";

export type Postgres = {
  /** Connection URL of the (empty) application database, e.g. `postgres://chorus@127.0.0.1:54123/chorus`. */
  url: string;
  /** Connection URL of the `postgres` maintenance database (superuser `chorus`): create/drop databases here. */
  adminUrl: string;
  port: number;
  /** The temp directory holding the data directory (`data/`), the socket and the log (`postgres.log`). */
  dir: string;
  /** Stop the server (fast shutdown) and delete its directory. Safe to call twice. */
  stop(): Promise<void>;
};

/** Where the PostgreSQL 15 server binaries are: /usr/lib/postgresql/15/bin, else `pg_config --bindir`. @throws when neither has `initdb`. */
export function findPostgresBin(): string {
  const debian = "/usr/lib/postgresql/15/bin";
  if (existsSync(join(debian, "initdb"))) return debian;
  try {
    const bindir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (existsSync(join(bindir, "initdb"))) return bindir;
  } catch {
    // no pg_config: fall through
  }
  throw new Error("PostgreSQL 15 server binaries not found (apt-get install postgresql-15): no initdb in /usr/lib/postgresql/15/bin nor in `pg_config --bindir`");
}

/** A TCP port free on 127.0.0.1 at the moment (the kernel's choice). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
      .once("error", reject)
      .listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
  });
}

const running = new Set<() => void>();
let exitHookInstalled = false;
/**
 * Stop every cluster still running when the process exits (synchronously: pg_ctl stop -m immediate, rm -r),
 * also on SIGINT/SIGTERM/SIGHUP: when nobody else handles the signal, it is raised again afterwards, so the
 * process ends as it would have.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const kill of running) kill();
    running.clear();
  };
  process.once("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      if (process.listenerCount(signal) > 0) return; // the program stops its clusters itself (stop())
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

/**
 * Run a PostgreSQL binary, as user `postgres` when this process is root. @throws with its output when it fails.
 */
function runPg(bin: string, args: string[], asPostgres: boolean): string {
  const [cmd, argv] = asPostgres ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * Create and start a throwaway cluster: `initdb --no-locale -E UTF8 -A trust -U chorus` into a temp
 * directory, then `pg_ctl start -w` with `-c fsync=off -c synchronous_commit=off -c full_page_writes=off
 * -c max_connections=200`, listening on 127.0.0.1:`port` (default a free one) and a Unix socket in the
 * temp directory only. Creates the empty database `database` (default "chorus") for `url`.
 * `settings` adds or overrides server settings (`-c name=value`).
 * @throws when the binaries are missing, initdb fails, or the server does not start within 60 s (its log in the message).
 */
export async function startPostgres(options: { port?: number; database?: string; settings?: Record<string, string | number> } = {}): Promise<Postgres> {
  const bin = findPostgresBin();
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "chorus-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "postgres.log");
  if (asPostgres) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  let started = false;
  const kill = () => {
    if (started) {
      const argv = ["-D", data, "stop", "-m", "immediate", "-w", "-t", "10"];
      spawnSync(asPostgres ? "runuser" : join(bin, "pg_ctl"), asPostgres ? ["-u", "postgres", "--", join(bin, "pg_ctl"), ...argv] : argv, { stdio: "ignore" });
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(kill);
  installExitHook();
  try {
    runPg(join(bin, "initdb"), ["-D", data, "--no-locale", "-E", "UTF8", "-A", "trust", "-U", "chorus", "--no-sync"], asPostgres);
    const port = options.port ?? (await freeLoopbackPort());
    const settings: Record<string, string | number> = {
      fsync: "off",
      synchronous_commit: "off",
      full_page_writes: "off",
      max_connections: 200,
      listen_addresses: "127.0.0.1",
      port,
      unix_socket_directories: dir,
      ...options.settings,
    };
    const serverOptions = Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(" ");
    started = true;
    try {
      runPg(join(bin, "pg_ctl"), ["-D", data, "-l", log, "-o", serverOptions, "-w", "-t", "60", "start"], asPostgres);
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, "utf8").slice(-4000) : "";
      throw new Error(`${(error as Error).message}\n${tail}`);
    }
    const adminUrl = `postgres://chorus@127.0.0.1:${port}/postgres`;
    const database = options.database ?? "chorus";
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
    return {
      url: `postgres://chorus@127.0.0.1:${port}/${encodeURIComponent(database)}`,
      adminUrl,
      port,
      dir,
      stop() {
        if (!running.has(kill)) return Promise.resolve();
        running.delete(kill);
        if (started) {
          try {
            runPg(join(bin, "pg_ctl"), ["-D", data, "stop", "-m", "fast", "-w", "-t", "30"], asPostgres);
            started = false;
          } catch {
            // fall back to the immediate stop below
          }
        }
        kill();
        return Promise.resolve();
      },
    };
  } catch (error) {
    running.delete(kill);
    kill();
    throw error;
  }
}

/**
 * Create database `name` on the cluster at `adminUrl`, optionally as a copy of `template` (which must have
 * no open connections). @throws on a PostgreSQL error (e.g. the name exists).
 */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ""}`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, name);
}

/** Drop database `name` on the cluster at `adminUrl`, ending its open connections first (`WITH (FORCE)`); no error when absent. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** `adminUrl` with its database name replaced by `name`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/**
 * The files whose content decides the migrated schema: the baseline schema, the numbered migrations
 * (server/db/migrations/), the content-scope trigger generator and the runner. A template database is named after their hash, so editing a migration builds a new one.
 */
function schemaHash(): string {
  const hash = createHash("sha256");
  const files = ["server/db/database.ts", "server/db/content-scopes.ts", "server/db/migrate.ts"];
  for (const sub of ["server/db/schema", "server/db/migrations", "server/db/legacy/postgres"]) {
    const folder = join(PROJECT_ROOT, sub);
    if (existsSync(folder)) for (const f of readdirSync(folder).sort()) if (/\.(sql|ts)$/.test(f) && !f.endsWith(".test.ts")) files.push(join(sub, f));
  }
  for (const file of files) {
    const path = join(PROJECT_ROOT, file);
    hash
      .update(file)
      .update("\0")
      .update(existsSync(path) ? readFileSync(path) : "")
      .update("\0");
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * The name of a template database on the cluster at `adminUrl` holding the current schema, migrated once
 * with `openDatabase(url)` (server/db/database.ts, the PostgreSQL driver) and closed to connections, so
 * `CREATE DATABASE ... TEMPLATE` copies it in milliseconds. Built on first use by whichever process gets there
 * first (a PostgreSQL advisory lock serializes processes; others wait and reuse it). Its name carries a hash of
 * the migrations, so a long-lived cluster gets a fresh template when they change.
 * @throws when the data layer cannot open PostgreSQL URLs yet, or a migration fails (the half-built database is dropped).
 */
export async function ensureTemplate(adminUrl: string): Promise<string> {
  const name = `chorus_template_${schemaHash()}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = async () => (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
    if (await exists()) return name;
    await client.query("SELECT pg_advisory_lock(hashtext('chorus test template'))");
    try {
      if (await exists()) return name;
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(building)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(building)}`);
      try {
        const database = await import("../server/db/database.ts");
        if (!("dialect" in database)) throw new Error("server/db/database.ts cannot open PostgreSQL yet (no dialect(): the driver has not landed)");
        const db = await database.openDatabase(databaseUrl(adminUrl, building));
        await db.close();
        await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [building]);
        await client.query(`ALTER DATABASE ${pg.escapeIdentifier(building)} RENAME TO ${pg.escapeIdentifier(name)}`);
        await client.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      } catch (error) {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(building)} WITH (FORCE)`).catch(() => undefined);
        throw error;
      }
      return name;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('chorus test template'))").catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

/**
 * A fresh migrated database `chorus_t_<random>` on the cluster at `adminUrl` (a copy of `ensureTemplate`'s):
 * its `url`, and `drop()` which ends its connections and drops it.
 */
export async function createTestDatabase(adminUrl: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const template = await ensureTemplate(adminUrl);
  const name = `chorus_t_${randomBytes(6).toString("hex")}`;
  const url = await createDatabase(adminUrl, name, template);
  return { name, url, drop: () => dropDatabase(adminUrl, name) };
}
