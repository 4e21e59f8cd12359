/**
 * The mail the e2e web server sent: its SMTP sink (e2e/smtp-sink.ts, started by playwright.config.ts on
 * E2E_PORT + 1000) writes every received message as JSON into `E2E_MAIL_DIR`; specs wait for one here.
 *
 *   const mail = await waitForMail((m) => m.to.includes("new-member@example.com") && /invit/i.test(m.subject));
 *   const link = /https?:\/\/\S+\/admin\/invite\/\S+/.exec(mail.text)![0];
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { E2E_DB_DIR } from "./e2e-server.ts";

/** Where the sink writes (playwright.config.ts: `${dbDir}/mail`). */
export const E2E_MAIL_DIR = join(E2E_DB_DIR, "mail");

/** A received message. Header names are lower-case; values are the raw (unfolded) header text. */
export type E2eMail = { to: string[]; from: string; subject: string; html: string; text: string; headers: Record<string, string>; receivedMs: number };

/** Every message received so far, oldest first. */
export function receivedMail(): E2eMail[] {
  if (!existsSync(E2E_MAIL_DIR)) return [];
  return readdirSync(E2E_MAIL_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(E2E_MAIL_DIR, f), "utf8")) as E2eMail);
}

/**
 * The first received message (already there or arriving) matching `predicate`.
 * @throws after `timeoutMs` (default 20,000 ms), listing the subjects received.
 */
export async function waitForMail(predicate: (m: E2eMail) => boolean, timeoutMs = 20_000): Promise<E2eMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = receivedMail();
    const found = all.find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No matching mail within ${timeoutMs} ms (received ${all.length}: ${all.map((m) => m.subject).join(" | ")})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
