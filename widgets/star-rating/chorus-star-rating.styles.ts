/**
 * The `<chorus-star-rating>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them. The badge sits
 * inline beside the product title: it paints no surface of its own (`--chorus-background`, default transparent)
 * and its text is the page's text colour at full strength, so it contrasts with the page as the title does.
 */
import { css } from "lit";

export const starRatingStyles = css`
  :host {
    color: var(--chorus-text, currentColor);
    background: var(--chorus-background, transparent);
    display: inline-block;
    min-height: var(--chorus-star-rating-height, 1.5em);
    line-height: 1.5;
    vertical-align: top;
  }
  :host([state="loading"]) {
    min-width: 10em;
  }
  :host([state="empty"]:not([show-empty])),
  :host([state="error"]) {
    display: none !important;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.4em;
    vertical-align: top;
  }
  a {
    color: inherit;
    text-decoration: none;
    border-radius: 4px;
  }
  a:hover .count {
    text-decoration: underline;
  }
  .count,
  .empty {
    color: var(--chorus-muted, inherit);
  }
  .average {
    font-weight: 600;
  }
`;
