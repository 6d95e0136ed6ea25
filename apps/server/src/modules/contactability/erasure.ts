import { schema, type Tx } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { maskPhone } from '../../domain/phone.ts';
import type { HeldNumberRule } from '../lookups/index.ts';

const { contactabilityChecks, verificationAttempts } = schema;

/**
 * An erasure request's reach into the verdicts (issue #37 item 3, ADR 47 amendment): the account's verdicts of the mode
 * about the number keep what they answered (allowed or not, the reasons, the consent relied on by id, the calling
 * window) and have the number masked, as the redaction masks it. Kept whole: a verdict of a held number (the holds'
 * rule with the account and the number alone), and one whose consent is an attempt still naming the number in full (a
 * verification the erasure kept: held, so restricted instead). The caller runs it under the holds' lock. Answers how
 * many were masked.
 */
export async function eraseVerdictsOf(
  tx: Tx,
  who: { accountId: number; isTest: boolean; phone: string },
  held: HeldNumberRule,
): Promise<number> {
  const phone = sql`${contactabilityChecks.phone}`;
  const masked = await tx
    .update(contactabilityChecks)
    .set({ phone: maskPhone(who.phone) })
    .where(
      and(
        eq(contactabilityChecks.accountId, who.accountId),
        eq(contactabilityChecks.isTest, who.isTest),
        eq(contactabilityChecks.phone, who.phone),
        sql`not ${held(contactabilityChecks.accountId, phone)}`,
        sql`not exists (select 1 from ${verificationAttempts} kept
          where kept.id = ${contactabilityChecks.verificationId} and kept.cell_phone = ${phone})`,
      ),
    )
    .returning({ id: contactabilityChecks.id });
  return masked.length;
}
