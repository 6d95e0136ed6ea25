import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { asc, eq } from 'drizzle-orm';
import type { ChainedEvent } from '../modules/audit/chain.ts';

/**
 * An account's audit chain as stored, in order, in the form the check reads: straight from the rows, not through the
 * service's mapping, so a test of the chain does not trust the code under test to read it.
 */
export async function storedChainOf(db: Db, accountId: number): Promise<ChainedEvent[]> {
  const rows = await db
    .select()
    .from(schema.auditEvents)
    .where(eq(schema.auditEvents.accountId, accountId))
    .orderBy(asc(schema.auditEvents.sequence));
  return rows.map((row) => ({
    account: row.accountId,
    sequence: row.sequence,
    occurredAt: row.occurredAt.toISOString(),
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action,
    targets: row.targets as ChainedEvent['targets'],
    changes: row.changes as ChainedEvent['changes'],
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    prevHash: row.prevHash,
    hash: row.hash,
  }));
}
