/**
 * Shopper review submissions (docs/writes.md, Endpoints; issue 3 items 1-3). Helpful votes are votes.service.ts.
 *
 * A submission is validated (contract/writes.ts), rate-limited per client address (IPv6 by /64) and
 * e-mail, its media checked and re-encoded (media/media.service.ts), then written: files first, then
 * the review and its media rows in one transaction; if the transaction fails the files are deleted, so a failed
 * submission never leaves a review row or an orphan file. Media rows take the review's status (a pending
 * review's media is not public, server/media/media-http.ts).
 *
 * Verified buyer (issue 19, finding 6): an e-mail that matches an imported order is no proof (anyone who
 * knows a buyer's address can type it), so a storefront submission is `unverified`. Only a trusted caller
 * that checked a proof passes `verifiedPurchase`: the route of a signed review-request link, a route that
 * verified the platform's signed-in shopper token (`input.shopper`: verified only when that platform customer
 * has an order of the product), or an import whose source marked the purchase verified.
 * The merchant can also confirm a buyer afterwards (moderation.confirmVerifiedBuyer).
 *
 * Product attributes (issue #23 item 2): the answers to the store's review form attributes
 * (server/contract/widget-settings.ts `reviewForm.attributes`) are checked against them (`checkFormAttributes`)
 * and stored in Okendo's shapes: scales as `attributesWithRating`, choices as `productAttributes`.
 */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { transaction, type Db } from "../db/database.ts";
import { badRequest, notFound } from "../contract/errors.ts";
import { HONEYPOT_FIELD, REVIEW_LIMITS, reviewSubmissionBody, type ModerationStatus, type SubmitReviewResponse } from "../contract/writes.ts";
import { detectLanguage, loadLanguageDetector } from "../import/reviews-csv.ts";
import type { MediaRepo } from "../media/media.repo.ts";
import { checkUpload, probeUpload, type MediaStore, type PreparedMedia, type UploadedFile } from "../media/media.service.ts";
import type { ModerationSetting, StoresRepo } from "../stores/stores.repo.ts";
import type { OrdersRepo } from "../orders/orders.repo.ts";
import type { RatedAttribute, ReviewsRepo } from "./reviews.repo.ts";
import type { ReviewsService, ScopeParams } from "./reviews.service.ts";
import type { SubmissionLimiter } from "./submission-limits.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { FormAttribute } from "../contract/widget-settings.ts";

/** Status of a new review under the store's moderation setting (default manual → pending). */
export function initialStatus(moderation: ModerationSetting, rating: number): ModerationStatus {
  if (moderation === "auto-publish-all") return "published";
  if (moderation === "auto-publish-4-5" && rating >= 4) return "published";
  return "pending";
}

/** Default alt text of a review image: "Photo of <product name>, rated N out of 5". */
export const defaultAlt = (productName: string, rating: number, kind: "image" | "video" = "image") => `${kind === "image" ? "Photo" : "Video"} of ${productName}, rated ${rating} out of 5`;

/**
 * Check a submission's attribute answers against the store's review form attributes `config` and give them
 * in the shapes a review carries. Titles match ignoring case (the configured spelling is stored).
 * - `attributesWithRating`: each title must be one of the scales, once; its answer 1..5 is stored as
 *   `range` 1..5, or, for a scale with a middle label, as `centered-range` -1..1 ((answer - 3) / 2, Okendo's
 *   shape for scales like Fit), with the scale's labels.
 * - `productAttributes`: a choice's title must answer one of its options (type `single-value`); other
 *   titles pass unchanged (attributes sent by other clients or imported).
 * - A `required` attribute without an answer is refused.
 * @throws ApiError 400 naming the field (`attributesWithRating[0].title: ...`).
 */
export function checkFormAttributes(
  config: FormAttribute[],
  sent: { productAttributes?: { title: string; type: string; value: string }[]; attributesWithRating?: { title: string; value: number }[] },
): { productAttributes?: { title: string; type: string; value: string }[]; attributesWithRating: RatedAttribute[] } {
  const find = (title: string) => config.find((a) => a.title.toLowerCase() === title.toLowerCase());
  const rated: RatedAttribute[] = [];
  for (const [i, r] of (sent.attributesWithRating ?? []).entries()) {
    const scale = find(r.title);
    if (scale?.kind !== "scale") {
      const scales = config.filter((a) => a.kind === "scale").map((a) => a.title);
      throw badRequest(`attributesWithRating[${i}].title: "${r.title}" is not a scale of this store's review form (${scales.length ? scales.join(", ") : "it has none"})`, "invalid_field");
    }
    if (rated.some((x) => x.title === scale.title)) throw badRequest(`attributesWithRating[${i}].title: "${scale.title}" is answered twice`, "invalid_field");
    const { title, minLabel, midLabel, maxLabel } = scale;
    rated.push(midLabel ? { title, type: "centered-range", value: (r.value - 3) / 2, minLabel, midLabel, maxLabel } : { title, type: "range", value: r.value, minLabel, midLabel, maxLabel });
  }
  const productAttributes = sent.productAttributes?.map((p, i) => {
    const choice = find(p.title);
    if (choice?.kind !== "choice") return p;
    const option = choice.options.find((o) => o.toLowerCase() === p.value.toLowerCase());
    if (option === undefined) throw badRequest(`productAttributes[${i}].value: "${p.value}" is not an option of ${choice.title} (${choice.options.join(", ")})`, "invalid_field");
    return { title: choice.title, type: p.type || "single-value", value: option };
  });
  for (const a of config) {
    if (!a.required) continue;
    const answered = a.kind === "scale" ? rated.some((r) => r.title === a.title) : productAttributes?.some((p) => p.title === a.title);
    if (!answered) throw badRequest(`${a.kind === "scale" ? "attributesWithRating" : "productAttributes"}: ${a.title} is required`, "invalid_field");
  }
  return { productAttributes, attributesWithRating: rated };
}

/**
 * Proof of purchase checked by a trusted caller, never read from the request body: `source` names the
 * proof (`review-request`: a signed review-request link; `shopper-token`: the platform's signed-in shopper
 * token; `merchant`), `orderId` the order it names, if any.
 */
export type VerifiedPurchase = { source: "review-request" | "shopper-token" | "merchant" | "import"; orderId?: string };

/**
 * `shopper`: the platform customer a trusted caller authenticated (the loyalty customer token, issued for
 * the platform's signed-in shopper token): the review is `verified-buyer` when that customer has an order
 * (not cancelled) containing the product (`shopper-token` proof naming the order).
 */
export type SubmissionInput = {
  fields: Record<string, unknown>;
  files: UploadedFile[];
  clientIp: string;
  verifiedPurchase?: VerifiedPurchase;
  shopper?: { platformCustomerId: string };
};

/** Create the submissions service. */
export function submissionsService(deps: {
  db: Db;
  reviews: ReviewsRepo;
  reviewsService: ReviewsService;
  stores: StoresRepo;
  media: MediaStore;
  mediaRows: MediaRepo;
  limiter: SubmissionLimiter;
  /** The order of a platform customer containing a product (orders.repo.ts `orderOfCustomer`). */
  orders?: Pick<OrdersRepo, "orderOfCustomer">;
  /** The product attributes a store's review form asks (widget-settings.service.ts `formAttributes`). */
  formAttributes: (storeId: string) => Promise<FormAttribute[]>;
}) {
  const { db, reviews, stores, media, limiter, formAttributes } = deps;

  return {
    /**
     * POST /products/{platform}-{id}/reviews (docs/writes.md, Endpoints). Creates a review with status from the
     * store's moderation setting; a filled honeypot answers the same 201 and stores nothing. The review is
     * `verified-buyer` only with `input.verifiedPurchase` (see the module comment), else `unverified`.
     * @returns 201 body `{ review: { reviewId, status } }`.
     * @throws ApiError 404 (store, product), 400 (a field or file breaking a rule, a video that is not the
     * container it claims; the description names it), 413 (file too large, image over MAX_INPUT_PIXELS), 429 (rate limit).
     */
    async submitReview(params: ScopeParams, input: SubmissionInput): Promise<SubmitReviewResponse> {
      const { store, scope } = await deps.reviewsService.resolveScope(params);
      if (scope.type !== "product") throw notFound("Product not found", "product_not_found");
      const product = await stores.getProduct(store.storeId, scope.productId);
      if (!product) throw notFound("Product not found", "product_not_found");

      const honeypot = input.fields[HONEYPOT_FIELD];
      if (typeof honeypot === "string" ? honeypot.trim() !== "" : honeypot != null) {
        return { review: { reviewId: randomUUID(), status: "pending" } };
      }
      const parsed = reviewSubmissionBody.safeParse(input.fields);
      if (!parsed.success) throw badRequest(zodIssue(parsed.error), "invalid_field");
      const body = parsed.data;
      const attributes = checkFormAttributes(await formAttributes(store.storeId), body);

      const kinds = input.files.map((f, i) => checkUpload(f, i));
      const images = kinds.filter((k) => k === "image").length;
      const videos = kinds.length - images;
      if (images > REVIEW_LIMITS.images) throw badRequest(`media: at most ${REVIEW_LIMITS.images} images per review (got ${images})`, "too_many_media");
      if (videos > REVIEW_LIMITS.videos) throw badRequest(`media: at most ${REVIEW_LIMITS.videos} video per review (got ${videos})`, "too_many_media");
      if (body.alt.length > input.files.length) throw badRequest("alt: one alt text per media file at most", "invalid_field");
      // Every file's header or container is checked before any image is decoded.
      for (const [i, f] of input.files.entries()) await probeUpload(f, kinds[i], i);

      await limiter.consume(input.clientIp, body.email);

      const prepared: PreparedMedia[] = [];
      for (const [i, f] of input.files.entries()) prepared.push(await media.prepare(f, kinds[i], i));

      await loadLanguageDetector();
      const reviewId = randomUUID();
      const status = initialStatus(store.moderation, body.rating);
      const shopperOrder = input.shopper && (await deps.orders?.orderOfCustomer(store.storeId, input.shopper.platformCustomerId, product.productId));
      const proof: VerifiedPurchase | undefined = input.verifiedPurchase ?? (shopperOrder ? { source: "shopper-token", orderId: shopperOrder } : undefined);
      const now = Date.now();
      const stored = media.write(store.storeId, prepared);
      try {
        await transaction(db, async () => {
          await reviews.insert({
            reviewId,
            storeId: store.storeId,
            productId: product.productId,
            rating: body.rating,
            title: body.title,
            body: body.body,
            createdMs: now,
            status,
            reviewerName: body.displayName,
            reviewerEmail: body.email.toLowerCase(),
            verifiedStatus: proof ? "verified-buyer" : "unverified",
            isRecommended: body.isRecommended ?? null,
            languageCode: detectLanguage(`${body.title}. ${body.body}`),
            variantId: body.variantId || null,
            productAttributes: attributes.productAttributes,
            attributesWithRating: attributes.attributesWithRating,
          });
          for (const [i, m] of stored.entries()) {
            const alt = body.alt[i] || defaultAlt(product.name, body.rating, m.kind);
            await deps.mediaRows.insertMedia(store.storeId, reviewId, m, { alt, position: i, createdMs: now + i });
          }
        });
      } catch (error) {
        media.remove(
          store.storeId,
          stored.map((m) => m.mediaId),
        );
        throw error;
      }
      return { review: { reviewId, status } };
    },

    /** Delete upload temp files (videos streamed to disk), whatever happened. */
    cleanup(files: UploadedFile[]): void {
      for (const f of files) if (f.tempPath) rmSync(f.tempPath, { force: true });
    },
  };
}
export type SubmissionsService = ReturnType<typeof submissionsService>;
