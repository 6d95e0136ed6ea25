import { prepareTestDatabases } from '@veriform/db/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database on PostgreSQL runs ('' on PGlite). */
    testDbTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const prepared = await prepareTestDatabases();
  project.provide('testDbTemplate', prepared.template);
  return prepared.teardown;
}
