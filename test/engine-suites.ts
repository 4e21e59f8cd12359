/**
 * Which vitest suites run on which engine: the one list of the engine matrix (CONTRIBUTING.md, "Tests and engines").
 * Every suite runs on SQLite (vitest.config.ts) except the PostgreSQL-only ones; only the suites whose outcome can
 * differ by engine run again:
 *
 * - **PostgreSQL** (`npm run test:postgres`, vitest.postgres.config.ts): suites that run the SQL of the repos (the
 *   API and service suites of each area: every query is a query each engine plans and types differently), the
 *   read-then-write races and locks (exactly-once on READ COMMITTED, two nodes on one database), migrations,
 *   schema, triggers and the content-scope watchers. Not the pure functions, widgets, docs and build checks, nor the
 *   demo import (run on PostgreSQL by `npm run cluster`) or suites that read the SQLite file itself.
 * - **PostgreSQL-only** (`*.postgres.test.ts`, `server/db/postgres*.test.ts`): what only PostgreSQL has (LISTEN/NOTIFY,
 *   advisory locks, several pools on one database). Selected here, never skipped at run time: run without
 *   PostgreSQL, they fail.
 * - **Varnish front** (`npm run test:front`, vitest.front.config.ts: Varnish in front of two nodes on PostgreSQL): the
 *   suites of cached and purged HTTP answers: the storefront reads (reviews, questions, aggregates, loyalty, surveys,
 *   the Okendo-compatible and enterprise APIs, media) and the writes whose purges they must see, and the OpenAPI live checks.
 */

/** PostgreSQL-only suites: excluded from the SQLite run, part of the PostgreSQL run. */
export const POSTGRES_ONLY = ["**/*.postgres.test.ts", "server/db/postgres*.test.ts"];

/** The suites run again on PostgreSQL (globs from the project root), PostgreSQL-only ones included. */
export const POSTGRES_SUITES = [
  ...POSTGRES_ONLY,
  "server/api/**/*.test.ts",
  "server/reviews/*.test.ts",
  "server/questions/*.test.ts",
  "server/enterprise/**/*.test.ts",
  "server/media/**/*.test.ts",
  "server/loyalty/*.api.test.ts",
  "server/surveys/*.test.ts",
  "server/admin/*.test.ts",
  "server/widget-settings/*.test.ts",
  "server/privacy/*.test.ts",
  "server/mail/*.test.ts",
  "server/webhooks/*.test.ts",
  "server/review-requests/*.test.ts",
  "server/ai/*.test.ts",
  "server/orders/*.test.ts",
  "server/platforms/*.test.ts",
  "server/import/*.test.ts",
  "server/exports/*.test.ts",
  "server/feeds/*.api.test.ts",
  "server/marketing/*.api.test.ts",
  "server/snippets/*.test.ts",
  "server/cli/keys.test.ts",
  "server/http/scoped-invalidation.test.ts",
  "test/fuzz-writes.test.ts",
  "test/queues-two-nodes.test.ts",
  "test/rewards-two-nodes.test.ts",
  "test/cluster-scopes.test.ts",
];

/** Left out of the PostgreSQL run although a glob above matches: the demo imports (23,486 reviews, minutes on PostgreSQL). */
export const POSTGRES_EXCLUDED = ["server/**/*.demo.test.ts", "server/demo/**"];

/**
 * The suites run a third time behind Varnish in front of two nodes on PostgreSQL. Not server/reviews/submission-size.api.test.ts:
 * Varnish answers 503 where a node answers 413 to an oversized upload (a known Varnish limitation, said in that file).
 * Not server/reviews/search-filters.api.test.ts nor search-plans.api.test.ts: what each filter keeps through every page,
 * and PostgreSQL's plans, are the same SQL behind the front; every filter, search and order through the front, and a
 * review that leaves the cached results, is server/reviews/search-cache.api.test.ts.
 */
export const FRONT_SUITES = [
  "server/loyalty/loyalty.api.test.ts",
  "server/loyalty/program-setup.api.test.ts",
  "server/loyalty/tokens.api.test.ts",
  "server/surveys/surveys.api.test.ts",
  "server/enterprise/**/*.test.ts",
  "server/reviews/reviews.api.test.ts",
  "server/reviews/okendo-compat.api.test.ts",
  "server/reviews/search-cache.api.test.ts",
  "server/questions/questions.api.test.ts",
  "server/reviews/votes.api.test.ts",
  "server/reviews/submissions.api.test.ts",
  "server/media/media-visibility.api.test.ts",
  "server/api/openapi.test.ts",
];
