/**
 * The `<chorus-review-media>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them.
 */
import { css } from "lit";

export const mediaStyles = css`
  :host {
    display: block;
    --_thumb: var(--chorus-media-thumb-size, 96px);
    min-height: var(--chorus-review-media-min-height, calc(var(--_thumb) + 3.5rem));
    contain: layout;
  }
  ul {
    list-style: none;
    padding: 0;
    margin: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(var(--_thumb), 1fr));
    gap: 8px;
    min-height: var(--_thumb);
  }
  .thumb {
    padding: 0;
    border: 0;
    background: var(--_tint);
    border-radius: 6px;
    overflow: hidden;
    width: 100%;
    aspect-ratio: 1;
    cursor: zoom-in;
    position: relative;
    display: block;
  }
  .thumb img {
    width: 100%;
    height: 100%;
    object-fit: cover;
    display: block;
  }
  .play {
    position: absolute;
    inset: auto 6px 6px auto;
    background: rgba(0, 0, 0, 0.7);
    color: #fff;
    border-radius: 4px;
    padding: 0 6px;
    font-size: 12px;
  }
  .skeleton {
    aspect-ratio: 1;
  }
  .more {
    margin-top: 10px;
    display: flex;
    gap: 8px;
  }
  /* Carousel: one row of thumbnails that scrolls sideways and snaps; the row is as tall as one grid row. */
  :host([layout="carousel"]) ul {
    display: flex;
    overflow-x: auto;
    scroll-snap-type: x mandatory;
    scroll-behavior: smooth;
    scrollbar-width: none;
    overscroll-behavior-x: contain;
  }
  :host([layout="carousel"]) li {
    flex: 0 0 var(--_thumb);
    scroll-snap-align: start;
  }
  @media (prefers-reduced-motion: reduce) {
    ul {
      scroll-behavior: auto !important;
    }
  }
  /* No photos or videos: nothing at all, no reserved space. */
  :host([state="empty"]) {
    display: none !important;
  }
  dialog {
    border: 0;
    border-radius: var(--_radius);
    padding: 16px;
    max-width: min(96vw, 1000px);
    width: 100%;
    background: Canvas;
    color: CanvasText;
  }
  dialog::backdrop {
    background: rgba(0, 0, 0, 0.75);
  }
  /* The photo beside its review; on narrow screens the review under the photo. */
  .lb {
    display: grid;
    grid-template-columns: minmax(0, 2fr) minmax(14rem, 1fr);
    gap: 16px;
    align-items: start;
  }
  .stage {
    display: flex;
    align-items: center;
    justify-content: center;
    min-height: 200px;
    max-height: 75vh;
  }
  .stage img,
  .stage video {
    max-width: 100%;
    max-height: 70vh;
    object-fit: contain;
  }
  .review {
    max-height: 70vh;
    overflow: auto;
    display: grid;
    gap: 8px;
    align-content: start;
  }
  .review p {
    margin: 0;
  }
  .title,
  .name {
    font-weight: 600;
  }
  .body {
    white-space: pre-line;
  }
  .muted {
    color: var(--_muted);
  }
  .badge {
    font-size: 0.875em;
  }
  @media (max-width: 40rem) {
    .lb {
      grid-template-columns: 1fr;
    }
    .stage img,
    .stage video {
      max-height: 50vh;
    }
    .review {
      max-height: none;
    }
  }
  .bar {
    display: flex;
    gap: 8px;
    align-items: center;
    justify-content: space-between;
    margin-top: 10px;
    flex-wrap: wrap;
  }
  .caption {
    margin: 0;
  }
`;
