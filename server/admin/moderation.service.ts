/**
 * Review moderation rules for the merchant admin (issue 7 item 3): the filtered queue with signed keyset
 * cursors, publish/reject single and bulk, and the public reply. Every call names the store; a review
 * of another store behaves like a missing one (404 / not counted).
 */
import { z } from "zod";
import { badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { mediaPreviewUrl } from "../media/media-http.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { ModerationRepo, QueueFilter, QueueMediaRow, QueueRow, RejectionReason } from "./moderation.repo.ts";

export const QUEUE_PAGE_SIZE = 20;
/** Longest public reply, in characters. */
export const MAX_REPLY_LENGTH = 5000;
/** Most reviews in one bulk action. */
export const MAX_BULK = 100;
/** One day in ms (held reviews are counted in days since they were written). */
export const DAY_MS = 86_400_000;
/** Longest text with rejection reason "other", in characters. */
export const MAX_REJECTION_NOTE = 500;

/** Why a merchant rejects a review, with the admin's label (docs/admin.md "Moderation"). */
export const REJECTION_REASONS: { value: RejectionReason; label: string }[] = [
  { value: "spam", label: "Spam" },
  { value: "off-topic", label: "Off-topic (not about the product)" },
  { value: "personal-data", label: "Contains personal data" },
  { value: "other", label: "Other" },
];
const REASON_ERROR = `reason: say why the review is rejected: ${REJECTION_REASONS.map((r) => r.value).join(", ")}`;

/** A rejection as the admin form or an API caller sends it: `reason` one of REJECTION_REASONS, `note` optional text for "other". */
export type RejectionInput = { reason?: string | null; note?: string | null };

/** The moderation note of a review the held-review job published. */
export const autoPublishedNote = (days: number) => `Published automatically after ${days} day${days === 1 ? "" : "s"}`;

/** The queue filter as it arrives in the admin URL (all optional; status defaults to pending). */
export const queueQuerySchema = z.object({
  status: z.enum(["pending", "published", "rejected"], { error: "status must be pending, published or rejected" }).default("pending"),
  rating: z
    .enum(["", "1", "2", "3", "4", "5"], { error: "rating must be 1 to 5" })
    .optional()
    .transform((v) => (v ? Number(v) : undefined)),
  product: z.string().trim().max(200, "product must be at most 200 characters").optional(),
  media: z.enum(["", "yes", "no"], { error: "media must be yes or no" }).optional(),
  after: z.string().max(500).optional(),
});
export type QueueQuery = z.output<typeof queueQuerySchema>;

export type QueuePage = { reviews: (QueueRow & { media: QueueMediaRow[] })[]; next?: string; filter: QueueFilter };

/** Create the moderation service. `secret` signs queue cursors and media preview URLs (media-http.ts). */
export function moderationService(deps: { db: Db; moderation: ModerationRepo; secret: string; now?: () => number }) {
  const { db, moderation, secret } = deps;
  const now = deps.now ?? Date.now;
  const context = (storeId: string, f: QueueFilter) => `admin-queue|${storeId}|${f.status}|${f.rating ?? ""}|${f.productId ?? ""}|${f.hasMedia ?? ""}`;

  return {
    /**
     * One page of the queue, newest first, each review with its media not rejected (URLs of media that
     * are not public are signed preview URLs, valid one to two hours). @returns rows and, when more exist, `next` (an opaque cursor).
     * @throws ApiError 400 for a cursor not issued for this store and filter.
     */
    async queue(storeId: string, q: QueueQuery): Promise<QueuePage> {
      const filter: QueueFilter = {
        status: q.status,
        ...(typeof q.rating === "number" ? { rating: q.rating } : {}),
        ...(q.product ? { productId: q.product.replace(/^[a-z]+-(?=\d)/i, "") } : {}),
        ...(q.media === "yes" ? { hasMedia: true } : q.media === "no" ? { hasMedia: false } : {}),
      };
      const { rows: page, next } = await keysetPage<QueueRow, [number, string]>({
        secret,
        context: context(storeId, filter),
        cursor: q.after,
        shape: ["number", "string"],
        limit: QUEUE_PAGE_SIZE,
        fetch: (after) => moderation.listQueue(storeId, filter, QUEUE_PAGE_SIZE, after), // the repo reads limit + 1 rows
        keyOf: (r) => [r.created_ms, r.review_id],
      });
      // Items that are not public are shown to the merchant through signed preview URLs (media-http.ts).
      const nowMs = now();
      const preview = (m: QueueMediaRow, url: string) => (m.status === "published" ? url : mediaPreviewUrl(secret, storeId, m.media_id, url, nowMs));
      const media = (
        await moderation.mediaOf(
          storeId,
          page.filter((r) => r.media_total > 0).map((r) => r.review_id),
        )
      ).map((m) => ({ ...m, thumbnail_url: preview(m, m.thumbnail_url), full_size_url: preview(m, m.full_size_url) }));
      const reviews = page.map((r) => ({ ...r, media: media.filter((m) => m.review_id === r.review_id) }));
      return { reviews, filter, ...(next ? { next } : {}) };
    },

    /**
     * Publish or reject reviews of the store and, with them, their media (one transaction; rejected
     * media files are deleted after the grace period, server/media/media-retention.ts). A rejection needs a
     * reason (REJECTION_REASONS; with "other" an optional note of at most MAX_REJECTION_NOTE characters),
     * kept with the review (docs/admin.md "Moderation"). @returns how many changed.
     * @throws ApiError 400 when no review or more than MAX_BULK are given, or a rejection has no valid reason.
     */
    async setStatus(storeId: string, reviewIds: string[], status: "published" | "rejected", rejection?: RejectionInput): Promise<number> {
      const ids = [...new Set(reviewIds.filter(Boolean))];
      if (ids.length === 0) throw badRequest("review: choose at least one review");
      if (ids.length > MAX_BULK) throw badRequest(`review: at most ${MAX_BULK} reviews at once`);
      if (status === "published") return transaction(db, () => moderation.setStatus(storeId, ids, { status }, now()));
      const reason = REJECTION_REASONS.find((r) => r.value === rejection?.reason)?.value;
      if (!reason) throw badRequest(REASON_ERROR, "rejection_reason_required");
      const note = reason === "other" ? (rejection?.note ?? "").replace(/\r\n/g, "\n").trim() : "";
      if (note.length > MAX_REJECTION_NOTE) throw badRequest(`note: must be at most ${MAX_REJECTION_NOTE} characters`);
      return transaction(db, () => moderation.setStatus(storeId, ids, { status, reason, reasonNote: note || null }, now()));
    },

    /**
     * The held-review job's one run (docs/admin.md "Held reviews"): publish every review still pending
     * `days` days after it was written, in each store with `publish_held_after_days` set, through the same
     * status change as a merchant's approval (aggregates, media, `review.updated` webhooks and content scopes
     * follow by trigger), noted "Published automatically after N days". Batches of MAX_BULK, one transaction
     * each; only reviews still pending change, so two nodes running at once, or a run repeated, publish each
     * review once. @param nowMs the clock (epoch ms). @returns how many reviews were published.
     */
    async publishHeld(nowMs: number): Promise<number> {
      let published = 0;
      for (const { store_id: storeId, days } of await moderation.storesPublishingHeld()) {
        const cutoff = nowMs - days * DAY_MS;
        for (;;) {
          // Exactly-once: the batch is claimed FOR UPDATE SKIP LOCKED and published only where still pending.
          const { due, changed } = await transaction(db, async () => {
            const due = await moderation.heldSince(storeId, cutoff, MAX_BULK);
            return { due, changed: due.length ? await moderation.setStatus(storeId, due, { status: "published", note: autoPublishedNote(days), onlyPending: true }, nowMs) : 0 };
          });
          published += changed;
          if (due.length < MAX_BULK) break;
        }
      }
      return published;
    },

    /**
     * The merchant confirms that a review's author bought the product: the review becomes `verified-buyer`
     * (issue 19, finding 6). @throws ApiError 404 (no such review in the store).
     */
    async confirmVerifiedBuyer(storeId: string, reviewId: string): Promise<void> {
      if (!(await transaction(db, () => moderation.confirmVerifiedBuyer(storeId, reviewId, now())))) throw notFound("Review not found", "review_not_found");
    },

    /**
     * Set the public reply of a review (plain text, stored as typed and escaped when rendered);
     * an empty reply removes it. @throws ApiError 400 (too long), 404 (no such review in the store).
     */
    async setReply(storeId: string, reviewId: string, body: string): Promise<void> {
      const text = body.replace(/\r\n/g, "\n").trim();
      if (text.length > MAX_REPLY_LENGTH) throw badRequest(`reply: must be at most ${MAX_REPLY_LENGTH} characters`);
      const ok = await transaction(db, () => moderation.setReply(storeId, reviewId, text === "" ? null : text, now()));
      if (!ok) throw notFound("Review not found", "review_not_found");
    },
  };
}
export type ModerationService = ReturnType<typeof moderationService>;
