/**
 * `npm start` on a machine without the shared data (issue 21 item 5): `node server/http/main.ts` with an empty
 * DEMO_DATA_DIR imports the shipped CC0 reviews (23,486 published), and the last lines it prints are the
 * URLs and, on the first start only, the admin e-mail and password, which sign in. A second start on the
 * same database prints no credentials. Each credential line is followed by the command that makes a new one
 * (`npm run users -- password`, `npm run keys -- create`), and those commands, run as printed, work.
 */
import { execSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../server/config.ts";
import { DEMO_STORE_ID } from "../server/demo/demo.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-first-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Start main.ts, wait for the banner's end (its last line is printed last), stop it with SIGTERM; resolves its stdout lines. */
async function startOnce(): Promise<{ lines: string[]; base: string; stop: () => Promise<void> }> {
  const { DEMO_ADMIN_PASSWORD: _p, DEMO_API_KEY: _k, PUBLIC_URL: _u, CHORUS_LLM_BASE_URL: _l, ...parent } = process.env;
  mkdirSync(join(dir, "empty"), { recursive: true });
  const child = spawn(process.execPath, ["server/http/main.ts"], {
    cwd: PROJECT_ROOT,
    env: {
      ...parent, PORT: "0", HOST: "127.0.0.1", CHORUS_DEMO: "1", DEMO_DATA_DIR: join(dir, "empty"),
      DATABASE_PATH: join(dir, "chorus.sqlite"), MEDIA_PATH: join(dir, "media"), READ_WORKERS: "0", CHORUS_AI_WORKER: "0", LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  // The first start imports 23,486 reviews: ~20 s alone, minutes on a machine shared with other test runs.
  const deadline = Date.now() + 420_000;
  // The banner ends with the API reference / enterprise lines, or with the notices after a blank line.
  while (!/Enterprise API: .*\n(\n(.+\n)+)?$/.test(out) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 300)); // anything printed right after the banner would show now
  const port = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1];
  if (!port) throw new Error(`server did not start:\n${out}`);
  return {
    lines: out.trimEnd().split("\n"), base: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    },
  };
}

/** Run a command the banner printed (`npm run ...`) against the test's database; resolves its stdout. */
function run(command: string): string {
  const { DATABASE_URL: _d, ...parent } = process.env;
  const env = { ...parent, DATABASE_PATH: join(dir, "chorus.sqlite"), MEDIA_PATH: join(dir, "media") };
  return execSync(command, { cwd: PROJECT_ROOT, env, encoding: "utf8" });
}

/** Whether `demo@chorus.test` signs in to the admin with `password` (the login form with its CSRF token). */
async function signsIn(base: string, password: string): Promise<boolean> {
  const login = await fetch(`${base}/admin/login`);
  const csrfCookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? "";
  const signIn = await fetch(`${base}/admin/login`, {
    method: "POST", redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrf, email: "demo@chorus.test", password }),
  });
  return signIn.status === 302 && signIn.headers.getSetCookie().some((c) => c.startsWith("chorus_admin="));
}

/** The status of the demo store's enterprise survey list with `key` as the Basic password. */
async function enterpriseStatus(base: string, key: string): Promise<number> {
  const res = await fetch(`${base}/enterprise/surveys`, { headers: { authorization: `Basic ${Buffer.from(`${DEMO_STORE_ID}:${key}`).toString("base64")}` } });
  await res.arrayBuffer();
  return res.status;
}

describe("first start without the shared data", () => {
  it("shows the 23,486 shipped reviews; ends its output with the URLs and the shown-once admin password, which works", async () => {
    const first = await startOnce();
    try {
      const aggregate = await (await fetch(`${first.base}/v1/stores/${DEMO_STORE_ID}/review_aggregate`)).json();
      expect(aggregate.reviewAggregate.reviewCount).toBe(23_486);

      const start = first.lines.findIndex((l) => l.startsWith("Chorus is listening on "));
      const tail = first.lines.slice(start);
      expect(tail.join("\n")).toMatch(/Storefront demo: +http:\/\/localhost:\d+\/demo\n/);
      expect(tail.join("\n")).toMatch(/Loyalty demo: +http:\/\/localhost:\d+\/demo\/loyalty\n/);
      expect(tail.join("\n")).toMatch(/Admin: +http:\/\/localhost:\d+\/admin\n/);
      // No Q&A file: no Q&A line (nothing to link); the notices come last.
      expect(tail.join("\n")).not.toContain("Q&A demo product");
      const passwordLine = tail.find((l) => l.startsWith("Admin sign-in: demo@chorus.test with password "))!;
      expect(passwordLine).toBeDefined();
      expect(tail.slice(-4).join("\n")).toContain(passwordLine);
      expect(tail.at(-1)).toMatch(/^ {2}A new (password|key) at any time: /);
      // Printed exactly once in the whole output.
      expect(first.lines.filter((l) => l.includes("with password")).length).toBe(1);

      const password = /with password (\S+)/.exec(passwordLine)![1];
      expect(await signsIn(first.base, password)).toBe(true);
      const keyLine = tail.find((l) => l.startsWith("Enterprise API key of the demo store"))!;
      expect(await enterpriseStatus(first.base, /: (\S+)$/.exec(keyLine)![1])).toBe(200);
      // Each shown-once credential is followed by the command that makes a new one.
      expect(tail[tail.indexOf(passwordLine) + 1]).toBe("  A new password at any time: npm run users -- password --email demo@chorus.test");
      expect(tail[tail.indexOf(keyLine) + 1]).toMatch(/^ {2}A new key at any time: npm run keys -- create --store \S+ /);
    } finally {
      await first.stop();
    }
    // The printed commands, run as printed against the same database, make a new password and a new key.
    const passwordCommand = /: (npm run users -- .+)$/.exec(first.lines.find((l) => l.includes("A new password at any time"))!)![1];
    const newPassword = /Password \(shown once, store it safely\): (\S+)/.exec(run(passwordCommand))![1];
    const keyCommand = /: (npm run keys -- create --store \S+)/.exec(first.lines.find((l) => l.includes("A new key at any time"))!)![1];
    const newKey = /password \(API key\): +(\S+)/.exec(run(keyCommand))![1];

    const second = await startOnce();
    try {
      const text = second.lines.join("\n");
      expect(text).not.toContain("with password");
      expect(text).not.toContain("Enterprise API key of the demo store (shown once");
      expect(second.lines.at(-1)).toMatch(/^ {2}Enterprise API: /);
      expect(await signsIn(second.base, newPassword)).toBe(true);
      expect(await enterpriseStatus(second.base, newKey)).toBe(200);
    } finally {
      await second.stop();
    }
  }, 900_000);
});
