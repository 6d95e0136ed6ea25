import { describe, expect, it } from 'vitest';
import { buildTestApp, openTestDb } from '../test-support/app.ts';

type LogLine = { reqId?: string; msg?: string };

async function withApp(
  env: Record<string, string>,
  test: (app: Awaited<ReturnType<typeof buildTestApp>>['app'], lines: LogLine[]) => Promise<void>,
) {
  const lines: LogLine[] = [];
  const db = await openTestDb();
  const { app } = await buildTestApp(db, {
    env,
    config: { logLevel: 'info' },
    logStream: { write: (line: string) => lines.push(JSON.parse(line) as LogLine) },
  });
  try {
    await test(app, lines);
  } finally {
    await app.close();
    await db.close();
  }
}

describe('request id', () => {
  it('every log line of a request carries the id the answer names', async () => {
    await withApp({}, async (app, lines) => {
      const response = await app.inject({ method: 'GET', url: '/api/users/me' });
      const id = response.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const ofRequest = lines.filter((line) => line.reqId !== undefined);
      expect(ofRequest.map((line) => line.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
      expect(new Set(ofRequest.map((line) => line.reqId))).toEqual(new Set([id]));
      const second = await app.inject({ method: 'GET', url: '/api/users/me' });
      expect(second.headers['x-request-id']).not.toBe(id);
    });
  });

  it("a trusted proxy's well-formed id is kept; a malformed one is replaced", async () => {
    await withApp({ TRUST_PROXY: '127.0.0.1' }, async (app, lines) => {
      const kept = await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-request-id': 'proxy-1234abcd' },
      });
      expect(kept.headers['x-request-id']).toBe('proxy-1234abcd');
      const odd = await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-request-id': 'a b"\n{}' },
      });
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.every((line) => line.reqId !== 'a b"\n{}')).toBe(true);
    });
  });

  it('without a trusted proxy the incoming id is ignored', async () => {
    await withApp({}, async (app) => {
      const response = await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-request-id': 'proxy-1234abcd' },
      });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
