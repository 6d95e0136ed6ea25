import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { buildTestApp, openTestDb } from './test-support/app.ts';

/** Short, so the test runs quickly; production's default is DEFAULT_REQUEST_TIMEOUT_MS. */
const LIMIT_MS = 1_000;
/** Node checks its timeouts at a quarter of the limit (app.ts), and the test machine is shared: some slack. */
const WITHIN_MS = LIMIT_MS + LIMIT_MS / 4 + 750;

let app: FastifyInstance;
let port = 0;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  const db = await openTestDb();
  closeDb = () => db.close();
  ({ app } = await buildTestApp(db, { config: { requestTimeoutMs: LIMIT_MS } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  await app.close();
  await closeDb();
});

type Outcome = { answer: string; closedAfterMs: number | undefined };

/**
 * Opens a real TCP connection, writes `head` at once and then `trickle` one byte every `everyMs`, and reports what the
 * server answered and when it closed the connection (undefined: still open at `giveUpMs`).
 */
function trickle(head: string, trickled: string, everyMs: number, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedAfterMs: number | undefined) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closedAfterMs });
    };
    const giveUp = setTimeout(() => finish(undefined), giveUpMs);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(Date.now() - started));
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent < trickled.length && !socket.destroyed) socket.write(trickled.charAt(sent++));
      }, everyMs);
    });
  });
}

describe('clients that trickle their request (issue #13 item 10b)', () => {
  it('a body sent a byte at a time is cut off with 408 within the limit', async () => {
    const body = `{"padding":"${'x'.repeat(200)}"}`;
    const head = [
      'POST /api/auth/csrf HTTP/1.1',
      'Host: localhost',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    const outcome = await trickle(head, body, 100, WITHIN_MS + 3_000);
    expect(outcome.closedAfterMs).toBeDefined();
    expect(outcome.closedAfterMs).toBeLessThan(WITHIN_MS);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('headers sent a byte at a time are cut off too', async () => {
    const outcome = await trickle(
      'GET /healthz HTTP/1.1\r\n',
      `Host: localhost\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`,
      100,
      WITHIN_MS + 3_000,
    );
    expect(outcome.closedAfterMs).toBeDefined();
    expect(outcome.closedAfterMs).toBeLessThan(WITHIN_MS);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('a slow request that arrives within the limit is answered as usual', async () => {
    const body = '{}';
    const head = [
      'POST /api/auth/csrf HTTP/1.1',
      'Host: localhost',
      'Connection: close',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    const outcome = await trickle(head, body, 200, WITHIN_MS + 3_000);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});

describe('REQUEST_TIMEOUT_SECONDS', () => {
  it('defaults to a minute and can be raised', () => {
    const key = 'k'.repeat(40);
    expect(loadConfig({ SECRET_KEY: key }).requestTimeoutMs).toBe(60_000);
    expect(loadConfig({ SECRET_KEY: key, REQUEST_TIMEOUT_SECONDS: '180' }).requestTimeoutMs).toBe(180_000);
    expect(() => loadConfig({ SECRET_KEY: key, REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(
      /REQUEST_TIMEOUT_SECONDS/,
    );
  });
});
