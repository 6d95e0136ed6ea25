import { readdir } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { type AnyJobDefinition, isJobDefinition, isRowJobDefinition } from './define.ts';

/**
 * The app's jobs: every file of `definitions/`, found at start, so adding a job is adding a file. The production
 * start and the test template (`installJobs`) both read them from here, so they always see the same set.
 */

const DIRECTORY = new URL('./definitions/', import.meta.url);
/** TypeScript run as is (Node's type stripping), or compiled JavaScript. */
const SOURCE = /^[^.]+\.(ts|js)$/;

async function load(): Promise<AnyJobDefinition[]> {
  const files = (await readdir(DIRECTORY)).filter((file) => SOURCE.test(file)).sort();
  const definitions: AnyJobDefinition[] = [];
  for (const file of files) {
    // A template literal, so that a bundler (scripts/build-server.mjs) takes every file of the directory in.
    const module: Record<string, unknown> = await import(/* @vite-ignore */ `./definitions/${file}`);
    const found = Object.values(module).filter(
      (value): value is AnyJobDefinition => isJobDefinition(value) || isRowJobDefinition(value),
    );
    const [definition] = found;
    if (!definition || found.length > 1) {
      throw new Error(
        `jobs/definitions/${file}: exports ${found.length} job definitions; a job file exports one`,
      );
    }
    // The file names the job, so its queue is found by looking at the directory.
    if (definition.name !== basename(file, extname(file))) {
      throw new Error(`jobs/definitions/${file}: defines '${definition.name}'; name the file after its job`);
    }
    if (isJobDefinition(definition) && definition.schedule && !definition.payload.safeParse({}).success) {
      throw new Error(
        `jobs/definitions/${file}: a scheduled job is enqueued with {}, which its payload refuses`,
      );
    }
    definitions.push(definition);
  }
  return definitions;
}

let loaded: Promise<AnyJobDefinition[]> | undefined;

export function loadJobDefinitions(): Promise<AnyJobDefinition[]> {
  loaded ??= load();
  return loaded;
}
