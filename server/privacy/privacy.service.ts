/**
 * Shopper data rights (issue 24 item 1; GDPR Art. 15 access / Art. 17 erasure, CCPA "right to know" and
 * "right to delete"): for one e-mail address within one store,
 * - `summary`: how many records of each kind the store holds (admin search);
 * - `exportArchive`: a zip (yazl, streamed into memory: one shopper's data is small) holding `data.json`
 *   (every record as stored, see privacy.repo.ts) and the original files of their review media
 *   (`media/<mediaId>/full.jpg`, and `video.<ext>` for videos), plus a README;
 * - `erase`: in one transaction, delete or anonymise everything (privacy.repo.ts `erase`), delete the outbox
 *   mail and stored outgoing-webhook events that mention the address, and withdraw the AI content of the
 *   products and groups whose reviews went (deleted, regeneration queued: no stale quote is served); after the
 *   commit, delete the media files from disk and checkpoint SQLite's write-ahead log so no older page image
 *   keeps the data (with `secure_delete` on every connection, deleted content is zeroed in the file:
 *   docs/privacy.md "What stays on disk"). Aggregates, content scopes (caches) and media visibility follow by
 *   trigger.
 * Both are audited in `privacy_requests` (who, when, through what, counts; never the address or the data).
 * @throws ApiError 400 `invalid_email` for anything but an e-mail address, 404 `store_not_found`.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import yazl from "yazl";
import { z } from "zod";
import { badRequest, notFound } from "../contract/errors.ts";
import { checkpointWal, readSnapshot, transaction, type Db } from "../db/database.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { ErasureResult, PrivacyRepo, ShopperHoldings } from "./privacy.repo.ts";

/** An e-mail address as shoppers' records store it: trimmed, lower-case. */
export const shopperEmailSchema = z
  .string({ error: "email must be a string" })
  .trim()
  .toLowerCase()
  .max(320, { error: "email must be at most 320 characters" })
  .pipe(z.email({ error: "email must be an e-mail address" }));

/** Shopify's mandatory privacy webhook topics (shopify.dev, "Privacy law compliance"). */
export const SHOPIFY_PRIVACY_TOPICS = ["customers/data_request", "customers/redact", "shop/redact"] as const;
export type ShopifyPrivacyTopic = (typeof SHOPIFY_PRIVACY_TOPICS)[number];

const shopifyId = z.union([z.number(), z.string()]).transform(String);
/** The fields Chorus reads of the privacy topics' bodies (Shopify's documented payloads; other fields ignored). */
const shopifyPrivacyBodies = {
  "customers/data_request": z.object({
    customer: z.object({ id: shopifyId.optional(), email: z.string().nullish() }),
    data_request: z.object({ id: shopifyId }).optional(),
  }),
  "customers/redact": z.object({ customer: z.object({ id: shopifyId.optional(), email: z.string().nullish() }) }),
  "shop/redact": z.object({ shop_domain: z.string().optional() }),
} as const;

/** A message to the members of a store (composed by services.ts over the team and the mail outbox). @returns how many were queued. */
export type TeamNotice = (storeId: string, message: { subject: string; heading: string; paragraphs: string[]; action?: { label: string; url: string } }) => Promise<number>;

/** Record counts per kind (the admin's search result, the audit row, the erasure answer). */
export type HoldingCounts = {
  reviews: number;
  mediaItems: number;
  questions: number;
  answers: number;
  surveyResponses: number;
  loyaltyCustomers: number;
  loyaltyTransactions: number;
  loyaltyRewards: number;
  orders: number;
  orderLines: number;
  mail: number;
  reviewRequests: number;
  referralSenders: number;
  referralFriends: number;
  profileAnswers: number;
};

const countsOf = (h: ShopperHoldings): HoldingCounts => ({
  reviews: h.reviews.length,
  mediaItems: h.reviewMedia.length,
  questions: h.questions.length,
  answers: h.answers.length,
  surveyResponses: h.surveyResponses.length,
  loyaltyCustomers: h.loyaltyCustomers.length,
  loyaltyTransactions: h.loyaltyTransactions.length,
  loyaltyRewards: h.loyaltyRewards.length,
  orders: h.orders.length,
  orderLines: h.orderLines.length,
  mail: h.mail.length,
  reviewRequests: h.reviewRequests.length,
  referralSenders: h.referralSenders.length,
  referralFriends: h.referralFriends.length,
  profileAnswers: h.profileAnswers.length,
});

/** Parse JSON-in-TEXT columns so the archive holds data, not escaped strings. */
const expandJson = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => (k.endsWith("_json") && typeof v === "string" ? [k.slice(0, -5), safeParse(v)] : [k, v])));
const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const README = `This archive holds every record the store keeps about one e-mail address in Chorus:
data.json  the records, grouped by kind (reviews, questions, answers, survey responses, loyalty
           customer, points transactions and rewards issued, orders and order lines, e-mails,
           review requests, unsubscribes, referral link and friend discount, customer profile
           answers), with dates as epoch milliseconds (UTC);
media/     the original photos and videos of the reviews.
Helpful votes are stored against anonymous visitor IDs and cannot be linked to an address.
`;

/** Create the shopper data service. `ai` withdraws AI content (and queues its regeneration) in an erasure. */
export function privacyService(deps: {
  db: Db;
  repo: PrivacyRepo;
  stores: StoresRepo;
  mediaPath: string;
  ai: { withdraw(storeId: string, scope: { type: "product" | "group"; id: string }, reason: string): Promise<number> };
  /** Tells the store's members by e-mail (Shopify data requests). */
  notifyTeam?: TeamNotice;
  /** Deletes the store's outbox messages to or naming the address (server/mail); joins the erasure's transaction. */
  forgetMail?: (storeId: string, email: string) => Promise<number>;
  /** Deletes stored outgoing-webhook events whose body mentions the address (server/webhooks); joins the erasure's transaction. */
  forgetWebhookEvents?: (storeId: string, email: string) => Promise<number>;
  /** Deletes the store's Klaviyo jobs about the address and queues Klaviyo's profile deletion (server/marketing); joins the erasure's transaction. */
  forgetKlaviyo?: (storeId: string, email: string) => Promise<number>;
  now?: () => number;
}) {
  const { db, repo } = deps;
  const now = deps.now ?? Date.now;
  const parseEmail = (email: unknown): string => {
    const parsed = shopperEmailSchema.safeParse(email);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "email must be an e-mail address", "invalid_email");
    return parsed.data;
  };
  const requireStore = async (storeId: string) => {
    if (!(await deps.stores.get(storeId))) throw notFound("Store not found", "store_not_found");
  };
  const mediaFiles = (storeId: string, mediaId: string): string[] => {
    const dir = join(deps.mediaPath, storeId, mediaId);
    if (!existsSync(dir)) return [];
    return readdirSync(dir).filter((f) => f === "full.jpg" || f.startsWith("video."));
  };

  /** Erase one address (see `erase`), without the write-ahead-log checkpoint. */
  async function eraseAddress(storeId: string, address: string, actor: string): Promise<ErasureResult["counts"] & { mail: number; webhookEvents: number; mediaFilesDeleted: number }> {
    // One transaction: every statement joins it (forgetMail and forgetWebhookEvents too; a nested transaction is a savepoint).
    const result = await transaction(db, async () => {
      const r = await repo.erase(storeId, address, now());
      const counts = {
        ...r.counts,
        mail: (await deps.forgetMail?.(storeId, address)) ?? 0,
        webhookEvents: (await deps.forgetWebhookEvents?.(storeId, address)) ?? 0,
        klaviyoJobs: (await deps.forgetKlaviyo?.(storeId, address)) ?? 0,
      };
      for (const id of r.productIds) await deps.ai.withdraw(storeId, { type: "product", id }, "shopper data erased");
      for (const id of r.groupIds) await deps.ai.withdraw(storeId, { type: "group", id }, "shopper data erased");
      await repo.audit({ requestId: randomUUID(), storeId, kind: "erasure", actor, counts, createdMs: now() });
      return { ...r, counts };
    });
    let mediaFilesDeleted = 0;
    for (const id of result.mediaIds) {
      mediaFilesDeleted += mediaFiles(storeId, id).length;
      rmSync(join(deps.mediaPath, storeId, id), { recursive: true, force: true });
    }
    return { ...result.counts, mediaFilesDeleted };
  }

  /**
   * Erase everything `storeId` holds about `email` (see the module comment), audited as an erasure by
   * `actor`. Idempotent: a second erasure finds nothing and erases nothing (and is audited too).
   * @returns what was erased (record counts and media files deleted).
   */
  async function erase(storeId: string, email: string, actor: string): Promise<ErasureResult["counts"] & { mail: number; webhookEvents: number; mediaFilesDeleted: number }> {
    await requireStore(storeId);
    const result = await eraseAddress(storeId, parseEmail(email), actor);
    await checkpointWal(db); // outside the transaction, after its commit
    return result;
  }

  return {
    /** Normalise and validate a shopper's e-mail (for forms). @throws ApiError 400 `invalid_email`. */
    parseEmail,

    /** Record counts of everything `storeId` holds about `email`. */
    async summary(storeId: string, email: string): Promise<{ email: string; counts: HoldingCounts; total: number }> {
      await requireStore(storeId);
      const address = parseEmail(email);
      const counts = countsOf(await readSnapshot(db, () => repo.holdings(storeId, address)));
      return { email: address, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
    },

    /**
     * The shopper's data as a zip archive (see the module comment), audited as an export by `actor`.
     * @returns the archive bytes and its file name (`chorus-data-<date>.zip`).
     */
    async exportArchive(storeId: string, email: string, actor: string): Promise<{ fileName: string; bytes: Buffer; counts: HoldingCounts }> {
      await requireStore(storeId);
      const address = parseEmail(email);
      const h = await readSnapshot(db, () => repo.holdings(storeId, address));
      const counts = countsOf(h);
      const data = {
        store: storeId,
        email: address,
        exportedAt: new Date(now()).toISOString(),
        ...Object.fromEntries(Object.entries(h).map(([kind, rows]) => [kind, (rows as Record<string, unknown>[]).map(expandJson)])),
      };
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.from(README), "README.txt");
      zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), "data.json");
      for (const m of h.reviewMedia) {
        for (const f of mediaFiles(storeId, m.media_id)) zip.addFile(join(deps.mediaPath, storeId, m.media_id, f), `media/${m.media_id}/${f}`);
      }
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      await repo.audit({ requestId: randomUUID(), storeId, kind: "export", actor, counts, createdMs: now() }); // one INSERT
      return { fileName: `chorus-data-${new Date(now()).toISOString().slice(0, 10)}.zip`, bytes: Buffer.concat(chunks), counts };
    },

    erase,

    /**
     * Shopify's privacy webhooks for `storeId` (signature and idempotency already checked by the platforms
     * service; shopify.dev "Privacy law compliance"):
     * - `customers/redact`: erase the customer's address (or the addresses held for the customer's ID);
     * - `customers/data_request`: tell the store's members by e-mail, with a link to the admin's Shopper
     *   data page for the address (the merchant sends the data to the shopper), audited as `data-request`;
     * - `shop/redact` (48 hours after the app was uninstalled): erase every shopper address the store holds.
     * @returns how many addresses were erased or members told. @throws ApiError 400 for a body without the fields read.
     */
    async shopifyPrivacyRequest(storeId: string, topic: ShopifyPrivacyTopic, body: unknown, publicOrigin: string): Promise<{ addresses: number; notified: number }> {
      const parsed = shopifyPrivacyBodies[topic].safeParse(body);
      if (!parsed.success) throw badRequest(`${topic}: ${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message ?? "malformed"}`, "invalid_body");
      const actor = `shopify:${topic}`;
      const addressesOf = async (customer: { id?: string; email?: string | null }) => {
        const fromEmail = customer.email ? shopperEmailSchema.safeParse(customer.email) : null;
        const fromId = customer.id ? await repo.emailsOfPlatformCustomer(storeId, customer.id) : [];
        return [...new Set([...(fromEmail?.success ? [fromEmail.data] : []), ...fromId])];
      };
      if (topic === "shop/redact") {
        const all = await repo.shopperEmails(storeId);
        for (const address of all) await eraseAddress(storeId, address, actor);
        await checkpointWal(db);
        return { addresses: all.length, notified: 0 };
      }
      const { customer } = parsed.data as { customer: { id?: string; email?: string | null } };
      const addresses = await addressesOf(customer);
      if (topic === "customers/redact") {
        for (const address of addresses) await erase(storeId, address, actor);
        return { addresses: addresses.length, notified: 0 };
      }
      let notified = 0;
      for (const address of addresses) {
        const url = `${publicOrigin}/admin/stores/${storeId}/privacy?email=${encodeURIComponent(address)}`;
        notified +=
          (await deps.notifyTeam?.(storeId, {
            subject: "A shopper asked for their data",
            heading: "A shopper asked for their data",
            paragraphs: [
              `Shopify passed on a data request from the shopper ${address}. Download what this store holds about them in Chorus and send it to them.`,
              "Privacy laws give you a limited time to answer (30 days under the GDPR).",
            ],
            action: { label: "Open their data", url },
          })) ?? 0;
        const counts = countsOf(await readSnapshot(db, () => repo.holdings(storeId, address)));
        await repo.audit({ requestId: randomUUID(), storeId, kind: "data-request", actor, counts, createdMs: now() });
      }
      return { addresses: addresses.length, notified };
    },

    /** The store's latest audited exports and erasures, newest first. */
    recentRequests(storeId: string, limit = 20): ReturnType<PrivacyRepo["recentRequests"]> {
      return repo.recentRequests(storeId, limit);
    },
  };
}
export type PrivacyService = ReturnType<typeof privacyService>;
