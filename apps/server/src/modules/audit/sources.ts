import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { ChainedEvent } from './chain.ts';
import { chainedOf, toAuditEvent } from './service.ts';

const { auditEvents } = schema;
const BATCH = 5_000;

/** An account's chain as stored, in order, read in batches (a million events never sit in memory at once). */
export async function* chainFromDatabase(db: Db, accountId: number): AsyncGenerator<ChainedEvent> {
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, accountId), gt(auditEvents.sequence, after)))
      .orderBy(asc(auditEvents.sequence))
      .limit(BATCH);
    for (const row of rows) yield chainedOf(toAuditEvent(row), row.accountId);
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = last.sequence;
  }
}

/**
 * The events of a JSON Lines export (GET /api/audit-events/export?format=jsonl), one per line as exported. Anything
 * but the chained fields (the row `id`) is left out: it is not part of the hash. A line that is not JSON is passed
 * on as an event that cannot verify, so the check names it.
 */
export async function* chainFromJsonLines(path: string): AsyncGenerator<ChainedEvent> {
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let previous = 0;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let parsed: Partial<ChainedEvent> & { id?: unknown };
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = {};
    }
    const { id: _id, ...event } = parsed;
    const sequence = typeof event.sequence === 'number' ? event.sequence : previous + 1;
    previous = sequence;
    yield { ...(event as ChainedEvent), sequence };
  }
}
