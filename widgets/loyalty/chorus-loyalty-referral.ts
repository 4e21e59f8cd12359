/**
 * The "Refer a friend" section of `<chorus-loyalty>` (docs/loyalty.md "Referrals"), a Lit reactive controller the
 * panel includes: once the shopper is enrolled it reads the store's referral program
 * (`GET /referral_program`) and, when the program is on, the shopper's link (`POST /referral_senders` with the
 * loyalty customer token, so the customer's own e-mail address is used). It renders the offer, the link, a copy
 * button and a share button (the Web Share API where the browser has it); nothing while loading, when the program
 * is off, or when the link cannot be had (the rest of the panel works on). Texts are the panel's `loyalty.referral.*`.
 *
 * Parts (of the panel): `referral` (the section), `referral-link` (the link field), `referral-copy-button`,
 * `referral-share-button`.
 */
import { css, html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from "lit";
import type { ReferralProgramResponse, ReferralSenderResponse } from "../../server/contract/referrals.ts";
import { getJson, postJson } from "../internal/api.ts";

/** What the section needs of the panel. */
export type ReferralHost = ReactiveControllerHost &
  HTMLElement & {
    readonly storeUrl: string;
    readonly phase: string;
    t(id: string, vars?: Record<string, string | number>): string;
    plural(id: string, n: number, vars?: Record<string, string | number>): string;
  };

/** The section's styles (added to the panel's). */
export const referralStyles = css`
  .referral {
    margin-top: 1.25rem;
    padding-top: 0.75rem;
    border-top: 1px solid var(--_border);
  }
  .referral-row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .referral-row input {
    flex: 1 1 16rem;
    min-width: 0;
    font: inherit;
    padding: 0.5rem 0.6rem;
    border: 1px solid var(--_border);
    border-radius: 4px;
  }
`;

export class ReferralSection implements ReactiveController {
  #host: ReferralHost;
  #auth: () => Record<string, string>;
  #started = false;
  #link = "";
  #intro = "";
  #note = "";

  /** `auth`: the panel's `Authorization` header of the loyalty customer token (built at call time). */
  constructor(host: ReferralHost, auth: () => Record<string, string>) {
    this.#host = host;
    this.#auth = auth;
    host.addController(this);
  }

  hostUpdated(): void {
    if (this.#started || this.#host.phase !== "enrolled") return;
    this.#started = true;
    void this.#load();
  }

  async #load(): Promise<void> {
    const host = this.#host;
    try {
      const { referralProgram: p } = await getJson<ReferralProgramResponse>(`${host.storeUrl}/referral_program`);
      if (!p.enabled) return;
      const words = (type: string, value: number) => host.t(type === "percentage-coupon" ? "loyalty.referral.percentOff" : "loyalty.referral.amountOff", { value });
      const discount = words(p.friendDiscount.type, p.friendDiscount.value);
      const reward =
        p.senderReward.type === "points"
          ? host.plural("loyalty.points", p.senderReward.value)
          : host.t("loyalty.referral.couponReward", { discount: words(p.senderReward.type, p.senderReward.value) });
      const sender = await postJson<ReferralSenderResponse>(`${host.storeUrl}/referral_senders`, {}, { headers: this.#auth() });
      this.#intro = host.t("loyalty.referral.intro", { discount, reward });
      this.#link = sender.shareableLinkUrl;
      host.requestUpdate();
    } catch {
      // No program, no link (e.g. no e-mail address known): the section stays hidden.
    }
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.#link);
      this.#note = this.#host.t("loyalty.referral.copied");
    } catch {
      this.#note = ""; // no clipboard permission: the link stays selectable in the field
    }
    this.#host.requestUpdate();
  }

  async #share(): Promise<void> {
    try {
      await navigator.share({ title: this.#host.t("loyalty.referral.title"), text: this.#intro, url: this.#link });
    } catch {
      // cancelled by the shopper, or refused: nothing to say
    }
  }

  /** The section, or nothing while there is no link. */
  render(): TemplateResult | typeof nothing {
    if (!this.#link) return nothing;
    const t = (id: string) => this.#host.t(id);
    const canShare = typeof navigator.share === "function";
    return html`<section class="referral" part="referral" aria-labelledby="referral-title">
      <h3 id="referral-title">${t("loyalty.referral.title")}</h3>
      <p>${this.#intro}</p>
      <div class="referral-row">
        <label class="visually-hidden" for="referral-link">${t("loyalty.referral.linkLabel")}</label>
        <input id="referral-link" part="referral-link" type="url" readonly .value=${this.#link} @focus=${(e: FocusEvent) => (e.target as HTMLInputElement).select()} />
        <button class="btn secondary" part="referral-copy-button" @click=${() => this.#copy()}>${t("loyalty.referral.copy")}</button>
        ${canShare ? html`<button class="btn secondary" part="referral-share-button" @click=${() => this.#share()}>${t("loyalty.referral.share")}</button>` : nothing}
      </div>
      <p role="status" aria-live="polite">${this.#note}</p>
    </section>`;
  }
}
