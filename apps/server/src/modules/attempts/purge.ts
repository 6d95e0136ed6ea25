import { type Db, schema, type Tx } from '@veriform/db';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/rows.ts';

const { verifications, verificationAttempts, codeDeliveryEvents } = schema;

/**
 * A verification's columns as a statement names them (the legal hold rule's shape, `HeldVerification` of
 * modules/legal-holds): the caller passes the rule in, so this module imports no hold module.
 */
export type KeptColumns = {
  accountId: SQLWrapper;
  verifyFormId: SQLWrapper;
  cellPhone: SQLWrapper;
  email: SQLWrapper;
  id: SQLWrapper;
};

/** True where a row must be kept whatever its age: the legal holds' rule (`isHeld`), as the retention module passes it. */
export type KeptRule = (columns: KeptColumns) => SQL<boolean>;

export type PurgeBatch = {
  accountId: number;
  /** Rows created before this instant are due. */
  cutoff: Date;
  limit: number;
  kept: KeptRule;
};

const idsOf = (answer: unknown): number[] => rowsOf(answer).map((row) => Number(row.id));

/**
 * How long a delivery callback that came before its message's SID (an orphan, `attempt_id` null) may wait for its
 * attempt: the send job adopts it within seconds, when it saves the SID (`adoptOrphanEvents`); one a day old never will
 * be (the job gave up, or the callback named a message that was never ours).
 */
export const ORPHAN_EVENT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * One batch of orphan delivery events past their wait (ADR 45's "later, cross-account step"): they name no account and
 * no person (a status, an instant, an error code and the provider's message id), so no policy or hold reaches them;
 * only age does. Answers how many went; the caller repeats it until a batch is short.
 */
export async function purgeOrphanDeliveryEvents(db: Db, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - ORPHAN_EVENT_MAX_AGE_MS);
  return rowsOf(
    await db.execute(sql`
      delete from ${codeDeliveryEvents} d where d.id in (
        select e.id from ${codeDeliveryEvents} e
        where e.attempt_id is null and e.at < ${before.toISOString()}::timestamptz
        order by e.id limit ${limit} for update of e skip locked)
      returning d.id`),
  ).length;
}

/**
 * The retention purge's writes to the attempt's rows (issue #37, ADR 45; the attempts module is their one writer, ADR
 * 35): one batch of the account's verifications created before the cut-off and not kept by a hold, oldest first, with
 * the attempts that are their evidence (their code entries, delivery events, reassignment checks and refresh links go
 * with them by their foreign keys; revocation marks with the verification). The rows are locked (`skip locked`: a
 * verification being redacted right now waits for the next batch) and the hold rule is asked again in the DELETE's own
 * statement. The caller runs it in a transaction that took the holds' table lock and set `veriform.retention_purge`
 * (the count triggers keep their totals). Answers the verifications' ids removed and how many attempts went.
 */
export async function purgeVerificationBatch(
  tx: Tx,
  batch: PurgeBatch,
): Promise<{ verificationIds: number[]; attempts: number }> {
  const { accountId, cutoff, limit, kept } = batch;
  const v = {
    accountId: sql.raw('v.account_id'),
    verifyFormId: sql.raw('v.verify_form_id'),
    cellPhone: sql.raw('v.cell_phone'),
    email: sql.raw('v.email'),
    id: sql.raw('v.id'),
  };
  const due = await tx.execute(sql`
    select v.id from ${verifications} v
    where v.account_id = ${accountId} and v.created_at < ${cutoff.toISOString()}::timestamptz and not ${kept(v)}
    order by v.created_at, v.id
    limit ${limit}
    for update of v skip locked`);
  const candidates = idsOf(due);
  if (candidates.length === 0) return { verificationIds: [], attempts: 0 };
  const ids = sql`array[${sql.join(
    candidates.map((id) => sql`${id}`),
    sql`, `,
  )}]::bigint[]`;
  const linked = await tx.execute(
    sql`select id from ${verificationAttempts} where verification_id = any(${ids}) and account_id = ${accountId}`,
  );
  // The hold rule once more, in the DELETE's own statement.
  const gone = await tx.execute(sql`
    delete from ${verifications} v
    where v.id = any(${ids}) and v.account_id = ${accountId} and not ${kept(v)}
    returning v.id`);
  const verificationIds = idsOf(gone);
  const attemptIds = rowsOf(linked).map((row) => String(row.id));
  let attempts = 0;
  if (attemptIds.length > 0) {
    // The verification's delete unlinked its attempts (`set null`); a kept verification's still name it.
    const removed = await tx.execute(sql`
      delete from ${verificationAttempts}
      where id = any(array[${sql.join(
        attemptIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]) and verification_id is null
      returning id`);
    attempts = rowsOf(removed).length;
  }
  return { verificationIds, attempts };
}

/**
 * The one rule of which attempt no verification names is kept from removal (the purge) and masking (an erasure): those
 * a hold reaches by their own account, form, number or address (`kept` with a null id), and those of a form and number
 * that a kept verification of the account has (the codes of a held verification's visit). `a` names the attempt's
 * columns as the statement does.
 */
export function attemptKept(kept: KeptRule, a: Omit<KeptColumns, 'id'>): SQL<boolean> {
  const held = {
    accountId: sql.raw('hv.account_id'),
    verifyFormId: sql.raw('hv.verify_form_id'),
    cellPhone: sql.raw('hv.cell_phone'),
    email: sql.raw('hv.email'),
    id: sql.raw('hv.id'),
  };
  return sql<boolean>`(${kept({ ...a, id: sql`null::bigint` })} or exists (select 1 from ${verifications} hv
      where hv.account_id = ${a.accountId} and hv.verify_form_id = ${a.verifyFormId} and hv.cell_phone = ${a.cellPhone}
        and ${kept(held)}))`;
}

/**
 * One batch of the account's attempts created before the cut-off that no verification names (codes never approved,
 * locked, replaced, canceled, expired), oldest first. Kept: those a hold reaches by their own account, form, number or
 * address, and those of a form and number that a kept verification of the account has (the codes of a held
 * verification's visit). Answers how many went.
 */
export async function purgeUnlinkedAttemptBatch(tx: Tx, batch: PurgeBatch): Promise<number> {
  const { accountId, cutoff, limit, kept } = batch;
  const a = {
    accountId: sql.raw('a.account_id'),
    verifyFormId: sql.raw('a.verify_form_id'),
    cellPhone: sql.raw('a.cell_phone'),
    email: sql.raw('a.email'),
  };
  const keptHere = attemptKept(kept, a);
  const gone = await tx.execute(sql`
    delete from ${verificationAttempts} d
    where d.id in (
      select a.id from ${verificationAttempts} a
      where a.account_id = ${accountId} and a.created_at < ${cutoff.toISOString()}::timestamptz
        and a.verification_id is null and not ${keptHere}
      order by a.created_at, a.id
      limit ${limit}
      for update of a skip locked)
    returning d.id`);
  return rowsOf(gone).length;
}
