/**
 * The persisted delivery queue of outgoing webhooks (docs/webhooks.md "Delivery"). `runDue(nowMs)`:
 * 1. dispatches new events of the outbox (the triggers' rows): builds each body once (payloads.ts) and
 *    queues one delivery per enabled subscription of the store to the event type;
 * 2. claims due deliveries (an UPDATE in a write transaction: `sending` with a persisted lease, the attempt
 *    counted, committed before the POST is awaited; only the lease holder records the outcome; on PostgreSQL
 *    the rows are selected `FOR UPDATE SKIP LOCKED`, so the queues of any number of nodes share the
 *    deliveries and each is claimed by one node: issue #26 item 3) and POSTs each, signed (signature.ts), through the outgoing-request guard (server/shared/outgoing-request.ts, with url-guard.ts's webhook rules): no redirects
 *    followed, CONNECT_TIMEOUT_MS / TOTAL_TIMEOUT_MS, at most MAX_RESPONSE_BYTES of the answer read;
 * 3. records each attempt in the log (status code, latency) and the outcome: `delivered` on a 2xx;
 *    otherwise queued again after RETRY_DELAYS_MS[attempt − 1] (1 min … 8 h: 8 attempts over about
 *    23.6 hours), or `failed` after the last one.
 * A subscription whose delivery used all its attempts with no successful delivery to it in between (so
 * at least MAX_ATTEMPTS consecutive failures over about a day) is disabled, with the reason shown in the
 * admin and an e-mail to the store's team; its queued deliveries fail. A delivery is AT-LEAST-ONCE (a crash after the receiver answered and
 * before the outcome is committed sends it again after the lease, LEASE_MS or WEBHOOK_LEASE_MS): receivers dedupe by `Chorus-Event-Id`.
 * Events and their log are deleted RETENTION_MS (30 days) after they were dispatched, once nothing is left to send.
 * The clock is injectable (`now`, epoch ms): tests call `runDue` with a moved clock, no sleeping.
 */
import { randomUUID } from "node:crypto";
import { isOpen, transaction, type Db } from "../db/database.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import type { OutgoingMail } from "../mail/mail.service.ts";
import { disabledSubscriptionMails } from "./notify.ts";
import { buildPayload, type PayloadDeps } from "./payloads.ts";
import { signatureHeader, SIGNATURE_HEADER } from "./signature.ts";
import { guardedFetch, isOutgoingRequestError, type Resolve } from "../shared/outgoing-request.ts";
import { checkUrlSyntax, WebhookTargetError } from "./url-guard.ts";
import type { ClaimedDelivery, WebhooksRepo } from "./webhooks.repo.ts";

/** Delay before attempt n + 1 after n failed ones (ms): 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (sum ≈ 23.6 h). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 8 * 3_600_000, 8 * 3_600_000] as const;
/** Attempts of one delivery: the first and one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Time to connect (ms). */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Longest time for a whole attempt, answer included (ms). */
export const TOTAL_TIMEOUT_MS = 15_000;
/** Most bytes of an answer read (the rest is not read; the answer's body is not kept). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** How long a claim holds by default (ms; env WEBHOOK_LEASE_MS): longer than an attempt can last. */
export const LEASE_MS = 60_000;
/** Time between two passes of the loop (ms): new events are sent within about this long. */
export const POLL_MS = 1_000;
/** How long events and their delivery log are kept once nothing is left to send (ms): 30 days. */
export const RETENTION_MS = 30 * 86_400_000;
/** Time between two retention sweeps (ms). */
const PRUNE_EVERY_MS = 3_600_000;
/** Events dispatched and deliveries claimed per transaction. */
const BATCH = 20;

export type DeliveryReport = { dispatched: number; delivered: number; retried: number; failed: number; disabled: number };

export type WebhookDeliveryDeps = PayloadDeps & {
  db: Db;
  repo: WebhooksRepo;
  box: SecretBox;
  /** ALLOW_LOOPBACK_REQUESTS=1 (alias ALLOW_INSECURE_WEBHOOKS=1): http:// and loopback targets allowed (tests, local development). */
  allowLoopback: boolean;
  now?: () => number;
  /** How long a claim holds (ms; default LEASE_MS): at least TOTAL_TIMEOUT_MS, so a live sender's claim never runs out. */
  leaseMs?: number;
  log?: (line: string) => void;
  /** Outgoing mail (services.mail.enqueue): the team is told when a subscription is disabled. Absent: no e-mail. */
  enqueueMail?: (message: OutgoingMail) => Promise<unknown>;
};

type AttemptOutcome = { statusCode: number | null; latencyMs: number; error: string | null };

/**
 * POST `body` to `url` once through the outgoing-request guard (server/shared/outgoing-request.ts) with the
 * webhook URL rules (url-guard.ts): no redirects followed, CONNECT_TIMEOUT_MS of silence, TOTAL_TIMEOUT_MS in
 * all, at most MAX_RESPONSE_BYTES of the answer read. Never throws.
 * @returns the status code (null without an answer), the latency in ms and an error for a non-2xx.
 */
export async function postOnce(url: string, body: string, headers: Record<string, string>, allowLoopback: boolean, resolve?: Resolve): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = checkUrlSyntax(url, allowLoopback);
  } catch (error) {
    return { statusCode: null, latencyMs: 0, error: error instanceof WebhookTargetError ? `refused: ${error.message}` : String(error) };
  }
  try {
    const res = await guardedFetch(target, {
      method: "POST",
      headers,
      body,
      allowLoopback,
      resolve,
      redirects: 0,
      maxBytes: MAX_RESPONSE_BYTES,
      overflow: "truncate",
      timeoutMs: TOTAL_TIMEOUT_MS,
      idleTimeoutMs: CONNECT_TIMEOUT_MS,
    });
    const status = res.status;
    const error =
      status >= 200 && status < 300
        ? null
        : status >= 300 && status < 400
          ? `answered ${status}: redirects are not followed${res.headers.location ? ` (Location: ${String(res.headers.location).slice(0, 200)})` : ""}`
          : `answered ${status}`;
    return { statusCode: status, latencyMs: latency(), error };
  } catch (error) {
    if (isOutgoingRequestError(error)) return { statusCode: null, latencyMs: latency(), error: error.kind === "refused" ? `refused: ${error.message}` : error.message.slice(0, 300) };
    return { statusCode: null, latencyMs: latency(), error: String(error).slice(0, 300) };
  }
}

/** Create the queue. */
export function webhookDelivery(deps: WebhookDeliveryDeps) {
  const now = deps.now ?? Date.now;
  const leaseMs = Math.max(deps.leaseMs ?? LEASE_MS, TOTAL_TIMEOUT_MS);
  const log = deps.log ?? (() => {});
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let last: Promise<unknown> = Promise.resolve();
  let prunedAt = -Infinity;

  /** Dispatch every new event, BATCH per transaction, yielding to other work between batches (a bulk import can emit thousands). */
  async function dispatchNew(nowMs: number, report: DeliveryReport): Promise<void> {
    for (;;) {
      if (!isOpen(deps.db)) return;
      const events = await deps.repo.undispatched(BATCH);
      const bodies: string[] = [];
      for (const event of events) {
        let payload: string;
        try {
          payload = await buildPayload(deps, event);
        } catch (error) {
          // A resource that cannot be shaped must not stop the queue: the event goes out with its IDs only.
          log(`webhooks: body of ${event.event_type} ${event.event_id} could not be built: ${String(error)}`);
          payload = JSON.stringify({
            eventId: event.event_id,
            eventType: event.event_type,
            dateCreated: new Date(event.created_ms).toISOString(),
            storeId: event.store_id,
            data: { id: event.resource_id },
          });
        }
        bodies.push(payload);
      }
      // Exactly-once dispatch: repo.dispatch's conditional UPDATE (dispatched_ms IS NULL) lets one node through.
      await transaction(deps.db, async () => {
        for (const [i, event] of events.entries()) await deps.repo.dispatch(event, bodies[i], nowMs, randomUUID);
      });
      report.dispatched += events.length;
      if (events.length < BATCH) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function sendOne(d: ClaimedDelivery, nowMs: number, report: DeliveryReport): Promise<void> {
    let secret: string;
    try {
      secret = deps.box.open(d.secret_encrypted);
    } catch {
      secret = "";
    }
    const t = Math.floor(nowMs / 1000);
    const outcome = secret
      ? await postOnce(
          d.url,
          d.payload_json,
          {
            "content-type": "application/json; charset=utf-8",
            "user-agent": "Chorus-Webhooks/1",
            [SIGNATURE_HEADER]: signatureHeader(secret, t, d.payload_json),
            "Chorus-Event-Id": d.event_id,
            "Chorus-Event-Type": d.event_type,
            "Chorus-Delivery-Id": d.delivery_id,
          },
          deps.allowLoopback,
        )
      : { statusCode: null, latencyMs: 0, error: "the signing secret could not be read: rotate it" };
    if (!isOpen(deps.db)) return;
    const delivered = outcome.error === null;
    const giveUp = !delivered && d.attempts >= MAX_ATTEMPTS;
    const nextAttemptMs = delivered || giveUp ? null : nowMs + RETRY_DELAYS_MS[Math.min(d.attempts, RETRY_DELAYS_MS.length) - 1];
    await transaction(deps.db, async () => {
      // Nothing is recorded when the claim was lost (the subscription was deleted meanwhile, or the lease ran out):
      // the conditional UPDATE on the lease makes the holder's outcome the only one recorded.
      if (!(await deps.repo.recordOutcome(d.seq, d.lease_until_ms, { delivered, nextAttemptMs, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, error: outcome.error, nowMs }))) return;
      await deps.repo.insertAttempt(d.seq, d.store_id, d.attempts, { attempted_ms: nowMs, status_code: outcome.statusCode, latency_ms: outcome.latencyMs, error: outcome.error });
      if (delivered) {
        await deps.repo.noteSuccess(d.subscription_id);
        report.delivered++;
        return;
      }
      const state = await deps.repo.noteFailure(d.subscription_id, nowMs);
      if (giveUp) report.failed++;
      else report.retried++;
      if (giveUp && state && state.consecutive_failures >= MAX_ATTEMPTS) {
        const since = new Date(state.failing_since_ms).toISOString().replace("T", " ").slice(0, 16);
        const reason = `Disabled after ${state.consecutive_failures} failed delivery attempts in a row since ${since} UTC (last: ${outcome.error}). Fix the receiver, then enable the subscription again.`;
        if (await deps.repo.disable(d.store_id, d.subscription_id, reason, nowMs)) {
          report.disabled++;
          const store = await deps.stores.get(d.store_id);
          const notice = { storeId: d.store_id, storeName: store?.name ?? "Chorus", subscriptionId: d.subscription_id, url: d.url, reason, disabledMs: nowMs, adminOrigin: deps.publicOrigin() };
          // Enqueued in this transaction (an outbox INSERT, no mail I/O): the e-mail exists exactly when the disabling commits.
          for (const message of disabledSubscriptionMails(notice, await deps.repo.teamEmails(d.store_id))) await deps.enqueueMail?.(message);
        }
      }
    });
    log(`webhooks: ${d.event_type} ${d.delivery_id} attempt ${d.attempts}: ${delivered ? "delivered" : outcome.error}`);
  }

  async function pass(nowMs: number): Promise<DeliveryReport> {
    const report: DeliveryReport = { dispatched: 0, delivered: 0, retried: 0, failed: 0, disabled: 0 };
    if (nowMs - prunedAt >= PRUNE_EVERY_MS && isOpen(deps.db)) {
      prunedAt = nowMs;
      await deps.repo.prune(nowMs - RETENTION_MS); // one DELETE: atomic on its own
    }
    await dispatchNew(nowMs, report);
    for (;;) {
      if (!isOpen(deps.db)) return report;
      // Exactly-once claim: FOR UPDATE SKIP LOCKED (PostgreSQL) and a lease committed before any POST.
      const claimed = await transaction(deps.db, () => deps.repo.claimDue(nowMs, nowMs + leaseMs, BATCH));
      await Promise.all(claimed.map((d) => sendOne(d, nowMs, report)));
      if (claimed.length < BATCH) return report;
    }
  }

  function tick(): void {
    timer = null;
    if (!started) return;
    if (!isOpen(deps.db)) {
      started = false;
      return;
    }
    const at = now();
    const run = deps.repo.nextDueMs().then((due) => (due !== null && due <= at ? queue.runDue(at) : undefined));
    void run
      .catch((error) => log(`webhooks: delivery pass failed: ${String(error)}`))
      .finally(() => {
        if (started && !timer) {
          timer = setTimeout(tick, POLL_MS);
          timer.unref();
        }
      });
  }

  const queue = {
    /**
     * One pass at `nowMs` (default: the clock): dispatch new events, send every delivery due. Passes run
     * one at a time (a call during a pass runs after it). @returns counts of this pass.
     */
    runDue(nowMs: number = now()): Promise<DeliveryReport> {
      const run = last.then(() => pass(nowMs));
      last = run.catch(() => {});
      return run;
    },
    /** Start the loop: a pass whenever there is work, checked every POLL_MS. */
    start(): void {
      if (started) return;
      started = true;
      timer = setTimeout(tick, 0);
      timer.unref();
    },
    /** Stop the loop after the pass in flight. */
    async stop(): Promise<void> {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await last;
    },
  };
  return queue;
}
export type WebhookDelivery = ReturnType<typeof webhookDelivery>;
