#!/usr/bin/env bash
# Every test of Veriform, in the order a failure is cheapest to find. Fails loudly; never skips a stage.
#   1. at once: format + lint (Biome) and the web's and the server's boundaries (dependency-cruiser), type check (tsc),
#      production build of the web app
#   2. Vitest, one run: unit and component tests (web, jsdom); every API test file on PostgreSQL, and those whose
#      behaviour differs by engine (apps/server/engine-specific-tests.ts) on PGlite too
#   3. browser tests (Playwright, Debian's Chromium), the axe-core sweep of every screen (e2e/accessibility.spec.ts)
#      among them; beside them, the front-end budgets (JavaScript per page, gzip)
# Needs: a PostgreSQL server (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and Chromium
# (CHROMIUM_PATH, default /usr/bin/chromium). `.ci/run` installs both when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
reports="$(mktemp -d)"
# A stage that fails leaves nothing running behind it (the front-end checks run in the background in stage 2).
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$reports"' EXIT

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
[ -d node_modules ] || fail "node_modules is missing: run 'npm ci' (or 'npm install') first."
# The suite runs on exactly the Node that package.json pins (the `node` package puts it in node_modules/.bin, which npm
# scripts put first on PATH): a test that passes on one patch release may fail on the next.
pinned_node="$(node -p 'require("./package.json").devDependencies.node')"
[ "$(node -p 'process.versions.node')" = "$pinned_node" ] ||
  fail "Node $(node --version) runs this, not the pinned $pinned_node: run the tests with 'npm test' after 'npm install' (npm puts the pinned Node first on PATH)."
[ -x "$CHROMIUM_PATH" ] || fail "Chromium not found at $CHROMIUM_PATH: install Debian's 'chromium' package (bash .ci/run does) or set CHROMIUM_PATH."
node scripts/check-postgres.mjs || fail "No PostgreSQL server answers at TEST_DATABASE_URL=$TEST_DATABASE_URL. Start one (bash .ci/run installs and starts one) or point TEST_DATABASE_URL at one."

# Runs commands at once, each with its output kept apart, then prints each output in order; fails if any failed.
# Usage: in_parallel "label" "command" ["label" "command" …]
in_parallel() {
  local labels=() pids=() outputs=() failed=()
  while [ "$#" -ge 2 ]; do
    local out="$reports/parallel-${#labels[@]}.log"
    labels+=("$1")
    outputs+=("$out")
    bash -c "$2" >"$out" 2>&1 &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${labels[$i]}")
    printf '\n\033[1m-- %s\033[0m\n' "${labels[$i]}"
    cat "${outputs[$i]}"
  done
  [ "${#failed[@]}" -eq 0 ] || fail "${failed[*]}"
}

step "1/3 At once: format and lint (Biome) + web and server boundaries (dependency-cruiser), type check (tsc), web build"
# Independent of one another; tsc works on one core, the other two are short.
in_parallel \
  "Biome, dependency-cruiser" "npx biome ci . && npm run --silent lint:deps" \
  "Type check (tsc --noEmit)" "npm run --silent typecheck" \
  "Production build of the web app" "npm run --silent build"

step "2/3 Vitest: web components (jsdom), API tests on PostgreSQL ($TEST_DATABASE_URL) and, where engines differ, on PGlite"
# One run, so its workers stay busy from the first file to the last (vitest.config.ts, TEST_ENGINES=both). It keeps
# both cores busy on its own: nothing runs beside it.
TEST_ENGINES=both npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" ||
  fail "Vitest"

step "3/3 Browser tests (Playwright + Chromium, axe-core on every screen); meanwhile the front-end budgets"
# The budgets need only the build, so they run beside the journeys. Accessibility is axe-core's WCAG 2.1 A/AA rules on
# every screen at 1280 and 390 px with its dialogs open (e2e/accessibility.spec.ts); Lighthouse's accessibility score,
# a subset of those rules on ten pages, no longer runs here (scripts/lighthouse.ts remains for performance readings).
npx tsx scripts/bundle-budgets.ts >"$reports/front-end.log" 2>&1 &
front_end=$!
playwright_status=0
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json || playwright_status=$?
front_end_status=0
wait "$front_end" || front_end_status=$?
printf '\n\033[1m-- Front-end budgets (bundle-budgets.ts)\033[0m\n'
cat "$reports/front-end.log"
[ "$playwright_status" -eq 0 ] || fail "Playwright"
[ "$front_end_status" -eq 0 ] || fail "front-end budgets"

close_step
printf '\nTime per stage:\n%s%5ds  in all\n' "$timings" "$SECONDS"
node scripts/summarize-tests.mjs "$reports"
