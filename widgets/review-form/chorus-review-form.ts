/**
 * `<chorus-review-form>`: placeholder until the review form lands (another engineer replaces this
 * file). `<chorus-reviews>` imports it on "Write a review" and renders it with store-id, product-id
 * and api-base.
 *
 * @summary Placeholder for the shopper's review form.
 * @attr store-id - the store's subscriber ID
 * @attr product-id - platform-prefixed product ID
 * @attr api-base - Chorus origin
 * @csspart message - the placeholder paragraph
 */
import { html } from "lit";
import { customElement } from "lit/decorators.js";
import { ChorusElement } from "../internal/chorus-element.ts";
import { tokens } from "../internal/tokens.ts";

@customElement("chorus-review-form")
export class ChorusReviewForm extends ChorusElement {
  static styles = [tokens];

  render() {
    return html`<p part="message" tabindex="-1">The review form is loading…</p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-review-form": ChorusReviewForm;
  }
}
