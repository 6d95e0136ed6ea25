import { type PreparedTestDatabases, prepareTestDatabases } from '@veriform/db/testing';
import type { TestProject } from 'vitest/node';
import { installJobs } from '../jobs/queue.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template for this run: a database name (PostgreSQL) or a data-directory dump (PGlite). */
    testDbTemplate: string;
    /** The project's files share worker processes (`isolate: false`): see `createTestDb`'s `sharedWorker`. */
    testDbSharedWorker: boolean;
  }
}

/** The engine a project's files run on: its own `env` (`npm test` runs both engines in one run), else the process's. */
function serverUrlOf(project: TestProject): string {
  return project.config.env?.TEST_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';
}

type Registry = { templates: Map<string, Promise<PreparedTestDatabases>>; users: number };

/**
 * One template per engine for the whole run, kept in the main process (each project loads this file anew, so the
 * registry lives on globalThis). Vitest runs the projects' global setups one after another before any test file: with
 * a template per project, `npm test` migrated four (PGlite ~6 s of one core each, PostgreSQL ~1 s) while the other
 * core waited. The first setup starts every engine the run's server projects use, at once; the others share them.
 */
const REGISTRY = Symbol.for('veriform.test-templates');
const holder = globalThis as { [REGISTRY]?: Registry };
holder[REGISTRY] ??= { templates: new Map(), users: 0 };
const registry = holder[REGISTRY];

function share(serverUrl: string): Promise<PreparedTestDatabases> {
  let prepared = registry.templates.get(serverUrl);
  if (!prepared) {
    // pg-boss's schema and queues go into the template too, so no test file pays for installing them.
    prepared = prepareTestDatabases({ serverUrl, prepare: installJobs });
    // Awaited by its own project's setup; until then a failure must not go unhandled.
    prepared.catch(() => {});
    registry.templates.set(serverUrl, prepared);
  }
  return prepared;
}

export default async function setup(project: TestProject) {
  const serverUrl = serverUrlOf(project);
  // Every engine this run's projects use (the other projects with this global setup), started together.
  for (const other of project.vitest.projects) {
    if ([other.config.globalSetup].flat().some((file) => file.endsWith('/test-support/global-setup.ts')))
      share(serverUrlOf(other));
  }
  registry.users += 1;
  project.provide('testDbTemplate', (await share(serverUrl)).template);
  project.provide('testDbSharedWorker', project.config.isolate === false);
  // Global teardowns run once every file has run: the last one drops every template, a project's that had no file to
  // run (so no setup of its own) included.
  return async () => {
    registry.users -= 1;
    if (registry.users > 0) return;
    const templates = [...registry.templates.values()];
    registry.templates.clear();
    for (const prepared of await Promise.allSettled(templates))
      if (prepared.status === 'fulfilled') await prepared.value.teardown();
  };
}
