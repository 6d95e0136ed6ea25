import type { DatabaseHandle } from '@veriform/db';
import { schema } from '@veriform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../test-support/app.ts';
import { createTestClock, MINUTE } from '../test-support/clock.ts';
import { AppError } from './errors.ts';
import { createRateLimiter, type RateLimitRule } from './rate-limit.ts';

/**
 * `consume` is one SQL function call (consume_rate_limits, migration 0025): the rules of ADR 12 it took over from a
 * five-statement transaction, checked at the limiter itself. The routes' limits are tested at once in
 * security/limits-race.test.ts.
 */
describe('RateLimiter.consume', () => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.close());

  const text = (seconds: number) => `wait ${seconds} s`;
  let unique = 0;
  const rule = (limit: number, windowMs: number): RateLimitRule => ({
    bucket: `test:${++unique}:${limit}:${windowMs}`,
    limit,
    windowMs,
  });

  async function refusal(run: Promise<unknown>): Promise<{ detail: string; retryAfter: string }> {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof AppError)) throw new Error(`expected a 429, got ${String(error)}`);
    expect(error.code).toBe('rate_limited');
    return { detail: error.detail, retryAfter: String(error.headers['Retry-After']) };
  }

  it('lets the limit through, refuses the next with the time until the oldest counted event leaves the window', async () => {
    const clock = createTestClock();
    const limiter = createRateLimiter(db.db, clock);
    const r = rule(3, 10 * MINUTE);
    for (let i = 0; i < 3; i++) {
      await limiter.consume([r], text);
      clock.advance(MINUTE);
    }
    // The first event was 3 minutes ago: it leaves the 10-minute window in 7.
    expect(await refusal(limiter.consume([r], text))).toEqual({ detail: 'wait 420 s', retryAfter: '420' });
    clock.advance(7 * MINUTE + 1000);
    await expect(limiter.consume([r], text)).resolves.toMatchObject({ eventIds: [expect.any(Number)] });
  });

  it('refuses with the longest wait of the rules exhausted, and counts nothing in any bucket when it refuses', async () => {
    const clock = createTestClock();
    const limiter = createRateLimiter(db.db, clock);
    const short = rule(1, MINUTE);
    const long = rule(1, 60 * MINUTE);
    const open = rule(100, MINUTE);
    await limiter.consume([short, long], text);
    expect(await refusal(limiter.consume([open, short, long], text))).toEqual({
      detail: 'wait 3600 s',
      retryAfter: '3600',
    });
    const rows = await db.db.select({ bucket: schema.rateLimitEvents.bucket }).from(schema.rateLimitEvents);
    expect(rows.filter((row) => row.bucket === open.bucket)).toHaveLength(0);
  });

  it('a limit of zero refuses for a whole window', async () => {
    const limiter = createRateLimiter(db.db, createTestClock());
    expect(await refusal(limiter.consume([rule(0, 5 * MINUTE)], text))).toMatchObject({ retryAfter: '300' });
  });

  it('gives back a unit by the ids it answers', async () => {
    const limiter = createRateLimiter(db.db, createTestClock());
    const r = rule(1, MINUTE);
    const reservation = await limiter.consume([r, r], text);
    // One event per rule, the same bucket twice included.
    expect(reservation.eventIds).toHaveLength(2);
    expect(new Set(reservation.eventIds).size).toBe(2);
    await refusal(limiter.consume([r], text));
    await limiter.release(reservation);
    await expect(limiter.consume([r], text)).resolves.toMatchObject({ eventIds: [expect.any(Number)] });
  });

  it('40 at once on a limit of 7: exactly 7 are counted', async () => {
    const limiter = createRateLimiter(db.db, createTestClock());
    const r = rule(7, MINUTE);
    const other = rule(1000, MINUTE);
    // Each shares a second bucket with the others, in either order: the locks are taken in one order, so none waits
    // on another forever.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => limiter.consume(i % 2 === 0 ? [r, other] : [other, r], text)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(7);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(33);
    for (const o of refused) expect(o.reason).toBeInstanceOf(AppError);
  });
});
