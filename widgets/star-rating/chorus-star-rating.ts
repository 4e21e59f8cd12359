import { LitElement, html } from "lit";
import { customElement } from "lit/decorators.js";

/** Placeholder until the star rating lands. */
@customElement("chorus-star-rating")
export class ChorusStarRating extends LitElement {
  render() {
    return html`<span>★</span>`;
  }
}
