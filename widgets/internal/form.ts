/**
 * Form helpers shared by chorus-review-form and chorus-questions (issue 8 weight budget: written once,
 * in one chunk loaded only with a form).
 */
import { css, html } from "lit";

/** Form layout: labelled fields, text inputs, invalid state, inline error text, the hidden honeypot. */
export const formStyles = css`
  form {
    display: grid;
    gap: 12px;
    max-width: 560px;
  }
  label.field,
  legend {
    font-weight: 600;
    display: block;
    margin-bottom: 4px;
  }
  input:not([type]),
  input[type="text"],
  input[type="email"],
  textarea {
    width: 100%;
    box-sizing: border-box;
    font: inherit;
    padding: 8px;
    border: 1px solid var(--_muted);
    border-radius: 6px;
    background: transparent;
    color: inherit;
  }
  [aria-invalid="true"] {
    border-color: var(--_danger);
  }
  .error {
    font-size: 0.9em;
    margin: 4px 0 0;
  }
  .trap {
    display: none;
  }
`;

/** The honeypot field bots fill in and people never see (the server rejects a filled `website`). */
export const honeypot = html`<div class="trap" aria-hidden="true">
  <label>Leave this empty <input type="text" name="website" tabindex="-1" autocomplete="off" /></label>
</div>`;

/** The text ID of the inline message for a required e-mail field, or undefined when `value` (trimmed) looks valid. */
export function emailError(value: string): "common.emailMissing" | "common.emailInvalid" | undefined {
  if (!value) return "common.emailMissing";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return "common.emailInvalid";
  return undefined;
}

/** After the next render, focus the first element of `host`'s shadow root matching `selector`. */
export function focusAfterUpdate(host: { updateComplete: Promise<unknown>; renderRoot: ParentNode }, selector: string): void {
  void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLElement>(selector)?.focus());
}
