/**
 * The "rate the shop" step of the hosted review page (docs/review-requests.md "Rate the shop"): a plain form (no
 * JavaScript needed) posting to `/r/{token}/shop` with the shop's star rating (required), a title (optional) and the
 * review text (required: Google's merchant review feed only takes reviews with text) and the name shown. Shown
 * on the thank-you page of a review link and on `/r/{token}/shop` itself (with the field errors of a refused post).
 * IDs are prefixed `shop-` so it can sit beside the product review form.
 */
import { REVIEW_LIMITS } from "../../server/contract/writes.ts";

/** A form field of the step. */
export type ShopField = "rating" | "title" | "body" | "displayName";
const FIELDS: readonly ShopField[] = ["rating", "title", "body", "displayName"];

/** The field a store review's 400 description names ("body is required" → body), else the whole form. */
export function shopFieldOf(description: string): ShopField | "form" {
  const first = description.split(/[\s:.[]/)[0] as ShopField;
  return FIELDS.includes(first) ? first : "form";
}

export function RateShopForm({
  token,
  storeName,
  customerName,
  heading: Heading = "h2",
  error,
  values = {},
}: {
  token: string;
  storeName: string;
  customerName: string | null;
  heading?: "h1" | "h2";
  error?: { field: ShopField | "form"; message: string };
  values?: Record<string, string>;
}) {
  const checked = Number(values.rating ?? 0);
  const invalid = (f: ShopField) => (error?.field === f ? { "aria-invalid": true as const, "aria-describedby": `shop-${f}-error` } : {});
  const message = (f: ShopField) =>
    error?.field === f ? (
      <span id={`shop-${f}-error`} className="field-error">
        {error.message}
      </span>
    ) : null;
  return (
    <section className="rate-shop" aria-labelledby="rate-shop-title">
      <Heading id="rate-shop-title">{`Rate ${storeName}`}</Heading>
      <p className="hint">How was shopping with {storeName}: the service, the delivery, the packaging? Your shop review shows with your order as from a verified buyer.</p>
      {error ? (
        <p className="alert" role="alert">
          {error.field === "form" ? error.message : "The shop rating was not sent: please correct the field marked below."}
        </p>
      ) : null}
      <form method="post" action={`/r/${encodeURIComponent(token)}/shop`} noValidate>
        <fieldset>
          <legend>Your rating of the shop (required)</legend>
          <div className="rating">
            {[5, 4, 3, 2, 1].map((n) => (
              <label key={n} className="choice">
                <input type="radio" name="rating" value={n} defaultChecked={checked === n} required aria-describedby={error?.field === "rating" ? "shop-rating-error" : undefined} /> {n}{" "}
                {n === 1 ? "star" : "stars"}
              </label>
            ))}
          </div>
          {message("rating")}
        </fieldset>
        <label htmlFor="shop-title-input">Title (optional)</label>
        <input id="shop-title-input" type="text" name="title" maxLength={REVIEW_LIMITS.titleMax} defaultValue={values.title ?? ""} {...invalid("title")} />
        {message("title")}
        <label htmlFor="shop-body-input">Your review of the shop (required)</label>
        <textarea id="shop-body-input" name="body" rows={4} maxLength={REVIEW_LIMITS.bodyMax} required defaultValue={values.body ?? ""} {...invalid("body")} />
        {message("body")}
        <label htmlFor="shop-name-input">Name shown with your shop review (required)</label>
        <input
          id="shop-name-input"
          type="text"
          name="displayName"
          autoComplete="name"
          maxLength={REVIEW_LIMITS.displayNameMax}
          required
          defaultValue={values.displayName ?? customerName ?? ""}
          {...invalid("displayName")}
        />
        {message("displayName")}
        <button type="submit">Send shop rating</button>
      </form>
    </section>
  );
}
