/**
 * Star rating drawing: five stars filled to `rating` (fractions allowed) in ONE small SVG (five paths
 * and at most one gradient, for the partly filled star), hidden from assistive technology; the caller
 * gives the accessible text (e.g. "Rated 4.3 out of 5"). One SVG instead of five keeps a page of 25
 * reviews cheap to render (issue 8: no long task).
 */
import { html, svg, type TemplateResult } from "lit";

const STAR = "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 17.3 6.1 20.5l1.3-6.5L2.5 9.4l6.6-.8z";
let gradients = 0;

/** @param rating 0..5 @param size px (height; the width is 5 stars plus 1 px gaps) */
export function stars(rating: number, size = 18): TemplateResult {
  const clamped = Math.max(0, Math.min(5, rating));
  const partial = clamped % 1;
  const id = partial ? `cs${gradients++}` : "";
  // The partly filled star: a hard stop at its fill fraction (its box spans x 2.5..21.5 of the 24-unit cell).
  const at = Math.floor(clamped);
  return html`<svg part="stars" class="stars" aria-hidden="true" focusable="false" width=${size * 5 + 4} height=${size} viewBox="0 0 124 24" style="vertical-align:middle">
    ${id ? svg`<defs><linearGradient id=${id} gradientUnits="userSpaceOnUse" x1=${at * 25 + 2.5} x2=${at * 25 + 21.5}><stop offset=${partial} style="stop-color:var(--_star)"></stop><stop offset=${partial} style="stop-color:var(--_star-empty)"></stop></linearGradient></defs>` : ""}
    <path style=${fill(clamped, 0, id)} d=${STAR}></path>
    <path style=${fill(clamped, 1, id)} d=${STAR} transform="translate(25)"></path>
    <path style=${fill(clamped, 2, id)} d=${STAR} transform="translate(50)"></path>
    <path style=${fill(clamped, 3, id)} d=${STAR} transform="translate(75)"></path>
    <path style=${fill(clamped, 4, id)} d=${STAR} transform="translate(100)"></path>
  </svg>`;
}

function fill(rating: number, i: number, id: string): string {
  return `fill:${rating >= i + 1 ? "var(--_star)" : rating > i && id ? `url(#${id})` : "var(--_star-empty)"}`;
}
