/**
 * Test and bench harness: a real Varnish (`varnishd`, Debian's varnish + varnish-modules) in front of
 * Chorus, running deploy/varnish/chorus.vcl with its generated chorus-backends.vcl (deploy/varnish/backends.ts)
 * in a temp working directory.
 *
 *   const v = await startVarnish({ port, backends: ["127.0.0.1:3601"], purgeSecret });
 *   await fetch(`${v.url}/v1/...`);   // X-Cache: MISS / HIT / PASS
 *   v.admin("backend.list");         // varnishadm
 *   await v.stop();
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";
import { renderBackendsVcl, type BackendsOptions } from "../deploy/varnish/backends.ts";

/** The varnishd binary, or null when Varnish is not installed. */
export function findVarnishd(): string | null {
  for (const path of ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd", "/usr/bin/varnishd"]) if (existsSync(path)) return path;
  return null;
}

export type Varnish = {
  url: string;
  port: number;
  dir: string;
  /** Resolves once a backend is healthy (its probe passed): `/healthz` through the front answers 200. @throws after `timeoutMs` (default 15 s). */
  healthy(timeoutMs?: number): Promise<void>;
  /** A varnishadm command, e.g. `backend.list`; its output. */
  admin(command: string): string;
  stop(): Promise<void>;
};

/**
 * Start varnishd in the foreground on 127.0.0.1:`port` with the repository's VCL and `options` as its
 * generated part; resolves once it answers. `output` receives its stderr/stdout lines (default dropped);
 * `patientProbe` gives each backend a probe that waits up to 60 s (for nodes inside the test process) and keeps
 * idle client connections 120 s (for a client inside the test process).
 * @throws when varnishd is missing or does not answer within 20 s.
 */
export async function startVarnish(options: BackendsOptions & { port: number; memoryMb?: number; output?: (line: string) => void; patientProbe?: boolean }): Promise<Varnish> {
  const varnishd = findVarnishd();
  if (!varnishd) throw new Error("varnishd is not installed (apt-get install varnish varnish-modules)");
  const dir = mkdtempSync(join(tmpdir(), "chorus-varnish-"));
  // varnishd compiles and runs the VCL as an unprivileged user: it must be able to read the directory.
  chmodSync(dir, 0o755);
  // `patientProbe`: a node in the test process itself blocks its event loop while a test seeds data through the
  // data modules; its probe then waits up to 60 s for /healthz instead of marking it sick after 1 s.
  const patient = '.probe = { .url = "/healthz"; .expected_response = 200; .interval = 1s; .timeout = 60s; .window = 1; .threshold = 1; .initial = 1; }';
  const backendsVcl = renderBackendsVcl(options);
  writeFileSync(join(dir, "chorus-backends.vcl"), options.patientProbe ? backendsVcl.replaceAll(".probe = chorus_healthz;", patient) : backendsVcl);
  const args = [
    "-F",
    "-n",
    join(dir, "work"),
    "-a",
    `127.0.0.1:${options.port}`,
    "-T",
    "127.0.0.1:0",
    "-p",
    `vcl_path=${dir}:${join(PROJECT_ROOT, "deploy/varnish")}`,
    "-f",
    join(PROJECT_ROOT, "deploy/varnish/chorus.vcl"),
    "-s",
    `malloc,${options.memoryMb ?? 64}m`,
    ...(options.patientProbe ? ["-p", "vcc_err_unref=off"] : []), // chorus_healthz is then unused
    // The test process, the front's client, blocks its event loop for seconds while it seeds: its idle keep-alive
    // connections must outlive that (Varnish's default, 5 s, closed them under its next request: "other side closed").
    ...(options.patientProbe ? ["-p", "timeout_idle=120"] : []),
  ];
  const child: ChildProcess = spawn(varnishd, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const collect = (chunk: Buffer) => {
    log += chunk.toString();
    for (const line of chunk.toString().split("\n")) if (line.trim()) options.output?.(line);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`varnishd exited with ${child.exitCode}:\n${log}`);
    }
    try {
      await (await fetch(`${url}/varnish-ready`, { method: "HEAD", signal: AbortSignal.timeout(1000) })).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`varnishd did not answer within 20 s:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    port: options.port,
    dir,
    async healthy(timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const status = await fetch(`${url}/healthz`).then(
          async (r) => (await r.arrayBuffer(), r.status),
          () => 0,
        );
        if (status === 200) return;
        if (Date.now() > until)
          throw new Error(`No healthy backend behind Varnish after ${timeoutMs} ms:\n${execFileSync("varnishadm", ["-n", join(dir, "work"), "backend.list"], { encoding: "utf8" })}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    admin: (command) => execFileSync("varnishadm", ["-n", join(dir, "work"), ...command.split(" ")], { encoding: "utf8" }),
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
