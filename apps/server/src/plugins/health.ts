import { type DatabaseHandle, migrationsFolder } from '@veriform/db';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Probes for orchestrators and the proxy (docs/deploy.md): `/healthz` says the process answers (no database call, so
 * a slow database never gets a live process restarted); `/readyz` says it can serve: the database answers and has
 * every migration this version ships. Outside /api (no session or CSRF work: probes send no cookie, and use GET),
 * outside the generic rate limit, and logged at warn so probes every few seconds do not fill the log.
 * A failed check answers 503 naming the check; the reason goes to the log only.
 */

/** A probe that waits longer than this is answered "failed": a hung pool must not hang the probe. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

const checkState = z.enum(['ok', 'failed']);
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: checkState, migrations: checkState }),
});
export type Readiness = z.infer<typeof readinessSchema>;

const newestRow = z.object({ newest: z.union([z.string(), z.number()]).nullable() });

/** The journal shipped with this version: drizzle's migrator records each migration by this timestamp. */
const newestShippedMigration = Math.max(
  ...readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis),
);

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function registerHealth(app: FastifyInstance, database: DatabaseHandle): void {
  // Quieter than the app (warn), never louder: a route's log level replaces the app's, `silent` included.
  const quiet = ['trace', 'debug', 'info'].includes(app.services.config.logLevel);
  const probe = { logLevel: quiet ? 'warn' : app.services.config.logLevel, config: { rateLimit: false } };

  app.get('/healthz', probe, async () => ({ status: 'ok' }));

  app.get('/readyz', probe, async (request, reply) => {
    const checks: Readiness['checks'] = { database: 'failed', migrations: 'failed' };
    try {
      await withTimeout(database.executeSql('SELECT 1', []), READY_CHECK_TIMEOUT_MS);
      checks.database = 'ok';
      // The same rule as drizzle's migrator: it applies what is newer than the newest recorded migration, so nothing
      // is pending when that one is at least ours (a newer version may already have migrated further: still ready).
      const { rows } = await withTimeout(
        database.executeSql('SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations', []),
        READY_CHECK_TIMEOUT_MS,
      );
      const newest = newestRow.parse(rows[0]).newest;
      if (newest !== null && Number(newest) >= newestShippedMigration) checks.migrations = 'ok';
      else request.log.warn('not ready: database migrations are pending');
    } catch (error) {
      request.log.warn({ err: error }, 'not ready: readiness check failed');
    }
    const ready = checks.database === 'ok' && checks.migrations === 'ok';
    const body: Readiness = { status: ready ? 'ok' : 'unavailable', checks };
    return reply
      .code(ready ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send(body);
  });
}
