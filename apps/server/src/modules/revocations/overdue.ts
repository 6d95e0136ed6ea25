import { type ApiRevocation, REVOCATIONS_PAGE_PATH } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { maskEmail, maskPhone } from '../../domain/phone.ts';
import { sendRevocationOverdueEmail } from '../../jobs/definitions/send-revocation-overdue-email.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../messaging/email.ts';
import { revocationOverdueMessage } from '../../messaging/templates/revocation-overdue.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { statusIs } from './status.ts';

const { revocations, memberships, users, accounts } = schema;

/** Revocations marked per transaction; a run goes on until none is left. */
export const OVERDUE_BATCH = 200;

export const overdueDedupeKey = (id: string) => `revocation.overdue:${id}`;

/** Who revoked, as an owner's e-mail names them: masked, so the mail holds no copy erasure cannot reach. */
const whoOf = (row: { phone: string | null; email: string | null }) =>
  row.phone ? maskPhone(row.phone) : row.email ? maskEmail(row.email) : '';

/**
 * The sweep (issue #35 item 3): an open revocation whose deadline passed (the day read in New York, as the deadline
 * was counted) is marked notified, `revocation.overdue` is emitted, and each owner of its account is queued ONE e-mail
 * naming every revocation of the batch — all in one transaction, so a crash leaves either all or nothing. Rows are
 * claimed with SKIP LOCKED and marked once, so two runs at once never notify one twice. Answers how many it marked.
 */
export async function notifyOverdueRevocations(deps: {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  webhookEvents: WebhookEvents;
  /** The object as API v1 and the events show it (the service's own). */
  describe: (tx: Tx, row: typeof revocations.$inferSelect) => Promise<ApiRevocation>;
}): Promise<number> {
  const { db, clock, jobs, webhookEvents } = deps;
  let marked = 0;
  for (;;) {
    const now = clock.now();
    const done = await transaction(db, async (tx) => {
      const due = await tx
        .select({ id: revocations.id })
        .from(revocations)
        .where(and(statusIs('overdue', now), isNull(revocations.overdueNotifiedAt)))
        .orderBy(asc(revocations.deadline), asc(revocations.id))
        .limit(OVERDUE_BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return 0;
      const rows = await tx
        .update(revocations)
        .set({ overdueNotifiedAt: now })
        .where(
          and(
            inArray(
              revocations.id,
              due.map((row) => row.id),
            ),
            isNull(revocations.overdueNotifiedAt),
          ),
        )
        .returning();
      const byAccount = new Map<number, string[]>();
      for (const row of rows) {
        await webhookEvents.emit(tx, row.accountId, {
          type: 'revocation.overdue',
          data: await deps.describe(tx, row),
          dedupeKey: overdueDedupeKey(row.id),
        });
        // Test revocations (a test key's) notify through their test events only: no owner is mailed about them.
        if (!row.isTest) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row.id]);
      }
      for (const [accountId, revocationIds] of byAccount) {
        const owners = await tx
          .select({ userId: memberships.userId })
          .from(memberships)
          .where(and(eq(memberships.accountId, accountId), eq(memberships.role, 'owner')));
        for (const { userId } of owners)
          await jobs.enqueue(sendRevocationOverdueEmail, { accountId, userId, revocationIds }, { tx });
      }
      return rows.length;
    });
    marked += done;
    if (done < OVERDUE_BATCH) return marked;
  }
}

/** The queued e-mail to one owner; skipped when the person is no longer an owner of the account. */
export async function sendOverdueEmail(
  deps: { db: Db; mailer: Mailer; config: Pick<Config, 'publicUrl'> },
  email: { accountId: number; userId: number; revocationIds: string[] },
): Promise<'sent' | 'skipped'> {
  const [owner] = await deps.db
    .select({ to: users.email, accountName: accounts.displayName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(
      and(
        eq(memberships.accountId, email.accountId),
        eq(memberships.userId, email.userId),
        eq(memberships.role, 'owner'),
      ),
    )
    .limit(1);
  if (!owner) return 'skipped';
  const rows = await deps.db
    .select({ phone: revocations.phone, email: revocations.email, deadline: revocations.deadline })
    .from(revocations)
    .where(and(eq(revocations.accountId, email.accountId), inArray(revocations.id, email.revocationIds)))
    .orderBy(asc(revocations.deadline), sql`${revocations.id}`);
  if (rows.length === 0) return 'skipped';
  await deps.mailer.send(
    revocationOverdueMessage({
      to: owner.to,
      accountName: owner.accountName,
      revocations: rows.map((row) => ({ who: whoOf(row), deadline: row.deadline })),
      link: `${deps.config.publicUrl}${REVOCATIONS_PAGE_PATH}?status=overdue`,
    }),
  );
  return 'sent';
}
