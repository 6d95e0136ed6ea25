import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import { AppError } from './errors.ts';

const { rateLimitEvents } = schema;

export type RateLimitRule = { bucket: string; limit: number; windowMs: number };
export type RateLimitDecision = { allowed: boolean; retryAfterSeconds: number };

/** Events older than this are deleted by `prune()`; longer than any window we count over. */
export const RATE_LIMIT_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * Limits that protect accounts and money, counted from rows in PostgreSQL so they hold across any number of server
 * processes (DESIGN §7). A bucket is a string such as `login-fail:email:<address>`.
 *
 * `check` then `hit` is not atomic: two processes may both pass a check at the edge and overshoot by one. That is
 * acceptable for these limits and avoids holding a transaction (which on PGlite would stall every other query).
 */
export function createRateLimiter(db: Db, clock: Clock) {
  async function check(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = clock.now().getTime();
    // Only the limit-th newest event decides; reading just that row keeps large limits (10,000 sends a day per
    // account) cheap — the index on (bucket, created_at) walks to it without returning the rows before it.
    const [limiting] = await db
      .select({ createdAt: rateLimitEvents.createdAt })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, bucket), gt(rateLimitEvents.createdAt, new Date(now - windowMs))))
      .orderBy(desc(rateLimitEvents.createdAt))
      .offset(limit - 1)
      .limit(1);
    if (!limiting) return { allowed: true, retryAfterSeconds: 0 };
    // The count drops below the limit when the limit-th newest event leaves the window.
    const retryAfterMs = limiting.createdAt.getTime() + windowMs - now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  async function hit(bucket: string): Promise<void> {
    await db.insert(rateLimitEvents).values({ bucket, createdAt: clock.now() });
  }

  async function reset(bucket: string): Promise<void> {
    await db.delete(rateLimitEvents).where(eq(rateLimitEvents.bucket, bucket));
  }

  /** Checks every rule; the answer is the one that keeps the caller waiting longest. */
  async function checkAll(rules: RateLimitRule[]): Promise<RateLimitDecision> {
    let worst: RateLimitDecision = { allowed: true, retryAfterSeconds: 0 };
    for (const rule of rules) {
      const decision = await check(rule.bucket, rule.limit, rule.windowMs);
      if (!decision.allowed && decision.retryAfterSeconds > worst.retryAfterSeconds) worst = decision;
    }
    return worst;
  }

  /**
   * Throws 429 (with Retry-After) when any rule is exhausted; otherwise counts this request in every bucket.
   * Refused requests are not counted, so a client that keeps retrying is not locked out forever.
   */
  async function consume(rules: RateLimitRule[], text: (retryAfterSeconds: number) => string): Promise<void> {
    const decision = await checkAll(rules);
    if (!decision.allowed) throw tooMany(decision, text);
    for (const rule of rules) await hit(rule.bucket);
  }

  async function prune(): Promise<void> {
    const cutoff = new Date(clock.now().getTime() - RATE_LIMIT_RETENTION_MS);
    await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, cutoff));
  }

  return { check, hit, reset, checkAll, consume, prune };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function tooMany(decision: RateLimitDecision, text: (retryAfterSeconds: number) => string): AppError {
  return new AppError('rate_limited', {
    detail: text(decision.retryAfterSeconds),
    headers: { 'Retry-After': String(decision.retryAfterSeconds) },
  });
}
