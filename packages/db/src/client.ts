import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type StreamCsv, streamCsvFrom } from './copy.ts';
import * as schema from './schema.ts';
import { type Db, registerDatabase } from './transaction.ts';

export type Schema = typeof schema;
export type { Db };

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

/**
 * Plain SQL on the same connection(s) as `db`, for libraries that bring their own SQL (pg-boss): with `values`, one
 * parameterised statement; without, a script of any number of statements (PGlite's `exec()`, PostgreSQL's simple
 * query protocol). Answers the rows of the (last) statement.
 */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  executeSql: ExecuteSql;
  migrate(): Promise<void>;
  /**
   * Runs start-up DDL that is not a migration (pg-boss installing its schema and queues) while no other process of
   * this app is migrating or doing the same: processes that start together take turns, like `migrate()`.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: a query's rows streamed as CSV by `COPY … TO STDOUT` (copy.ts). PGlite has no streaming COPY and
   * runs every query on the main thread: its readers page through short queries instead.
   */
  streamCsv?: StreamCsv;
  close(): Promise<void>;
};

export type DbConfig =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** Errors of idle pooled connections (server restart, terminated backend). Default: written to stderr. */
      onIdleError?: (error: Error) => void;
    }
  | { kind: 'pglite'; dataDir?: string; pglite?: PGlite };

/** Any constant; the same for every process of this app, so concurrent starts take turns migrating. */
const MIGRATION_LOCK_ID = 7_461_829_301;

/**
 * Several server processes may start at once against one PostgreSQL database; a session-level advisory lock makes them
 * migrate one after the other (the later ones then find nothing left to do) instead of racing on the same DDL.
 */
async function withStartupLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}

function migratePostgresExclusively(pool: pg.Pool): Promise<void> {
  return withStartupLock(pool, (client) =>
    migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder }),
  );
}

export function createDb(config: DbConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    // JIT off for the app's connections: its statements are short, and PostgreSQL's cost estimates (a report's
    // LATERAL over cut hours, ADR 28) tripped compilation of 30–300 ms on calls whose work takes a few ms. Measured:
    // the 30-day report at 10M verifications 410 ms with JIT, 39 ms without (docs/benchmarks.md, session 20).
    const pool = new pg.Pool({
      connectionString: config.url,
      max: config.poolSize ?? 10,
      options: '-c jit=off',
    });
    // Without a listener, an idle connection dropped by the server would crash the process; the pool replaces it.
    pool.on(
      'error',
      config.onIdleError ?? ((error) => console.error('PostgreSQL idle connection error:', error.message)),
    );
    const db: Db = drizzleNodePg(pool, { schema });
    registerDatabase(db, { kind: 'postgres', client: pool });
    return {
      db,
      kind: 'postgres',
      // node-postgres sends a query without values by the simple protocol, which accepts several statements.
      executeSql: async (text, values) => {
        const result = await pool.query(text, values && values.length > 0 ? values : undefined);
        // A multi-statement script answers one result per statement.
        const last: pg.QueryResult | undefined = Array.isArray(result) ? result.at(-1) : result;
        return { rows: last?.rows ?? [] };
      },
      migrate: () => migratePostgresExclusively(pool),
      // The lock is held on its own connection; the work runs on the pool's others.
      exclusively: (work) => withStartupLock(pool, () => work()),
      streamCsv: streamCsvFrom(pool),
      close: () => pool.end(),
    };
  }
  let client = config.pglite;
  if (!client) {
    if (config.dataDir) mkdirSync(config.dataDir, { recursive: true });
    // relaxedDurability stays off: every commit is written before it is answered.
    client = new PGlite(config.dataDir);
  }
  const pglite = client;
  const pgliteDb = drizzlePglite(pglite, { schema });
  const db: Db = pgliteDb;
  registerDatabase(db, { kind: 'pglite', client: pglite });
  return {
    db,
    kind: 'pglite',
    // PGlite's query() takes exactly one statement; exec() takes a script (no parameters).
    executeSql: async (text, values) => {
      if (values && values.length > 0) return { rows: (await pglite.query(text, values)).rows };
      const results = await pglite.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    // One process owns a PGlite database.
    exclusively: (work) => work(),
    close: () => pglite.close(),
  };
}
