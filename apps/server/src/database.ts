import { createDb, type DatabaseHandle } from '@veriform/db';
import { type Config, pgliteDirOf } from './config.ts';

/** PostgreSQL with DATABASE_URL; otherwise the embedded PGlite, in its own folder under DATA_DIR. */
export function openDatabase(config: Config): DatabaseHandle {
  return config.databaseUrl
    ? createDb({ kind: 'postgres', url: config.databaseUrl })
    : createDb({ kind: 'pglite', dataDir: pgliteDirOf(config) });
}
