/**
 * Design tokens shared by every element: `--chorus-*` custom properties whose defaults derive from the
 * page, so the widgets fit any theme and stay readable on any background (docs/widgets.md, Themes).
 *
 * Each block element paints its own surface: a background and text colour pair. The text is the page's
 * inherited colour (`currentColor`); the background is that colour's paper: white under dark text, black under
 * light text (`oklch(from currentColor round(1 - l, 1) 0 0)`), so text meets WCAG AA (≥ 4.5:1) whatever
 * the page's background, e.g. black text on a mid-grey (#777) page is drawn on white. A browser without
 * relative colours takes the system pair `Canvas`/`CanvasText`. Both follow a page that declares
 * `color-scheme: light dark` (its text colour, or `CanvasText`, turns light for a shopper who prefers dark).
 * Secondary text, borders, empty stars and placeholders are `color-mix()` of the text colour with
 * `transparent`; controls inherit colour and have no background of their own. Without an accent, buttons
 * are outlined in the text colour (`--_fill` transparent, `--_on-fill` the text colour); with
 * `--chorus-accent` set (page CSS or the admin, set on the element) they are filled with it and their text is
 * `--chorus-accent-contrast` (default white). The star badge, an inline element beside the product title,
 * paints nothing and uses the page's text colour at full strength.
 * A merchant themes every widget at once by setting these on any ancestor (e.g. `:root { --chorus-accent: #0a7; }`);
 * `--chorus-background: transparent` shows the page through (the page's own text colour must then contrast with it).
 *
 * @cssproperty --chorus-font - font family (default: inherit)
 * @cssproperty --chorus-text - text colour (default: the page's text colour, currentColor)
 * @cssproperty --chorus-background - the element's background (default: white under dark text, black under light text)
 * @cssproperty --chorus-muted - secondary text colour (default: the text colour at 80%)
 * @cssproperty --chorus-accent - filled buttons, links, focus ring, active chips (default: the text colour, buttons outlined)
 * @cssproperty --chorus-accent-contrast - text on accent (default #fff, only used with --chorus-accent)
 * @cssproperty --chorus-star - filled star colour (default #b45309)
 * @cssproperty --chorus-star-empty - empty star colour (default: the text colour at 25%)
 * @cssproperty --chorus-border - hairlines (default: the text colour at 22%)
 * @cssproperty --chorus-surface - card background (default transparent: the element's background)
 * @cssproperty --chorus-radius - corner radius
 * @cssproperty --chorus-danger - error text (default: red mixed into the text colour)
 */
import { css } from "lit";

export const tokens = css`
  /* The surface pair without relative colours: the system colours of the page's colour scheme. */
  :host {
    --_ink: CanvasText;
    --_paper: Canvas;
  }
  @supports (color: oklch(from currentColor round(1 - l, 1) 0 0)) {
    /* The page's text colour on its paper: white under dark text, black under light text. */
    :host {
      --_ink: currentColor;
      --_paper: oklch(from currentColor round(1 - l, 1) 0 0);
    }
  }
  :host {
    --_font: var(--chorus-font, inherit);
    --_text: var(--chorus-text, var(--_ink));
    --_background: var(--chorus-background, var(--_paper));
    --_muted: var(--chorus-muted, color-mix(in srgb, currentColor 80%, transparent));
    --_accent: var(--chorus-accent, currentColor);
    /* Filled controls: the accent when one is set, else none (outlined in the text colour). */
    --_fill: var(--chorus-accent, transparent);
    /* Text on --_fill: invalid (so var(--_on-fill, currentColor) falls back to the text colour) without an accent. */
    --_on-fill: color-mix(in srgb, var(--chorus-accent-contrast, #fff) 100%, var(--chorus-accent));
    --_star: var(--chorus-star, #b45309);
    --_star-empty: var(--chorus-star-empty, color-mix(in srgb, currentColor 25%, transparent));
    --_border: var(--chorus-border, color-mix(in srgb, currentColor 22%, transparent));
    --_tint: color-mix(in srgb, currentColor 8%, transparent);
    --_surface: var(--chorus-surface, transparent);
    --_radius: var(--chorus-radius, 8px);
    --_danger: var(--chorus-danger, color-mix(in srgb, #c00 35%, currentColor));
    font-family: var(--_font);
    color: var(--_text);
    background: var(--_background);
  }
  :host([hidden]) {
    display: none !important;
  }
  button,
  select,
  input,
  textarea {
    font: inherit;
  }
  /* A native popup's options: the system colours of the page's colour scheme, never white on white. */
  option {
    background-color: Canvas;
    color: CanvasText;
  }
  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;
