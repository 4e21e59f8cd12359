/**
 * `npm start` on a machine without the shared data (issue 21 item 5): `node server/http/main.ts` with an empty
 * DEMO_DATA_DIR imports the shipped CC0 reviews (23,486 published), and the last lines it prints are the
 * URLs and, on the first start only, the admin e-mail and password, which sign in. A second start on the
 * same database prints no credentials.
 */
import { spawn } from "node:child_process";
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
  const deadline = Date.now() + 150_000;
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
      expect(tail.slice(-2).join("\n")).toContain(passwordLine);
      expect(tail.at(-1)).toMatch(/^(Admin sign-in|Enterprise API key of the demo store)/);
      // Printed exactly once in the whole output.
      expect(first.lines.filter((l) => l.includes("with password")).length).toBe(1);

      const password = /with password (\S+)/.exec(passwordLine)![1];
      const login = await fetch(`${first.base}/admin/login`);
      const csrfCookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? "";
      const signIn = await fetch(`${first.base}/admin/login`, {
        method: "POST", redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
        body: new URLSearchParams({ csrf, email: "demo@chorus.test", password }),
      });
      expect(signIn.status).toBe(302);
      expect(signIn.headers.getSetCookie().some((c) => c.startsWith("chorus_admin="))).toBe(true);
    } finally {
      await first.stop();
    }

    const second = await startOnce();
    try {
      const text = second.lines.join("\n");
      expect(text).not.toContain("with password");
      expect(text).not.toContain("Enterprise API key of the demo store (shown once");
      expect(second.lines.at(-1)).toMatch(/^ {2}Enterprise API: /);
    } finally {
      await second.stop();
    }
  }, 300_000);
});
