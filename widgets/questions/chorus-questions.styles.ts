/**
 * The `<chorus-questions>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them.
 */
import { css } from "lit";

export const questionsStyles = css`
  :host {
    display: block;
  }
  /* While loading: the box of the loading state (the snippet reserves the same until the code has loaded). */
  :host([state="loading"]) {
    min-height: 11.25rem;
  }
  ol {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .q {
    border-bottom: 1px solid var(--_border);
    padding: 12px 0;
  }
  .q-body {
    font-weight: 600;
    margin: 0 0 4px;
  }
  .meta {
    color: var(--_muted);
    font-size: 0.875em;
    margin: 0;
  }
  .answers {
    list-style: none;
    padding: 0 0 0 16px;
    margin: 8px 0 0;
    border-left: 3px solid var(--_border);
  }
  .answers li {
    margin: 6px 0;
  }
  .answers p {
    margin: 0;
  }
  .badge {
    display: inline-block;
    background: var(--_fill);
    color: var(--_on-fill, currentColor);
    border: 1px solid var(--_accent);
    border-radius: 4px;
    padding: 0 6px;
    font-size: 0.8em;
    margin-right: 6px;
    font-weight: 600;
  }
  .skeleton {
    height: 64px;
    margin: 8px 0;
  }
  form,
  .message {
    margin: 12px 0;
  }
  .toolbar {
    display: flex;
    gap: 8px;
    margin: 8px 0;
  }
`;
