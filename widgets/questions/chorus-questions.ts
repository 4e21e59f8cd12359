/** The `<chorus-questions>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { html, nothing, type PropertyValues } from "lit";
import type { AskQuestionResponse } from "../../server/contract/writes.ts";
import { ApiRequestError, getJson, postJson, type ListQuestionsResponse, type Question } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { formatDate } from "../internal/format.ts";
import { tokens } from "../internal/tokens.ts";
import { questionsStyles } from "./chorus-questions.styles.ts";
import { emailError, focusAfterUpdate, formStyles, honeypot } from "../internal/form.ts";
import { controls } from "../internal/ui.ts";
import { QUESTIONS_TEXTS } from "../../server/contract/widget-strings/questions.ts";
import { decodeHtmlText } from "../internal/html-text.ts";

type Field = "body" | "displayName" | "email" | "form";

/**
 * @summary Questions and answers of a product (`GET …/questions`, docs/api.md, Endpoints and scopes), newest first,
 * with "Load more", store answers marked "Store answer", and an "Ask a question" form
 * (`POST …/questions`, docs/writes.md, Questions and answers) with labelled fields and inline validation messages.
 *
 * @tag chorus-questions
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID (asking needs a product); or group-id to list a group
 * @attr group-id - review group ID (list only)
 * @attr api-base - origin of the Chorus server
 * @attr state - reflected, read-only: `loading` (reserves 11.25rem, the snippet's reservation) | `ready` | `empty`
 *   (no questions: only the "Ask a question" button, or "No questions yet" without a product) | `error`
 * @event chorus-question-submitted - `{ questionId, status }` after the server accepted a question
 * @csspart question - one question
 * @csspart answer - one answer
 * @csspart store-badge - the "Store answer" mark
 * @csspart form - the ask form
 * @cssproperty --chorus-accent - buttons and focus ring
 */
@chorusElement("chorus-questions")
export class ChorusQuestions extends ChorusElement {
  static widget = "questions" as const;
  static defaults = QUESTIONS_TEXTS;
  static properties = {
    questions: { state: true },
    nextUrl: { state: true },
    loaded: { state: true },
    loading: { state: true },
    error: { state: true },
    asking: { state: true },
    busy: { state: true },
    errors: { state: true },
    submitted: { state: true },
    state: { reflect: true },
  };
  static styles = [tokens, controls, formStyles, questionsStyles];

  questions: Question[] = [];
  nextUrl?: string;
  loaded = false;
  loading = false;
  error = "";
  asking = false;
  busy = false;
  errors: Partial<Record<Field, string>> = {};
  submitted = false;
  state: "loading" | "ready" | "empty" | "error" = "loading";

  protected willUpdate(changed: PropertyValues): void {
    if (changed.has("storeId") || changed.has("productId") || changed.has("groupId")) this.refresh();
    this.state = this.questions.length ? "ready" : this.error ? "error" : this.loaded ? "empty" : "loading";
  }

  /** Reload the first page. */
  refresh(): void {
    this.questions = [];
    this.nextUrl = undefined;
    this.loaded = false;
    if (!this.storeId) return;
    const url = `${this.scopeUrl}/questions?limit=10`;
    // A server-rendered snippet carries the first page: shown without a request.
    const first = this.takeSnapshot<ListQuestionsResponse>(url);
    if (first) {
      this.questions = first.questions;
      this.nextUrl = first.nextUrl;
      this.loaded = true;
    } else void this.#load(url);
  }

  async #load(url: string): Promise<void> {
    this.loading = true;
    this.error = "";
    try {
      const page = await getJson<ListQuestionsResponse>(url);
      this.questions = [...this.questions, ...page.questions];
      this.nextUrl = page.nextUrl;
      this.loaded = true;
    } catch (error) {
      this.error = this.describe(error);
    } finally {
      this.loading = false;
    }
  }

  #validate(data: FormData): Partial<Record<Field, string>> {
    const v = (k: string) => String(data.get(k) ?? "").trim();
    const errors: Partial<Record<Field, string>> = {};
    if (v("body").length < 5) errors.body = this.t("questions.bodyTooShort");
    else if (v("body").length > 1000) errors.body = this.t("questions.bodyTooLong");
    if (!v("displayName")) errors.displayName = this.t("questions.nameMissing");
    const email = emailError(v("email"));
    if (email) errors.email = this.t(email);
    return errors;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.busy) return;
    const data = new FormData(event.target as HTMLFormElement);
    this.errors = this.#validate(data);
    if (Object.keys(this.errors).length) return this.#focusError();
    this.busy = true;
    try {
      const body = await postJson<AskQuestionResponse>(`${this.scopeUrl}/questions`, Object.fromEntries(data));
      this.submitted = true;
      this.asking = false;
      this.emit("chorus-question-submitted", { questionId: body.question.questionId, status: body.question.status });
      focusAfterUpdate(this, ".message");
    } catch (error) {
      const description = this.describe(error);
      const name = /^(body|displayName|email)\b/.exec(description)?.[1] as Field | undefined;
      this.errors = { [error instanceof ApiRequestError && name ? name : "form"]: description };
      this.#focusError();
    } finally {
      this.busy = false;
    }
  }

  #focusError(): void {
    focusAfterUpdate(this, '.form-error, [aria-invalid="true"]');
  }

  /** A labelled field: `control(id, invalid, describedby)` renders its control (`describedby`: the error's ID, or nothing). */
  #field(name: "body" | "displayName" | "email", label: string, control: (id: string, invalid: boolean, describedby: string | typeof nothing) => unknown) {
    const id = `cq-${name}`;
    const err = this.errors[name];
    return html`<div>
      <label class="field" for=${id}>${label}</label>
      ${control(id, !!err, err ? `${id}-error` : nothing)} ${err ? html`<p class="error" id=${`${id}-error`}>${err}</p>` : nothing}
    </div>`;
  }

  #renderForm() {
    return html`<form part="form" novalidate @submit=${this.#submit} aria-label=${this.t("questions.ask")}>
      ${this.errors.form ? html`<p class="error form-error" role="alert" tabindex="-1">${this.errors.form}</p>` : nothing}
      ${this.#field("body", this.t("questions.body"), (id, invalid, describedby) => html`<textarea id=${id} name="body" maxlength="1000" aria-invalid=${invalid} aria-describedby=${describedby}></textarea>`)}
      ${this.#field("displayName", this.t("questions.name"), (id, invalid, describedby) => html`<input id=${id} name="displayName" autocomplete="nickname" maxlength="60" aria-invalid=${invalid} aria-describedby=${describedby} />`)}
      ${this.#field("email", this.t("questions.email"), (id, invalid, describedby) => html`<input id=${id} name="email" type="email" autocomplete="email" aria-invalid=${invalid} aria-describedby=${describedby} />`)}
      ${honeypot}
      <div class="toolbar">
        <button class="btn" type="submit" ?disabled=${this.busy}>${this.t(this.busy ? "questions.sending" : "questions.submit")}</button>
        <button
          class="btn secondary"
          type="button"
          @click=${() => {
            this.asking = false;
            this.errors = {};
          }}
        >
          ${this.t("questions.cancel")}
        </button>
      </div>
    </form>`;
  }

  #renderQuestion(q: Question) {
    return html`<li class="q" part="question">
      <p class="q-body">${this.t("questions.question", { body: q.body })}</p>
      <p class="meta">${this.t("questions.askedBy", { name: q.customer.displayName, date: formatDate(q.dateCreated) })}</p>
      ${
        q.answers.length
          ? html`<ul class="answers" aria-label=${this.t("questions.answers")}>
              ${q.answers.map(
                (a) =>
                  html`<li part="answer">
                    <p>
                      ${a.isStoreAnswer ? html`<span class="badge" part="store-badge">${this.t("questions.storeAnswer")}</span>` : nothing}${this.t("questions.answer", { body: decodeHtmlText(a.body) })}
                    </p>
                    <p class="meta">${a.author.displayName}, ${formatDate(a.dateCreated)}</p>
                  </li>`,
              )}
            </ul>`
          : html`<p class="meta">${this.t("questions.noAnswer")}</p>`
      }
    </li>`;
  }

  render() {
    return html`
      ${
        this.productId && !this.asking && !this.submitted
          ? html`<div class="toolbar">
              <button
                class="btn"
                @click=${() => {
                  this.asking = true;
                  focusAfterUpdate(this, "#cq-body");
                }}
              >
                ${this.t("questions.ask")}
              </button>
            </div>`
          : nothing
      }
      ${this.asking ? this.#renderForm() : nothing} ${this.submitted ? html`<p class="message" role="status" tabindex="-1">${this.t("questions.thanks")}</p>` : nothing}
      ${
        this.error && !this.questions.length
          ? html`<p class="error" role="alert">${this.error} <button class="btn secondary" @click=${this.refresh}>${this.t("questions.retry")}</button></p>`
          : !this.loaded
            ? html`<div role="status" aria-busy="true" aria-label=${this.t("questions.loading")}>
                <div class="skeleton"></div>
                <div class="skeleton"></div>
              </div>`
            : this.questions.length
              ? html`<ol aria-label=${this.t("questions.list")}>
                  ${this.questions.map((q) => this.#renderQuestion(q))}
                </ol>`
              : this.productId
                ? nothing
                : html`<p class="meta">${this.t("questions.empty")}</p>`
      }
      ${
        this.nextUrl
          ? html`<div class="toolbar">
              <button class="btn secondary" ?disabled=${this.loading} @click=${() => this.#load(this.resolveNextUrl(this.nextUrl!))}>
                ${this.t(this.loading ? "questions.loadingMore" : "questions.more")}
              </button>
            </div>`
          : nothing
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-questions": ChorusQuestions;
  }
}
