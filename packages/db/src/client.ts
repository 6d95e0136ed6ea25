import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the app codes against, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
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
async function migratePostgresExclusively(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}

export function createDb(config: DbConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize ?? 10 });
    // Without a listener, an idle connection dropped by the server would crash the process; the pool replaces it.
    pool.on(
      'error',
      config.onIdleError ?? ((error) => console.error('PostgreSQL idle connection error:', error.message)),
    );
    const db = drizzleNodePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePostgresExclusively(pool),
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
  const db = drizzlePglite(pglite, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => pglite.close(),
  };
}
