import {
  RETENTION_YEARS,
  type RetentionPolicy,
  type RetentionPurge,
  type UpdateRetentionRequest,
} from '@veriform/contracts';
import { type Db, schema, transaction } from '@veriform/db';
import { desc, eq } from 'drizzle-orm';
import { PURGE_AT_UTC } from '../../jobs/definitions/purge-expired-evidence.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';

const { accounts, retentionPurges } = schema;

/**
 * The instant `years` calendar years before `now` (UTC): evidence created before it is past the policy. A Feb 29 with
 * no twin in the earlier year is Feb 28 there, the earlier day: the purge errs on keeping, never removes a day early.
 */
export function retentionCutoff(now: Date, years: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(now.getUTCFullYear() - years);
  // setUTCFullYear rolls Feb 29 over into Mar 1 of a common year: step back to the month's last day.
  if (cutoff.getUTCMonth() !== now.getUTCMonth()) cutoff.setUTCDate(0);
  return cutoff;
}

/** The daily purge's next run after `now` (the job's cron, UTC). */
export function nextPurgeAfter(now: Date): Date {
  const next = new Date(
    Date.UTC(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      now.getUTCDate(),
      PURGE_AT_UTC.hour,
      PURGE_AT_UTC.minute,
    ),
  );
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** The account's latest purge that removed or kept anything; null before the first. */
async function lastPurgeOf(reader: Db, accountId: number): Promise<RetentionPurge | null> {
  const [row] = await reader
    .select()
    .from(retentionPurges)
    .where(eq(retentionPurges.accountId, accountId))
    .orderBy(desc(retentionPurges.ranAt), desc(retentionPurges.id))
    .limit(1);
  if (!row) return null;
  return {
    ranAt: row.ranAt.toISOString(),
    cutoff: row.cutoff.toISOString(),
    years: row.retentionYears,
    removed: row.removed,
    held: row.held,
  };
}

/**
 * The account's evidence retention policy (issue #37 item 1, ADR 45): every member reads it, owners change it (the
 * routes declare `manageCompany` for the PUT). Below the TCPA's four years the contract refuses a change without the
 * confirmation (400 naming 28 U.S.C. §1658(a)); the confirmation's instant is kept while the policy stays below four
 * and cleared above. A change is written with its `account.updated` audit event (`retentionYears: [before, after]`)
 * in one transaction, under the account row's lock (lib/account-lock.ts' order), so two owners' changes at once each
 * record what they replaced; the same years again records nothing.
 */
export function createRetentionPolicy(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  async function answer(
    reader: Db,
    accountId: number,
    row: { retentionYears: number; retentionBelowFourConfirmedAt: Date | null },
  ): Promise<RetentionPolicy> {
    const now = clock.now();
    return {
      years: row.retentionYears,
      confirmBelowFour: row.retentionBelowFourConfirmedAt !== null,
      belowFourConfirmedAt: row.retentionBelowFourConfirmedAt?.toISOString() ?? null,
      cutoff: retentionCutoff(nextPurgeAfter(now), row.retentionYears).toISOString(),
      nextPurgeAt: nextPurgeAfter(now).toISOString(),
      lastPurge: await lastPurgeOf(reader, accountId),
    };
  }

  async function get(ctx: AccountContext): Promise<RetentionPolicy> {
    const [row] = await db
      .select({
        retentionYears: accounts.retentionYears,
        retentionBelowFourConfirmedAt: accounts.retentionBelowFourConfirmedAt,
      })
      .from(accounts)
      .where(eq(accounts.id, ctx.accountId))
      .limit(1);
    if (!row) throw new Error(`Account ${ctx.accountId} vanished`);
    return answer(db, ctx.accountId, row);
  }

  async function update(ctx: AccountContext, body: UpdateRetentionRequest): Promise<RetentionPolicy> {
    const after = await transaction(db, async (tx) => {
      const [before] = await tx
        .select({
          id: accounts.id,
          displayName: accounts.displayName,
          retentionYears: accounts.retentionYears,
          retentionBelowFourConfirmedAt: accounts.retentionBelowFourConfirmedAt,
        })
        .from(accounts)
        .where(eq(accounts.id, ctx.accountId))
        .for('no key update');
      if (!before) throw new Error(`Account ${ctx.accountId} vanished during an update`);
      const belowFour = body.years < RETENTION_YEARS.tcpa;
      // A confirmation stands while the policy stays below four; a new one below four is confirmed now.
      const confirmedAt = !belowFour
        ? null
        : before.retentionYears < RETENTION_YEARS.tcpa && before.retentionBelowFourConfirmedAt !== null
          ? before.retentionBelowFourConfirmedAt
          : clock.now();
      const [row] = await tx
        .update(accounts)
        .set({ retentionYears: body.years, retentionBelowFourConfirmedAt: confirmedAt })
        .where(eq(accounts.id, ctx.accountId))
        .returning({
          retentionYears: accounts.retentionYears,
          retentionBelowFourConfirmedAt: accounts.retentionBelowFourConfirmedAt,
        });
      if (!row) throw new Error('retention update returned no row');
      if (before.retentionYears !== row.retentionYears)
        await audit.record(tx, ctx, {
          action: 'account.updated',
          targets: [auditTarget.account(before)],
          changes: { retentionYears: [before.retentionYears, row.retentionYears] },
        });
      return row;
    });
    return answer(db, ctx.accountId, after);
  }

  return { get, update };
}

export type RetentionPolicyService = ReturnType<typeof createRetentionPolicy>;
