import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, inArray, lt, lte, max, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import type { AuditLog } from './log.ts';

const { accounts, auditEvents } = schema;

/** Events removed per statement: one account's years of history go in bounded steps (PGlite runs on this thread). */
const DELETE_BATCH = 5_000;

/**
 * Retention (issue #16 item 6): each account keeps its audit events `audit_retention_years` (1–7, default 2). Older
 * ones are removed from the start of the chain only — everything up to the last event older than the cutoff — and an
 * `audit.pruned` event (actor: Veriform) records how many, up to which sequence, and the hash of the last one removed.
 * The oldest event left keeps that hash as its prevHash, so an export still verifies: the check accepts a chain that
 * starts there because an `audit.pruned` event names it (chain.ts). The delete says so to the append-only trigger for
 * its transaction only.
 */
export async function pruneAuditEvents(deps: { db: Db; clock: Clock; audit: AuditLog }): Promise<number> {
  const { db, clock, audit } = deps;
  const now = clock.now();
  const due = await db
    .select({ accountId: auditEvents.accountId, through: max(auditEvents.sequence) })
    .from(auditEvents)
    .innerJoin(accounts, eq(accounts.id, auditEvents.accountId))
    .where(
      lt(
        auditEvents.occurredAt,
        sql`${now.toISOString()}::timestamptz - make_interval(years => ${accounts.auditRetentionYears})`,
      ),
    )
    .groupBy(auditEvents.accountId);
  let removed = 0;
  for (const { accountId, through } of due) {
    if (through === null) continue;
    removed += await transaction(db, async (tx) => {
      const [last] = await tx
        .select({ hash: auditEvents.hash, sequence: auditEvents.sequence })
        .from(auditEvents)
        .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.sequence, through)))
        .limit(1);
      if (!last) return 0;
      await tx.execute(sql`select set_config('veriform.audit_prune', 'on', true)`);
      let count = 0;
      for (;;) {
        const oldest = tx
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(and(eq(auditEvents.accountId, accountId), lte(auditEvents.sequence, through)))
          .orderBy(auditEvents.sequence)
          .limit(DELETE_BATCH);
        const gone = await tx
          .delete(auditEvents)
          .where(inArray(auditEvents.id, oldest))
          .returning({ id: auditEvents.id });
        count += gone.length;
        if (gone.length < DELETE_BATCH) break;
      }
      await tx.execute(sql`select set_config('veriform.audit_prune', 'off', true)`);
      await audit.recordAsSystem(tx, accountId, {
        action: 'audit.pruned',
        targets: [{ type: 'audit_event', id: String(through), name: `Events through ${through}` }],
        changes: { removedCount: count, removedThrough: through, lastRemovedHash: last.hash },
      });
      return count;
    });
  }
  return removed;
}
