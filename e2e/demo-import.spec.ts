/**
 * The demo pages while the demo data is imported (issue 39 item 1), in Chromium: a server of this spec's own on a
 * fresh database (the shared e2e server is complete before the specs run), started as `npm start` starts it. `/demo`
 * answers at once with the note "Demo data importing, N of 23,486 reviews" in a live region (role status), which
 * passes axe and counts up by itself as the import goes on.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-demo-import-"));
let child: ChildProcess | null = null;
let base = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mkdirSync(join(dir, "empty"));
  const { DEMO_IMPORT: _i, DATABASE_URL: _d, ...parent } = process.env;
  child = spawn(process.execPath, ["server/http/main.ts"], {
    env: {
      ...parent,
      PORT: "0",
      HOST: "127.0.0.1",
      CHORUS_DEMO: "1",
      DEMO_DATA_DIR: join(dir, "empty"),
      DATABASE_PATH: join(dir, "chorus.sqlite"),
      MEDIA_PATH: join(dir, "media"),
      READ_WORKERS: "0",
      CHORUS_AI_WORKER: "0",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  await expect.poll(() => /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1] ?? (child?.exitCode !== null ? "exited" : ""), { timeout: 150_000 }).toMatch(/^\d+$/);
  base = `http://127.0.0.1:${/listening on http:\/\/localhost:(\d+)/.exec(out)![1]}`;
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test("the demo index says how far the import is, in a live region that counts up, and passes axe", async ({ page }) => {
  test.setTimeout(240_000);
  // The reviews total is known once the file is counted (about a second after the banner).
  await expect.poll(async () => (await (await page.request.get(`${base}/healthz`)).json()).demo.total, { timeout: 60_000 }).toBe(23_486);
  await page.goto(`${base}/demo`);
  const note = page.getByRole("status");
  await expect(note).toHaveText(/^Demo data importing, [\d,]+ of 23,486 reviews\. The shop fills in as it goes: reload the page to see more\.$/);
  await expectNoAxeViolations(page);
  const count = async () => Number(/importing, ([\d,]+) of/.exec((await note.textContent()) ?? "")?.[1]?.replaceAll(",", "") ?? "-1");
  const first = await count();
  // Without a reload: the note follows /healthz (a new batch of 2,000 rows every few seconds, longer on a loaded machine).
  await expect.poll(count, { timeout: 180_000, intervals: [1000] }).toBeGreaterThan(first);
  await expectNoAxeViolations(page);
});
