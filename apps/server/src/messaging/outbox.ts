import type { OutboxMessage } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { desc, lt, sql } from 'drizzle-orm';
import type { Clock } from '../lib/clock.ts';

const { outboxMessages } = schema;

/**
 * The development outbox: without SMTP (or Twilio) every message is kept in `outbox_messages`, shared by all server
 * processes, and listed at /dev/outbox. Never used in production.
 */

export type OutboxEntry = {
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
};

/** Newest first; the list is for a developer's eyes, so a page of the latest is enough. */
const OUTBOX_LIST_LIMIT = 100;

/** Answers the new row's id (the "provider message id" of an outbox send). */
export async function recordOutboxMessage(db: Db, clock: Clock, entry: OutboxEntry): Promise<number> {
  const [row] = await db
    .insert(outboxMessages)
    .values({ ...entry, createdAt: clock.now() })
    .returning({ id: outboxMessages.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

export async function listOutboxMessages(
  db: Db,
  filter: { to?: string | undefined },
): Promise<OutboxMessage[]> {
  const rows = await db
    .select()
    .from(outboxMessages)
    .where(filter.to ? sql`lower(${outboxMessages.to}) = lower(${filter.to})` : undefined)
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(OUTBOX_LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    to: row.to,
    subject: row.subject,
    text: row.text,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * Deletes messages older than `maxAgeMs` by the database's clock (the prune-outbox job): the outbox is shared by
 * every process, and a test that moves the app's clock days ahead still finds the messages it caused. Answers how
 * many went.
 */
export async function pruneOutbox(db: Db, maxAgeMs: number): Promise<number> {
  const deleted = await db
    .delete(outboxMessages)
    .where(lt(outboxMessages.createdAt, sql`now() - make_interval(secs => ${maxAgeMs / 1000})`))
    .returning({ id: outboxMessages.id });
  return deleted.length;
}
