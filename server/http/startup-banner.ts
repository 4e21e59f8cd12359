/**
 * The last lines `npm start` prints (issue 21 item 5): where to go, then what must not be missed. Printed once
 * the server listens, after every start-up step, so the shown-once credentials of a first start do not
 * scroll away among import progress lines.
 */

/** What the banner names: the base URL, the demo store's links when it exists, and the start's notices. */
export type StartupBanner = {
  /** Where this process listens, `http://localhost:3000` (tests and scripts read the port from the first line). */
  listening: string;
  /** The base of the links: PUBLIC_URL when set, else `listening`. */
  base: string;
  /** The demo store, when CHORUS_DEMO is on: its ID and its product with the most questions (a platform key, `shopify-B0001`). */
  demo: { storeId: string; questionsProductKey?: string; apiKeyHint: string } | null;
  /** Lines the demo seeders asked to show last (credentials shown once); empty on later starts. */
  notices: readonly string[];
};

/** The banner's lines, in order; the notices come last. */
export function startupBannerLines({ listening, base, demo, notices }: StartupBanner): string[] {
  const lines = [`Chorus is listening on ${listening}`];
  if (demo) {
    lines.push(`  Storefront demo:  ${base}/demo`);
    if (demo.questionsProductKey) lines.push(`  Q&A demo product: ${base}/demo/products/${encodeURIComponent(demo.questionsProductKey)}`);
    lines.push(`  Loyalty demo:     ${base}/demo/loyalty`);
  }
  lines.push(`  Admin:            ${base}/admin`);
  lines.push(`  Widget script:    ${base}/widgets/chorus.js`);
  lines.push(`  API reference:    ${base}/v1/openapi.json and ${base}/enterprise/openapi.json`);
  if (demo) lines.push(`  Enterprise API:   ${base}/enterprise/surveys (Basic user ${demo.storeId}, password ${demo.apiKeyHint})`);
  if (notices.length) lines.push("", ...notices);
  return lines;
}
