/**
 * The `<chorus-reviews-carousel>` element's own styles (beside the shared tokens and control styles). Its height is
 * fixed: `--chorus-reviews-carousel-min-height` while loading and when ready (each slide is that minus the control
 * row), so neither loading nor moving between slides shifts the page.
 */
import { css } from "lit";

export const carouselStyles = css`
  :host { display: block; --_h: var(--chorus-reviews-carousel-min-height, 18rem); min-height: var(--_h); contain: layout; }
  /* No reviews (or none could be loaded): nothing at all, no reserved space. */
  :host([state="empty"]) { display: none !important; }
  p { margin: 0; }
  .skeleton { height: var(--_h); }
  .bar { display: flex; align-items: center; justify-content: flex-end; gap: 0.5rem; height: 2.75rem; margin-bottom: 0.5rem; }
  .bar .btn { padding: 0.3rem 0.8rem; }
  .status { min-width: 5em; text-align: center; color: var(--_muted); }
  .track { display: flex; gap: 1rem; overflow-x: auto; scroll-snap-type: x mandatory; scroll-behavior: smooth; scrollbar-width: none; position: relative; }
  @media (prefers-reduced-motion: reduce) { .track { scroll-behavior: auto; } }
  .slide { flex: 0 0 100%; box-sizing: border-box; height: calc(var(--_h) - 3.25rem); scroll-snap-align: start; display: flex; flex-direction: column; gap: 0.375rem; padding: 1rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); overflow: hidden; }
  .title, .product { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .title { font-weight: 600; }
  .body { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: var(--chorus-reviews-carousel-lines, 3); overflow: hidden; }
  .meta { margin-top: auto; }
  .badge { margin-inline-start: 0.5em; font-size: 0.875em; font-weight: 600; }
  .product { color: var(--_muted); font-size: 0.875em; }
`;
