import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, pgliteDirOf } from '../apps/server/src/config.ts';

/**
 * The browser tests' PGlite apps (playwright.config.ts), each started from a copy of one migrated database made once
 * per run instead of migrating its own from scratch. When the app's DATA_DIR holds no database yet, it gets a copy of
 * the run's template (a migrated PGlite with pg-boss's schema and queues, as the server tests' template): the first
 * app to take the lock (a directory under E2E_DATA_DIR, which `mkdir` makes for one process only) writes it, the others
 * wait for it. Then this process becomes `node apps/server/src/server.ts` (execve: the same process and environment),
 * whose own migration finds nothing left to do.
 */

/** Playwright gives an app 60 s to answer; a template not written by then will not be. */
const WAIT_FOR_TEMPLATE_MS = 55_000;

async function runTemplate(runDir: string): Promise<string> {
  const template = join(runDir, 'pglite-template');
  const lock = join(runDir, 'pglite-template.lock');
  const deadline = Date.now() + WAIT_FOR_TEMPLATE_MS;
  while (!existsSync(template)) {
    if (takeLock(lock)) {
      try {
        // Only the one app that writes the template loads what migrating needs.
        const [{ writeMigratedPgliteDir }, { installJobs }] = await Promise.all([
          import('@veriform/db/testing'),
          import('../apps/server/src/jobs/queue.ts'),
        ]);
        await writeMigratedPgliteDir(template, installJobs);
      } catch (error) {
        // Another app may try again.
        rmSync(lock, { recursive: true, force: true });
        throw error;
      }
      return template;
    }
    if (Date.now() > deadline) throw new Error(`no migrated template at ${template} (lock: ${lock})`);
    await sleep(100);
  }
  return template;
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const runDir = process.env.E2E_DATA_DIR;
if (!runDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
const pgliteDir = pgliteDirOf(loadConfig());
if (!existsSync(pgliteDir)) {
  // Copied under another name, then renamed: an app killed mid-copy leaves no half database to start from next time.
  const partial = `${pgliteDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(await runTemplate(runDir), partial, { recursive: true });
  renameSync(partial, pgliteDir);
}

const server = join(import.meta.dirname, '../apps/server/src/server.ts');
if (!process.execve)
  throw new Error('process.execve is missing: run this on the Node that package.json pins');
process.execve(process.execPath, [process.execPath, ...process.execArgv, server], process.env);
