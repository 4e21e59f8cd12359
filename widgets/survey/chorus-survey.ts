/** The `<chorus-survey>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { css, html, nothing, type TemplateResult } from "lit";
import type { StorefrontSurvey, StorefrontSurveyResponse, SurveyQuestion, SurveySubmissionResponse } from "../../server/contract/surveys.ts";
import type { Region, RegionsResponse } from "../../server/contract/regions.ts";
import { answerFromForm, answersFromForm, surveyField, type SurveyProblem } from "../../server/contract/survey-form.ts";
import { COUNTRY_CODES } from "../../server/contract/countries.ts";
import { SURVEY_TEXTS } from "../../server/contract/widget-strings/survey.ts";
import { getJson, postJson } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { tokens } from "../internal/tokens.ts";
import { focusAfterUpdate, formStyles } from "../internal/form.ts";
import { controls } from "../internal/ui.ts";

const PROBLEM_TEXT: Record<SurveyProblem, keyof typeof SURVEY_TEXTS> = {
  required: "survey.problemRequired",
  other: "survey.problemOther",
  tooLong: "survey.problemTooLong",
  email: "survey.problemEmail",
  date: "survey.problemDate",
  country: "survey.problemCountry",
  zone: "survey.problemZone",
};

/**
 * @summary A survey a shopper answers (docs/surveys.md, Answering a survey): the channel survey's questions one per
 * step, with progress, Back and Next, all eight question types (NPS 0–10, stars, five-point scale, single and multi
 * select with the "other" answer, text, e-mail with marketing opt-in) and the four profile variants (date of birth,
 * country and region, single and multi value). The location question's country select names and sorts the ISO 3166-1
 * countries in the page's language (`Intl.DisplayNames`); choosing one asks `GET /regions/{country}` (once per
 * country) and offers its ISO 3166-2 regions in a second select (stored as the code after the hyphen, `BY` of
 * `DE-BY`), or a free-text region for a country without any. Each step is checked with the
 * rules of the hosted survey page (server/contract/survey-form.ts) before Next; the server's refusal of an answer is
 * shown at its question. After sending: a thank-you state with the reward code, if the channel survey has one, and
 * a copy button (or, when the shop platform could not create the code at once, that it comes by e-mail). Reads `GET /surveys/{channel-survey-id}` and posts to `POST /surveys/{channel-survey-id}/responses`.
 * Its language is the element's or page's `lang`; on a page without one, the store's default language for shopper
 * pages (English unless the merchant chose another).
 *
 * @tag chorus-survey
 * @attr store-id - the store's subscriber ID
 * @attr channel-survey-id - the channel survey to answer (one survey published on one channel)
 * @attr api-base - origin of the Chorus server (default: where chorus.js came from)
 * @attr customer-id - the shop customer's Chorus customer ID (uuid), sent with the response
 * @attr email - the customer's e-mail address, sent with the response
 * @attr order-id - the numeric order ID on the shop platform (`order.remoteOrderId`), e.g. on the thank-you page
 * @attr display - `inline` (default) or `dialog`: a modal dialog opened once per visitor and channel survey
 *   (remembered in localStorage), after `delay-seconds` or once the page is scrolled `scroll-percent` % down
 * @attr delay-seconds - dialog: open after this many seconds (default 0 without `scroll-percent`)
 * @attr scroll-percent - dialog: open once this share (0–100) of the page was scrolled
 * @event chorus-survey-submitted - `{ surveyResponseId, channelSurveyId, reward? }` after the server stored the answers
 * @csspart form - the form
 * @csspart progress - the "Question n of N" line and its bar
 * @csspart next - the Next and Send buttons
 * @csspart back - the Back button
 * @csspart message - the thank-you state
 * @csspart code - the reward code
 * @csspart reward-pending - "we'll e-mail your code": the reward could not be created on the shop platform at once (docs/surveys.md "Rewards")
 * @csspart error - an error message
 * @csspart dialog - the dialog (display="dialog")
 * @cssproperty --chorus-accent - buttons, the progress bar and the focus ring (see widgets/internal/tokens.ts for all tokens)
 */
@chorusElement("chorus-survey")
export class ChorusSurvey extends ChorusElement {
  static defaults = SURVEY_TEXTS;
  static properties = {
    channelSurveyId: { attribute: "channel-survey-id" },
    customerId: { attribute: "customer-id" },
    email: {},
    orderId: { attribute: "order-id" },
    display: {},
    delaySeconds: { attribute: "delay-seconds", type: Number },
    scrollPercent: { attribute: "scroll-percent", type: Number },
    survey: { state: true },
    step: { state: true },
    problems: { state: true },
    formError: { state: true },
    busy: { state: true },
    result: { state: true },
    copied: { state: true },
    regions: { state: true },
    storeLanguage: { state: true },
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
        min-width: 0;
      }
      .step[hidden] {
        display: none;
      }
      .progress {
        color: var(--_muted);
        font-size: 0.875em;
        margin: 0 0 8px;
      }
      .bar {
        height: 4px;
        background: var(--_border);
        border-radius: 2px;
        overflow: hidden;
        margin-top: 4px;
      }
      .bar span {
        display: block;
        height: 100%;
        background: var(--_accent);
      }
      .choices {
        display: flex;
        flex-wrap: wrap;
        gap: 6px 14px;
      }
      .choices.column {
        flex-direction: column;
      }
      .choices label {
        display: inline-flex;
        gap: 6px;
        align-items: center;
        cursor: pointer;
      }
      .scale label {
        flex-direction: column;
        min-width: 2.2em;
        gap: 2px;
      }
      .ends {
        display: flex;
        justify-content: space-between;
        color: var(--_muted);
        font-size: 0.875em;
        margin: 4px 0 0;
      }
      .row {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
        align-items: end;
      }
      .row label {
        display: flex;
        flex-direction: column;
        gap: 2px;
      }
      select,
      input[type="number"] {
        font: inherit;
        padding: 8px;
        border: 1px solid var(--_muted);
        border-radius: 6px;
        background: transparent;
        color: inherit;
      }
      textarea {
        min-height: 96px;
        resize: vertical;
        width: 100%;
        box-sizing: border-box;
        font: inherit;
        padding: 8px;
        border: 1px solid var(--_muted);
        border-radius: 6px;
        background: transparent;
        color: inherit;
      }
      .nav {
        display: flex;
        gap: 8px;
        justify-content: space-between;
      }
      .code {
        font-family: ui-monospace, monospace;
        font-size: 1.2em;
        font-weight: 700;
        letter-spacing: 0.05em;
      }
      dialog {
        max-width: min(36rem, 92vw);
        border: 1px solid var(--_border);
        border-radius: var(--_radius, 8px);
        background: var(--_paper);
        color: var(--_ink);
        padding: 16px;
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.4);
      }
      .close {
        float: right;
      }
    `,
  ];

  channelSurveyId = "";
  customerId = "";
  email = "";
  orderId = "";
  display: "inline" | "dialog" = "inline";
  delaySeconds = 0;
  scrollPercent = 0;
  survey: StorefrontSurvey | null = null;
  step = 0;
  problems: Record<string, string> = {};
  formError = "";
  busy = false;
  result: SurveySubmissionResponse["surveyResponse"] | null = null;
  copied = false;
  /** The regions of each country asked for (null: being asked, or the request failed: a free-text region then). */
  regions: Record<string, Region[] | null> = {};
  /** The store's default language for shopper pages (from the survey read), spoken when the page has no language. */
  storeLanguage = "";
  /** The country chosen in each location question. */
  #country: Record<string, string> = {};
  #loadedFor = "";
  #cleanup: (() => void) | null = null;

  get #shownKey(): string {
    return `chorus-survey-shown:${this.channelSurveyId}`;
  }

  connectedCallback(): void {
    super.connectedCallback();
    if (this.display === "dialog") this.#armDialog();
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#cleanup?.();
  }

  /**
   * The language tag: the element's or page's `lang`, else the store's default language for shopper pages once the
   * survey was read (docs/surveys.md "Languages of the hosted pages"), else "" (English).
   */
  override get langTag(): string {
    return super.langTag || this.storeLanguage;
  }

  protected willUpdate(): void {
    const key = `${this.storeUrl} ${this.channelSurveyId}`;
    if (!this.storeId || !this.channelSurveyId || key === this.#loadedFor) return;
    this.#loadedFor = key;
    getJson<StorefrontSurveyResponse>(`${this.storeUrl}/surveys/${encodeURIComponent(this.channelSurveyId)}`)
      .then((body) => {
        this.survey = body.channelSurvey;
        this.step = 0;
        if (body.channelSurvey.defaultLanguage !== "en") this.storeLanguage = body.channelSurvey.defaultLanguage;
      })
      .catch((error: unknown) => {
        this.formError = this.t("survey.loadFailed", { error: this.describe(error) });
      });
  }

  /** display="dialog": open once per visitor and channel survey, after the delay or at the scroll depth. */
  #armDialog(): void {
    try {
      if (localStorage.getItem(this.#shownKey)) return;
    } catch {
      /* storage blocked: the dialog may show again on a later page */
    }
    const open = () => {
      this.#cleanup?.();
      void this.updateComplete.then(() => {
        const dialog = this.renderRoot.querySelector("dialog");
        if (!dialog || dialog.open) return;
        dialog.showModal();
        try {
          localStorage.setItem(this.#shownKey, String(Date.now()));
        } catch {
          /* see above */
        }
      });
    };
    const timers: number[] = [];
    const onScroll = () => {
      const max = document.documentElement.scrollHeight - innerHeight;
      if (max <= 0 || (scrollY / max) * 100 >= this.scrollPercent) open();
    };
    if (this.scrollPercent > 0) addEventListener("scroll", onScroll, { passive: true });
    if (this.delaySeconds > 0 || this.scrollPercent <= 0) timers.push(window.setTimeout(open, Math.max(0, this.delaySeconds) * 1000));
    this.#cleanup = () => {
      removeEventListener("scroll", onScroll);
      timers.forEach(clearTimeout);
      this.#cleanup = null;
    };
  }

  get #form(): HTMLFormElement | null {
    return this.renderRoot.querySelector<HTMLFormElement>('form[part="form"]');
  }

  /** Check the current step with the hosted page's rules; show its problem. @returns whether it may be left forward. */
  #checkStep(): boolean {
    const q = this.survey!.questions[this.step]!;
    const a = answerFromForm(q, new FormData(this.#form!));
    const problem: SurveyProblem | null = typeof a === "string" ? a : !a && q.required ? "required" : null;
    this.problems = { ...this.problems, [q.id]: problem ? this.t(PROBLEM_TEXT[problem]) : "" };
    if (problem) focusAfterUpdate(this, `#p-${q.id}`);
    return !problem;
  }

  #go(step: number): void {
    this.step = step;
    focusAfterUpdate(this, `[data-step="${step}"] legend, [data-step="${step}"] label`);
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const survey = this.survey!;
    if (this.busy || !this.#checkStep()) return;
    if (this.step < survey.questions.length - 1) return this.#go(this.step + 1);
    const { answers, problems } = answersFromForm(survey.questions, new FormData(this.#form!));
    const first = survey.questions.findIndex((q) => problems[q.id]);
    if (first >= 0 || !answers.length) {
      const index = first >= 0 ? first : 0;
      this.problems = { [survey.questions[index]!.id]: this.t(PROBLEM_TEXT[first >= 0 ? problems[survey.questions[index]!.id]! : "required"]) };
      return this.#go(index);
    }
    const customer = this.customerId || this.email ? { ...(this.customerId ? { customerId: this.customerId } : {}), ...(this.email ? { email: this.email } : {}) } : undefined;
    this.busy = true;
    this.formError = "";
    try {
      const body = await postJson<SurveySubmissionResponse>(`${this.storeUrl}/surveys/${encodeURIComponent(this.channelSurveyId)}/responses`, {
        answeredQuestions: answers,
        ...(customer ? { customer } : {}),
        ...(this.orderId ? { order: { remoteOrderId: this.orderId } } : {}),
      });
      this.result = body.surveyResponse;
      this.emit("chorus-survey-submitted", {
        surveyResponseId: body.surveyResponse.surveyResponseId,
        channelSurveyId: this.channelSurveyId,
        ...(body.surveyResponse.reward ? { reward: body.surveyResponse.reward.value } : {}),
      });
      focusAfterUpdate(this, ".message");
    } catch (error) {
      const description = this.describe(error);
      const id = /\(question ([0-9a-f-]{36})\b/i.exec(description)?.[1];
      const index = id ? survey.questions.findIndex((q) => q.id === id) : -1;
      if (index >= 0) {
        this.problems = { [id!]: description.replace(/^.*?\): /, "") };
        this.#go(index);
      } else {
        this.formError = description;
        focusAfterUpdate(this, ".form-error");
      }
    } finally {
      this.busy = false;
    }
  }

  async #copy(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this.copied = true;
    } catch {
      const range = document.createRange();
      const el = this.renderRoot.querySelector(".code");
      if (el) {
        range.selectNodeContents(el);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
      }
    }
  }

  /** A country was chosen in location question `id`: ask for its regions once (they are cacheable, public data). */
  #chooseCountry(id: string, code: string): void {
    this.#country = { ...this.#country, [id]: code };
    this.requestUpdate();
    if (!code || code in this.regions) return;
    this.regions = { ...this.regions, [code]: null };
    getJson<RegionsResponse>(`${this.storeUrl}/regions/${encodeURIComponent(code)}`)
      .then((body) => {
        this.regions = { ...this.regions, [code]: body.regions };
      })
      .catch(() => {
        /* stays null: a free-text region */
      });
  }

  /** The controls of question `q` (field names of server/contract/survey-form.ts). */
  #controls(q: SurveyQuestion): TemplateResult {
    const name = (part?: Parameters<typeof surveyField>[1]) => surveyField(q.id, part);
    const described = this.problems[q.id] ? `p-${q.id}` : nothing;
    const invalid = !!this.problems[q.id];
    const choices = (options: string[], multiple: boolean, column = true) =>
      html`<div class="choices ${column ? "column" : ""}">
        ${options.map((o) => html`<label><input type=${multiple ? "checkbox" : "radio"} name=${name()} value=${o} aria-describedby=${described} />${o}</label>`)}
      </div>`;
    const custom =
      q.allowCustomAnswer && q.customAnswerOptionText
        ? html`${choices([q.customAnswerOptionText], q.type === "multi-select")}
            <label class="field" for=${`o-${q.id}`}>${this.t("survey.otherDescribe")}</label>
            <input type="text" id=${`o-${q.id}`} name=${name("other")} maxlength="5000" />`
        : nothing;
    const scale = (from: number, to: number, label: (n: number) => string) =>
      html`<div class="choices scale">
        ${Array.from({ length: to - from + 1 }, (_, i) => from + i).map((n) => html`<label><input type="radio" name=${name()} value=${n} aria-describedby=${described} /><span aria-hidden="true">${n}</span><span class="visually-hidden">${label(n)}</span></label>`)}
      </div>`;
    switch (q.type) {
      case "text":
        return html`<textarea id=${`i-${q.id}`} name=${name()} maxlength="5000" aria-invalid=${invalid} aria-describedby=${described}></textarea>`;
      case "email":
        return html`<input type="email" id=${`i-${q.id}`} name=${name()} autocomplete="email" .value=${this.email} aria-invalid=${invalid} aria-describedby=${described} />
          <label class="choices"><input type="checkbox" name=${name("optin")} />${this.t("survey.optIn")}</label>`;
      case "nps":
        return html`${scale(0, 10, String)}
          <p class="ends" aria-hidden="true"><span>${this.t("survey.npsLow")}</span><span>${this.t("survey.npsHigh")}</span></p>
          <p class="visually-hidden">${this.t("survey.npsLow")}, ${this.t("survey.npsHigh")}</p>`;
      case "star":
        return scale(1, 5, (n) => this.t("survey.stars", { count: n }));
      case "five-point":
        return html`${scale(1, 5, String)}
          <p class="ends">${this.t("survey.scaleEnds")}</p>`;
      case "single-select":
      case "multi-select":
        return html`${choices(q.options ?? [], q.type === "multi-select")}${custom}`;
      case "profile":
        return this.#profile(q, name, described, invalid, choices);
    }
  }

  #profile(
    q: SurveyQuestion,
    name: (part?: Parameters<typeof surveyField>[1]) => string,
    described: string | typeof nothing,
    invalid: boolean,
    choices: (o: string[], m: boolean) => TemplateResult,
  ): TemplateResult {
    const lang = this.langTag || "en";
    if (q.profileAnswerType === "date-components") {
      const months = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2000, i, 1)).toLocaleString(lang, { month: "long", timeZone: "UTC" }));
      return html`<div class="row">
        <label
          >${this.t("survey.day")}<input type="number" name=${name("day")} min="1" max="31" inputmode="numeric" autocomplete="bday-day" aria-invalid=${invalid} aria-describedby=${described}
        /></label>
        <label
          >${this.t("survey.month")}<select name=${name("month")} autocomplete="bday-month" aria-invalid=${invalid} aria-describedby=${described}>
            <option value="">${this.t("survey.choose")}</option>
            ${months.map((m, i) => html`<option value=${i + 1}>${m}</option>`)}
          </select></label
        >
        <label
          >${this.t("survey.year")}<input type="number" name=${name("year")} min="1900" max="2100" inputmode="numeric" autocomplete="bday-year" aria-invalid=${invalid} aria-describedby=${described}
        /></label>
      </div>`;
    }
    if (q.profileAnswerType === "location") {
      let names: Intl.DisplayNames | null = null;
      try {
        names = new Intl.DisplayNames([lang, "en"], { type: "region" });
      } catch {
        /* an old browser: codes only */
      }
      const countries = COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, lang));
      const country = this.#country[q.id] ?? "";
      const regions = country ? this.regions[country] : undefined;
      return html`<div class="row">
        <label
          >${this.t("survey.country")}<select
            name=${name("country")}
            autocomplete="country"
            aria-invalid=${invalid}
            aria-describedby=${described}
            @change=${(e: Event) => this.#chooseCountry(q.id, (e.target as HTMLSelectElement).value)}
          >
            <option value="">${this.t("survey.choose")}</option>
            ${countries.map((c) => html`<option value=${c.code}>${c.name}</option>`)}
          </select></label
        >
        ${
          regions?.length
            ? html`<label
                >${this.t("survey.region")}<select name=${name("zone")} autocomplete="address-level1">
                  <option value="">${this.t("survey.choose")}</option>
                  ${regions.map((r) => html`<option value=${r.code}>${r.name}</option>`)}
                </select></label
              >`
            : html`<label>${this.t("survey.zone")}<input type="text" name=${name("zone")} maxlength="10" autocomplete="address-level1" /></label>`
        }
      </div>`;
    }
    return choices(q.options ?? [], q.profileAnswerType === "multi-value");
  }

  #body(): TemplateResult | typeof nothing {
    if (this.result) {
      const reward = this.result.reward;
      return html`<div class="message" part="message" role="status" tabindex="-1">
        <p><strong>${this.t("survey.thanks")}</strong></p>
        ${
          reward
            ? html`<p>${reward.description}</p>
                <p>${this.t("survey.code", { code: "" })}<span class="code" part="code">${reward.value}</span></p>
                <button class="btn secondary" type="button" @click=${() => this.#copy(reward.value)}>${this.t(this.copied ? "survey.copied" : "survey.copy")}</button>`
            : nothing
        }
        ${this.result.rewardPending ? html`<p part="reward-pending">${this.t("survey.rewardByMail")}</p>` : nothing}
      </div>`;
    }
    const survey = this.survey;
    if (!survey) return this.formError ? html`<p class="error" part="error" role="alert">${this.formError}</p>` : nothing;
    const total = survey.questions.length;
    const last = this.step === total - 1;
    return html`<form part="form" novalidate aria-label=${survey.surveyName || this.t("survey.label")} @submit=${this.#submit}>
      <div>
        <strong>${survey.surveyName}</strong
        >${survey.description ? html`<p>${survey.description}</p>` : nothing}${survey.rewardDescription ? html`<p>${this.t("survey.rewardFor", { reward: survey.rewardDescription })}</p>` : nothing}
      </div>
      <div class="progress" part="progress">
        <span aria-live="polite">${this.t("survey.progress", { current: this.step + 1, total })}</span>
        <div class="bar" aria-hidden="true"><span style="width:${Math.round(((this.step + 1) / total) * 100)}%"></span></div>
      </div>
      ${this.formError ? html`<p class="error form-error" part="error" role="alert" tabindex="-1">${this.formError}</p>` : nothing}
      ${survey.questions.map((q, i) => {
        const title = q.required ? this.t("survey.required", { question: q.text }) : q.text;
        const single = q.type === "text" || q.type === "email";
        return html`<div class="step" data-step=${i} ?hidden=${i !== this.step}>
          ${
            single
              ? html`<label class="field" for=${`i-${q.id}`} tabindex="-1">${title}</label>${this.#controls(q)}`
              : html`<fieldset aria-describedby=${this.problems[q.id] ? `p-${q.id}` : nothing}>
                  <legend tabindex="-1">${title}</legend>
                  ${this.#controls(q)}
                </fieldset>`
          }
          ${this.problems[q.id] ? html`<p class="error" part="error" id=${`p-${q.id}`} tabindex="-1">${this.problems[q.id]}</p>` : nothing}
        </div>`;
      })}
      <div class="nav">
        ${this.step > 0 ? html`<button class="btn secondary" type="button" part="back" @click=${() => this.#go(this.step - 1)}>${this.t("survey.back")}</button>` : html`<span></span>`}
        <button class="btn" type="submit" part="next" ?disabled=${this.busy}>${this.t(last ? (this.busy ? "survey.submitting" : "survey.submit") : "survey.next")}</button>
      </div>
    </form>`;
  }

  render() {
    if (this.display !== "dialog") return this.#body();
    return html`<dialog part="dialog" aria-label=${this.survey?.surveyName ?? this.t("survey.label")}>
      <form method="dialog" class="close"><button class="btn secondary" aria-label=${this.t("survey.close")}>×</button></form>
      ${this.#body()}
    </dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-survey": ChorusSurvey;
  }
}
