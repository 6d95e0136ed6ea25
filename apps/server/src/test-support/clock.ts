import type { Clock } from '../lib/clock.ts';

/** A clock tests move by hand (token expiry, rate-limit windows, session expiry) instead of sleeping. */
export function createTestClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  } satisfies Clock & { advance(ms: number): void };
}

export type TestClock = ReturnType<typeof createTestClock>;

export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
