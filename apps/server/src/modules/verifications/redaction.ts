import type { VerificationDetail } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, inArray, isNotNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/log.ts';
import { maskEmail, maskPhone } from '../public-verify/phone.ts';
import { toDetailDto } from './service.ts';

const {
  verifications,
  verificationAttempts,
  codeEntries,
  formPageViews,
  verificationCertificates,
  webhookEvents,
  webhookDeliveries,
  webhookDeliveryAttempts,
} = schema;

/** The masked forms are idempotent (a masked number masks to itself), so a row masked twice stays as it was. */
const maskedEmail = (email: string | null) => (email === null ? null : maskEmail(email));

/**
 * Free text that may quote the number or address (a provider's error: "The 'To' number +1415… is not valid", a
 * receiver's answer echoing our payload), with each occurrence masked and the rest kept for support.
 */
function masking(column: AnyPgColumn, found: { cellPhone: string; email: string | null }): SQL {
  let text = sql`replace(${column}, ${found.cellPhone}, ${maskPhone(found.cellPhone)})`;
  if (found.email) text = sql`replace(${text}, ${found.email}, ${maskEmail(found.email)})`;
  return text;
}

/**
 * The consumer's personal data in one verification, removed at the account's request (issue #19, ADR 25): an erasure
 * request (GDPR art. 17, CCPA deletion) names a person, and the account's evidence of a verification names them by
 * number, address, IP and user agent. What stays is the fact: when, which form, which channel, which consent version,
 * test or not, its counts. Once, never undone: the verification row is locked first, so of any number of requests at
 * once exactly one redacts (and records `verification.redacted`), and the others see `redacted_at` and answer 400.
 *
 * The attempts redacted are the verification's evidence as its timeline and certificate show it: the verifying
 * attempt, and the codes asked for from the same page view up to the verification. Attempts from other visits are
 * other records (see the ADR).
 */
export async function redactVerification(
  deps: { db: Db; clock: Clock; audit: AuditLog },
  ctx: AccountContext,
  id: number,
): Promise<VerificationDetail> {
  const { db, clock, audit } = deps;
  const row = await db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(verifications)
      .where(and(eq(verifications.accountId, ctx.accountId), eq(verifications.id, id)))
      .for('update');
    if (!found) throw new AppError('not_found');
    if (found.redactedAt !== null)
      throw AppError.nonField(
        'validation_error',
        `This verification's personal data was already redacted on ${found.redactedAt.toISOString()}.`,
      );
    const now = clock.now();
    const maskedPhone = maskPhone(found.cellPhone);
    const [redacted] = await tx
      .update(verifications)
      .set({
        redactedAt: now,
        cellPhone: maskedPhone,
        email: maskedEmail(found.email),
        ip: null,
        userAgent: null,
      })
      .where(eq(verifications.id, found.id))
      .returning();
    if (!redacted) throw new Error('redacted verification not returned');

    const attempts = await redactAttempts(tx, found);
    const attemptIds = attempts.map((a) => a.id);
    const viewIds = [...new Set(attempts.flatMap((a) => (a.pageViewId === null ? [] : [a.pageViewId])))];
    if (attemptIds.length > 0) {
      await tx
        .update(codeEntries)
        .set({ ip: null, userAgent: null })
        .where(inArray(codeEntries.attemptId, attemptIds));
      await redactWebhookEvents(tx, ctx.accountId, attempts, found);
    }
    if (viewIds.length > 0)
      await tx
        .update(formPageViews)
        .set({ ip: null, userAgent: null })
        .where(and(eq(formPageViews.accountId, ctx.accountId), inArray(formPageViews.id, viewIds)));

    // Its hash, signature and place in the chain stay: the chain still checks, and what was signed can still be
    // matched by whoever kept a copy. The trigger of migration 0021 allows exactly this change, once.
    const certificates = await tx
      .update(verificationCertificates)
      .set({ redactedAt: now, content: null, unlockSalt: null })
      .where(eq(verificationCertificates.verificationId, found.id))
      .returning({ id: verificationCertificates.id });

    await audit.record(tx, ctx, {
      action: 'verification.redacted',
      targets: [{ type: 'verification', id: String(found.id), name: maskedPhone }],
      changes: {
        attempts: attemptIds.length,
        certificateId: certificates[0]?.id ?? null,
      },
    });
    return redacted;
  });
  return toDetailDto(row);
}

type VerificationRow = typeof verifications.$inferSelect;

/**
 * The verifying attempt and the codes asked for from its page view up to the verification (the timeline's), masked as
 * the verification is, without IP or user agent. Answers them as they now are.
 */
async function redactAttempts(tx: Db, verification: VerificationRow) {
  const views = tx
    .select({ id: verificationAttempts.pageViewId })
    .from(verificationAttempts)
    .where(
      and(
        eq(verificationAttempts.verificationId, verification.id),
        isNotNull(verificationAttempts.pageViewId),
      ),
    );
  const evidence = await tx
    .select({
      id: verificationAttempts.id,
      cellPhone: verificationAttempts.cellPhone,
      email: verificationAttempts.email,
    })
    .from(verificationAttempts)
    .where(
      and(
        eq(verificationAttempts.accountId, verification.accountId),
        or(
          eq(verificationAttempts.verificationId, verification.id),
          and(
            eq(verificationAttempts.verifyFormId, verification.verifyFormId),
            inArray(verificationAttempts.pageViewId, views),
            lte(verificationAttempts.createdAt, verification.verifiedAt ?? verification.createdAt),
          ),
        ),
      ),
    )
    .for('update');
  const redacted = [];
  for (const attempt of evidence) {
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
      });
    if (row) redacted.push(row);
  }
  return redacted;
}

/**
 * The account's stored webhook events about those attempts (kept 30 days, listed by GET /api/v1/events, replayable)
 * hold the number, address and evidence in full, as owners' endpoints receive them: they are masked the same way, so
 * neither the list nor a replay gives them out again; so are the receivers' answers kept with their deliveries, which
 * may echo them. Copies already delivered are the receiver's (ADR 25).
 */
async function redactWebhookEvents(
  tx: Db,
  accountId: number,
  attempts: { id: string; cellPhone: string; email: string | null }[],
  original: { cellPhone: string; email: string | null },
): Promise<void> {
  const masked = JSON.stringify(attempts.map((a) => ({ id: a.id, to: a.cellPhone, email: a.email })));
  await tx
    .update(webhookEvents)
    .set({
      data: sql`${webhookEvents.data} || jsonb_build_object('to', m.to, 'email', m.email, 'evidence', null)`,
    })
    .from(sql`jsonb_to_recordset(${masked}::jsonb) as m(id text, "to" text, email text)`)
    .where(
      and(
        eq(webhookEvents.accountId, accountId),
        sql`${webhookEvents.type} like 'verification.%'`,
        sql`${webhookEvents.data}->>'id' = m.id`,
      ),
    );
  const deliveries = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.accountId, accountId),
        sql`${webhookEvents.type} like 'verification.%'`,
        inArray(
          sql`${webhookEvents.data}->>'id'`,
          attempts.map((a) => a.id),
        ),
      ),
    );
  await tx
    .update(webhookDeliveryAttempts)
    .set({ responseSnippet: masking(webhookDeliveryAttempts.responseSnippet, original) })
    .where(inArray(webhookDeliveryAttempts.deliveryId, deliveries));
}
