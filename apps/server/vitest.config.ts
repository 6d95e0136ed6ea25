import { defineProject } from 'vitest/config';

/**
 * API tests through app.inject on a real database: PGlite by default, a PostgreSQL server with TEST_DATABASE_URL
 * (the global setup migrates a template database once per run; every test file gets its own copy).
 */
export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test-support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
