import type { DatabaseHandle } from '@veriform/db';
import { describe, expect, it, vi } from 'vitest';
import { ROW_JOB_MARK } from '../jobs/claims.ts';
import { buildTestApp, openTestDb, useTestApp } from '../test-support/app.ts';
import { PROBE_RATE_LIMIT, READY_RESULT_TTL_MS } from './health.ts';

describe('health probes', () => {
  const t = useTestApp();

  it('/healthz answers JSON without touching the database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz is 200 on a migrated database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('probes are outside the generic rate limit', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

/**
 * Waits until none of the app's row-job claims (started when the app became ready) is still running on PostgreSQL.
 * Ending the pool and dropping the database under a claim in flight leaves that query unsettled for good (node-postgres),
 * and the app's close would then wait out its jobs' whole stop timeout (8 s). PGlite runs one query at a time: nothing
 * is in flight once ours runs.
 */
async function rowJobClaimsSettled(db: DatabaseHandle): Promise<void> {
  if (db.kind !== 'postgres') return;
  for (;;) {
    const { rows } = await db.executeSql(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND starts_with(query, $1)`,
      [ROW_JOB_MARK],
    );
    if ((rows[0] as { n: number } | undefined)?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('/readyz when not ready', () => {
  it('503 naming the migrations when the newest one is missing', async () => {
    const db = await openTestDb();
    const { app } = await buildTestApp(db);
    try {
      await db.executeSql(
        'DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)',
      );
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'failed' },
      });
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('503 naming the database when it is closed, /healthz still 200', async () => {
    const db = await openTestDb();
    const { app } = await buildTestApp(db);
    try {
      await rowJobClaimsSettled(db);
      await db.close();
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'failed', migrations: 'failed' },
      });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close().catch(() => {});
    }
  });
});

describe('/readyz under a flood (issue #13 item 10d)', () => {
  const t = useTestApp();
  const probe = (ip: string) => t.app.inject({ method: 'GET', url: '/readyz', remoteAddress: ip });

  it('concurrent probes share one database check, and a result is reused for a second', async () => {
    const sql = vi.spyOn(t.db, 'executeSql');
    try {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => probe(`10.77.1.${(i % 50) + 1}`)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(100).fill(200));
      // One check: SELECT 1 and the migrations' query.
      expect(sql).toHaveBeenCalledTimes(2);
      expect((await probe('10.77.1.200')).statusCode).toBe(200);
      expect(sql).toHaveBeenCalledTimes(2);
      t.clock.advance(READY_RESULT_TTL_MS);
      expect((await probe('10.77.1.200')).statusCode).toBe(200);
      expect(sql).toHaveBeenCalledTimes(4);
    } finally {
      sql.mockRestore();
    }
  });

  it(`one address gets ${PROBE_RATE_LIMIT.max} probes a minute, then 429; other addresses and /healthz are untouched`, async () => {
    // Probes one after the other, as a (very eager) load balancer sends them: exactly the limit passes.
    for (let i = 0; i < PROBE_RATE_LIMIT.max; i++) expect((await probe('10.77.2.1')).statusCode).toBe(200);
    const refused = await probe('10.77.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ MainCode_: 'rate_limited' });
    expect(refused.headers['retry-after']).toBeDefined();
    // A load balancer's probes come from their own addresses; the liveness probe has no limit.
    expect((await probe('10.77.2.2')).statusCode).toBe(200);
    const live = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.77.2.1' }),
      ),
    );
    expect(live.every((answer) => answer.statusCode === 200)).toBe(true);
  });

  it('a concurrent flood from one address is refused beyond the limit', async () => {
    const flood = await Promise.all(
      Array.from({ length: PROBE_RATE_LIMIT.max + 100 }, () => probe('10.77.3.1')),
    );
    const statuses = flood.map((answer) => answer.statusCode);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    // @fastify/rate-limit's in-memory store decides a concurrent burst on its final count: past the limit, the whole
    // burst is refused (never more than the limit let through).
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(PROBE_RATE_LIMIT.max);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(100);
  });
});
