import { schema, type Tx } from '@veriform/db';
import { and, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { union } from 'drizzle-orm/pg-core';
import { escapeRegExp, maskedEmail, type Person, phoneSpellings } from '../../domain/person-mask.ts';
import { maskEmail, maskPhone } from '../../domain/phone.ts';
import { attemptKept, type KeptRule } from './purge.ts';

const { verifications, verificationAttempts } = schema;

/**
 * The redaction's writes to the verification's own rows (issue #19, #33; ADR 35): the verification and the attempts
 * that are its evidence, masked in place. The attempts module writes them, as it writes every other change to these
 * rows; verifications/redaction.ts decides whether a redaction may happen (it locks the verification and refuses a
 * second one), masks the other copies, and records the audit event, in the same transaction as this.
 */

export type VerificationRow = typeof verifications.$inferSelect;

/** A redacted attempt as it now is: what the other copies of it are found and masked by. */
export type RedactedAttempt = {
  id: string;
  cellPhone: string;
  email: string | null;
  pageViewId: string | null;
  createdAt: Date;
};

/**
 * Free text that may quote the number or address (a provider's error: "The 'To' number +1415… is not valid"), each
 * occurrence in any spelling masked and the rest kept for support: the SQL of maskPerson.
 */
function masking(column: AnyPgColumn, found: Person): SQL {
  let text = sql`${column}`;
  const shown = maskPhone(found.cellPhone);
  for (const spelling of phoneSpellings(found.cellPhone)) text = sql`replace(${text}, ${spelling}, ${shown})`;
  if (found.email)
    text = sql`regexp_replace(${text}, ${escapeRegExp(found.email)}, ${maskEmail(found.email)}, 'gi')`;
  return text;
}

/**
 * The codes the verification's resends replaced (issue #33): a resend (API v1's, or the page's "send again") issues a
 * new code to the same number through the same form and marks the pending one `replaced`, so the run of `replaced`
 * codes of that form and number just before the verifying code, with no code in another state between them, is the
 * chain it ended. A code closed otherwise (verified, locked, canceled) ends the run: what came before it is another
 * record.
 */
function replacedBefore(verification: VerificationRow): SQL {
  const verifying = sql`(select v.created_at from ${verificationAttempts} v where v.verification_id = ${verification.id} limit 1)`;
  return sql`(${verificationAttempts.verifyFormId} = ${verification.verifyFormId}
    and ${verificationAttempts.cellPhone} = ${verification.cellPhone}
    and ${verificationAttempts.status} = 'replaced'
    and ${verificationAttempts.createdAt} < ${verifying}
    and not exists (select 1 from ${verificationAttempts} later where later.account_id = ${verification.accountId}
      and later.verify_form_id = ${verification.verifyFormId} and later.cell_phone = ${verification.cellPhone}
      and later.status <> 'replaced' and later.created_at > ${verificationAttempts.createdAt}
      and later.created_at < ${verifying}))`;
}

/**
 * The verifying attempt, the codes asked for from its page view up to the verification (the timeline's), and the codes
 * its resends replaced (issue #33), masked as the verification is, without IP or user agent. Answers them as they now
 * are.
 */
async function redactAttempts(tx: Tx, verification: VerificationRow): Promise<RedactedAttempt[]> {
  const views = tx
    .select({ id: verificationAttempts.pageViewId })
    .from(verificationAttempts)
    .where(
      and(
        eq(verificationAttempts.verificationId, verification.id),
        isNotNull(verificationAttempts.pageViewId),
      ),
    );
  const ofAccount = eq(verificationAttempts.accountId, verification.accountId);
  // Three lookups, each by its own index (the verification's, the page view's, the number's and form's), joined by
  // UNION: as one OR the planner can use none of them (the page views' IN is a subquery) and reads every attempt of
  // every account (~30 s a redaction at 13M attempts, docs/benchmarks.md session 33).
  const ids = union(
    tx
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(and(ofAccount, eq(verificationAttempts.verificationId, verification.id))),
    tx
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(
        and(
          ofAccount,
          eq(verificationAttempts.verifyFormId, verification.verifyFormId),
          inArray(verificationAttempts.pageViewId, views),
          lte(verificationAttempts.createdAt, verification.verifiedAt ?? verification.createdAt),
        ),
      ),
    tx
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(and(ofAccount, replacedBefore(verification))),
  );
  const evidence = await tx
    .select({
      id: verificationAttempts.id,
      cellPhone: verificationAttempts.cellPhone,
      email: verificationAttempts.email,
      createdAt: verificationAttempts.createdAt,
    })
    .from(verificationAttempts)
    .where(inArray(verificationAttempts.id, ids))
    .for('update');
  const redacted: RedactedAttempt[] = [];
  for (const attempt of evidence) {
    const row = await maskAttempt(tx, attempt);
    if (row) redacted.push(row);
  }
  return redacted;
}

/** One attempt masked (the number and address masked, IP and user agent dropped, its send error's quotes masked). */
async function maskAttempt(tx: Tx, attempt: { id: string } & Person): Promise<RedactedAttempt | undefined> {
  const [row] = await tx
    .update(verificationAttempts)
    .set({
      cellPhone: maskPhone(attempt.cellPhone),
      email: maskedEmail(attempt.email),
      ip: null,
      userAgent: null,
      sendError: masking(verificationAttempts.sendError, attempt),
    })
    .where(eq(verificationAttempts.id, attempt.id))
    .returning({
      id: verificationAttempts.id,
      cellPhone: verificationAttempts.cellPhone,
      email: verificationAttempts.email,
      pageViewId: verificationAttempts.pageViewId,
      createdAt: verificationAttempts.createdAt,
    });
  return row;
}

/** An attempt an erasure masked: as it now is, and the person it named (what its copies are found by). */
export type ErasedAttempt = { attempt: RedactedAttempt; person: Person; expiresAt: Date };

/**
 * An erasure request's reach past the verifications (issue #37 item 3, ADR 47): one batch of the account's attempts
 * that no verification names (codes asked for and never approved, locked, replaced, canceled, expired) matching the
 * request (`matching`, the privacy requests' rule over `verification_attempts`), masked as a redaction masks the
 * verification's own. Kept as the retention purge keeps them (`attemptKept`: a hold reaching the attempt's account,
 * form, number or address, or a kept verification of its form and number). The caller runs it under the holds' lock,
 * in the transaction that masks the attempts' copies; it repeats until a batch is empty (a masked attempt no longer
 * matches). Answers each attempt masked with the person it named.
 */
export async function eraseUnlinkedAttemptBatch(
  tx: Tx,
  batch: { accountId: number; matching: SQL; kept: KeptRule; limit: number },
): Promise<ErasedAttempt[]> {
  const { accountId, matching, kept, limit } = batch;
  const found = await tx
    .select({
      id: verificationAttempts.id,
      cellPhone: verificationAttempts.cellPhone,
      email: verificationAttempts.email,
      expiresAt: verificationAttempts.expiresAt,
    })
    .from(verificationAttempts)
    .where(
      and(
        eq(verificationAttempts.accountId, accountId),
        isNull(verificationAttempts.verificationId),
        matching,
        sql`not ${attemptKept(kept, {
          accountId: verificationAttempts.accountId,
          verifyFormId: verificationAttempts.verifyFormId,
          cellPhone: verificationAttempts.cellPhone,
          email: verificationAttempts.email,
        })}`,
      ),
    )
    .orderBy(verificationAttempts.createdAt, verificationAttempts.id)
    .limit(limit)
    .for('update');
  // A code still pending ends here: its number is masked, so entering it must not make a verification of the mask,
  // and a send still owed (`send_after`, the sealed code) must not go to it. Canceled, as API v1's cancel leaves it.
  if (found.length > 0)
    await tx
      .update(verificationAttempts)
      .set({
        status: sql`case when ${verificationAttempts.status} = 'pending' then 'canceled' else ${verificationAttempts.status} end`,
        sendAfter: null,
        sealedCode: null,
      })
      .where(
        inArray(
          verificationAttempts.id,
          found.map((attempt) => attempt.id),
        ),
      );
  const erased: ErasedAttempt[] = [];
  for (const attempt of found) {
    const row = await maskAttempt(tx, attempt);
    if (row)
      erased.push({
        attempt: row,
        person: { cellPhone: attempt.cellPhone, email: attempt.email },
        expiresAt: attempt.expiresAt,
      });
  }
  return erased;
}

/**
 * Masks the verification `found` (as read, under the caller's row lock, not yet redacted) and the attempts that are its
 * evidence: the number and address masked, IP and user agent dropped, `redacted_at` set to `now`. Answers the
 * verification and the attempts as they now are. Runs in the caller's transaction, so the redaction's other copies are
 * masked with these or not at all.
 */
export async function redactVerificationRecord(
  tx: Tx,
  found: VerificationRow,
  now: Date,
): Promise<{ verification: VerificationRow; attempts: RedactedAttempt[] }> {
  const [verification] = await tx
    .update(verifications)
    .set({
      redactedAt: now,
      cellPhone: maskPhone(found.cellPhone),
      email: maskedEmail(found.email),
      ip: null,
      userAgent: null,
    })
    .where(eq(verifications.id, found.id))
    .returning();
  if (!verification) throw new Error('redacted verification not returned');
  const attempts = await redactAttempts(tx, found);
  return { verification, attempts };
}
