import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { serverProjectsOnBothEngines } from './apps/server/vitest.config.ts';

/**
 * One Vitest run: the server (API tests through app.inject on a real database), the web app (components in jsdom)
 * and the packages. By default the server project runs every file on the engine `TEST_DATABASE_URL` chooses (PGlite
 * when unset). `TEST_ENGINES=both` (what `npm test` sets) runs every server file on PostgreSQL and the engine-specific
 * ones on PGlite as well, in the same run, so no worker waits for a stage to drain before the next starts.
 */
const bothEngines = process.env.TEST_ENGINES === 'both';
const postgresUrl = process.env.TEST_DATABASE_URL;
if (bothEngines && !postgresUrl)
  throw new Error('TEST_ENGINES=both needs TEST_DATABASE_URL (a PostgreSQL server)');

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, which is a single worker on the 2-core CI machine; most test
    // files wait on a database (PostgreSQL's own processes), SMTP or a child process, so more workers than cores overlap
    // those waits: on 2 cores, 1 → 2 workers took the server suite on PGlite 472 → 315 s (2026-11-24), and 2 → 3 the
    // whole run 341 → 302 s with the machine's idle time ~10 % → ~5 % (2026-11-29, docs/benchmarks.md session 29).
    maxWorkers: availableParallelism() + 1,
    projects: [
      ...(bothEngines && postgresUrl
        ? serverProjectsOnBothEngines(postgresUrl)
        : ['apps/server/vitest.config.ts']),
      'apps/web/vitest.config.ts',
      'packages/*/vitest.config.ts',
    ],
  },
});
