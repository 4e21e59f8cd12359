import { defineConfig } from "@playwright/test";
import { existsSync } from "node:fs";

/**
 * Browser tests in Debian's Chromium (Playwright's own browser download does not work on these machines): its headless
 * shell (`apt-get install -y chromium-headless-shell`, /usr/bin/chromium-headless-shell; the same Blink as
 * /usr/bin/chromium without the browser's UI, and half the CPU time per test: docs/performance.md "The test loop")
 * when installed, else /usr/bin/chromium; env CHROMIUM_PATH chooses another. `E2E_WORKERS` workers (default 2), each against a production server of its own: worker
 * slot i (TEST_PARALLEL_INDEX) gets port `E2E_PORT` + i (E2E_PORT default 3111) and the database directory
 * `/tmp/chorus-e2e-<port>` (with one worker, `E2E_DB_DIR` if set). The demo store is seeded once per run into a
 * template (e2e/demo-template.ts) and copied to each server's directory before it starts, so every server starts
 * on the complete demo store at once. A spec file runs whole in one worker (tests of a file in order), so specs that
 * change the demo store see the same server for their whole file, as with one worker. Set the worker count with
 * E2E_WORKERS, not `--workers`: the servers are started for E2E_WORKERS slots.
 * Each server's mail goes over SMTP to a sink beside it (e2e/smtp-sink.ts on port + 1000), which writes each message
 * into `${dbDir}/mail/` for e2e/mailbox.ts.
 */
/** Debian's chromium-headless-shell package: the browser the specs use when it is installed. */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const basePort = Number(process.env.E2E_PORT ?? 3111);
const workers = Number(process.env.E2E_WORKERS ?? 2);
const dbDirOf = (port: number) => (workers === 1 && process.env.E2E_DB_DIR ? process.env.E2E_DB_DIR : `/tmp/chorus-e2e-${port}`);
// One template per run (the runner sets E2E_RUN; its workers inherit it), removed by e2e/global-teardown.ts.
process.env.E2E_RUN ??= `${process.pid}`;
const templateDir = `/tmp/chorus-e2e-template-${basePort}-${process.env.E2E_RUN}`;

// In a worker process (TEST_PARALLEL_INDEX is set before this file loads there): its own server's port and directory,
// which e2e/e2e-server.ts, e2e/mailbox.ts and the specs read from the environment.
const slot = process.env.TEST_PARALLEL_INDEX === undefined ? 0 : Number(process.env.TEST_PARALLEL_INDEX);
if (slot >= workers) throw new Error(`Worker slot ${slot} has no server: set E2E_WORKERS (${workers}) instead of --workers`);
const port = basePort + slot;
if (process.env.TEST_PARALLEL_INDEX !== undefined) {
  process.env.E2E_PORT = String(port);
  process.env.E2E_DB_DIR = dbDirOf(port);
}

/** The web server of worker slot `i`: a copy of the run's demo template, its SMTP sink, the production server. */
function server(i: number) {
  const serverPort = basePort + i;
  const dbDir = dbDirOf(serverPort);
  const smtpPort = serverPort + 1000;
  return {
    command: `flock /tmp/chorus-e2e-template-${basePort}.lock node e2e/demo-template.ts ${templateDir} ${dbDir} && mkdir -p ${dbDir}/mail && { node e2e/smtp-sink.ts & node server/http/main.ts; }`,
    url: `http://127.0.0.1:${serverPort}/v1/stores/7d1f4e2a-5b3c-4d6e-8f90-a1b2c3d4e5f6/review_aggregate`,
    // The first server seeds the template (minutes under load); the others wait for it, then copy it.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    env: {
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      DATABASE_PATH: `${dbDir}/chorus.sqlite`,
      MEDIA_PATH: `${dbDir}/media`,
      DEMO_PLATFORM_SECRET: "e2e-platform-secret-0123456789",
      DEMO_API_KEY: "e2e-api-key-0123456789abcdef",
      DEMO_ADMIN_PASSWORD: "e2e-admin-password",
      // The specs need the complete demo store: the server answers once it is imported (the template's copy: at once).
      DEMO_IMPORT: "before-listen",
      // Every spec submits from 127.0.0.1: a per-IP quota of 20 an hour would starve later specs.
      SUBMISSIONS_PER_IP_PER_HOUR: "1000",
      // Specs sign up new stores (e2e/accounts.spec.ts), all from 127.0.0.1.
      SIGNUP: "open",
      SIGNUPS_PER_IP_PER_HOUR: "1000",
      // One line per request would bury the server's own messages in the test output.
      LOG_LEVEL: "warn",
      // Outgoing mail to the SMTP sink (e2e/smtp-sink.ts); specs read it with e2e/mailbox.ts waitForMail.
      SMTP_URL: `smtp://e2e:e2e@127.0.0.1:${smtpPort}`,
      MAIL_FROM: "Chorus E2E <no-reply@chorus.test>",
      SMTP_SINK_PORT: String(smtpPort),
      SMTP_SINK_DIR: `${dbDir}/mail`,
      // Outgoing requests may reach loopback: webhooks to a receiver the spec runs on 127.0.0.1 (e2e/webhooks.spec.ts).
      ALLOW_LOOPBACK_REQUESTS: "1",
      // A store connected to Klaviyo in a spec (e2e/klaviyo.spec.ts) sends to a closed loopback port, never to Klaviyo.
      KLAVIYO_API_URL: "http://127.0.0.1:9",
      E2E_RUN: process.env.E2E_RUN!,
    },
  };
}

export default defineConfig({
  testDir: "e2e",
  // CI shares two cores among both test lanes (load 7-9): a test that takes 20 s alone may take a minute there.
  timeout: process.env.CI ? 120_000 : 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: Array.from({ length: workers }, (_, i) => server(i)),
});
