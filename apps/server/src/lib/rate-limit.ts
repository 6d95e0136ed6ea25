import type { Db, Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { eq, inArray, lt, sql } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import { AppError } from './errors.ts';
import { statement } from './statement.ts';

const { rateLimitEvents } = schema;

export type RateLimitRule = { bucket: string; limit: number; windowMs: number };
export type RateLimitDecision = { allowed: boolean; retryAfterSeconds: number };
/** The events one request recorded, so that it can take them back (a login that turned out right). */
export type Reservation = { eventIds: number[] };

/** Events older than this are deleted by `prune()`; longer than any window we count over. */
export const RATE_LIMIT_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

/** Checks and records inside one locked section; handed to the callback of `locked()`. */
export type LockedBuckets = {
  check(rule: RateLimitRule): Promise<RateLimitDecision>;
  /** The decision that keeps the caller waiting longest (allowed only when every rule allows). */
  checkAll(rules: RateLimitRule[]): Promise<RateLimitDecision>;
  record(buckets: string[]): Promise<Reservation>;
};

/** Every bucket's lock once, in one order for all (a request sharing buckets with another then cannot deadlock). */
function lockOrder(buckets: string[]): string[] {
  return [...new Set(buckets)].sort();
}

/** Driver values: bigint columns arrive as text from node-postgres, as numbers from PGlite. */
const consumeStatement = statement<{
  retry_ms: string | number | null;
  event_ids: (string | number)[] | null;
}>(
  'rate_limit_consume',
  'SELECT retry_ms, event_ids FROM consume_rate_limits($1::text[], $2::text[], $3::integer[], $4::bigint[], $5::timestamptz)',
);

/**
 * The decision of one rule, in SQL once (rate_limit_wait, packages/db/sql/functions/rate_limit_wait.sql; ADR 32): the
 * limit-th newest event in the window decides, and the wait is until it leaves the window. `consume_rate_limits`,
 * `issue_verification_code` and `judge_verification_code` call the same function. Null: allowed.
 */
const waitStatement = statement<{ wait_ms: string | number | null }>(
  'rate_limit_wait',
  'SELECT rate_limit_wait($1::text, $2::integer, $3::bigint, $4::timestamptz) AS wait_ms',
);

/** A wait in milliseconds (null: none) as a decision; Retry-After is whole seconds, at least one. */
function decisionOf(waitMs: string | number | null): RateLimitDecision {
  if (waitMs === null) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(waitMs) / 1000)) };
}

/**
 * Limits that protect accounts and money, counted from rows in PostgreSQL so they hold across any number of server
 * processes (DESIGN §7). A bucket is a string such as `login-fail:pair:<address>:<ip>`.
 *
 * Counting then recording is made atomic by a transaction-scoped advisory lock per bucket (ADR 12): requests for the
 * same bucket queue for each other, in every process, and each counts what the ones before it recorded. Locks are
 * taken in sorted order, so two requests sharing several buckets cannot deadlock. `consume` is one call of the SQL
 * function `consume_rate_limits`; `locked()` is a transaction of a few short statements for callers
 * that decide between checks. Neither holds row locks; on PGlite (one connection) each serialises like every other
 * query.
 */
export function createRateLimiter(db: Db, clock: Clock) {
  /** One rule's decision is the SQL function's (rate_limit_wait): the same one the code send and judge take. */
  async function checkWith(executor: Db | Tx, rule: RateLimitRule): Promise<RateLimitDecision> {
    const [answer] = await waitStatement(executor, [
      rule.bucket,
      rule.limit,
      rule.windowMs,
      clock.now().toISOString(),
    ]);
    if (!answer) throw new Error('rate_limit_wait answered no row');
    return decisionOf(answer.wait_ms);
  }

  async function checkAllWith(executor: Db | Tx, rules: RateLimitRule[]): Promise<RateLimitDecision> {
    let worst: RateLimitDecision = { allowed: true, retryAfterSeconds: 0 };
    for (const rule of rules) {
      const decision = await checkWith(executor, rule);
      if (!decision.allowed && decision.retryAfterSeconds > worst.retryAfterSeconds) worst = decision;
    }
    return worst;
  }

  async function recordWith(executor: Db | Tx, buckets: string[]): Promise<Reservation> {
    if (buckets.length === 0) return { eventIds: [] };
    const createdAt = clock.now();
    const rows = await executor
      .insert(rateLimitEvents)
      .values(buckets.map((bucket) => ({ bucket, createdAt })))
      .returning({ id: rateLimitEvents.id });
    return { eventIds: rows.map((row) => row.id) };
  }

  /**
   * Runs `work` while holding the lock of every bucket named: whatever it checks and records is one atomic step
   * for those buckets. `work` must use only the handed-in checks (they run on the locked transaction).
   */
  async function locked<T>(buckets: string[], work: (scope: LockedBuckets) => Promise<T>): Promise<T> {
    const ordered = lockOrder(buckets);
    return transaction(db, async (tx) => {
      // One statement takes every lock, in the array's (sorted) order.
      const names = sql.join(
        ordered.map((bucket) => sql`${bucket}`),
        sql`, `,
      );
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(b, 0)) from unnest(array[${names}]::text[]) with ordinality as t(b, n) order by n`,
      );
      return work({
        check: (rule) => checkWith(tx, rule),
        checkAll: (rules) => checkAllWith(tx, rules),
        record: (names) => recordWith(tx, names),
      });
    });
  }

  /** A reading only: another request may take the last unit a moment later. Use `consume` to take one. */
  function check(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return checkWith(db, { bucket, limit, windowMs });
  }

  /**
   * Throws 429 (with Retry-After, the longest wait of the rules refused) when any rule is exhausted; otherwise counts
   * this request in every bucket, in the same locked step, so N requests at once get exactly the limit through.
   * Refused requests are not counted, so a client that keeps retrying is not locked out forever. One round trip: the
   * locked step is the SQL function `consume_rate_limits` (migration 0025), the same rules as `locked()` + checks.
   */
  async function consume(
    rules: RateLimitRule[],
    text: (retryAfterSeconds: number) => string,
  ): Promise<Reservation> {
    const [answer] = await consumeStatement(db, [
      lockOrder(rules.map((rule) => rule.bucket)),
      rules.map((rule) => rule.bucket),
      rules.map((rule) => rule.limit),
      rules.map((rule) => rule.windowMs),
      clock.now().toISOString(),
    ]);
    if (!answer) throw new Error('consume_rate_limits answered no row');
    const decision = decisionOf(answer.retry_ms);
    if (!decision.allowed) throw tooMany(decision, text);
    return { eventIds: (answer.event_ids ?? []).map(Number) };
  }

  /** Takes back what a request recorded (a login whose password was right after all). */
  async function release(reservation: Reservation): Promise<void> {
    if (reservation.eventIds.length === 0) return;
    await db.delete(rateLimitEvents).where(inArray(rateLimitEvents.id, reservation.eventIds));
  }

  /** For tests and seeding: records an event without any check. */
  async function hit(bucket: string): Promise<void> {
    await recordWith(db, [bucket]);
  }

  async function reset(bucket: string): Promise<void> {
    await db.delete(rateLimitEvents).where(eq(rateLimitEvents.bucket, bucket));
  }

  async function prune(): Promise<void> {
    const cutoff = new Date(clock.now().getTime() - RATE_LIMIT_RETENTION_MS);
    await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, cutoff));
  }

  return { check, consume, locked, release, hit, reset, prune };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function tooMany(decision: RateLimitDecision, text: (retryAfterSeconds: number) => string): AppError {
  return new AppError('rate_limited', {
    detail: text(decision.retryAfterSeconds),
    headers: { 'Retry-After': String(decision.retryAfterSeconds) },
  });
}
