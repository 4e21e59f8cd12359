/**
 * The `<chorus-reviews-carousel>` element's own styles (beside the shared tokens and control styles). Its height is
 * fixed: `--chorus-reviews-carousel-min-height` while loading and when ready (each slide is that minus the control
 * row), so neither loading nor moving between slides shifts the page.
 */
import { css } from "lit";

export const carouselStyles = css`
  :host {
    display: block;
    --_h: var(--chorus-reviews-carousel-min-height, 18rem);
    min-height: var(--_h);
    contain: layout;
  }
  /* No reviews (or none could be loaded): nothing at all, no reserved space. */
  :host([state="empty"]) {
    display: none !important;
  }
  p {
    margin: 0;
  }
  .skeleton {
    height: var(--_h);
  }
  .bar {
    display: flex;
    align-items: center;
    justify-content: flex-end;
    gap: 0.5rem;
    height: 2.75rem;
    margin-bottom: 0.5rem;
  }
  .status {
    color: var(--_muted);
  }
  .track {
    display: flex;
    overflow-x: auto;
    scroll-snap-type: x mandatory;
    scroll-behavior: smooth;
    scrollbar-width: none;
  }
  @media (prefers-reduced-motion: reduce) {
    .track {
      scroll-behavior: auto;
    }
  }
  .slide {
    flex: 0 0 100%;
    box-sizing: border-box;
    height: calc(var(--_h) - 3.25rem);
    scroll-snap-align: start;
    display: flex;
    flex-direction: column;
    gap: 0.375rem;
    padding: 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    overflow: hidden;
  }
  .title {
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .body {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: var(--chorus-reviews-carousel-lines, 3);
    overflow: hidden;
  }
  .meta {
    margin-top: auto;
  }
  .badge {
    padding-left: 0.5em;
    font-size: 0.875em;
    font-weight: 600;
  }
  .product {
    color: var(--_muted);
    font-size: 0.875em;
  }
`;
