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
 * Files that change the process itself, run apart from the rest when files share a worker's modules: initialising
 * Sentry's SDK patches Node's http and the PostgreSQL driver for every later file of the worker.
 */
const PROCESS_WIDE = ['src/lib/error-reporting.test.ts'];

type Options = { env?: Record<string, string>; isolate?: boolean; exclude?: string[] };

/**
 * API tests through app.inject on a real database: every test file gets its own copy of a template migrated once per
 * project (src/test-support/global-setup.ts). `TEST_DATABASE_URL` names a PostgreSQL server; empty or unset means
 * PGlite. Set in a project's `env`, it reaches the global setup and the workers alike.
 */
function serverProject(name: string, include: string[], options: Options = {}): TestProjectConfiguration {
  const { env, isolate, exclude } = options;
  return defineProject({
    root: fileURLToPath(new URL('.', import.meta.url)),
    test: {
      name,
      environment: 'node',
      include,
      ...(exclude ? { exclude } : {}),
      ...(env ? { env } : {}),
      ...(isolate === undefined ? {} : { isolate }),
      globalSetup: ['src/test-support/global-setup.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
    },
  });
}

/**
 * `npm test`'s server tests, as projects of one Vitest run sharing its workers: every file on PostgreSQL (the
 * production engine), and the files whose behaviour differs by engine (engine-specific-tests.ts) on PGlite too.
 *
 * Their files share a worker's modules (`isolate: false`): each file builds its own app on its own database, so
 * nothing of one file reaches the next but the modules, and importing the server (Fastify, Drizzle, pg-boss,
 * libphonenumber …) once per worker instead of once per file took the PostgreSQL suite from 319 s of wall time and
 * 313 s of CPU to 134 s and 129 s (2026-11-24, same tree, same load). PROCESS_WIDE files keep a process each.
 */
export function serverProjectsOnBothEngines(postgresUrl: string): TestProjectConfiguration[] {
  const engines = [
    { engine: 'postgres', include: ALL, url: postgresUrl },
    { engine: 'pglite', include: engineSpecificTests, url: '' },
  ];
  return engines.flatMap(({ engine, include, url }) => {
    const env = { TEST_DATABASE_URL: url };
    const apart = include === ALL ? PROCESS_WIDE : PROCESS_WIDE.filter((file) => include.includes(file));
    return [
      serverProject(`server:${engine}`, include, { env, isolate: false, exclude: PROCESS_WIDE }),
      ...(apart.length > 0 ? [serverProject(`server:${engine}:process-wide`, apart, { env })] : []),
    ];
  });
}

/** `npx vitest run --project server [files]`: every file, on the engine TEST_DATABASE_URL chooses (PGlite when unset). */
export default serverProject('server', ALL);
