import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';

const { accounts } = schema;

/**
 * The account's row lock (ADR 30), for a change that must see the account whole: counting its API keys or webhook
 * endpoints before adding one, guarding its last owner, editing the company. Changes that take it run one at a time
 * per account; invitation accepts take it shared (FOR SHARE) to run beside each other but not beside a team change.
 *
 * The lock order, in every transaction of the app:
 *   1. the account's row (this), when the change needs it, first;
 *   2. the rows of the objects it changes (a form, an endpoint, keys, memberships), by their own locks or UPDATEs;
 *   3. the account's audit chain head, last: `audit.record` takes it (append_audit_event), so a transaction writes
 *      its audit events after its changes, never between them.
 * Row locks are FOR NO KEY UPDATE, never FOR UPDATE: the foreign keys of the rows a change inserts (audit events,
 * webhook events, deliveries all point at the account and deliveries at endpoints) share-lock the rows they point at
 * (FOR KEY SHARE), which FOR UPDATE blocks. A form rename holding the chain head and waiting for that share lock on
 * the account row, while a key's creation held the account row and waited for the head, was a deadlock on PostgreSQL
 * (issue #33 item 5). A row deleted (an endpoint) is deleted after its audit event, the head first: the one exception,
 * since a DELETE's lock blocks those share locks whatever the order.
 */
export async function lockAccount(tx: Db, accountId: number): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
}
