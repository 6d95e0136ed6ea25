import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineProject, type TestProjectConfiguration } from 'vitest/config';
import { engineSpecificTests } from './engine-specific-tests.ts';

const missing = engineSpecificTests.filter(
  (file) => !existsSync(fileURLToPath(new URL(file, import.meta.url))),
);
if (missing.length > 0)
  throw new Error(`engine-specific-tests.ts names files that do not exist: ${missing.join(', ')}`);

const ALL = ['src/**/*.test.ts'];

/**
 * API tests through app.inject on a real database: every test file gets its own copy of a template migrated once per
 * project (src/test-support/global-setup.ts). `TEST_DATABASE_URL` names a PostgreSQL server; empty or unset means
 * PGlite. Set in a project's `env`, it reaches the global setup and the workers alike.
 */
function serverProject(
  name: string,
  include: string[],
  env?: Record<string, string>,
): TestProjectConfiguration {
  return defineProject({
    root: fileURLToPath(new URL('.', import.meta.url)),
    test: {
      name,
      environment: 'node',
      include,
      ...(env ? { env } : {}),
      globalSetup: ['src/test-support/global-setup.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
    },
  });
}

/**
 * `npm test`'s server tests, as two projects of one Vitest run sharing its workers: every file on PostgreSQL (the
 * production engine), and the files whose behaviour differs by engine (engine-specific-tests.ts) on PGlite too.
 */
export function serverProjectsOnBothEngines(postgresUrl: string): TestProjectConfiguration[] {
  return [
    serverProject('server:postgres', ALL, { TEST_DATABASE_URL: postgresUrl }),
    serverProject('server:pglite', engineSpecificTests, { TEST_DATABASE_URL: '' }),
  ];
}

/** `npx vitest run --project server [files]`: every file, on the engine TEST_DATABASE_URL chooses (PGlite when unset). */
export default serverProject('server', ALL);
