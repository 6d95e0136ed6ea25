import type { RetentionPurgeKind } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { asc, type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { type Pace, unpaced } from '../../lib/pacing.ts';
import { rowsOf } from '../../lib/rows.ts';
import {
  type KeptColumns,
  type KeptRule,
  purgeOrphanDeliveryEvents,
  purgeUnlinkedAttemptBatch,
  purgeVerificationBatch,
} from '../attempts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import { tombstoneCertificates } from '../certificates/index.ts';
import { isHeld, isNumberHeld, lockLegalHolds } from '../legal-holds/index.ts';
import { retentionCutoff } from './policy.ts';

const {
  accounts,
  verifications,
  verificationAttempts,
  formPageViews,
  lookups,
  reassignmentChecks,
  contactabilityChecks,
  webhookEvents,
  webhookDeliveries,
  verificationRestrictions,
  retentionPurges,
} = schema;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows per transaction: the living's statements wait for a batch at most (ADR 45 says what was measured). */
export const PURGE_BATCH = 5_000;

/** The one rule of what a legal hold reaches (modules/legal-holds/held.ts), as the attempts module's purge asks it. */
const kept: KeptRule = (columns: KeptColumns) => isHeld(columns);

/** Columns of a row that is no verification, as the hold rule reads them: what it lacks reaches nothing. */
const none = { cellPhone: sql`null::text`, email: sql`null::text`, id: sql`null::bigint` };

/** `pace`: each batch is a step of background work (lib/pacing.ts, ADR 51); unpaced when not given (tests, scripts). */
export type PurgeDeps = { db: Db; clock: Clock; audit: AuditLog; pace?: Pace };

export type AccountPurge = {
  accountId: number;
  cutoff: Date;
  removed: Record<RetentionPurgeKind, number>;
  held: number;
};

/**
 * One batch's transaction: the account's hold lock first (`lockLegalHolds`, the one that orders hold placements
 * against whatever removes evidence), so a hold being placed waits for the batch to commit, and a batch waits for a
 * hold being placed to commit and then sees it (READ COMMITTED: each statement after the lock reads the holds committed
 * before it). A hold placed while the purge runs therefore keeps everything the purge had not removed when it was
 * placed. `veriform.retention_purge` tells the count triggers to keep their totals: past reports stay true.
 */
function inBatch<T>(db: Db, accountId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
  return transaction(db, async (tx) => {
    await lockLegalHolds(tx, accountId);
    await tx.execute(sql`select set_config('veriform.retention_purge', 'on', true)`);
    return work(tx);
  });
}

/** Runs `batch` until it removes fewer rows than the batch size; answers the total. */
async function untilDone(step: () => Promise<number>, size: number): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await step();
    total += count;
    if (count < size) return total;
  }
}

/**
 * The retention purge of one account (issue #37 item 1, ADR 45): everything created before `cutoff` that no legal hold
 * reaches, in batches of `size` rows, each its own transaction. Verifications go with the attempts that are their
 * evidence (code entries, delivery events, reassignment checks, refresh links and revocation marks follow by their
 * keys), their certificates become tombstones and their restrictions go; then the attempts no verification names,
 * the IP address and user agent of page views no kept attempt names (the rows stay: the funnel counts them), carrier
 * lookups and contactability verdicts (they hold the number) no kept row names, and webhook events with their
 * deliveries. Revocations are kept: they are the account's record of honouring an
 * opt-out, not the evidence of a consent. When anything was removed or kept, one `retention_purges` row and one
 * `retention.purged` audit event (counts only, no personal data) record the run, in a last transaction of their own.
 */
export async function purgeAccount(
  deps: PurgeDeps,
  account: { accountId: number; years: number },
  size = PURGE_BATCH,
): Promise<AccountPurge> {
  const { db, clock, audit, pace = unpaced } = deps;
  const { accountId, years } = account;
  const cutoff = retentionCutoff(clock.now(), years);
  const before = sql`${cutoff.toISOString()}::timestamptz`;
  const removed: Record<RetentionPurgeKind, number> = {
    verifications: 0,
    attempts: 0,
    pageViews: 0,
    lookups: 0,
    contactabilityChecks: 0,
    webhookEvents: 0,
    webhookDeliveries: 0,
    certificates: 0,
  };
  const batch = { accountId, cutoff, limit: size, kept };
  /** One step: batch after batch, each its own transaction under the hold lock, until one is short; the total. */
  const inBatches = (work: (tx: Tx) => Promise<number>): Promise<number> =>
    untilDone(() => pace(() => inBatch(db, accountId, work)), size);
  /** A batch that is one statement: how many rows it returned. */
  const returned =
    (statement: SQL) =>
    async (tx: Tx): Promise<number> =>
      rowsOf(await tx.execute(statement)).length;
  /** A row naming a number alone (a carrier lookup, a verdict), as the hold rule reads it. */
  const numberHeld = (alias: string) =>
    isNumberHeld(sql.raw(`${alias}.account_id`), sql.raw(`${alias}.phone`));

  // A hold on the whole account keeps everything: nothing is walked (the rule asked of the account alone, which only an
  // account hold reaches).
  const [whole] = rowsOf(
    await db.execute(
      sql`select ${isHeld({ accountId: sql`${accountId}::integer`, verifyFormId: sql`null::integer`, ...none })} as held`,
    ),
  );
  if (whole?.held !== true) {
    await inBatches(async (tx) => {
      const { verificationIds, attempts } = await purgeVerificationBatch(tx, batch);
      removed.verifications += verificationIds.length;
      removed.attempts += attempts;
      removed.certificates += await tombstoneCertificates(tx, accountId, verificationIds, clock.now());
      if (verificationIds.length > 0)
        await tx.execute(sql`delete from ${verificationRestrictions}
            where account_id = ${accountId} and verification_id = any(array[${sql.join(
              verificationIds.map((id) => sql`${id}`),
              sql`, `,
            )}]::bigint[])`);
      return verificationIds.length;
    });

    // A day later than the verifications' cut-off: the codes a visit asked for before its verification (resends, wrong
    // numbers) are never split from a verification kept on the other side of the cut-off.
    const unlinked = { ...batch, cutoff: new Date(cutoff.getTime() - DAY_MS) };
    removed.attempts += await inBatches((tx) => purgeUnlinkedAttemptBatch(tx, unlinked));

    // Page views stay as rows, their IP address and user agent removed: the report's funnel counts them ("page
    // opened"), so removing them would change past reports. A kept attempt's page view keeps its evidence.
    const pv = { accountId: sql.raw('pv.account_id'), verifyFormId: sql.raw('pv.verify_form_id'), ...none };
    removed.pageViews = await inBatches(
      returned(sql`update ${formPageViews} d set ip = null, user_agent = null where d.id in (
            select pv.id from ${formPageViews} pv
            where pv.account_id = ${accountId} and pv.created_at < ${before}
              and (pv.ip is not null or pv.user_agent is not null) and not ${isHeld(pv)}
              and not exists (select 1 from ${verificationAttempts} a where a.page_view_id = pv.id)
            order by pv.created_at, pv.id limit ${size} for update of pv skip locked)
          returning d.id`),
    );

    removed.lookups = await inBatches(
      returned(sql`delete from ${lookups} d where d.id in (
            select l.id from ${lookups} l
            where l.account_id = ${accountId} and l.asked_at < ${before} and l.status <> 'pending'
              and not ${numberHeld('l')}
              and not exists (select 1 from ${verificationAttempts} a where a.line_type_lookup_id = l.id)
              and not exists (select 1 from ${verificationAttempts} a where a.sim_swap_lookup_id = l.id)
              and not exists (select 1 from ${reassignmentChecks} rc where rc.lookup_id = l.id)
            order by l.asked_at, l.id limit ${size} for update of l skip locked)
          returning d.id`),
    );

    removed.contactabilityChecks = await inBatches(
      returned(sql`delete from ${contactabilityChecks} d where d.id in (
            select c.id from ${contactabilityChecks} c
            where c.account_id = ${accountId} and c.checked_at < ${before} and not ${numberHeld('c')}
            order by c.checked_at, c.id limit ${size} for update of c skip locked)
          returning d.id`),
    );

    // Webhook events are replayable for 30 days (their own prune removes older ones): these are the few a policy of a
    // year can reach only when that prune has not run; their deliveries go with them.
    await inBatches(async (tx) => {
      const due = sql`select e.id from ${webhookEvents} e
          where e.account_id = ${accountId} and e.created_at < ${before}
          order by e.created_at, e.id limit ${size} for update of e skip locked`;
      const [deliveries] = rowsOf(
        await tx.execute(
          sql`select count(*)::int as n from ${webhookDeliveries} where event_id in (${due}) and account_id = ${accountId}`,
        ),
      );
      const gone = rowsOf(
        await tx.execute(sql`delete from ${webhookEvents} d where d.id in (${due}) returning d.id`),
      ).length;
      removed.webhookEvents += gone;
      removed.webhookDeliveries += Number(deliveries?.n ?? 0);
      return gone;
    });
  }

  const v = {
    accountId: sql.raw('v.account_id'),
    verifyFormId: sql.raw('v.verify_form_id'),
    cellPhone: sql.raw('v.cell_phone'),
    email: sql.raw('v.email'),
    id: sql.raw('v.id'),
  };
  const [heldRow] = rowsOf(
    await db.execute(sql`select count(*)::int as n from ${verifications} v
      where v.account_id = ${accountId} and v.created_at < ${before} and ${isHeld(v)}`),
  );
  const held = Number(heldRow?.n ?? 0);

  const anything = Object.values(removed).some((count) => count > 0) || held > 0;
  if (anything)
    await transaction(db, async (tx) => {
      const ranAt = clock.now();
      await tx
        .insert(retentionPurges)
        .values({ accountId, ranAt, cutoff, retentionYears: years, removed, held });
      await audit.recordAsSystem(tx, accountId, {
        action: 'retention.purged',
        targets: [],
        changes: { cutoff: cutoff.toISOString(), retentionYears: years, removed, held },
      });
    });
  return { accountId, cutoff, removed, held };
}

/** What one run of the daily job removed: each account's purge (those with nothing due left out), and the orphans. */
export type EvidencePurge = { accounts: AccountPurge[]; orphanDeliveryEvents: number };

/**
 * The daily job (`purge-expired-evidence`): every account, by id, under its own policy; then the delivery callbacks
 * that never found their attempt (no account's, so no policy's: the attempts module's age rule). Answers what went, for
 * the job's log.
 */
export async function purgeExpiredEvidence(deps: PurgeDeps, size = PURGE_BATCH): Promise<EvidencePurge> {
  const all = await deps.db
    .select({ accountId: accounts.id, years: accounts.retentionYears })
    .from(accounts)
    .orderBy(asc(accounts.id));
  const done: AccountPurge[] = [];
  for (const account of all) {
    const purge = await purgeAccount(deps, account, size);
    if (Object.values(purge.removed).some((count) => count > 0) || purge.held > 0) done.push(purge);
  }
  const now = deps.clock.now();
  const orphanDeliveryEvents = await untilDone(() => purgeOrphanDeliveryEvents(deps.db, now, size), size);
  return { accounts: done, orphanDeliveryEvents };
}
