import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, asc, gt, sql } from 'drizzle-orm';
import { apiVerificationColumns } from '../../domain/api-verification.ts';
import type { Clock } from '../../lib/clock.ts';
import { ATTEMPT_EVENT_TYPES, attemptEvent, expiredSql } from '../attempts/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';

const { verificationAttempts, webhookEvents: storedEvents } = schema;

/**
 * `verification.expired` (issue #17 item 2): nothing changes when a code's time runs out (the API reads a pending
 * code past `expires_at` as expired), so a sweep every minute finds them and emits the event. Each event's dedupe key
 * is the attempt's, so runs that overlap (two processes, a retried job) store it once.
 */
export const EXPIRED_SWEEP = {
  /** Codes expired longer ago than this are left alone: a sweep that was down longer than an hour misses them. */
  lookBackMs: 60 * 60 * 1000,
  /** Events emitted per transaction. */
  batchSize: 200,
  /** Transactions per run: past this, the next minute's run goes on where this one stopped. */
  maxBatches: 10,
};

export const expiredDedupeKey = (attemptId: string) => `verification.expired:${attemptId}`;

/** Emits the events of codes expired within the look-back and not yet emitted; answers how many it stored. */
export async function emitExpiredVerifications(deps: {
  db: Db;
  clock: Clock;
  webhookEvents: WebhookEvents;
}): Promise<number> {
  const { db, clock, webhookEvents } = deps;
  const now = clock.now();
  const since = new Date(now.getTime() - EXPIRED_SWEEP.lookBackMs);
  let stored = 0;
  for (let batch = 0; batch < EXPIRED_SWEEP.maxBatches; batch++) {
    const { found, emitted } = await transaction(db, async (tx) => {
      // The partial index on expires_at of pending codes serves the range; the dedupe key's unique index the
      // anti-join, so codes already emitted (by an earlier run) are skipped rather than found again every batch.
      const rows = await tx
        .select({ ...apiVerificationColumns, accountId: verificationAttempts.accountId })
        .from(verificationAttempts)
        .where(
          and(
            expiredSql(now),
            gt(verificationAttempts.expiresAt, since),
            sql`not exists (select 1 from ${storedEvents} e where e.account_id = ${verificationAttempts.accountId}
              and e.dedupe_key = ${'verification.expired:'}::text || ${verificationAttempts.id})`,
          ),
        )
        // One order for every run: two runs at once insert the same keys in the same order, so the second waits for
        // the first's commit on each key (and then stores nothing) instead of deadlocking with it.
        .orderBy(asc(verificationAttempts.expiresAt), asc(verificationAttempts.id))
        .limit(EXPIRED_SWEEP.batchSize);
      let emittedHere = 0;
      for (const row of rows) {
        const { eventId } = await webhookEvents.emit(
          tx,
          row.accountId,
          attemptEvent(ATTEMPT_EVENT_TYPES.expired, row, now, expiredDedupeKey(row.id)),
        );
        if (eventId !== null) emittedHere += 1;
      }
      return { found: rows.length, emitted: emittedHere };
    });
    stored += emitted;
    if (found < EXPIRED_SWEEP.batchSize) break;
  }
  return stored;
}
