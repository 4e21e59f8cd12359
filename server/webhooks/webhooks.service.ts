/**
 * Outgoing webhook subscriptions of a store (docs/webhooks.md): create, list, change, delete, rotate the
 * signing secret; the delivery log and replays for the admin. Used by the enterprise API
 * (`/enterprise/webhook_subscriptions`) and the admin page (/admin/stores/{id}/webhooks).
 *
 * Rules: at most MAX_SUBSCRIPTIONS_PER_STORE per store; URLs checked by url-guard.ts (https, public
 * addresses; 400 otherwise); the secret is returned only by `create` and `rotateSecret` and stored
 * encrypted (secret-box.ts) so deliveries can be signed. Errors are ApiErrors (404 for another store's
 * subscription or delivery, 409 for too many or a replay to a disabled subscription).
 */
import { randomUUID } from "node:crypto";
import { ApiError, notFound } from "../contract/errors.ts";
import { MAX_SUBSCRIPTIONS_PER_STORE, type CreateWebhookSubscription, type UpdateWebhookSubscription, type WebhookEventType, type WebhookSubscription } from "../contract/webhooks.ts";
import { transaction, type Db } from "../db/database.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";
import { newWebhookSecret, SECRET_PREFIX_LENGTH } from "./signature.ts";
import { checkWebhookUrl } from "./url-guard.ts";
import type { AttemptRow, DeliveryLogRow, SubscriptionRow, WebhooksRepo } from "./webhooks.repo.ts";

/** A subscription row in the API's shape. */
export function toSubscription(r: SubscriptionRow): WebhookSubscription {
  return {
    subscriptionId: r.subscription_id,
    url: r.url,
    eventTypes: (r.event_types ? r.event_types.split(",") : []).sort() as WebhookEventType[],
    description: r.description,
    status: r.status,
    ...(r.status === "disabled" && r.disabled_reason ? { disabledReason: r.disabled_reason } : {}),
    ...(r.status === "disabled" && r.disabled_ms ? { dateDisabled: iso(r.disabled_ms) } : {}),
    secretPrefix: r.secret_prefix,
    consecutiveFailures: r.consecutive_failures,
    dateCreated: iso(r.created_ms),
    dateUpdated: iso(r.updated_ms),
  };
}

export type WebhooksServiceDeps = {
  db: Db;
  repo: WebhooksRepo;
  box: SecretBox;
  allowLoopback: boolean;
  now: () => number;
  /** Called after a change that queued work (a replay), once committed. */
  onQueued?: () => void;
};

/** Create the service. */
export function webhooksService(deps: WebhooksServiceDeps) {
  const { db, repo, box } = deps;
  const seal = (secret: string) => ({ secret_encrypted: box.seal(secret), secret_prefix: secret.slice(0, SECRET_PREFIX_LENGTH) });
  const must = async (storeId: string, subscriptionId: string): Promise<SubscriptionRow> => {
    const row = await repo.getSubscription(storeId, subscriptionId);
    if (!row) throw notFound("No such webhook subscription in this store", "subscription_not_found");
    return row;
  };

  return {
    /** What is wrong with a receiver URL (the SSRF rules of url-guard.ts, DNS included), or null when it may be used. */
    async urlProblem(url: string): Promise<string | null> {
      try {
        await checkWebhookUrl(url, deps.allowLoopback);
        return null;
      } catch (error) {
        if (error instanceof Error && error.message.startsWith("url: ")) return error.message.slice(5);
        throw error;
      }
    },

    /** The store's subscriptions, oldest first. */
    async list(storeId: string): Promise<WebhookSubscription[]> {
      return (await repo.listSubscriptions(storeId)).map(toSubscription);
    },

    /** One subscription. @throws ApiError 404. */
    async get(storeId: string, subscriptionId: string): Promise<WebhookSubscription> {
      return toSubscription(await must(storeId, subscriptionId));
    },

    /**
     * Subscribe `input.url` to `input.eventTypes`. @returns the subscription and its secret (shown once).
     * @throws ApiError 400 (URL refused), 409 (MAX_SUBSCRIPTIONS_PER_STORE reached).
     */
    async create(storeId: string, input: CreateWebhookSubscription): Promise<{ subscription: WebhookSubscription; secret: string }> {
      const url = await checkWebhookUrl(input.url, deps.allowLoopback);
      const secret = newWebhookSecret();
      const id = randomUUID();
      const nowMs = deps.now();
      await transaction(db, async () => {
        // Exactly-once limit: the store's row is locked (PostgreSQL) before counting, so concurrent creations count in turn.
        await repo.lockStore(storeId);
        if ((await repo.countSubscriptions(storeId)) >= MAX_SUBSCRIPTIONS_PER_STORE) {
          throw new ApiError(409, `A store can have at most ${MAX_SUBSCRIPTIONS_PER_STORE} webhook subscriptions: delete one first`, "too_many_subscriptions");
        }
        await repo.insertSubscription({ subscription_id: id, store_id: storeId, url, description: input.description ?? "", ...seal(secret), created_ms: nowMs, updated_ms: nowMs }, input.eventTypes);
      });
      return { subscription: toSubscription(await must(storeId, id)), secret };
    },

    /** Change URL, event types, description or status (`enabled` restarts the failure count). @throws ApiError 400, 404. */
    async update(storeId: string, subscriptionId: string, patch: UpdateWebhookSubscription): Promise<WebhookSubscription> {
      const current = await must(storeId, subscriptionId);
      const url = patch.url !== undefined ? await checkWebhookUrl(patch.url, deps.allowLoopback) : current.url;
      const nowMs = deps.now();
      await transaction(db, async () => {
        const eventTypes = patch.eventTypes ?? (current.event_types ? current.event_types.split(",") : []);
        if (!(await repo.updateSubscription(storeId, subscriptionId, { url, description: patch.description ?? current.description, eventTypes }, nowMs)))
          throw notFound("No such webhook subscription in this store", "subscription_not_found");
        if (patch.status === "enabled" && current.status === "disabled") await repo.enable(storeId, subscriptionId, nowMs);
        if (patch.status === "disabled" && current.status === "enabled") await repo.disable(storeId, subscriptionId, "Disabled by the merchant.", nowMs);
      });
      return toSubscription(await must(storeId, subscriptionId));
    },

    /** Delete a subscription with its deliveries and their log. @throws ApiError 404. */
    async remove(storeId: string, subscriptionId: string): Promise<void> {
      if (!(await transaction(db, () => repo.deleteSubscription(storeId, subscriptionId)))) throw notFound("No such webhook subscription in this store", "subscription_not_found");
    },

    /** Replace the signing secret; deliveries from now on are signed with the new one. @returns it (shown once). @throws ApiError 404. */
    async rotateSecret(storeId: string, subscriptionId: string): Promise<{ subscription: WebhookSubscription; secret: string }> {
      await must(storeId, subscriptionId);
      const secret = newWebhookSecret();
      const { secret_encrypted, secret_prefix } = seal(secret);
      await transaction(db, () => repo.setSecret(storeId, subscriptionId, secret_encrypted, secret_prefix, deps.now()));
      return { subscription: toSubscription(await must(storeId, subscriptionId)), secret };
    },

    /**
     * Delete the store's events (with their deliveries and log) whose body mentions `email`: for shopper
     * erasure (issue #24 item 1), so the address does not stay in the outbox. @returns events deleted.
     */
    async forgetEmail(storeId: string, email: string): Promise<number> {
      return transaction(db, () => repo.forgetEmail(storeId, email));
    },

    /** The store's delivery log, newest first (keyset on `beforeSeq`), with each delivery's attempts. */
    async deliveries(storeId: string, options: { beforeSeq?: number; limit?: number } = {}): Promise<(DeliveryLogRow & { attemptLog: AttemptRow[] })[]> {
      const rows = await repo.listDeliveries(storeId, options.beforeSeq, Math.min(options.limit ?? 50, 200));
      const out: (DeliveryLogRow & { attemptLog: AttemptRow[] })[] = [];
      for (const d of rows) out.push({ ...d, attemptLog: await repo.attemptsOf(storeId, d.seq) });
      return out;
    },

    /**
     * Send a delivered or failed delivery's event again to its subscription, as a new delivery (same
     * `Chorus-Event-Id`, new `Chorus-Delivery-Id`). @returns the new delivery ID.
     * @throws ApiError 404 (not the store's), 409 (the subscription is disabled).
     */
    async replay(storeId: string, deliveryId: string): Promise<string> {
      const id = randomUUID();
      await transaction(db, async () => {
        const original = await repo.getDelivery(storeId, deliveryId);
        if (!original) throw notFound("No such webhook delivery in this store", "delivery_not_found");
        if ((await must(storeId, original.subscription_id)).status !== "enabled")
          throw new ApiError(409, "The subscription is disabled: enable it before replaying deliveries", "subscription_disabled");
        await repo.insertReplay(storeId, original, id, deps.now());
      });
      deps.onQueued?.();
      return id;
    },
  };
}
export type WebhooksService = ReturnType<typeof webhooksService>;
