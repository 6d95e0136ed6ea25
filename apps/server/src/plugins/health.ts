import { type DatabaseHandle, migrationsFolder } from '@veriform/db';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Probes for orchestrators and the proxy (docs/deploy.md): `/healthz` says the process answers (no database call, so
 * a slow database never gets a live process restarted); `/readyz` says it can serve: the database answers and has
 * every migration this version ships. Outside /api (no session or CSRF work: probes send no cookie, and use GET),
 * outside the generic rate limit, and logged at warn so probes every few seconds do not fill the log.
 * A failed check answers 503 naming the check; the reason goes to the log only.
 *
 * A flood of `/readyz` (issue #13 item 10d) must not become a flood of database queries: concurrent probes share one
 * check, a result is reused for READY_RESULT_TTL_MS, and each client address has its own limit (PROBE_RATE_LIMIT)
 * that load balancers' probes never reach. `/healthz` stays unlimited: it touches nothing, so answering it costs no
 * more than a 429 would, and a liveness probe refused with 429 would get a healthy process restarted.
 */

/** A probe that waits longer than this is answered "failed": a hung pool must not hang the probe. */
export const READY_CHECK_TIMEOUT_MS = 2_000;
/** How long a readiness result is reused: at most one database check a second, however many probes arrive. */
export const READY_RESULT_TTL_MS = 1_000;
/**
 * `/readyz` requests per client address and minute. Load balancers and orchestrators probe every 1–30 s from each of
 * their nodes (60 a minute at the most eager); five times that is a flood.
 */
export const PROBE_RATE_LIMIT = { max: 300, timeWindowMs: 60_000 };

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

async function checkReadiness(database: DatabaseHandle, log: FastifyBaseLogger): Promise<Readiness> {
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
    else log.warn('not ready: database migrations are pending');
  } catch (error) {
    log.warn({ err: error }, 'not ready: readiness check failed');
  }
  const ready = checks.database === 'ok' && checks.migrations === 'ok';
  return { status: ready ? 'ok' : 'unavailable', checks };
}

export function registerHealth(app: FastifyInstance, database: DatabaseHandle): void {
  const { config, clock } = app.services;
  // Quieter than the app (warn), never louder: a route's log level replaces the app's, `silent` included.
  const logLevel = ['trace', 'debug', 'info'].includes(config.logLevel) ? 'warn' : config.logLevel;

  app.get('/healthz', { logLevel, config: { rateLimit: false } }, async () => ({ status: 'ok' }));

  let inFlight: Promise<Readiness> | undefined;
  let last: { at: number; result: Readiness } | undefined;
  function readiness(log: FastifyBaseLogger): Promise<Readiness> {
    if (last && clock.now().getTime() - last.at < READY_RESULT_TTL_MS) return Promise.resolve(last.result);
    inFlight ??= checkReadiness(database, log)
      .then((result) => {
        last = { at: clock.now().getTime(), result };
        return result;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  const probeLimit = { max: PROBE_RATE_LIMIT.max, timeWindow: PROBE_RATE_LIMIT.timeWindowMs };
  app.get('/readyz', { logLevel, config: { rateLimit: probeLimit } }, async (request, reply) => {
    const body = await readiness(request.log);
    return reply
      .code(body.status === 'ok' ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send(body);
  });
}
