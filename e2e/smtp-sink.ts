/**
 * The e2e web server's mail server (playwright.config.ts starts it beside Chorus): a real SMTP server
 * (test/smtp.ts) on 127.0.0.1:`SMTP_SINK_PORT` that accepts every message and writes each one as JSON
 * (`E2eMail`, e2e/mailbox.ts) into `SMTP_SINK_DIR`, where specs read it with `waitForMail`.
 * Exits when its parent shell goes away (Playwright stopping the web server).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestSmtp } from "../test/smtp.ts";

const port = Number(process.env.SMTP_SINK_PORT);
const dir = process.env.SMTP_SINK_DIR;
if (!Number.isInteger(port) || port <= 0 || !dir) {
  console.error("smtp-sink: set SMTP_SINK_PORT and SMTP_SINK_DIR");
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
let n = 0;
const smtp = await startTestSmtp({
  port,
  onMessage(m) {
    const name = `${Date.now()}-${String(++n).padStart(5, "0")}`;
    const file = join(dir, `${name}.json`);
    // Written whole, then renamed: a reader never sees half a message.
    writeFileSync(`${file}.tmp`, JSON.stringify({ ...m, headers: Object.fromEntries(m.headers), receivedMs: Date.now() }));
    renameSync(`${file}.tmp`, file);
  },
});
console.log(`smtp-sink: listening on ${smtp.url}, writing to ${dir}`);
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void smtp.close().then(() => process.exit(0));
}, 1000).unref();
process.on("SIGTERM", () => void smtp.close().then(() => process.exit(0)));
process.on("SIGINT", () => void smtp.close().then(() => process.exit(0)));
// Keep running while the server is open (the interval above is unref'd).
setInterval(() => {}, 1 << 30);
