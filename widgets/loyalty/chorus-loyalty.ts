/** The `<chorus-loyalty>` element; its contract (attributes, events, parts, custom properties) is the JSDoc of its class below. */
import { css, html, nothing, type TemplateResult } from "lit";
import type {
  EarningRule,
  EarningRulesResponse,
  LegalPolicies,
  LoginResponse,
  LoyaltyCustomer,
  LoyaltyCustomerResponse,
  RedemptionResponse,
  RedemptionRule,
  RedemptionRulesResponse,
  TransactionsResponse,
  VipTier,
  VipTiersResponse,
  LoyaltyTransaction,
} from "../../server/contract/loyalty.responses.ts";
import type { CustomerOverview } from "../../server/contract/loyalty-lifecycle.ts";
import { formatDate } from "../internal/format.ts";
import { lang } from "../internal/format-lang.ts";
import { ApiRequestError, getJson, postJson } from "../internal/api.ts";
import { ChorusElement, chorusElement } from "../internal/chorus-element.ts";
import { tokens } from "../internal/tokens.ts";
import { controls } from "../internal/ui.ts";
import { safeHref, safeHtmlFragment } from "../internal/safe-html.ts";
import { LOYALTY_TEXTS } from "../../server/contract/widget-strings/loyalty.ts";
import { fillParts } from "../internal/strings.ts";
import { platformTokenOf } from "../internal/customer-token.ts";
import { ReferralSection, referralStyles } from "./chorus-loyalty-referral.ts";

/** `off`: the store has no loyalty program, or the merchant turned it off (404 `loyalty_program_not_found`): nothing is shown. */
type Phase = "loading" | "anonymous" | "pending" | "enrolled" | "blocked" | "error" | "off";

/**
 * @summary The loyalty program widget: sign-in with the storefront token, the legal terms and the enrol
 * button, then balance, VIP tier, earning rules and rewards to redeem (docs/loyalty.md, Statuses and rules; docs/loyalty.md, Enrolment flow).
 *
 * Flow: login with the storefront platform token → by status: `pending` → the enrol button with exactly
 * `acceptTermsAndJoinProgramButtonText` and the legal sentence (`policySentence.html` rebuilt again
 * from an allowlist (widgets/internal/safe-html.ts), or built from `template` and the two URLs, each
 * linked only when `safeHref` keeps it) above or below it; click → activation with
 * the kept `version` → enrolled view. `enrolled` → the member panel (docs/loyalty.md "Widget `<chorus-loyalty>`"):
 * balance, pending points and the expiry date; VIP tier and the points to the next; ways to earn with each rule's
 * state; rewards with Redeem buttons and the points still missing; the birthday form; the points history ("Load more"). `blocked` → a polite message, no participation controls. No token → general program details
 * and a sign-in prompt. A store without a loyalty program, or whose program is turned off, shows nothing.
 *
 * @tag chorus-loyalty
 * @attr store-id - the store's subscriber ID (required)
 * @attr customer-token - the storefront platform's user token; else read from
 *   `<script type="application/json" id="chorus-customer-token">"<token>"</script>`
 * @attr partner-id - technology partner ID: sent as `enrollmentChannel` and in the `service-partner-id` header
 * @attr policy-position - `above` or `below` (default): where the legal sentence goes relative to the button
 * @attr sign-in-url - where the sign-in prompt links for anonymous shoppers (default `/account/login`)
 * @attr api-base - origin of the Chorus server (default: where chorus.js came from)
 *
 * @event chorus-loyalty-enrolled - `{ loyaltyCustomerId, balance, vipTierName? }` after enrolment
 * @event chorus-loyalty-redeemed - `{ transactionId, redemptionRuleId, code, pointsCost }` after a redemption
 *
 * @csspart card - the outer card
 * @csspart balance - the points balance
 * @csspart tier - the VIP tier name
 * @csspart join-button - the enrol button
 * @csspart legal - the legal sentence
 * @csspart redeem-button - each Redeem button
 * @csspart coupon - the coupon code after a redemption (created at the shop before it is shown)
 * @csspart copy-button - the button that copies the coupon code
 * @csspart apply-link - Shopify: the shop's `/discount/{code}` link, which applies the code to the cart
 * @csspart demo-notice - the demo store's note that its codes work only in the demo
 * @csspart pending - the pending points (order points in the store's return window)
 * @csspart expiry - the date the balance expires without new activity
 * @csspart tier-progress - the points to the next VIP tier, with a progress bar
 * @csspart rule-state - each earning rule's state (done, once a year, not available, ...)
 * @csspart missing - the points a reward still needs
 * @csspart birthday-form - the birthday form (month and day, changeable once a year)
 * @csspart history - the points history list
 * @csspart history-text - each history line's text, in the panel's language (a store's adjustment reason as written)
 * @csspart load-more - the button that loads older history
 * @csspart referral - the "Refer a friend" section (enrolled shoppers, when the store's referral program is on)
 * @csspart referral-link - the shopper's referral link
 * @csspart referral-copy-button - the button that copies the referral link
 * @csspart referral-share-button - the button that shares the link (where the browser can share)
 *
 * @cssproperty --chorus-accent - buttons and links
 * @cssproperty --chorus-radius - corner radius
 */
@chorusElement("chorus-loyalty")
export class ChorusLoyalty extends ChorusElement {
  static widget = "loyalty" as const;
  static defaults = LOYALTY_TEXTS;
  static properties = {
    customerToken: { attribute: "customer-token" },
    partnerId: { attribute: "partner-id" },
    policyPosition: { attribute: "policy-position" },
    signInUrl: { attribute: "sign-in-url" },
    phase: { state: true },
    customer: { state: true },
    legal: { state: true },
    earningRules: { state: true },
    redemptionRules: { state: true },
    vipTiers: { state: true },
    busy: { state: true },
    message: { state: true },
    errorMessage: { state: true },
    coupon: { state: true },
    overview: { state: true },
    history: { state: true },
    historyNext: { state: true },
    birthdayError: { state: true },
  };

  /** "1 point" / "1,250 points". */
  #points(n: number): string {
    return this.plural("loyalty.points", n);
  }
  static styles = [
    tokens,
    controls,
    css`
      :host {
        display: block;
      }
      .card {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
        padding: 1.25rem;
        min-height: 12rem;
      }
      h2 {
        font-size: 1.35rem;
        margin: 0 0 0.5rem;
      }
      h3 {
        font-size: 1.05rem;
        margin: 1.25rem 0 0.5rem;
      }
      p {
        margin: 0.5rem 0;
        line-height: 1.5;
      }
      ul {
        padding: 0;
        margin: 0;
        list-style: none;
      }
      li {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 1rem;
        padding: 0.5rem 0;
        border-top: 1px solid var(--_border);
      }
      .btn {
        padding: 0.6rem 1.1rem;
        font-weight: 600;
      }
      .btn[disabled] {
        cursor: not-allowed;
      }
      .legal {
        font-size: 0.95rem;
        color: var(--_text);
      }
      a {
        color: var(--_accent);
      }
      .summary {
        display: flex;
        flex-wrap: wrap;
        gap: 1.5rem;
        align-items: baseline;
      }
      .balance {
        font-size: 1.6rem;
        font-weight: 700;
      }
      .muted {
        color: var(--_muted);
      }
      .coupon-actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem;
        align-items: center;
      }
      .coupon {
        font-family: ui-monospace, monospace;
        font-size: 1.15rem;
        font-weight: 700;
        letter-spacing: 0.05em;
        padding: 0.25rem 0.5rem;
        border: 1px dashed var(--_accent);
        border-radius: 4px;
      }
      .skeleton {
        height: 10rem;
      }
      progress {
        display: block;
        width: 100%;
        max-width: 20rem;
        accent-color: var(--_accent);
      }
      .badge {
        font-size: 0.9rem;
        white-space: nowrap;
      }
      .done {
        color: var(--_text);
        font-weight: 600;
      }
      fieldset {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.75rem 1rem;
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem;
        align-items: end;
      }
      legend {
        font-weight: 600;
        padding: 0 0.25rem;
      }
      label {
        display: grid;
        gap: 0.25rem;
      }
      select {
        font: inherit;
        padding: 0.4rem;
        border: 1px solid var(--_border);
        border-radius: 4px;
        background: var(--_surface);
        color: var(--_text);
      }
    `,
    referralStyles,
  ];

  customerToken = "";
  partnerId = "";
  policyPosition: "above" | "below" = "below";
  signInUrl = "/account/login";

  phase: Phase = "loading";
  customer: LoyaltyCustomer | null = null;
  legal: LegalPolicies | null = null;
  earningRules: EarningRule[] = [];
  redemptionRules: RedemptionRule[] = [];
  vipTiers: VipTier[] = [];
  busy = false;
  message = "";
  errorMessage = "";
  coupon: { code: string; description: string; discountUrl?: string; demo: boolean } | null = null;
  /** The member's overview (GET …/loyalty/customer/overview): pending points, expiry, tier progress, birthday, rule states. */
  overview: CustomerOverview | null = null;
  /** The points history loaded so far, newest first, and the next page's URL (null: none). */
  history: LoyaltyTransaction[] = [];
  historyNext: string | null = null;
  birthdayError = "";

  /** The "Refer a friend" section (widgets/loyalty/chorus-loyalty-referral.ts). */
  #referral = new ReferralSection(this, () => this.#auth());
  /** The service's customer token (from login), kept in memory only. */
  #serviceToken = "";
  /** The legal policies version shown to the shopper (sent back at activation). */
  #version = "";

  connectedCallback(): void {
    super.connectedCallback();
    void this.#start();
  }

  /** The storefront platform token: the attribute, else the `chorus-customer-token` script tag. */
  #platformToken(): string {
    return platformTokenOf(this.customerToken);
  }

  /** POST …/loyalty/login with the storefront token; keeps the service's customer token. */
  async #login(token: string): Promise<LoginResponse> {
    const login = await postJson<LoginResponse>(`${this.storeUrl}/loyalty/login`, { customerAccessToken: token });
    this.#serviceToken = login.customerToken;
    return login;
  }

  #auth(): Record<string, string> {
    return this.#serviceToken ? { authorization: `Bearer ${this.#serviceToken}` } : {};
  }

  /** Flow step 1: login, then branch by status. */
  async #start(): Promise<void> {
    this.phase = "loading";
    this.errorMessage = "";
    try {
      const token = this.#platformToken();
      if (!token) {
        await this.#loadProgram();
        this.phase = "anonymous";
        return;
      }
      const login = await this.#login(token);
      this.customer = login.loyaltyCustomer;
      if (login.loyaltyCustomer.status === "blocked") {
        this.phase = "blocked";
      } else if (login.loyaltyCustomer.status === "pending") {
        // Flow step 2–3: legal policies, keep the version.
        const [legal] = await Promise.all([getJson<LegalPolicies>(`${this.storeUrl}/loyalty/legal_policies`), this.#loadProgram()]);
        this.legal = legal;
        this.#version = legal.version;
        this.phase = "pending";
      } else {
        await Promise.all([this.#loadProgram(), this.#loadMember()]);
        this.phase = "enrolled";
      }
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 404 && error.code === "loyalty_program_not_found") {
        this.phase = "off";
        return;
      }
      this.errorMessage = error instanceof ApiRequestError && error.status === 401 ? this.t("loyalty.signInFailed") : this.describe(error);
      this.phase = "error";
    }
  }

  /**
   * Run `fn`; when it fails with 401 (the short-lived customer token expired), log in again with the
   * storefront token once and retry.
   */
  async #withFreshToken<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const token = this.#platformToken();
      if (!(error instanceof ApiRequestError && error.status === 401) || !token) throw error;
      await this.#login(token);
      return fn();
    }
  }

  async #loadProgram(): Promise<void> {
    const headers = this.#auth();
    const [earning, redemption, tiers] = await Promise.all([
      getJson<EarningRulesResponse>(`${this.storeUrl}/loyalty/earning_rules`, { headers }),
      getJson<RedemptionRulesResponse>(`${this.storeUrl}/loyalty/redemption_rules`, { headers }),
      getJson<VipTiersResponse>(`${this.storeUrl}/loyalty/vip_tiers`, { headers }),
    ]);
    this.earningRules = earning.earningRules;
    this.redemptionRules = redemption.redemptionRules;
    this.vipTiers = tiers.vipTiers;
  }

  /** The member panel's data: the overview and the first page of the points history. */
  async #loadMember(): Promise<void> {
    const [{ overview }, page] = await this.#withFreshToken(() =>
      Promise.all([
        getJson<{ overview: CustomerOverview }>(`${this.storeUrl}/loyalty/customer/overview`, { headers: this.#auth() }),
        getJson<TransactionsResponse>(`${this.storeUrl}/loyalty/customer/transactions?limit=10`, { headers: this.#auth() }),
      ]),
    );
    this.overview = overview;
    this.history = page.transactions;
    this.historyNext = page.nextUrl ?? null;
  }

  /** "Load more": the next page of the points history. */
  async #moreHistory(): Promise<void> {
    const next = this.historyNext;
    if (!next || this.busy) return;
    this.busy = true;
    this.errorMessage = "";
    try {
      const page = await this.#withFreshToken(() => getJson<TransactionsResponse>(this.resolveNextUrl(next), { headers: this.#auth() }));
      this.history = [...this.history, ...page.transactions];
      this.historyNext = page.nextUrl ?? null;
    } catch (error) {
      this.errorMessage = this.describe(error);
    } finally {
      this.busy = false;
    }
  }

  /** Save the birthday from the form (PATCH …/loyalty/customer): month and day, changeable once a year (docs/loyalty.md "Birthdays"). */
  async #saveBirthday(event: Event): Promise<void> {
    event.preventDefault();
    if (this.busy) return;
    const form = event.target as HTMLFormElement;
    const month = Number((form.elements.namedItem("month") as HTMLSelectElement).value);
    const day = Number((form.elements.namedItem("day") as HTMLSelectElement).value);
    this.message = "";
    this.birthdayError = "";
    // 29 February is a birthday (awarded on the 28th in other years); 31 April is not a day.
    if (!month || !day || day > new Date(Date.UTC(2024, month, 0)).getUTCDate()) {
      this.birthdayError = this.t("loyalty.birthdayInvalid");
      return;
    }
    this.busy = true;
    try {
      await this.#withFreshToken(() => postJson(`${this.storeUrl}/loyalty/customer`, { birthday: { month, day } }, { method: "PATCH", headers: this.#auth() }));
      await this.#loadMember();
      this.message = this.t("loyalty.birthdaySaved"); // the panel's one live region
    } catch (error) {
      this.birthdayError = error instanceof ApiRequestError && error.status === 409 ? this.t("loyalty.birthdayTooSoon") : this.describe(error);
    } finally {
      this.busy = false;
    }
  }

  /** Flow step 4–5: activation with the kept version (and the partner header when a partner ID is set). */
  async #join(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.errorMessage = "";
    try {
      const partner = this.partnerId;
      // The headers are built again on the retry after a new login (its customer token).
      const { loyaltyCustomer } = await this.#withFreshToken(() =>
        postJson<LoyaltyCustomerResponse>(
          `${this.storeUrl}/loyalty/customer_activation`,
          { enrollmentChannel: partner || "chorus-widget", legalPoliciesVersionAccepted: this.#version },
          { headers: { ...this.#auth(), ...(partner ? { "service-partner-id": partner } : {}) } },
        ),
      );
      this.customer = loyaltyCustomer;
      await Promise.all([this.#loadProgram(), loyaltyCustomer.status === "enrolled" ? this.#loadMember() : undefined]);
      this.phase = loyaltyCustomer.status === "enrolled" ? "enrolled" : loyaltyCustomer.status;
      this.message = loyaltyCustomer.vipTierName
        ? this.t("loyalty.welcomeTier", { points: this.#points(loyaltyCustomer.points.balance), tier: loyaltyCustomer.vipTierName })
        : this.t("loyalty.welcome", { points: this.#points(loyaltyCustomer.points.balance) });
      this.emit("chorus-loyalty-enrolled", { loyaltyCustomerId: loyaltyCustomer.loyaltyCustomerId, balance: loyaltyCustomer.points.balance, vipTierName: loyaltyCustomer.vipTierName });
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>("h2")?.focus();
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 409) {
        // The terms changed while the shopper was reading: show the current ones.
        this.legal = await getJson<LegalPolicies>(`${this.storeUrl}/loyalty/legal_policies`).catch(() => this.legal);
        if (this.legal) this.#version = this.legal.version;
        this.errorMessage = this.t("loyalty.termsUpdated");
      } else {
        this.errorMessage = this.describe(error);
      }
    } finally {
      this.busy = false;
    }
  }

  /** Redeem points for a reward; shows the coupon code. */
  async #redeem(rule: RedemptionRule): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.errorMessage = "";
    this.coupon = null;
    try {
      const { redemption } = await this.#withFreshToken(() =>
        postJson<RedemptionResponse>(`${this.storeUrl}/loyalty/customer/redemptions`, { redemptionRuleId: rule.redemptionRuleId }, { headers: this.#auth() }),
      );
      const { reward } = redemption;
      this.coupon = {
        code: reward.code,
        description: reward.description,
        discountUrl: reward.discountUrl ? (safeHref(reward.discountUrl, document.baseURI) ?? undefined) : undefined,
        demo: reward.platform === "demo",
      };
      const [{ loyaltyCustomer }] = await Promise.all([getJson<LoyaltyCustomerResponse>(`${this.storeUrl}/loyalty/customer`, { headers: this.#auth() }), this.#loadProgram(), this.#loadMember()]);
      this.customer = loyaltyCustomer;
      this.message = "";
      this.emit("chorus-loyalty-redeemed", { transactionId: redemption.transactionId, redemptionRuleId: rule.redemptionRuleId, code: redemption.reward.code, pointsCost: rule.pointsCost });
    } catch (error) {
      // 503: the shop could not create the reward (docs/loyalty.md "Rewards at checkout"); nothing was taken, retry later.
      this.errorMessage = error instanceof ApiRequestError && error.status === 503 ? this.t("loyalty.rewardUnavailable") : this.describe(error);
    } finally {
      this.busy = false;
    }
  }

  /** Copy the coupon code to the clipboard and say so in the live region. */
  async #copyCoupon(): Promise<void> {
    if (!this.coupon) return;
    try {
      await navigator.clipboard.writeText(this.coupon.code);
      this.message = this.t("loyalty.couponCopied");
    } catch {
      this.message = ""; // no clipboard permission: the code stays on screen to copy by hand
    }
  }

  #legalSentence(): TemplateResult | typeof nothing {
    const legal = this.legal;
    if (!legal) return nothing;
    if (legal.policySentence.html.trim()) {
      return html`<p class="legal" part="legal" id="legal">${safeHtmlFragment(legal.policySentence.html)}</p>`;
    }
    // Stored URLs go through the same link rule as the sentence's HTML: a stored value that escapes the
    // site or is no http(s)/mailto link leaves the text without a link.
    const href = (stored: string) => safeHref(stored, document.baseURI) ?? nothing;
    const parts = legal.policySentence.template.split(/(\{termsAndConditions\}|\{privacyPolicy\})/);
    return html`<p class="legal" part="legal" id="legal">
      ${parts.map((p) =>
        p === "{termsAndConditions}"
          ? html`<a href=${href(legal.termsAndConditionsUrl)}>${this.t("loyalty.terms")}</a>`
          : p === "{privacyPolicy}"
            ? html`<a href=${href(legal.privacyPolicyUrl)}>${this.t("loyalty.privacy")}</a>`
            : p,
      )}
    </p>`;
  }

  #earningList(): TemplateResult {
    const states = new Map(this.overview?.earningRules.map((r) => [r.earningRuleId, r]));
    return html`<h3>${this.t("loyalty.waysToEarn")}</h3>
      <ul aria-label=${this.t("loyalty.waysToEarnLabel")}>
        ${this.earningRules.map((r) => {
          const s = this.phase === "enrolled" ? states.get(r.earningRuleId) : undefined;
          return html`<li>
            <span>${r.name}</span>
            <span class="muted"
              >${r.type === "points-per-spend" ? this.t("loyalty.perSpend", { points: r.pointsPerCurrencyUnit ?? 0 }) : this.#points(r.points)}
              ${
                s
                  ? html`·
                      <span part="rule-state" class="badge ${s.state}"
                        >${
                          s.state === "done"
                            ? this.t("loyalty.state.done")
                            : s.state === "unavailable"
                              ? this.t("loyalty.state.unavailable")
                              : s.frequency === "yearly"
                                ? this.t("loyalty.freq.yearly")
                                : s.frequency === "once"
                                  ? this.t("loyalty.freq.once")
                                  : s.frequency === "per-order"
                                    ? this.t("loyalty.freq.perOrder")
                                    : this.t("loyalty.freq.perReview")
                        }</span
                      >`
                  : nothing
              }</span
            >
          </li>`;
        })}
      </ul>`;
  }

  #rewardsList(withRedeem: boolean): TemplateResult {
    return html`<h3>${this.t("loyalty.rewards")}</h3>
      <ul aria-label=${this.t("loyalty.rewards")}>
        ${this.redemptionRules.map(
          (r) =>
            html`<li>
              <span
                >${r.name} <span class="muted">· ${this.#points(r.pointsCost)}</span> ${
                  withRedeem && this.customer && r.pointsCost > this.customer.points.balance
                    ? html`<span class="muted" part="missing">· ${this.t("loyalty.toGo", { points: this.#points(r.pointsCost - this.customer.points.balance) })}</span>`
                    : nothing
                }</span
              >
              ${
                withRedeem
                  ? html`<button
                      class="btn secondary"
                      part="redeem-button"
                      ?disabled=${this.busy || r.isAvailable === false}
                      aria-label=${this.t("loyalty.redeemLabel", { reward: r.name, points: this.#points(r.pointsCost) })}
                      @click=${() => this.#redeem(r)}
                    >
                      ${this.t("loyalty.redeem")}
                    </button>`
                  : nothing
              }
            </li>`,
        )}
      </ul>`;
  }

  #tiersList(): TemplateResult | typeof nothing {
    if (this.vipTiers.length === 0) return nothing;
    return html`<h3>${this.t("loyalty.vipTiers")}</h3>
      <ul aria-label=${this.t("loyalty.vipTiers")}>
        ${this.vipTiers.map((t) => html`<li><span>${t.name}</span><span class="muted">${this.t("loyalty.tierLine", { points: this.#points(t.pointsThreshold), multiplier: t.pointsMultiplier })}</span></li>`)}
      </ul>`;
  }

  /** Pending points, the expiry date, and the progress to the next VIP tier. */
  #memberSummary(): TemplateResult | typeof nothing {
    const o = this.overview;
    if (!o) return nothing;
    const next = o.nextVipTier;
    const from = o.vipTier?.pointsThreshold ?? 0;
    return html`${o.points.pending > 0 ? html`<p part="pending">${this.t("loyalty.pending", { points: this.#points(o.points.pending) })}</p>` : nothing}
    ${o.pointsExpireAt ? html`<p part="expiry">${this.t("loyalty.expires", { date: formatDate(o.pointsExpireAt) })}</p>` : nothing}
    ${
      next
        ? html`<div part="tier-progress">
            <p id="tier-progress">${this.t("loyalty.toNextTier", { points: this.#points(next.pointsNeeded), tier: next.name })}</p>
            <progress aria-labelledby="tier-progress" max=${next.pointsThreshold - from} value=${next.pointsThreshold - from - next.pointsNeeded}></progress>
          </div>`
        : nothing
    }`;
  }

  /** The birthday form: month and day (no year), changeable once a year. */
  #birthdayForm(): TemplateResult | typeof nothing {
    const o = this.overview;
    if (!o || !this.earningRules.some((r) => r.type === "birthday")) return nothing;
    const b = o.birthday;
    const locked = !!b && Date.parse(b.changeableFrom) > Date.now();
    const months = new Intl.DateTimeFormat(lang(), { month: "long", timeZone: "UTC" });
    return html`<form part="birthday-form" @submit=${this.#saveBirthday} novalidate>
      <fieldset ?disabled=${this.busy}>
        <legend>${this.t("loyalty.birthday")}</legend>
        <p class="muted" id="birthday-hint">${this.t("loyalty.birthdayHint")}</p>
        <label
          >${this.t("loyalty.month")}
          <select name="month" aria-describedby="birthday-hint">
            ${[...Array(12).keys()].map((i) => html`<option value=${i + 1} ?selected=${b?.month === i + 1}>${months.format(Date.UTC(2024, i, 1))}</option>`)}
          </select></label
        >
        <label
          >${this.t("loyalty.day")}
          <select name="day">
            ${[...Array(31).keys()].map((i) => html`<option value=${i + 1} ?selected=${b?.day === i + 1}>${i + 1}</option>`)}
          </select></label
        >
        <button class="btn secondary" type="submit">${this.t("loyalty.birthdaySave")}</button>
      </fieldset>
      ${b && locked ? html`<p class="muted">${this.t("loyalty.birthdayChangeableFrom", { date: formatDate(b.changeableFrom) })}</p>` : nothing}
      ${this.birthdayError ? html`<p class="error" role="alert">${this.birthdayError}</p>` : nothing}
    </form>`;
  }

  /**
   * One history line in the panel's language, from the transaction's `kind` and `details` (docs/loyalty.md "Points
   * history"). Names the merchant wrote (a reward, a product) and a store's adjustment reason stay as written; a
   * transaction without the details its text needs (written before kinds had them) shows its English `description`.
   */
  #entryText(x: LoyaltyTransaction): string {
    const d = x.details ?? {};
    const order = d.order;
    switch (x.kind) {
      case "sign-up":
        return this.t("loyalty.entry.signUp");
      case "birthday":
        return this.t("loyalty.entry.birthday");
      case "referral":
        return this.t("loyalty.entry.referral");
      case "review":
        return d.product ? this.t("loyalty.entry.reviewOf", { product: d.product }) : x.details ? this.t("loyalty.entry.review") : x.description;
      case "redemption":
        return d.reward ? this.t("loyalty.entry.redemption", { reward: d.reward }) : x.description;
      case "expiry":
        return d.months ? this.t("loyalty.entry.expiry", { months: d.months }) : x.description;
      case "order":
        return order ? this.t("loyalty.entry.order", { order }) : x.description;
      case "referral-reversed":
        return order ? this.t("loyalty.entry.referralReversed", { order }) : x.description;
      case "order-cancelled":
        return order ? this.t("loyalty.entry.orderCancelled", { order }) : x.description;
      case "order-refunded":
        return order ? this.t("loyalty.entry.orderRefunded", { order }) : x.description;
      default:
        return x.description; // "adjustment": the store's reason, as written
    }
  }

  /** The points history, newest first, with "Load more". */
  #historyList(): TemplateResult {
    return html`<h3>${this.t("loyalty.history")}</h3>
      ${
        this.history.length === 0
          ? html`<p class="muted">${this.t("loyalty.historyEmpty")}</p>`
          : html`<ul part="history" aria-label=${this.t("loyalty.history")}>
              ${this.history.map(
                (x) =>
                  html`<li>
                    <span part="history-text">${this.#entryText(x)} <span class="muted">· ${formatDate(x.dateCreated)}</span></span>
                    <strong>${x.points > 0 ? "+" : x.points < 0 ? "−" : ""}${this.#points(Math.abs(x.points))}</strong>
                  </li>`,
              )}
            </ul>`
      }
      ${this.historyNext ? html`<button class="btn secondary" part="load-more" ?disabled=${this.busy} @click=${this.#moreHistory}>${this.t("loyalty.loadMore")}</button>` : nothing}`;
  }

  #status(): TemplateResult {
    return html`<div role="status" aria-live="polite">
        ${this.message ? html`<p>${this.message}</p>` : nothing}
        ${
          this.coupon
            ? html`<p>${fillParts(this.t("loyalty.coupon"), { reward: this.coupon.description, code: html`<span class="coupon" part="coupon">${this.coupon.code}</span>` })}</p>
                ${this.coupon.demo ? html`<p class="muted" part="demo-notice">${this.t("loyalty.demoCode")}</p>` : nothing}`
            : nothing
        }
      </div>
      ${
        this.coupon
          ? html`<p class="coupon-actions">
              <button class="btn secondary" part="copy-button" @click=${this.#copyCoupon}>${this.t("loyalty.couponCopy")}</button>
              ${this.coupon.discountUrl ? html`<a part="apply-link" href=${this.coupon.discountUrl}>${this.t("loyalty.couponApply")}</a>` : nothing}
            </p>`
          : nothing
      }
      ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : nothing}`;
  }

  render(): TemplateResult | typeof nothing {
    if (this.phase === "off") return nothing;
    return html`<section class="card" part="card" aria-labelledby="title" aria-busy=${this.phase === "loading"}>${this.#body()}</section>`;
  }

  #body(): TemplateResult {
    switch (this.phase) {
      case "off": // render() shows nothing in this phase
      case "loading":
        return html`<h2 id="title">${this.t("loyalty.rewardsTitle")}</h2>
          <p class="muted skeleton">${this.t("loyalty.loading")}</p>`;
      case "error":
        return html`<h2 id="title">${this.t("loyalty.rewardsTitle")}</h2>
          <p class="error" role="alert">${this.errorMessage}</p>
          <button class="btn secondary" @click=${this.#start}>${this.t("loyalty.retry")}</button>`;
      case "blocked":
        return html`<h2 id="title">${this.t("loyalty.rewardsTitle")}</h2>
          <p>${this.t("loyalty.blocked")}</p>`;
      case "anonymous":
        return html`<h2 id="title">${this.t("loyalty.joinTitle")}</h2>
          <p>${this.t("loyalty.intro")}</p>
          <p>${fillParts(this.t("loyalty.signInPrompt"), { signIn: html`<a href=${this.signInUrl}>${this.t("loyalty.signIn")}</a>` })}</p>
          ${this.#earningList()} ${this.#rewardsList(false)} ${this.#tiersList()}`;
      case "pending": {
        const legal = this.legal!;
        const button = html`<button class="btn" part="join-button" aria-describedby="legal" ?disabled=${this.busy} @click=${this.#join}>${legal.acceptTermsAndJoinProgramButtonText}</button>`;
        return html`<h2 id="title">${this.t("loyalty.joinTitle")}</h2>
          <p>${fillParts(this.t("loyalty.pendingIntro"), { points: html`<span part="balance">${this.#points(this.customer?.points.balance ?? 0)}</span>` })}</p>
          ${this.policyPosition === "above" ? html`${this.#legalSentence()}${button}` : html`${button}${this.#legalSentence()}`} ${this.#status()} ${this.#earningList()} ${this.#rewardsList(false)}`;
      }
      case "enrolled": {
        const c = this.customer!;
        return html`<h2 id="title" tabindex="-1">${this.t("loyalty.yourRewards")}</h2>
          <div class="summary">
            <p>${fillParts(this.t("loyalty.balance"), { points: html`<span class="balance" part="balance">${this.#points(c.points.balance)}</span>` })}</p>
            ${c.vipTierName ? html`<p>${fillParts(this.t("loyalty.tier"), { tier: html`<strong part="tier">${c.vipTierName}</strong>` })}</p>` : nothing}
          </div>
          ${this.#memberSummary()} ${this.#status()} ${this.#earningList()} ${this.#rewardsList(true)} ${this.#birthdayForm()} ${this.#historyList()} ${this.#tiersList()} ${this.#referral.render()}`;
      }
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-loyalty": ChorusLoyalty;
  }
}
