import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { engineSpecificTests } from './engine-specific-tests.ts';

const missing = engineSpecificTests.filter(
  (file) => !existsSync(fileURLToPath(new URL(file, import.meta.url))),
);
if (missing.length > 0)
  throw new Error(`engine-specific-tests.ts names files that do not exist: ${missing.join(', ')}`);

/**
 * API tests through app.inject on a real database: PGlite by default, a PostgreSQL server with TEST_DATABASE_URL
 * (the global setup migrates a template database once per run; every test file gets its own copy).
 * `SERVER_TESTS=engine-specific` runs only the files whose behaviour differs by engine (engine-specific-tests.ts):
 * `npm test` runs those on PGlite and every file on PostgreSQL.
 */
export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: process.env.SERVER_TESTS === 'engine-specific' ? engineSpecificTests : ['src/**/*.test.ts'],
    globalSetup: ['src/test-support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
