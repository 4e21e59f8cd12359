/** The `<chorus-review-form>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { css, html, nothing } from "lit";
import type { SubmitReviewResponse } from "../../server/contract/writes.ts";
import { postJson, ApiRequestError } from "../internal/api.ts";
import { platformTokenOf } from "../internal/customer-token.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { tokens } from "../internal/tokens.ts";
import { emailError, focusAfterUpdate, formStyles, honeypot } from "../internal/form.ts";
import { controls } from "../internal/ui.ts";
import { REVIEW_FORM_TEXTS } from "../../server/contract/widget-strings/review-form.ts";
import type { StorefrontWidgetSettings } from "../internal/settings.ts";

type Attribute = StorefrontWidgetSettings["reviewForm"]["attributes"][number];

/** Client-side limits (the server enforces the same ones: server/contract/writes.ts). */
const LIMITS = { title: 150, body: 5000, name: 60, images: 5, videos: 1, imageBytes: 10 * 1024 * 1024, videoBytes: 100 * 1024 * 1024 };
const FIELDS = ["rating", "title", "body", "displayName", "email", "media"] as const;
/** A form field, or `a<N>`: the merchant's attribute N. */
type Field = (typeof FIELDS)[number] | `a${number}`;
type Picked = { file: File; url: string; kind: "image" | "video"; id: number };

/**
 * @summary "Write a review" form: star rating as labelled radio buttons, title, text, the product attributes
 * the merchant configured (widget settings `reviewForm.attributes`: a scale as a 1-5 radio group with the
 * merchant's labels at the ends, a choice as a select; sent as `attributesWithRating` / `productAttributes`),
 * name, e-mail, recommendation, and a photo/video picker with previews; posts to
 * `POST /products/{product-id}/reviews` (docs/writes.md, Endpoints) as multipart.
 *
 * With `store-review`, the form collects a review of the shop itself instead (a store review for Google seller
 * ratings, docs/google-shopping.md "Seller ratings"): rating, title, text, name and e-mail only (no product, product
 * attributes, recommendation or media), posted as JSON to `POST /v1/stores/{store-id}/store_reviews`, with the
 * same states (validation messages, success, error with retry).
 *
 * @tag chorus-review-form
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID (e.g. `shopify-1078`); not used with `store-review`
 * @attr store-review - a "rate our shop" form: the review is of the store itself (a store review, for Google seller ratings), not of a product
 * @attr api-base - origin of the Chorus server (default: where chorus.js came from)
 * @attr customer-token - the storefront platform's token of a signed-in shopper (else the page's
 *   `chorus-customer-token` script tag, as for `<chorus-loyalty>`): with a loyalty program on, the review is
 *   sent as that customer's, and is from a verified buyer when the shop's orders show they bought the product. Without
 *   it, or when the token is refused, the review is sent like any shopper's; an e-mail address alone never verifies
 * @event chorus-review-submitted - `{ reviewId, status, storeReview }` after the server accepted the review (`status` is `pending` until the store publishes it; `storeReview` is true for a review of the shop)
 * @slot survey - the store's post-review survey, a `<chorus-survey>` the form adds after a review when the store has one enabled
 * @csspart form - the form
 * @csspart submit - the submit button
 * @csspart media-picker - the "Add photos or a video" button (the file input's label; the attached files show as thumbnails below it; not in a `store-review` form)
 * @csspart message - the success message
 * @csspart error - an error message
 * @cssproperty --chorus-accent - buttons and focus ring (see widgets/internal/tokens.ts for all tokens)
 */
@chorusElement("chorus-review-form")
export class ChorusReviewForm extends ChorusElement {
  static widget = "reviews" as const;
  static defaults = REVIEW_FORM_TEXTS;
  static properties = {
    customerToken: { attribute: "customer-token" },
    storeReview: { attribute: "store-review", type: Boolean, reflect: true },
    rating: { state: true },
    files: { state: true },
    errors: { state: true },
    busy: { state: true },
    result: { state: true },
    attrs: { state: true },
  };
  static styles = [
    tokens,
    controls,
    formStyles,
    css`
      :host {
        display: block;
      }
      fieldset {
        border: 0;
        padding: 0;
        margin: 0;
      }
      .stars {
        display: inline-flex;
        gap: 2px;
      }
      .star {
        position: relative;
        display: inline-block;
      }
      .star input {
        position: absolute;
        inset: 0;
        width: 100%;
        height: 100%;
        margin: 0;
        opacity: 0;
        cursor: pointer;
      }
      .star label {
        display: block;
        cursor: pointer;
        font-size: 28px;
        line-height: 1;
        color: var(--_star-empty);
        padding: 2px;
      }
      .star.on label {
        color: var(--_star);
      }
      .star input:focus-visible + label {
        outline: 3px solid var(--_accent);
        outline-offset: 1px;
        border-radius: 4px;
      }
      textarea {
        min-height: 120px;
        resize: vertical;
      }
      .hint {
        color: var(--_muted);
        font-size: 0.875em;
        margin: 2px 0 0;
      }
      .check {
        display: flex;
        gap: 8px;
        align-items: center;
      }
      /* The file input is hidden (no "No file chosen" beside the thumbnails): its label is the button, focus ring included. */
      .pick {
        display: inline-block;
      }
      input:focus-visible + .pick {
        outline: 3px solid var(--_accent);
        outline-offset: 2px;
      }
      .previews {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
        list-style: none;
        padding: 0;
        margin: 8px 0 0;
      }
      .previews li {
        position: relative;
        width: 96px;
      }
      .previews img,
      .previews video {
        width: 96px;
        height: 96px;
        object-fit: cover;
        border-radius: 6px;
        display: block;
        background: #eee;
      }
      .previews button {
        margin-top: 4px;
        width: 100%;
        font-size: 0.8em;
        padding: 0.2rem;
      }
      .scale {
        display: grid;
        grid-template-columns: repeat(5, minmax(2.5em, 4em));
        gap: 4px;
        font-size: 0.875em;
      }
      .scale label {
        display: flex;
        flex-direction: column;
        align-items: center;
        cursor: pointer;
      }
      .scale [aria-hidden] {
        grid-row: 2;
        text-align: center;
        color: var(--_muted);
      }
      select {
        font: inherit;
        padding: 8px;
        border: 1px solid var(--_muted);
        border-radius: 6px;
        background: transparent;
        color: inherit;
      }
    `,
  ];

  customerToken = "";
  /** A "rate our shop" form: the review is of the store itself (a store review, for Google seller ratings), not of a product. */
  storeReview = false;
  rating = 0;
  files: Picked[] = [];
  errors: Partial<Record<Field | "form", string>> = {};
  busy = false;
  result: SubmitReviewResponse["review"] | null = null;
  /** The product attributes the store's review form asks (its widget settings). */
  attrs: Attribute[] = [];
  #nextId = 1;

  disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const f of this.files) URL.revokeObjectURL(f.url);
  }

  protected applySettings(settings: StorefrontWidgetSettings | null): void {
    super.applySettings(settings);
    const attrs = settings?.reviewForm?.attributes ?? [];
    if (attrs.length || this.attrs.length) this.attrs = attrs;
  }

  #fid(name: string): string {
    return `crf-${name}`;
  }

  #describedBy(field: Field, hint = false): string {
    return [hint ? this.#fid(`${field}-hint`) : "", this.errors[field] ? this.#fid(`${field}-error`) : ""].filter(Boolean).join(" ") || (nothing as unknown as string);
  }

  #errorOf(field: Field) {
    return this.errors[field] ? html`<p class="error" part="error" id=${this.#fid(`${field}-error`)}>${this.errors[field]}</p>` : nothing;
  }

  #pick(event: Event): void {
    const input = event.target as HTMLInputElement;
    const added = [...(input.files ?? [])];
    input.value = "";
    const next = [...this.files];
    let problem = "";
    for (const file of added) {
      const kind = file.type.startsWith("video/") ? "video" : file.type.startsWith("image/") ? "image" : null;
      if (!kind) {
        problem = this.t("reviewForm.notMedia", { file: file.name });
        continue;
      }
      if (file.size === 0) {
        problem = this.t("reviewForm.emptyFile", { file: file.name });
        continue;
      }
      if (file.size > (kind === "image" ? LIMITS.imageBytes : LIMITS.videoBytes)) {
        problem = this.t(kind === "image" ? "reviewForm.imageTooLarge" : "reviewForm.videoTooLarge", { file: file.name });
        continue;
      }
      if (next.filter((f) => f.kind === kind).length >= (kind === "image" ? LIMITS.images : LIMITS.videos)) {
        problem = kind === "image" ? this.t("reviewForm.tooManyPhotos", { max: LIMITS.images }) : this.t("reviewForm.tooManyVideos");
        continue;
      }
      next.push({ file, kind, url: URL.createObjectURL(file), id: this.#nextId++ });
    }
    this.files = next;
    this.errors = { ...this.errors, media: problem || undefined };
  }

  #removeFile(item: Picked): void {
    URL.revokeObjectURL(item.url);
    this.files = this.files.filter((f) => f !== item);
    focusAfterUpdate(this, "#crf-media");
  }

  #validate(form: HTMLFormElement): Partial<Record<Field, string>> {
    const v = (name: string) => String(new FormData(form).get(name) ?? "").trim();
    const errors: Partial<Record<Field, string>> = {};
    if (!this.rating) errors.rating = this.t("reviewForm.ratingMissing");
    if (v("title").length > LIMITS.title) errors.title = this.t("reviewForm.titleTooLong", { max: LIMITS.title });
    if (!v("body")) errors.body = this.t("reviewForm.bodyMissing");
    else if (v("body").length > LIMITS.body) errors.body = this.t("reviewForm.bodyTooLong", { max: LIMITS.body });
    if (!v("displayName")) errors.displayName = this.t("reviewForm.nameMissing");
    else if (v("displayName").length > LIMITS.name) errors.displayName = this.t("reviewForm.nameTooLong", { max: LIMITS.name });
    const email = emailError(v("email"));
    if (email) errors.email = this.t(email);
    if (!this.storeReview)
      this.attrs.forEach((a, i) => {
        if (a.required && !v(`a${i}`)) errors[`a${i}`] = this.t("reviewForm.answerMissing", { title: a.title });
      });
    return errors;
  }

  /**
   * As the shopper corrects a field that shows an error, check it again: its error goes as soon as the value is
   * valid (or changes to the one that now applies). Fields without an error are not checked while typing.
   */
  #recheck(event: Event): void {
    const name = (event.target as HTMLInputElement).name as Field;
    if (!this.errors[name]) return;
    this.errors = { ...this.errors, [name]: this.#validate(event.currentTarget as HTMLFormElement)[name] };
  }

  /** Map a server description ("body must be …", "media[1] (x.jpg) is …") to the field it names. */
  #fieldOf(description: string): Field | "form" {
    const m = /^([A-Za-z]+)/.exec(description);
    const name = m?.[1] ?? "";
    if (name === "media" || name === "alt") return "media";
    return (FIELDS as readonly string[]).includes(name) ? (name as Field) : "form";
  }

  #focusFirstError(): void {
    focusAfterUpdate(this, '.form-error, fieldset[data-invalid] input, [aria-invalid="true"]');
  }

  /**
   * `Authorization` for a signed-in shopper: the platform token exchanged for the loyalty customer token
   * (POST …/loyalty/login). None when there is no token, no loyalty program (404) or the token is refused:
   * the review is then sent like any shopper's, never lost.
   */
  async #customerAuth(): Promise<Record<string, string>> {
    const token = platformTokenOf(this.customerToken);
    if (!token || !this.storeId) return {};
    try {
      const login = await postJson<{ customerToken: string }>(`${this.storeUrl}/loyalty/login`, { customerAccessToken: token });
      return { authorization: `Bearer ${login.customerToken}` };
    } catch {
      return {};
    }
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.busy) return;
    const form = event.target as HTMLFormElement;
    const errors = this.#validate(form);
    this.errors = { ...errors, media: this.errors.media && !Object.keys(errors).length ? undefined : this.errors.media };
    if (Object.keys(errors).length) return this.#focusFirstError();
    if (this.storeReview) return this.#submitStoreReview(form);
    const data = new FormData(form);
    data.delete("media-picker");
    // The attributes' answers as the API takes them (JSON lists); unanswered ones are left out.
    const rated: { title: string; value: number }[] = [];
    const chosen: { title: string; value: string }[] = [];
    this.attrs.forEach((a, i) => {
      const value = String(data.get(`a${i}`) ?? "");
      data.delete(`a${i}`);
      if (!value) return;
      if (a.kind === "scale") rated.push({ title: a.title, value: +value });
      else chosen.push({ title: a.title, value });
    });
    if (rated.length) data.set("attributesWithRating", JSON.stringify(rated));
    if (chosen.length) data.set("productAttributes", JSON.stringify(chosen));
    data.set("rating", String(this.rating));
    data.set("isRecommended", (form.elements.namedItem("isRecommended") as HTMLInputElement).checked ? "true" : "false");
    for (const f of this.files) data.append("media", f.file, f.file.name);
    this.busy = true;
    try {
      const body = await postJson<SubmitReviewResponse>(`${this.scopeUrl}/reviews`, data, { headers: await this.#customerAuth() });
      this.result = body.review;
      this.emit("chorus-review-submitted", { reviewId: body.review.reviewId, status: body.review.status });
      if (body.postReviewSurvey) this.#followWithSurvey(body.postReviewSurvey.channelSurveyId, String(data.get("email") ?? ""));
      focusAfterUpdate(this, ".message");
    } catch (error) {
      this.#showRefusal(error);
    } finally {
      this.busy = false;
    }
  }

  /** A refused submission's message: beside the field it names (a 4xx), else above the form; focus moves to it. */
  #showRefusal(error: unknown): void {
    const description = this.describe(error);
    const field = error instanceof ApiRequestError && error.status < 500 ? this.#fieldOf(description) : "form";
    this.errors = { [field]: description };
    this.#focusFirstError();
  }

  /**
   * Send the form as a store review (`store-review`): JSON to `POST /v1/stores/{store-id}/store_reviews`
   * (docs/google-shopping.md "Seller ratings"); a refused field's message goes beside it, anything else above the form.
   */
  async #submitStoreReview(form: HTMLFormElement): Promise<void> {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "");
    this.busy = true;
    try {
      const body = await postJson<Pick<SubmitReviewResponse, "review">>(`${this.storeUrl}/store_reviews`, {
        rating: this.rating,
        title: text("title"),
        body: text("body"),
        displayName: text("displayName"),
        email: text("email"),
        website: text("website"),
      });
      this.result = body.review;
      this.emit("chorus-review-submitted", { reviewId: body.review.reviewId, status: body.review.status, storeReview: true });
      focusAfterUpdate(this, ".message");
    } catch (error) {
      this.#showRefusal(error);
    } finally {
      this.busy = false;
    }
  }

  /**
   * The store's post-review survey in the thank-you state (docs/surveys.md "Post-review"): a `<chorus-survey>` child in
   * the `survey` slot, with the reviewer's e-mail address as the response's customer. Its code is not part of this
   * element: the loader loads it on demand (it sees the new tag, or is asked when this form sits in a shadow root).
   */
  #followWithSurvey(channelSurveyId: string, email: string): void {
    const survey = document.createElement("chorus-survey");
    survey.setAttribute("store-id", this.storeId);
    survey.setAttribute("channel-survey-id", channelSurveyId);
    if (this.apiBase) survey.setAttribute("api-base", this.apiBase);
    if (email) survey.setAttribute("email", email);
    survey.slot = "survey";
    this.append(survey);
    window.__chorusLoad?.("chorus-survey");
  }

  /** A labelled field `f` (`control` with the ID `crf-<f>`) and its error. */
  #field(f: Field, label: string, control: unknown) {
    return html`<div><label class="field" for=${this.#fid(f)}>${label}</label>${control}${this.#errorOf(f)}</div>`;
  }

  /** Attribute `i`: a scale as a fieldset of 5 radios (arrow keys move between them) with the merchant's labels under 1, 3 and 5; a choice as a select. */
  #renderAttribute(a: Attribute, i: number) {
    const f: Field = `a${i}`;
    const title = a.required ? this.t("reviewForm.required", { title: a.title }) : a.title;
    const clear = () => {
      if (this.errors[f]) this.errors = { ...this.errors, [f]: undefined };
    };
    if (a.kind === "choice") {
      return this.#field(
        f,
        title,
        html`<select id=${this.#fid(f)} name=${f} aria-invalid=${!!this.errors[f]} aria-describedby=${this.#describedBy(f)} @change=${clear}>
          <option value="">${this.t("reviewForm.choose")}</option>
          ${a.options.map((o) => html`<option>${o}</option>`)}
        </select>`,
      );
    }
    const labels = [a.minLabel, "", a.midLabel, "", a.maxLabel];
    return html`<fieldset aria-describedby=${this.#describedBy(f)} ?data-invalid=${!!this.errors[f]}>
      <legend>${title}</legend>
      <div class="scale">
        ${labels.map((l, n) => html`<label><input type="radio" name=${f} value=${n + 1} @change=${clear} />${n + 1}<span class="visually-hidden">${l && `, ${l}`}</span></label>`)}
        ${labels.map((l) => html`<span aria-hidden="true">${l}</span>`)}
      </div>
      ${this.#errorOf(f)}
    </fieldset>`;
  }

  render() {
    if (this.result) {
      return html`<div class="message" part="message" role="status" tabindex="-1">
          <strong>${this.t("reviewForm.thanks")}</strong> ${this.t(this.result.status === "published" ? "reviewForm.published" : "reviewForm.pending")}
        </div>
        <slot name="survey"></slot>`;
    }
    const e = this.errors;
    const shop = this.storeReview;
    return html`<form part="form" novalidate @submit=${this.#submit} @input=${this.#recheck} @change=${this.#recheck} aria-label=${shop ? this.t("reviewForm.storeLabel") : this.t("reviewForm.label")}>
      ${e.form ? html`<p class="error form-error" part="error" role="alert" tabindex="-1">${e.form}</p>` : nothing}
      <fieldset aria-describedby=${this.#describedBy("rating")} ?data-invalid=${!!e.rating}>
        <legend>${shop ? this.t("reviewForm.storeRating") : this.t("reviewForm.rating")}</legend>
        <div class="stars">
          ${[1, 2, 3, 4, 5].map(
            (n) =>
              html`<span class=${n <= this.rating ? "star on" : "star"}>
                <input
                  type="radio"
                  name="rating-choice"
                  id=${this.#fid(`star-${n}`)}
                  value=${n}
                  .checked=${this.rating === n}
                  @change=${() => {
                    this.rating = n;
                    this.errors = { ...this.errors, rating: undefined };
                  }}
                />
                <label for=${this.#fid(`star-${n}`)} title=${this.plural("reviewForm.stars", n)}
                  ><span aria-hidden="true">★</span><span class="visually-hidden">${this.plural("reviewForm.stars", n)}</span></label
                >
              </span>`,
          )}
        </div>
        ${this.#errorOf("rating")}
      </fieldset>
      ${this.#field("title", this.t("reviewForm.title"), html`<input type="text" id="crf-title" name="title" maxlength=${LIMITS.title} aria-invalid=${!!e.title} aria-describedby=${this.#describedBy("title")} />`)}
      ${this.#field("body", shop ? this.t("reviewForm.storeBody") : this.t("reviewForm.body"), html`<textarea id="crf-body" name="body" maxlength=${LIMITS.body} required aria-invalid=${!!e.body} aria-describedby=${this.#describedBy("body")}></textarea>`)}
      ${shop ? nothing : this.attrs.map((a, i) => this.#renderAttribute(a, i))}
      ${this.#field("displayName", this.t("reviewForm.name"), html`<input type="text" id="crf-displayName" name="displayName" autocomplete="nickname" maxlength=${LIMITS.name} required aria-invalid=${!!e.displayName} aria-describedby=${this.#describedBy("displayName")} />`)}
      ${this.#field("email", this.t("reviewForm.email"), html`<input type="email" id="crf-email" name="email" autocomplete="email" required aria-invalid=${!!e.email} aria-describedby=${this.#describedBy("email")} />`)}
      ${shop ? nothing : this.#productExtras()} ${honeypot}
      <div><button class="btn" type="submit" part="submit" ?disabled=${this.busy}>${this.t(this.busy ? "reviewForm.submitting" : "reviewForm.submit")}</button></div>
    </form>`;
  }

  /** The product review's recommendation and photo/video picker (not in a `store-review` form). */
  #productExtras() {
    const e = this.errors;
    return html`<div class="check">
        <input type="checkbox" id="crf-recommended" name="isRecommended" />
        <label for="crf-recommended">${this.t("reviewForm.recommend")}</label>
      </div>
      <div>
        <input
          type="file"
          class="visually-hidden"
          id="crf-media"
          name="media-picker"
          accept="image/jpeg,image/png,image/webp,image/gif,video/mp4,video/webm,video/quicktime"
          multiple
          aria-describedby=${this.#describedBy("media", true)}
          aria-invalid=${!!e.media}
          @change=${this.#pick}
        />
        <label class="btn secondary pick" part="media-picker" for="crf-media">${this.t("reviewForm.media")}</label>
        <p class="hint" id="crf-media-hint">${this.t("reviewForm.mediaHint")}</p>
        ${this.#errorOf("media")}
        ${
          this.files.length
            ? html`<ul class="previews" aria-label=${this.t("reviewForm.selected")}>
                ${this.files.map(
                  (f) =>
                    html`<li>
                      ${f.kind === "image" ? html`<img src=${f.url} alt=${this.t("reviewForm.preview", { file: f.file.name })} />` : html`<video src=${f.url} muted aria-label=${this.t("reviewForm.preview", { file: f.file.name })}></video>`}
                      <button class="btn secondary" type="button" @click=${() => this.#removeFile(f)} aria-label=${this.t("reviewForm.removeLabel", { file: f.file.name })}>
                        ${this.t("reviewForm.remove")}
                      </button>
                    </li>`,
                )}
              </ul>`
            : nothing
        }
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-review-form": ChorusReviewForm;
  }
}
