/**
 * Playwright globalTeardown (playwright.config.ts): deletes the run's demo template (e2e/demo-template.ts); each
 * server's own copy stays in `/tmp/chorus-e2e-<port>` for a look after the run, until the next run replaces it.
 */
import { rmSync } from "node:fs";

export default function teardown(): void {
  const basePort = Number(process.env.E2E_PORT ?? 3111);
  const dir = `/tmp/chorus-e2e-template-${basePort}-${process.env.E2E_RUN}`;
  if (process.env.E2E_RUN) rmSync(dir, { recursive: true, force: true });
}
