/**
 * Test harness: a real SMTP server (smtp-server) on a random loopback port that accepts any login and
 * parses every message it receives with mailparser.
 *
 *   const smtp = await startTestSmtp();
 *   const t = await startTestServer({ mail: { smtpUrl: smtp.url } });
 *   ...                                                   // something enqueues mail
 *   const m = await smtp.waitFor((m) => m.to.includes("shopper@example.com"));
 *   await smtp.close();
 *
 * `refuse` makes the server answer SMTP errors for tests of retries: return a reply (e.g.
 * `{ code: 451, message: "try later" }`) to refuse a message at RCPT TO, or null to accept it.
 */
import { simpleParser, type AddressObject } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A message as received and parsed. Header names in `headers` are lower-case; values are the raw (unfolded, still encoded) header text. */
export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  html: string;
  text: string;
  headers: Map<string, string>;
};

export type TestSmtp = {
  /** `smtp://user:pass@127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  port: number;
  /** Every message received so far, in order. */
  messages: ReceivedMail[];
  /** SMTP transactions refused so far (by `refuse`). */
  refused: number;
  /** The first received message (past or future) matching `pred`. @throws after `timeoutMs` (default 5,000). */
  waitFor(pred: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Decide per recipient whether to refuse (see the module comment); replaceable while running. */
  refuse: ((recipient: string) => { code: number; message: string } | null) | null;
  close(): Promise<void>;
};

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? "")).filter(Boolean);

/**
 * Start the server: on a random loopback port, or `port` (the e2e sink, e2e/smtp-sink.ts). `onMessage` sees each
 * message once parsed. @returns its URL, the received messages and `waitFor`.
 */
export async function startTestSmtp(options: { port?: number; onMessage?: (m: ReceivedMail) => void } = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<{ pred: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }>();
  const state: TestSmtp = {
    url: "",
    port: 0,
    messages,
    refused: 0,
    refuse: null,
    waitFor(pred, timeoutMs = 5_000) {
      const found = messages.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          pred,
          resolve: (m: ReceivedMail) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No matching mail within ${timeoutMs} ms (received ${messages.length}: ${messages.map((m) => m.subject).join(" | ")})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: async () => {},
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    disableReverseLookup: true, // a reverse DNS lookup per connection costs ~110 ms here
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onRcptTo(address, _session, callback) {
      const refusal = state.refuse?.(address.address);
      if (!refusal) return callback();
      state.refused++;
      const error = new Error(refusal.message) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const headers = new Map<string, string>();
          // The raw header lines (unfolded), so every header reads as sent (mailparser groups List-* under "list").
          for (const { key, line } of parsed.headerLines)
            if (!headers.has(key))
              headers.set(
                key.toLowerCase(),
                line
                  .slice(line.indexOf(":") + 1)
                  .replace(/\r?\n[ \t]+/g, " ")
                  .trim(),
              );
          const mail: ReceivedMail = {
            to: addresses(parsed.to),
            from: parsed.from?.text ?? "",
            subject: parsed.subject ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            text: parsed.text ?? "",
            headers,
          };
          messages.push(mail);
          options.onMessage?.(mail);
          for (const w of [...waiters]) if (w.pred(mail)) w.resolve(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  state.port = port;
  state.url = `smtp://test:secret@127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
