/**
 * Task splitting for the page-speed budget of issue 8 (no long task over 50 ms from our code, also at
 * 4x CPU slowdown): the widgets' start-up work (defining an element, its first render, starting a request,
 * parsing an answer, rendering it) runs as a chain of small tasks instead of one long one, so the
 * browser can render and handle input between them.
 */

/** Resolve at the start of a new task (a 0 ms timer): the caller's continuation never shares the current task. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(() => resolve()));
}
