import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { DAY_MS, queueQuerySchema, REJECTION_REASONS } from "../../server/admin/moderation.service.ts";
import { DEFAULT_PUBLISH_HELD_AFTER_DAYS, heldPublishMs } from "../../server/admin/held-reviews.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { BulkModerationForm, ModerationButtons, RejectWithReason, StatusBadge, StatusFilter } from "~/components/Moderation";
import { Flash } from "~/components/Flash";
import { Stars } from "~/components/Stars";
import { adminHeaders, field, httpError, requireStore, requireStoreAction } from "~/lib/admin.server";
import { MODERATION_OPTIONS } from "~/components/moderation-options";
import { moderationIntent, moderationSchema } from "~/lib/admin-forms.server";

export const meta: MetaFunction = () => [{ title: "Reviews · Chorus admin" }];
export const headers = adminHeaders;

/** The moderation queue: reviews of one status (pending by default), filtered, newest first, keyset paged. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const parsed = queueQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw httpError(400, parsed.error.issues[0]?.message ?? "Bad filter");
  let page;
  try {
    page = await context.services.moderation.queue(store.storeId, parsed.data);
  } catch (error) {
    if (isApiError(error)) throw httpError(error.status, "This page link is no longer valid (the filter changed). Start again from the first page.");
    throw error;
  }
  const nowMs = Date.now();
  return {
    store: { storeId: store.storeId, platform: store.platform, moderation: store.moderation, publishHeldAfterDays: store.publishHeldAfterDays },
    rejectReasons: REJECTION_REASONS,
    defaultHeldDays: DEFAULT_PUBLISH_HELD_AFTER_DAYS,
    query: { status: parsed.data.status, rating: parsed.data.rating ? String(parsed.data.rating) : "", product: parsed.data.product ?? "", media: parsed.data.media ?? "" },
    next: page.next,
    reviews: page.reviews.map((r) => ({
      reviewId: r.review_id,
      productId: r.product_id,
      productName: r.product_name,
      rating: r.rating,
      title: r.title,
      body: r.body,
      dateCreated: new Date(r.created_ms).toISOString(),
      status: r.status,
      reviewerName: r.reviewer_name,
      reviewerEmail: r.reviewer_email,
      reply: r.reply_body,
      mediaTotal: r.media_total,
      incentivized: r.is_incentivized === 1,
      ageDays: Math.max(0, Math.floor((nowMs - r.created_ms) / DAY_MS)),
      autoPublish: r.status === "pending" ? isoOrNull(heldPublishMs(r.created_ms, store.publishHeldAfterDays)) : null,
      rejectionReason: r.rejection_reason ? (REJECTION_REASONS.find((x) => x.value === r.rejection_reason)?.label ?? r.rejection_reason) : null,
      rejectionNote: r.rejection_note,
      moderationNote: r.moderation_note,
      media: r.media.map((m) => ({ mediaId: m.media_id, type: m.type, pending: m.status === "pending", thumbnailUrl: m.thumbnail_url, fullSizeUrl: m.full_size_url, alt: m.alt })),
    })),
  };
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** "less than a day", "1 day", "3 days". */
const age = (days: number) => (days === 0 ? "less than a day" : `${days} day${days === 1 ? "" : "s"}`);

/**
 * The held-reviews fields of the moderation form: `heldReviews` "publish" with `publishHeldAfterDays` 1–365, or
 * "never" (an explicit choice). @returns the value to store, undefined when the form has no such field, or an error.
 */
function heldReviewsField(form: FormData): { days?: number | null; error?: string } {
  const choice = form.get("heldReviews");
  if (choice === null) return {};
  if (choice === "never") return { days: null };
  const raw = String(form.get("publishHeldAfterDays") ?? "").trim();
  const days = Number(raw);
  if (choice !== "publish" || !/^\d+$/.test(raw) || days < 1 || days > 365) return { error: "Publish held reviews after: enter a whole number of days from 1 to 365." };
  return { days };
}

/**
 * Intents: publish / reject (one review; a rejection needs `reason`, and with "other" takes `reasonNote`),
 * bulk-publish / bulk-reject (checked reviews), reply, moderation (the rule for new reviews and held reviews).
 * A review of another store is not found (404) and never changed.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { moderation, stores } = context.services;
  const intent = field(form, "intent");
  try {
    const moderated = await moderationIntent(intent, form, "review", "review", (ids, status) =>
      moderation.setStatus(store.storeId, ids, status, { reason: String(form.get("reason") ?? ""), note: String(form.get("reasonNote") ?? "") }),
    );
    if (moderated) return moderated;
    switch (intent) {
      case "reply": {
        const text = String(form.get("reply") ?? "");
        await moderation.setReply(store.storeId, field(form, "review"), text);
        return { ok: text.trim() ? "Reply saved. It shows under the review on your store." : "Reply removed." };
      }
      case "moderation": {
        const parsed = moderationSchema.safeParse(field(form, "moderation"));
        if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
        const held = heldReviewsField(form);
        if (held.error) return data({ error: held.error }, { status: 400 });
        await stores.updateSettings(store.storeId, { moderation: parsed.data, ...(held.days !== undefined ? { publishHeldAfterDays: held.days } : {}) });
        return { ok: "Moderation setting saved." };
      }
      default:
        return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
    }
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function Reviews() {
  const { store, query, reviews, next, rejectReasons, defaultHeldDays } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const base = `/admin/stores/${store.storeId}/reviews`;
  const nextParams = new URLSearchParams({ ...query, ...(next ? { after: next } : {}) });
  const heading = { pending: "Reviews waiting for moderation", published: "Published reviews", rejected: "Rejected reviews" }[query.status];

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Reviews</h1>
      <Flash result={result} />

      <details className="panel">
        <summary>
          Moderation setting: {MODERATION_OPTIONS.find((o) => o.value === store.moderation)?.label};{" "}
          {store.publishHeldAfterDays === null ? "held reviews wait until someone moderates them" : `held reviews are published after ${age(store.publishHeldAfterDays)}`}
        </summary>
        <Form method="post" className="stack">
          <CsrfField />
          <input type="hidden" name="intent" value="moderation" />
          <fieldset>
            <legend>New reviews</legend>
            {MODERATION_OPTIONS.map((o) => (
              <label key={o.value} className="choice">
                <input type="radio" name="moderation" value={o.value} defaultChecked={store.moderation === o.value} /> {o.label}
              </label>
            ))}
          </fieldset>
          <fieldset aria-describedby="held-ftc">
            <legend>Reviews nobody moderates</legend>
            <label className="choice">
              <input type="radio" name="heldReviews" value="publish" defaultChecked={store.publishHeldAfterDays !== null} /> Publish held reviews automatically
            </label>
            <label htmlFor="held-days">Publish a review still waiting after (days)</label>
            <input
              id="held-days"
              name="publishHeldAfterDays"
              type="number"
              min={1}
              max={365}
              step={1}
              inputMode="numeric"
              defaultValue={store.publishHeldAfterDays ?? defaultHeldDays}
              className="narrow"
            />
            <label className="choice">
              <input type="radio" name="heldReviews" value="never" defaultChecked={store.publishHeldAfterDays === null} /> Never: keep held reviews waiting until someone moderates them
            </label>
            <p id="held-ftc" className="muted">
              A review you neither publish nor reject is published after this many days (default {defaultHeldDays}). Holding lower ratings forever shows shoppers only good reviews, which the FTC rule
              on review suppression (16 CFR 465.7) forbids.
            </p>
          </fieldset>
          <button type="submit">Save moderation setting</button>
        </Form>
      </details>

      <Form method="get" className="filters" aria-label="Filter reviews">
        <StatusFilter value={query.status} />
        <div>
          <label htmlFor="f-rating">Rating</label>
          <select id="f-rating" name="rating" defaultValue={query.rating}>
            <option value="">Any</option>
            {[5, 4, 3, 2, 1].map((n) => (
              <option key={n} value={n}>
                {n} star{n === 1 ? "" : "s"}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="f-product">Product ID</label>
          <input id="f-product" name="product" defaultValue={query.product} placeholder={`e.g. ${store.platform}-1078`} />
        </div>
        <div>
          <label htmlFor="f-media">Media</label>
          <select id="f-media" name="media" defaultValue={query.media}>
            <option value="">Any</option>
            <option value="yes">With photos or video</option>
            <option value="no">Without media</option>
          </select>
        </div>
        <button type="submit" className="secondary">
          Apply filters
        </button>
      </Form>

      <h2>{heading}</h2>
      {reviews.length === 0 ? (
        <p className="empty" role="status">
          {query.status === "pending" ? "Nothing waiting: every review matching these filters has been moderated." : "No reviews match these filters."}
        </p>
      ) : (
        <>
          <BulkModerationForm status={query.status} noun="reviews" busy={busy} rejectReasons={rejectReasons} />
          <ol className="review-list" aria-busy={busy}>
            {reviews.map((r) => (
              <li key={r.reviewId} className="review">
                <article aria-labelledby={`t-${r.reviewId}`}>
                  <div className="review-head">
                    <input type="checkbox" form="bulk" name="review" value={r.reviewId} id={`c-${r.reviewId}`} aria-labelledby={`t-${r.reviewId}`} />
                    <h3 id={`t-${r.reviewId}`}>{r.title || "(no title)"}</h3>
                  </div>
                  <p className="meta">
                    <Stars rating={r.rating} /> · {r.productName} (
                    <code>
                      {store.platform}-{r.productId}
                    </code>
                    ) · {r.reviewerName}
                    {r.reviewerEmail ? ` <${r.reviewerEmail}>` : ""} · <time dateTime={r.dateCreated}>{r.dateCreated.slice(0, 10)}</time>
                    {r.mediaTotal ? ` · ${r.mediaTotal} media` : ""} · <StatusBadge status={r.status} />
                    {r.incentivized ? (
                      <>
                        {" "}
                        ·{" "}
                        <span className="badge" data-testid="incentivized">
                          Received a reward for this review
                        </span>
                      </>
                    ) : null}
                  </p>
                  {r.status === "pending" ? (
                    <p className="held" data-testid="held">
                      Waiting {age(r.ageDays)}.{" "}
                      {r.autoPublish ? (
                        <>
                          Published automatically on <time dateTime={r.autoPublish}>{r.autoPublish.slice(0, 10)}</time> unless you reject it.
                        </>
                      ) : (
                        "Not published automatically (held reviews wait until someone moderates them)."
                      )}
                    </p>
                  ) : null}
                  {r.rejectionReason ? (
                    <p className="held" data-testid="rejection-reason">
                      Rejected: {r.rejectionReason}
                      {r.rejectionNote ? ` (${r.rejectionNote})` : ""}
                    </p>
                  ) : null}
                  {r.moderationNote && r.status === "published" ? (
                    <p className="held" data-testid="moderation-note">
                      {r.moderationNote}
                    </p>
                  ) : null}
                  <p className="review-body">{r.body || <em>(no text)</em>}</p>
                  {r.media.length ? (
                    <ul className="thumbs" aria-label="Photos and videos of this review">
                      {r.media.map((m, i) => (
                        <li key={m.mediaId}>
                          <a href={m.fullSizeUrl} target="_blank" rel="noreferrer">
                            <img
                              src={m.thumbnailUrl}
                              alt={m.alt || `${m.type === "video" ? "Video" : "Photo"} ${i + 1} of the review${m.pending ? " (waiting)" : ""}`}
                              width={80}
                              height={80}
                              loading="lazy"
                            />
                          </a>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {r.reply ? (
                    <div className="reply">
                      <p className="muted">Your public reply:</p>
                      <p className="reply-body">{r.reply}</p>
                    </div>
                  ) : null}
                  <div className="review-actions">
                    <ModerationButtons field="review" id={r.reviewId} status={r.status} busy={busy} describedBy={`t-${r.reviewId}`} noReject />
                    {r.status !== "rejected" ? <RejectWithReason field="review" id={r.reviewId} busy={busy} describedBy={`t-${r.reviewId}`} reasons={rejectReasons} noun="review" /> : null}
                    <details>
                      <summary>{r.reply ? "Edit reply" : "Reply publicly"}</summary>
                      <Form method="post" className="stack">
                        <CsrfField />
                        <input type="hidden" name="intent" value="reply" />
                        <input type="hidden" name="review" value={r.reviewId} />
                        <label htmlFor={`reply-${r.reviewId}`}>Public reply (plain text; leave empty to remove)</label>
                        <textarea id={`reply-${r.reviewId}`} name="reply" rows={3} maxLength={5000} defaultValue={r.reply ?? ""} />
                        <button type="submit" disabled={busy}>
                          Save reply
                        </button>
                      </Form>
                    </details>
                  </div>
                </article>
              </li>
            ))}
          </ol>
        </>
      )}
      <nav className="pager" aria-label="Pages">
        <Link to={`${base}?${new URLSearchParams(query)}`}>First page</Link>
        {next ? (
          <Link to={`${base}?${nextParams}`} rel="next">
            Next page
          </Link>
        ) : (
          <span className="muted">No more reviews</span>
        )}
      </nav>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
