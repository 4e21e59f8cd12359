#!/usr/bin/env bash
# npm test: the build (skipped when its inputs are unchanged), then every suite in two parallel lanes: [the SQLite
# suites, then the Varnish-front suites] beside [the PostgreSQL suites, then Playwright]. Which suite runs on which
# engine: test/engine-suites.ts. CI_PARALLEL=0 runs the lanes one after the other. A table of the phases' durations
# is printed at the end (.ci/phases.sh), also when one fails. Needs PostgreSQL 15, Varnish and Chromium (.ci/run
# installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/bin:$PATH
# shellcheck source=.ci/phases.sh
. .ci/phases.sh

phase "build" npm run build

sqlite_lane() { quiet_phase "test:unit (SQLite)" npm run test:unit && quiet_phase "test:front (Varnish, 2 nodes)" npm run test:front; }
postgres_lane() { quiet_phase "test:postgres" npm run test:postgres && quiet_phase "test:e2e (Playwright)" npm run test:e2e; }
together sqlite_lane postgres_lane
