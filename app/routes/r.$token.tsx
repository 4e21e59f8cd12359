/**
 * The hosted review page of a review-request link (`/r/{token}`, docs/review-requests.md): the product
 * named and pictured, the rating from the e-mail's star link (`?rating=1..5`) pre-filled, and the usual
 * form (rating, title, review, name, recommend, photos and a video). Works without JavaScript (a plain
 * multipart form and redirect-after-POST); states: open, thank you, already used, expired, not valid.
 * The review goes through the submissions service as a verified-buyer review (proof: the link). When the store asks
 * for shop ratings, the thank-you and "already reviewed" states offer one (RateShopForm, posting to `/r/{token}/shop`).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useParams } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { REVIEW_LIMITS } from "../../server/contract/writes.ts";
import { RateShopForm } from "~/components/RateShopForm";
import { withGentleCancel } from "~/lib/admin.server";
import { PostReviewSurveySection } from "~/components/HostedSurveyForm";
import { answerPostReviewSurvey, postReviewSurvey } from "~/lib/hosted-survey.server";
import { readSubmission } from "~/lib/writes.server";
import { REVIEW_PAGE_HEADERS as HEADERS, reviewPageHeaders, reviewPageLinks } from "~/lib/review-page";

export const links = reviewPageLinks;
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.link.state === "open" ? `Review ${d.link.product.name} · ${d.link.storeName}` : "Write a review" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

/** Never cached or indexed; the token never sent to another site (app/lib/review-page.ts). */
export const headers = reviewPageHeaders;

const FIELDS = ["rating", "title", "body", "displayName", "isRecommended", "media"] as const;
type Field = (typeof FIELDS)[number];

/** The form field a submission error names ("body is required" → body), for the per-field message. */
function fieldOf(description: string): Field | "form" {
  const first = description.split(/[\s:.[]/)[0];
  if (first === "alt") return "media";
  return (FIELDS as readonly string[]).includes(first) ? (first as Field) : "form";
}

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const rating = Number(url.searchParams.get("rating"));
  const done = url.searchParams.get("done");
  const link = await context.services.reviewRequests.openReviewLink(params.token ?? "");
  const status = link.state === "invalid" ? 404 : link.state === "expired" && done === null ? 410 : 200;
  // After the review, the store's post-review survey follows on the thank-you page (docs/surveys.md "Post-review").
  const followUp = done !== null && link.state === "used" ? ((await postReviewSurvey(context.services, request, link)) ?? null) : null;
  // The "rate the shop" step after the product review, when the store asks for it (docs/review-requests.md "Rate the shop").
  const shop = link.state === "used" ? await context.services.reviewRequests.shopRatingLink(params.token ?? "") : null;
  const shopRating = shop?.state === "open" ? { storeName: shop.storeName, customerName: shop.customerName } : null;
  const { email: _email, orderId: _orderId, ...shown } = link.state === "used" ? link : { ...link, email: "", orderId: "" };
  return data(
    {
      link: shown as typeof link,
      followUp,
      shopRating,
      rating: Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : null,
      done: done === "published" || done === "pending" ? done : null,
    },
    { status, headers: HEADERS },
  );
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const { services } = context;
  const token = params.token ?? "";
  // A link that does not work (or no longer) is answered before its body is read.
  const link = await services.reviewRequests.openReviewLink(token);
  // The post-review survey's plain form under the thank-you posts here too (docs/surveys.md "Post-review").
  const survey = link.state === "used" && new URL(request.url).searchParams.has("survey") ? await answerPostReviewSurvey(services, context.clientIp, request, token, link) : undefined;
  if (survey && "redirect" in survey) return redirect(survey.redirect, { headers: HEADERS });
  if (survey) return data({ error: null, values: {} as Record<string, string>, survey: survey.refused }, { status: survey.status, headers: HEADERS });
  if (link.state !== "open") {
    const [status, code, message] =
      link.state === "invalid"
        ? [404, "link_not_found", "This review link is not valid"]
        : link.state === "used"
          ? [410, "link_used", "This link was already used to review this product"]
          : [410, "link_expired", "This review link has expired"];
    return data({ error: { field: "form" as const, message, code }, values: {} as Record<string, string> }, { status, headers: { ...HEADERS, Connection: "close" } });
  }
  let input: Awaited<ReturnType<typeof readSubmission>> | null = null;
  try {
    // Gently cancellable: a refused upload (413) still gets its page, and the connection then closes.
    input = await readSubmission(withGentleCancel(request), () => services.media.tempDir());
    const result = await services.reviewRequests.submitReview(token, { ...input, clientIp: context.clientIp });
    return redirect(`/r/${encodeURIComponent(token)}?done=${result.review.status === "published" ? "published" : "pending"}`, { headers: HEADERS });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const values = input ? (Object.fromEntries(Object.entries(input.fields).filter(([k, v]) => typeof v === "string" && k !== "media")) as Record<string, string>) : {};
    const close: Record<string, string> = error.status === 413 || !input ? { Connection: "close" } : {};
    return data({ error: { field: fieldOf(error.message), message: error.message, code: error.code }, values }, { status: error.status, headers: { ...HEADERS, ...close } });
  }
}

const Product = ({ product }: { product: { name: string; imageUrl: string | null } }) => (
  <div className="product">
    {product.imageUrl ? <img src={product.imageUrl} alt="" width={96} height={96} /> : null}
    <p>
      <strong>{product.name}</strong>
    </p>
  </div>
);

export default function HostedReviewPage() {
  const { link, rating, done, followUp, shopRating } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const token = useParams().token ?? "";
  const rateShop = shopRating ? <RateShopForm token={token} {...shopRating} /> : null;
  if (done) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        {"storeName" in link ? <p className="store">{link.storeName}</p> : null}
        <h1 id="title">Thank you for your review!</h1>
        <p role="status">{done === "published" ? "Your review is published. It helps other shoppers choose." : "Your review was received. It is published once the shop has checked it."}</p>
        {link.state === "used" ? <Product product={link.product} /> : null}
        {rateShop}
        {followUp && "storeName" in link ? <PostReviewSurveySection survey={followUp} storeName={link.storeName} done={done} result={result && "survey" in result ? result.survey : null} /> : null}
      </main>
    );
  }
  if (link.state === "invalid") {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <h1 id="title">This link does not work</h1>
        <p className="alert" role="alert">
          We could not find this review link. Check that the whole address from the e-mail was opened.
        </p>
      </main>
    );
  }
  if (link.state === "expired") {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{link.storeName}</p>
        <h1 id="title">This review link has expired</h1>
        <p className="alert" role="alert">
          Review links work for 60 days, and not for cancelled orders. You can still review the product on {link.storeName}'s product page.
        </p>
      </main>
    );
  }
  if (link.state === "used") {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{link.storeName}</p>
        <h1 id="title">You already reviewed this product</h1>
        <Product product={link.product} />
        <p className="notice" role="status">
          This link was used for a review of {link.product.name} already. Each link works for one review. Thank you!
        </p>
        {rateShop}
      </main>
    );
  }
  const error = result?.error;
  const values: Record<string, string> = result?.values ?? {};
  const checked = Number(values.rating ?? rating ?? 0);
  const invalid = (f: Field) => (error?.field === f ? { "aria-invalid": true as const, "aria-describedby": `${f}-error` } : {});
  const message = (f: Field) =>
    error?.field === f ? (
      <span id={`${f}-error`} className="field-error">
        {error.message}
      </span>
    ) : null;
  return (
    <main id="main" className="hosted" aria-labelledby="title">
      <p className="store">{link.storeName}</p>
      <h1 id="title">Review {link.product.name}</h1>
      <Product product={link.product} />
      {error ? (
        <p className="alert" role="alert">
          {error.field === "form" ? error.message : "The review was not sent: please correct the field marked below."}
          {error.code === "link_used" || error.code === "link_expired" ? null : " Photos and videos you chose must be chosen again."}
        </p>
      ) : null}
      <p className="hint">
        You bought this product{link.customerName ? ` as ${link.customerName}` : ""}: your review will show a “Verified buyer” badge.{" "}
        {link.moderation === "auto-publish-all"
          ? "It is published at once."
          : `${link.moderation === "auto-publish-4-5" ? "Reviews of 4 and 5 stars are published at once; others after the shop checked them" : "It is published after the shop checked it"}${link.publishHeldAfterDays === null ? "." : `, or after ${link.publishHeldAfterDays} days at the latest unless the shop rejects it.`}`}
      </p>
      <form method="post" encType="multipart/form-data" noValidate>
        <fieldset>
          <legend>Your rating (required)</legend>
          <div className="rating">
            {[5, 4, 3, 2, 1].map((n) => (
              <label key={n} className="choice">
                <input type="radio" name="rating" value={n} defaultChecked={checked === n} required aria-describedby={error?.field === "rating" ? "rating-error" : undefined} /> {n}{" "}
                {n === 1 ? "star" : "stars"}
              </label>
            ))}
          </div>
          {message("rating")}
        </fieldset>
        <label htmlFor="title-input">Title (optional)</label>
        <input id="title-input" type="text" name="title" maxLength={REVIEW_LIMITS.titleMax} defaultValue={values.title ?? ""} {...invalid("title")} />
        {message("title")}
        <label htmlFor="body-input">Your review (required)</label>
        <textarea id="body-input" name="body" rows={6} maxLength={REVIEW_LIMITS.bodyMax} required defaultValue={values.body ?? ""} {...invalid("body")} />
        {message("body")}
        <label htmlFor="name-input">Name shown with your review (required)</label>
        <input
          id="name-input"
          type="text"
          name="displayName"
          autoComplete="name"
          maxLength={REVIEW_LIMITS.displayNameMax}
          required
          defaultValue={values.displayName ?? link.customerName ?? ""}
          {...invalid("displayName")}
        />
        {message("displayName")}
        <fieldset>
          <legend>Would you recommend it?</legend>
          <label className="choice">
            <input type="radio" name="isRecommended" value="true" defaultChecked={values.isRecommended === "true"} /> Yes
          </label>{" "}
          <label className="choice">
            <input type="radio" name="isRecommended" value="false" defaultChecked={values.isRecommended === "false"} /> No
          </label>
          {message("isRecommended")}
        </fieldset>
        <label htmlFor="media-input">Photos and video (optional)</label>
        <p className="hint" id="media-hint">
          Up to {REVIEW_LIMITS.images} photos ({REVIEW_LIMITS.imageBytes / 1024 / 1024} MB each) and {REVIEW_LIMITS.videos} video ({REVIEW_LIMITS.videoBytes / 1024 / 1024} MB).
        </p>
        <input
          id="media-input"
          type="file"
          name="media"
          multiple
          accept="image/*,video/*"
          aria-describedby={error?.field === "media" ? "media-hint media-error" : "media-hint"}
          aria-invalid={error?.field === "media" ? true : undefined}
        />
        {message("media")}
        <button type="submit">Send review</button>
      </form>
    </main>
  );
}
