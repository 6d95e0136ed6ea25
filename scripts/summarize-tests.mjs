// Adds up the JSON reports of the test run into one closing line: "tests: N passed, N failed, N skipped", after the
// slowest Vitest files and Playwright tests (where the suite's time goes, for keeping it under ten minutes).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of ['vitest.json']) {
  const file = join(dir, name);
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
const e2e = join(dir, 'playwright.json');
if (existsSync(e2e)) {
  const { stats } = JSON.parse(readFileSync(e2e, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
}
printSlowest();
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0) {
  console.error('No test ran: that is a failure.');
  process.exit(1);
}

function printSlowest(count = 12) {
  const rows = [];
  const vitest = join(dir, 'vitest.json');
  if (existsSync(vitest)) {
    for (const file of JSON.parse(readFileSync(vitest, 'utf8')).testResults ?? []) {
      rows.push([file.endTime - file.startTime, `vitest      ${relative(file.name)}`]);
    }
  }
  if (existsSync(e2e)) {
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          const ms = (test.results ?? []).reduce((sum, result) => sum + result.duration, 0);
          rows.push([ms, `playwright  ${spec.file}: ${spec.title}`]);
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of JSON.parse(readFileSync(e2e, 'utf8')).suites ?? []) walk(suite);
  }
  if (rows.length === 0) return;
  rows.sort((a, b) => b[0] - a[0]);
  console.log(`\nSlowest (of ${rows.length} files and journeys):`);
  for (const [ms, label] of rows.slice(0, count))
    console.log(`${(ms / 1000).toFixed(1).padStart(7)}s  ${label}`);
}

function relative(path) {
  return path.startsWith(process.cwd()) ? path.slice(process.cwd().length + 1) : path;
}
