/**
 * The `<chorus-review-media>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them.
 */
import { css } from "lit";

export const mediaStyles = css`
  :host { display: block; --_thumb: var(--chorus-media-thumb-size, 96px); min-height: var(--chorus-review-media-min-height, calc(var(--_thumb) + 3.5rem)); contain: layout; }
  ul { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(var(--_thumb), 1fr)); gap: 8px; min-height: var(--_thumb); }
  .thumb { padding: 0; border: 0; background: var(--_tint); border-radius: 6px; overflow: hidden; width: 100%; aspect-ratio: 1; cursor: zoom-in; position: relative; display: block; }
  .thumb img { width: 100%; height: 100%; object-fit: cover; display: block; }
  .play { position: absolute; inset: auto 6px 6px auto; background: rgba(0,0,0,.7); color: #fff; border-radius: 4px; padding: 0 6px; font-size: 12px; }
  .skeleton { aspect-ratio: 1; }
  .more { margin-top: 10px; }
  /* No photos or videos: nothing at all, no reserved space. */
  :host([state="empty"]) { display: none !important; }
  dialog { border: 0; border-radius: var(--_radius); padding: 16px; max-width: min(96vw, 1000px); width: 100%; background: Canvas; color: CanvasText; }
  dialog::backdrop { background: rgba(0, 0, 0, 0.75); }
  .stage { display: flex; align-items: center; justify-content: center; min-height: 200px; max-height: 75vh; }
  .stage img, .stage video { max-width: 100%; max-height: 70vh; object-fit: contain; }
  .bar { display: flex; gap: 8px; align-items: center; justify-content: space-between; margin-top: 10px; flex-wrap: wrap; }
  .caption { margin: 0; }
`;
