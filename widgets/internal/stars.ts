/**
 * Star rating drawing: five SVG stars filled to `rating` (fractions allowed), hidden from assistive
 * technology; the caller gives the accessible text (e.g. "Rated 4.3 out of 5").
 */
import { html, svg, type TemplateResult } from "lit";

const STAR = "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 17.3 6.1 20.5l1.3-6.5L2.5 9.4l6.6-.8z";

/** @param rating 0..5 @param size px */
export function stars(rating: number, size = 18): TemplateResult {
  const clamped = Math.max(0, Math.min(5, rating));
  return html`<span part="stars" class="stars" aria-hidden="true" style="display:inline-flex;gap:1px;vertical-align:middle">
    ${[0, 1, 2, 3, 4].map((i) => {
      const fill = Math.max(0, Math.min(1, clamped - i));
      const id = `g${Math.round(fill * 100)}`;
      return svg`<svg width=${size} height=${size} viewBox="0 0 24 24" focusable="false">
        <defs><linearGradient id=${id}><stop offset=${fill} stop-color="var(--_star)"></stop><stop offset=${fill} stop-color="var(--_star-empty)"></stop></linearGradient></defs>
        <path d=${STAR} fill=${`url(#${id})`}></path></svg>`;
    })}
  </span>`;
}
