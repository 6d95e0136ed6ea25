import { type Db, schema, transaction } from '@veriform/db';
import { markRevokedVerifications, REVOKING_STATUSES } from '../modules/revocations/index.ts';

type NewRevocation = typeof schema.revocations.$inferInsert;

let counter = 0;

/**
 * A revocation as any channel stores it (an open reply by default), written as the service writes one: a revoking one
 * marks the verifications it revokes in the same transaction (modules/revocations/marks.ts). For tests that place
 * revocations at chosen times; the channels' own tests go through the routes.
 */
export async function insertRevocation(
  db: Db,
  values: Partial<NewRevocation> & Pick<NewRevocation, 'accountId' | 'receivedAt'>,
): Promise<string> {
  counter += 1;
  return transaction(db, async (tx) => {
    const [row] = await tx
      .insert(schema.revocations)
      .values({
        id: `test-revocation-${counter}-${Math.random().toString(36).slice(2)}`,
        channel: 'sms_reply',
        status: 'open',
        deadline: '2099-12-31',
        ...values,
      })
      .returning();
    if (!row) throw new Error('the insert answered no row');
    if ((REVOKING_STATUSES as readonly string[]).includes(row.status))
      await markRevokedVerifications(tx, row);
    return row.id;
  });
}
