/**
 * Control styles shared by the elements with buttons and loading states (chorus-reviews,
 * chorus-review-media, chorus-questions, chorus-review-form, chorus-loyalty), written once so they
 * land once in the shared chunk (issue 8 weight budget). Form helpers: ./form.ts.
 */
import { css } from "lit";

/**
 * `.btn` accent button (`.btn.secondary`: outlined), disabled look for `[disabled]` and
 * `[aria-disabled="true"]`; `.error` text; `.skeleton` pulsing placeholder (still with reduced
 * motion); `.message` confirmation box.
 */
export const controls = css`
  .btn { font: inherit; border-radius: var(--_radius); padding: 0.45rem 1rem; border: 1px solid var(--_accent); background: var(--_accent); color: var(--_accent-contrast); cursor: pointer; }
  .btn.secondary { background: transparent; color: var(--_accent); }
  .btn[disabled], .btn[aria-disabled="true"] { opacity: 0.7; cursor: default; }
  .error { color: var(--_danger); }
  .skeleton { border-radius: var(--_radius); background: linear-gradient(90deg, #eceef1, #f6f7f9, #eceef1); background-size: 200% 100%; animation: pulse 1.4s ease-in-out infinite; }
  @media (prefers-reduced-motion: reduce) { .skeleton { animation: none; } }
  @keyframes pulse { 0% { background-position: 100% 0; } 100% { background-position: -100% 0; } }
  .message { padding: 12px; border: 1px solid var(--_border); border-radius: var(--_radius); }
`;
