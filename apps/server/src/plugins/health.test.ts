import { describe, expect, it } from 'vitest';
import { buildTestApp, openTestDb, useTestApp } from '../test-support/app.ts';

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
