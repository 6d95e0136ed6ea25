import { prepareTestDatabases } from '@veriform/db/testing';
import type { TestProject } from 'vitest/node';
import { installJobs } from '../jobs/queue.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template for this run: a database name (PostgreSQL) or a data-directory dump (PGlite). */
    testDbTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  // pg-boss's schema and queues go into the template too, so no test file pays for installing them.
  // The project's own engine (its `env`, when `npm test` runs both engines in one run), else the process's.
  const serverUrl = project.config.env?.TEST_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const prepared = await prepareTestDatabases({ serverUrl, prepare: installJobs });
  project.provide('testDbTemplate', prepared.template);
  return prepared.teardown;
}
