/**
 * Shared bits of the admin outbox pages (/admin/outbox and /admin/outbox/:messageId): labels and the
 * date format. Dates are shown in UTC, the same on the server and in the browser (no hydration mismatch).
 */
import type { OutboxMessage } from "../../server/mail/mail.service.ts";

/** What each status means for the merchant. */
export const STATUS_LABEL: Record<OutboxMessage["status"], string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  kept: "Kept (not sent)",
};

/** `2026-11-24 12:05 UTC` from epoch ms. */
export const formatUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** ISO 8601 for `<time dateTime>`. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** A short explanation of a message's delivery state (attempts, next attempt, last error). */
export function deliveryNote(m: Pick<OutboxMessage, "status" | "attempts" | "nextAttemptMs" | "sentMs" | "lastError">): string {
  switch (m.status) {
    case "sent":
      return `${m.sentMs ? `at ${formatUtc(m.sentMs)}` : ""}${m.attempts > 1 ? ` after ${m.attempts} attempts` : ""}`.trim();
    case "queued":
      return m.attempts > 0 ? `Attempt ${m.attempts} failed; next attempt ${formatUtc(m.nextAttemptMs)}` : `Waiting to be sent (from ${formatUtc(m.nextAttemptMs)})`;
    case "sending":
      return `Being sent (attempt ${m.attempts})`;
    case "failed":
      return `Gave up after ${m.attempts} attempt${m.attempts === 1 ? "" : "s"}`;
    case "kept":
      return "Not sent: no mail server is configured (SMTP_URL)";
  }
}
