import { prepareTestDatabases } from '@veriform/db/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template for this run: a database name (PostgreSQL) or a data-directory dump (PGlite). */
    testDbTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const prepared = await prepareTestDatabases();
  project.provide('testDbTemplate', prepared.template);
  return prepared.teardown;
}
