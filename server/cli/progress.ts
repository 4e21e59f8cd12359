/**
 * Progress output for long CLI jobs: a cli-progress bar on a terminal, plain periodic lines otherwise
 * (CI logs, pipes).
 */
import cliProgress from "cli-progress";

export type Progress = { update(done: number, extra?: string): void; stop(): void };

/** @param total expected units (e.g. rows), or 0 when unknown. */
export function progress(label: string, total: number): Progress {
  if (process.stderr.isTTY && total > 0) {
    const bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% | {value}/{total} {extra}`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic);
    bar.start(total, 0, { extra: "" });
    return { update: (done, extra = "") => bar.update(Math.min(done, total), { extra }), stop: () => bar.stop() };
  }
  let last = 0;
  return {
    update(done, extra = "") {
      const now = Date.now();
      if (now - last < 1000) return;
      last = now;
      process.stderr.write(`${label}: ${done}${total ? `/${total}` : ""} ${extra}\n`);
    },
    stop() {},
  };
}
