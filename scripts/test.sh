#!/usr/bin/env bash
# Every test of Veriform, in the order a failure is cheapest to find. Fails loudly; never skips a stage.
#   1. format + lint (Biome)   2. type check (tsc)   3. unit + engine-specific API tests on PGlite   4. API tests on PostgreSQL
#   5. production build of the web app   6. front-end budgets (JavaScript per page, gzip) and accessibility (Lighthouse)
#   7. browser tests (Playwright, Debian's Chromium)
# Needs: a PostgreSQL server (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and Chromium
# (CHROMIUM_PATH, default /usr/bin/chromium). `.ci/run` installs both when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT

# Each stage's wall time, printed at the end (docs/benchmarks.md records them).
timings=""
current=""
started=$SECONDS
close_step() {
  if [ -n "$current" ]; then timings+="$(printf '%5ds  %s' $((SECONDS - started)) "$current")"$'\n'; fi
}
step() {
  close_step
  current="$*"
  started=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}
fail() { printf '\n\033[31mFAILED: %s\033[0m\n' "$*" >&2; exit 1; }

step "Checking what the tests need"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)' ||
  fail "Node $(node --version) is too old: Veriform needs Node 24 or newer (bash .ci/run fetches it)."
[ -d node_modules ] || fail "node_modules is missing: run 'npm ci' (or 'npm install') first."
[ -x "$CHROMIUM_PATH" ] || fail "Chromium not found at $CHROMIUM_PATH: install Debian's 'chromium' package (bash .ci/run does) or set CHROMIUM_PATH."
node scripts/check-postgres.mjs || fail "No PostgreSQL server answers at TEST_DATABASE_URL=$TEST_DATABASE_URL. Start one (bash .ci/run installs and starts one) or point TEST_DATABASE_URL at one."

step "1/7 Format and lint (Biome), web feature boundaries (dependency-cruiser)"
npx biome ci .
npm run --silent lint:deps

step "2/7 Type check (tsc --noEmit)"
npm run --silent typecheck

step "3/7 Unit and component tests, and the API tests whose behaviour differs by engine, on PGlite"
# Every API test file runs on PostgreSQL in stage 4; those named in apps/server/engine-specific-tests.ts run here too.
env -u TEST_DATABASE_URL SERVER_TESTS=engine-specific npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest-pglite.json"

step "4/7 API tests on PostgreSQL ($TEST_DATABASE_URL)"
npx vitest run --project server --reporter=default --reporter=json --outputFile.json="$reports/vitest-postgres.json"

step "5/7 Production build of the web app"
npm run --silent build

step "6/7 Front-end budgets: JavaScript per page (bundle-budgets.ts), Lighthouse accessibility >= 95 (lighthouse.ts)"
npx tsx scripts/bundle-budgets.ts
npx tsx scripts/lighthouse.ts --runs 1 --accessibility-only

step "7/7 Browser tests (Playwright + Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json

close_step
printf '\nTime per stage:\n%s%5ds  in all\n' "$timings" "$SECONDS"
node scripts/summarize-tests.mjs "$reports"
