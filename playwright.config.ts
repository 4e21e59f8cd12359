import { defineConfig } from "@playwright/test";

/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; Playwright's own browser download does not
 * work on these machines). The web server is the production server over a fresh temp database that
 * the demo seeders fill from the real shared data. Its mail goes over SMTP to a sink beside it
 * (e2e/smtp-sink.ts on port + 1000), which writes each message into `${dbDir}/mail/` for e2e/mailbox.ts.
 */
const port = Number(process.env.E2E_PORT ?? 3111);
const dbDir = process.env.E2E_DB_DIR ?? `/tmp/chorus-e2e-${port}`;
const smtpPort = port + 1000;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: `rm -rf ${dbDir} && mkdir -p ${dbDir} && { node e2e/smtp-sink.ts & node server/http/main.ts; }`,
    url: `http://127.0.0.1:${port}/v1/stores/7d1f4e2a-5b3c-4d6e-8f90-a1b2c3d4e5f6/review_aggregate`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: `${dbDir}/chorus.sqlite`,
      MEDIA_PATH: `${dbDir}/media`,
      DEMO_PLATFORM_SECRET: "e2e-platform-secret-0123456789",
      DEMO_API_KEY: "e2e-api-key-0123456789abcdef",
      DEMO_ADMIN_PASSWORD: "e2e-admin-password",
      // The specs need the complete demo store: the server answers once it is imported.
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
    },
  },
});
