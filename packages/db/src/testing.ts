import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDb, type DatabaseHandle } from './client.ts';

/**
 * Databases for tests: every test file gets its own, already migrated.
 *
 * - With `TEST_DATABASE_URL` (a PostgreSQL server): a vitest globalSetup calls `prepareTestDatabases()` once per run,
 *   which migrates a template database; `createTestDb({ template })` then copies it per test file
 *   (`CREATE DATABASE … TEMPLATE …`, a few milliseconds) and `close()` drops the copy. Names carry a random run id,
 *   so parallel runs and leftovers of crashed runs never collide.
 * - Without it: PGlite. The globalSetup migrates one in-memory instance once per run and dumps its data directory to a
 *   temporary file; every test file loads a copy (~1 s instead of ~4 s to create and migrate a new one). Without the
 *   globalSetup, one instance is migrated per process and `clone()`d per call.
 */

const TEMPLATE_PREFIX = 'vf_tpl_';
const COPY_PREFIX = 'vf_t_';

export type PreparedTestDatabases = {
  /** What `createTestDb({ template })` copies: a database name (PostgreSQL) or a data-directory dump (PGlite). */
  template: string;
  teardown(): Promise<void>;
};

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Identifiers we create are `[a-z0-9_]` only, so quoting cannot be subverted; refuse anything else. */
function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Unexpected database name: ${name}`);
  return `"${name}"`;
}

async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function runIdOf(template: string): string {
  return template.startsWith(TEMPLATE_PREFIX) ? template.slice(TEMPLATE_PREFIX.length) : 'x';
}

const PGLITE_DUMP_PREFIX = 'pglite-dump:';

/**
 * Runs on the migrated template before it is copied: schema that is not ours to migrate (pg-boss installs its own)
 * is installed once per run here rather than once per test file.
 */
export type PrepareTemplate = (handle: DatabaseHandle) => Promise<void>;

/** A migrated in-memory PGlite, `prepare`d, as a dump of its data directory (a tar). */
async function migratedDump(prepare: PrepareTemplate | undefined): Promise<Blob> {
  const pglite = await migratedPglite();
  if (prepare) await prepare(createDb({ kind: 'pglite', pglite }));
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  return dump;
}

/** Unpacks a dump into a data directory on disk, closed again, for a process that opens its PGlite there. */
async function loadDump(dump: Blob, dataDir: string): Promise<void> {
  const pglite = await PGlite.create({ dataDir, loadDataDir: dump });
  await pglite.close();
}

/**
 * A migrated, `prepare`d PGlite data directory at `dir` (closed), for server processes to start from copies of (a
 * closed data directory is copied as plain files, ~0.3 s, where unpacking a dump starts PGlite, ~2.5 s of CPU). It is
 * migrated in memory and written once: migrating on disk took as much CPU and twice the wall time (every commit
 * synced). `dir` appears whole or not at all (written under another name, then renamed), so a process waiting for
 * it never copies half of one.
 */
export async function writeMigratedPgliteDir(dir: string, prepare?: PrepareTemplate): Promise<void> {
  const partial = `${dir}.${randomBytes(4).toString('hex')}.partial`;
  await loadDump(await migratedDump(prepare), partial);
  await rename(partial, dir);
}

async function preparePgliteDump(prepare: PrepareTemplate | undefined): Promise<PreparedTestDatabases> {
  const dump = await migratedDump(prepare);
  const dir = await mkdtemp(join(tmpdir(), 'vf-test-db-'));
  const file = join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return {
    template: `${PGLITE_DUMP_PREFIX}${file}`,
    teardown: () => rm(dir, { recursive: true, force: true }),
  };
}

/** For a vitest globalSetup: migrate the template once per run. */
export async function prepareTestDatabases(
  options: { serverUrl?: string | undefined; prepare?: PrepareTemplate } = {},
): Promise<PreparedTestDatabases> {
  const serverUrl = options.serverUrl ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) return preparePgliteDump(options.prepare);
  const runId = randomBytes(6).toString('hex');
  const template = `${TEMPLATE_PREFIX}${runId}`;
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(template)}`));
  const handle = createDb({ kind: 'postgres', url: databaseUrl(serverUrl, template), poolSize: 1 });
  try {
    await handle.migrate();
    if (options.prepare) await options.prepare(handle);
  } finally {
    // A template cannot be copied while anyone is connected to it.
    await handle.close();
  }
  return {
    template,
    async teardown() {
      const dropCopies = () =>
        withAdmin(serverUrl, async (c) => {
          const { rows } = await c.query<{ datname: string }>(
            'SELECT datname FROM pg_database WHERE datname LIKE $1',
            [`${COPY_PREFIX}${runId}_%`],
          );
          // Each DROP DATABASE waits for a checkpoint; dropped together, the copies share them.
          await Promise.all(rows.map(({ datname }) => dropDatabase(serverUrl, datname)));
        });
      await dropCopies();
      // A copy still being made (a worker's copy made ahead, the worker gone) holds the template until it is
      // committed, so this waits for it, and the second look finds it. No copy can be started after this.
      await dropDatabase(serverUrl, template);
      await dropCopies();
    },
  };
}

let pgliteTemplate: Promise<PGlite> | undefined;

async function migratedPglite(): Promise<PGlite> {
  const pglite = new PGlite();
  await createDb({ kind: 'pglite', pglite }).migrate();
  return pglite;
}

async function createPgliteTestDb(template: string | undefined): Promise<DatabaseHandle> {
  if (template?.startsWith(PGLITE_DUMP_PREFIX)) {
    const dump = await readFile(template.slice(PGLITE_DUMP_PREFIX.length));
    const pglite = await PGlite.create({ loadDataDir: new Blob([dump]) });
    return createDb({ kind: 'pglite', pglite });
  }
  pgliteTemplate ??= migratedPglite();
  const clone = await (await pgliteTemplate).clone();
  if (!(clone instanceof PGlite)) throw new Error('PGlite.clone() returned an unexpected client');
  return createDb({ kind: 'pglite', pglite: clone });
}

function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return withAdmin(serverUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  });
}

type Copy = { serverUrl: string; template: string; name: Promise<string> };

/**
 * A worker process that runs test files one after another (Vitest's `isolate: false`) makes each file's copy of the
 * template while the previous file runs, and drops a file's copy after the file is done, so no file waits for either:
 * `CREATE DATABASE … TEMPLATE` writes the template's pages through the WAL, and `DROP DATABASE` waits for a checkpoint
 * of the whole server. Every file still gets a copy of the template that nothing else has touched. What a worker
 * leaves behind (its last copy made ahead, a drop cut off when it exits) carries the run's id, and the global
 * teardown of `prepareTestDatabases` drops it with the template.
 */
let copyAhead: Copy | undefined;
/** This worker's drops, one after another. */
let drops: Promise<void> = Promise.resolve();

function startCopy(serverUrl: string, template: string): Copy {
  const name = `${COPY_PREFIX}${runIdOf(template)}_${randomBytes(6).toString('hex')}`;
  const created = withAdmin(serverUrl, (c) =>
    c.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`),
  ).then(() => name);
  // Awaited by the file that takes it; until then a failure must not go unhandled.
  created.catch(() => {});
  return { serverUrl, template, name: created };
}

/** Not awaited: a drop that fails or is cut off is left to the run's teardown. */
function dropInBackground(serverUrl: string, name: Promise<string>): void {
  drops = drops.then(async () => dropDatabase(serverUrl, await name)).catch(() => {});
}

async function copyOfTemplate(serverUrl: string, template: string, sharedWorker: boolean): Promise<string> {
  if (!sharedWorker) {
    const copy = startCopy(serverUrl, template);
    return copy.name;
  }
  const ahead = copyAhead;
  copyAhead = undefined;
  const usable = ahead?.serverUrl === serverUrl && ahead.template === template;
  if (ahead && !usable) dropInBackground(ahead.serverUrl, ahead.name);
  const name = await (usable ? ahead : startCopy(serverUrl, template)).name;
  copyAhead = startCopy(serverUrl, template);
  return name;
}

async function createPostgresTestDb(
  serverUrl: string,
  template: string | undefined,
  sharedWorker: boolean,
): Promise<DatabaseHandle> {
  let name: string;
  if (template) {
    name = await copyOfTemplate(serverUrl, template, sharedWorker);
  } else {
    name = `${COPY_PREFIX}${runIdOf('')}_${randomBytes(6).toString('hex')}`;
    await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
  }
  const handle = createDb({ kind: 'postgres', url: databaseUrl(serverUrl, name), poolSize: 4 });
  // Without a template (a test run without the globalSetup), migrate this copy directly.
  if (!template) await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      // Only a run with the global setup (a template) has a teardown to drop what a worker leaves behind.
      if (template && sharedWorker) dropInBackground(serverUrl, Promise.resolve(name));
      else await dropDatabase(serverUrl, name);
    },
  };
}

/**
 * A migrated database for a server started as a child process (crash and durability tests): a copy of the run's
 * template on PostgreSQL (its URL), or the template's dump unpacked into `pgliteDir` for PGlite. The child then finds
 * every migration applied instead of running them all, which took most of such a test on PostgreSQL (about 15 s a
 * process on the 2-core machine).
 */
export async function createProcessDatabase(
  template: string | undefined,
  pgliteDir: string,
): Promise<{ databaseUrl: string | undefined; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const copyOf = template?.startsWith(PGLITE_DUMP_PREFIX) ? undefined : template || undefined;
    const name = `${COPY_PREFIX}${runIdOf(copyOf ?? '')}_${randomBytes(6).toString('hex')}`;
    await withAdmin(serverUrl, (c) =>
      c.query(
        copyOf
          ? `CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(copyOf)}`
          : `CREATE DATABASE ${quoteIdent(name)}`,
      ),
    );
    return {
      databaseUrl: databaseUrl(serverUrl, name),
      drop: () =>
        withAdmin(serverUrl, async (c) => {
          await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
        }),
    };
  }
  if (template?.startsWith(PGLITE_DUMP_PREFIX)) {
    const dump = await readFile(template.slice(PGLITE_DUMP_PREFIX.length));
    await loadDump(new Blob([dump]), pgliteDir);
  }
  return { databaseUrl: undefined, drop: async () => {} };
}

export type TestDbOptions = {
  /** The run's template (`prepareTestDatabases`); without it, each database is migrated anew. */
  template?: string;
  /**
   * The calling process runs many test files one after another (Vitest's `isolate: false`): on PostgreSQL, the next
   * file's copy is made ahead and a closed copy dropped in the background (see `copyAhead`).
   */
  sharedWorker?: boolean;
};

/**
 * A fresh, migrated database for one test file. `close()` releases it and drops it on PostgreSQL (in the background
 * with `sharedWorker`).
 */
export function createTestDb(options: TestDbOptions = {}): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = options.template?.startsWith(PGLITE_DUMP_PREFIX) ? undefined : options.template;
    return createPostgresTestDb(serverUrl, template || undefined, options.sharedWorker ?? false);
  }
  return createPgliteTestDb(options.template || undefined);
}
