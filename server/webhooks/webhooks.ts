/**
 * Composition of outgoing webhooks (docs/webhooks.md) for server/services.ts: the data module, the
 * secret box that encrypts signing secrets (AES-256-GCM under the installation key `secretKey`), the
 * subscriptions service and the delivery queue, over one clock.
 */
import type { Db } from "../db/database.ts";
import type { OutgoingMail } from "../mail/mail.service.ts";
import { secretBox } from "../platforms/secret-box.ts";
import { webhookDelivery } from "./delivery.ts";
import type { PayloadDeps } from "./payloads.ts";
import { webhooksRepo } from "./webhooks.repo.ts";
import { webhooksService } from "./webhooks.service.ts";

export type WebhooksDeps = Omit<PayloadDeps, "repo"> & {
  db: Db;
  /** 32 random bytes, base64url (app_settings `webhook_secret_key`). */
  secretKey: string;
  /** http:// and loopback targets allowed (ALLOW_LOOPBACK_REQUESTS=1, alias ALLOW_INSECURE_WEBHOOKS=1). */
  allowLoopback: boolean;
  /** The clock, epoch ms. */
  now: () => number;
  /** How long a delivery claim holds (ms; WEBHOOK_LEASE_MS; default delivery.ts LEASE_MS). */
  leaseMs?: number;
  log?: (line: string) => void;
  /** services.mail.enqueue: the team is e-mailed when a subscription is disabled. */
  enqueueMail?: (message: OutgoingMail) => Promise<unknown>;
};

/** Build the webhooks service and its delivery queue. */
export function createWebhooks(deps: WebhooksDeps) {
  const repo = webhooksRepo(deps.db);
  const box = secretBox(deps.secretKey);
  const delivery = webhookDelivery({ ...deps, repo, box });
  const service = webhooksService({ db: deps.db, repo, box, allowLoopback: deps.allowLoopback, now: deps.now });
  return { service, delivery, repo };
}
