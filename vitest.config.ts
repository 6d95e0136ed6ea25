import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, two projects: the server (API tests through app.inject on a real database) and the web app
 * (components in jsdom). `TEST_DATABASE_URL` switches the server project from PGlite to a PostgreSQL server.
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, which is a single worker on the 2-core CI machine; most test
    // files wait on a database, SMTP or a child process, so two overlap well there (server suite on PGlite 472 → 315 s,
    // on PostgreSQL 214 → 137 s, 2026-11-24).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['apps/server/vitest.config.ts', 'apps/web/vitest.config.ts', 'packages/*/vitest.config.ts'],
  },
});
