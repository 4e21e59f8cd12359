import { LitElement, html } from "lit";
import { customElement } from "lit/decorators.js";

/** Placeholder until the reviews list lands. */
@customElement("chorus-reviews")
export class ChorusReviews extends LitElement {
  render() {
    return html`<p>Reviews</p>`;
  }
}
