/**
 * Control styles shared by the elements with buttons and loading states (chorus-reviews,
 * chorus-review-media, chorus-questions, chorus-review-form, chorus-loyalty), written once so they
 * land once in their chunk ("ui", widgets/vite.config.ts; issue 8 weight budget). Form helpers: ./form.ts.
 */
import { css } from "lit";
import { COMMON_TEXTS } from "../../server/contract/widget-strings/common.ts";
import { extras } from "./chorus-element.ts";

/** `#fff` or `#111` for text on the hex colour `hex` (`#rgb` / `#rrggbb`): the one with the higher WCAG contrast ratio. */
export function textOn(hex: string): string {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  const [r, g, b] = digits.map((d) => {
    const c = parseInt(d, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  // Contrast with white: 1.05 / (L + 0.05); with #111 (luminance 0.0056): (L + 0.05) / 0.0556.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0556 ? "#fff" : "#111";
}

// Every element but the star badge imports this module (for `controls`): it brings the shared texts and the accent's text colour.
extras.texts = COMMON_TEXTS;
extras.textOn = textOn;

/**
 * `.btn` accent button (`.btn.secondary`: outlined), disabled look for `[disabled]` and
 * `[aria-disabled="true"]` (without `--chorus-accent` `.btn` is outlined in the text colour too, bolder: tokens.ts); `.error` text; `.skeleton` pulsing placeholder (still with reduced
 * motion); `.message` confirmation box.
 */
export const controls = css`
  .btn {
    font: inherit;
    font-weight: 600;
    border-radius: var(--_radius);
    padding: 0.45rem 1rem;
    border: 1px solid var(--_accent);
    background: var(--_fill);
    color: var(--_on-fill, currentColor);
    cursor: pointer;
  }
  .btn.secondary {
    font-weight: inherit;
    background: transparent;
    color: var(--_accent);
  }
  .btn[disabled],
  .btn[aria-disabled="true"] {
    opacity: 0.7;
    cursor: default;
  }
  .error {
    color: var(--_danger);
  }
  .skeleton {
    border-radius: var(--_radius);
    background: linear-gradient(90deg, var(--_tint), color-mix(in srgb, currentColor 3%, transparent), var(--_tint));
    background-size: 200% 100%;
    animation: pulse 1.4s ease-in-out infinite;
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton {
      animation: none;
    }
  }
  @keyframes pulse {
    0% {
      background-position: 100% 0;
    }
    100% {
      background-position: -100% 0;
    }
  }
  .message {
    padding: 12px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
`;

/**
 * Resolve after the browser has rendered a frame and then run other tasks (or after 100 ms when no frame
 * comes, e.g. in a background tab): long renders split at these points never form one long task (issue 8).
 */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    // The frame callback is the browser's own setTimeout (bound to our arrow function, delay 0): no script of
    // ours runs inside the rendering frame, whose style and layout may be long at 4x CPU; the arrow function
    // (not `resolve` itself, so the Long Animation Frames API names our script) runs in a task of its own.
    requestAnimationFrame(setTimeout.bind(window, () => resolve(), 0) as FrameRequestCallback);
    setTimeout(() => resolve(), 100);
  });
}

/**
 * Render a long list a few items per task (issue 8: no long task): `show(n)` renders the first n items
 * and resolves when they are on screen (an element's `updateComplete`). Starts with `first` items in the
 * current task, then sizes each step's script to about STEP_SCRIPT_MS at the measured cost per item (at
 * most 10), with a frame between steps. The browser's style and layout of the new items run in the same
 * animation frame and cost more than the script (about 3x for review cards), hence the small target. Resolves true when all `total` are shown, false as soon as `stale()` turns true.
 */
/** Script time per rendering step (ms); the frame's style and layout of the new items come on top. */
const STEP_SCRIPT_MS = 10;

export async function showInSteps(from: number, total: number, show: (n: number) => Promise<unknown>, stale: () => boolean, first = 1): Promise<boolean> {
  let n = from;
  let step = first;
  while (n < total) {
    const start = performance.now();
    const next = Math.min(total, n + step);
    await show(next);
    step = Math.max(1, Math.min(10, Math.floor((STEP_SCRIPT_MS * (next - n)) / Math.max(1, performance.now() - start))));
    n = next;
    await nextFrame();
    if (stale()) return false;
  }
  return true;
}
