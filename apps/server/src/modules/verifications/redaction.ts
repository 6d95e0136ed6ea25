import type { VerificationDetail } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, gte, inArray, isNotNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { PersonRedaction } from '../../domain/person-redaction.ts';
import { maskEmail, maskPhone } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
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
  rateLimitEvents,
  outboxMessages,
} = schema;

/** What replaces a receiver's stored answer to a delivery of a redacted verification's events (Stripe's word). */
export const REDACTED_MARKER = '[redacted]';

/** The masked forms are idempotent (a masked number masks to itself), so a row masked twice stays as it was. */
const maskedEmail = (email: string | null) => (email === null ? null : maskEmail(email));

/**
 * Every way a text may spell the number (issue #33): E.164 `+15555550123`, with spaces `+1 555 555 0123`, the
 * country code's digits `15555550123`, the national digits `5555550123`, and the national groups as people write them
 * `(555) 555-0123`, `555-555-0123`, `555.555.0123`, `555 555 0123`. Longest first, so a longer spelling is masked
 * whole before a shorter one inside it could be.
 */
export function phoneSpellings(e164: string): string[] {
  const number = parsePhoneNumberFromString(e164);
  if (!number) return [e164];
  const national = String(number.nationalNumber);
  const international = number.formatInternational();
  const groups = international.slice(international.indexOf(' ') + 1).split(' ');
  const spellings = new Set([
    e164,
    international,
    `${number.countryCallingCode}${national}`,
    number.formatNational(),
    groups.join('-'),
    groups.join('.'),
    groups.join(' '),
    national,
  ]);
  return [...spellings].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The person behind one verification as texts may name them: every spelling of the number, the address in any case. */
export type Person = { cellPhone: string; email: string | null };

/** `text` with every spelling of the person's number and address masked (the rest kept). */
export function maskPerson(text: string, person: Person): string {
  let masked = text;
  const shown = maskPhone(person.cellPhone);
  for (const spelling of phoneSpellings(person.cellPhone)) masked = masked.split(spelling).join(shown);
  if (person.email)
    masked = masked.replace(new RegExp(escapeRegExp(person.email), 'gi'), maskEmail(person.email));
  return masked;
}

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
 * The consumer's personal data in one verification, removed at the account's request (issue #19, ADR 25): an erasure
 * request (GDPR art. 17, CCPA deletion) names a person, and the account's evidence of a verification names them by
 * number, address, IP and user agent. What stays is the fact: when, which form, which channel, which consent version,
 * test or not, its counts. Once, never undone: the verification row is locked first, so of any number of requests at
 * once exactly one redacts (and records `verification.redacted`), and the others see `redacted_at` and answer 400.
 *
 * The attempts redacted are the verification's evidence as its timeline and certificate show it: the verifying
 * attempt, the codes asked for from the same page view up to the verification, and the codes its resends replaced.
 * Attempts from other visits are other records (see the ADR). Every copy of them goes in the same transaction (issue
 * #33): their webhook events and the receivers' answers, Idempotency-Key answers, code-send limit buckets, the
 * development outbox.
 */
/**
 * Another module's copies of the person, redacted in the same transaction: API v1's stored Idempotency-Key answers
 * (`redactIdempotentAnswers`), passed in by services.ts so this read model imports no module that imports it back
 * (ADR 36).
 */
export type RedactStoredAnswers = (tx: Db, accountId: number, redaction: PersonRedaction) => Promise<number>;

export type VerificationRedactionDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  redactStoredAnswers: RedactStoredAnswers;
};

export async function redactVerification(
  deps: VerificationRedactionDeps,
  ctx: AccountContext,
  id: number,
): Promise<VerificationDetail> {
  const { db, clock, audit, redactStoredAnswers } = deps;
  const row = await transaction(db, async (tx) => {
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
      await redactWebhookEvents(tx, ctx.accountId, attempts);
      await redactStoredAnswers(tx, ctx.accountId, {
        attempts,
        needles: [...attemptIds, found.cellPhone],
        mask: (text) => maskPerson(text, found),
        since: firstOf(attempts, found.createdAt),
      });
    }
    await redactCopies(tx, found, attempts);
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

/** The earliest of the attempts' times (or `fallback`): no copy about them is older. */
const firstOf = (attempts: { createdAt: Date }[], fallback: Date): Date =>
  attempts.reduce((earliest, a) => (a.createdAt < earliest ? a.createdAt : earliest), fallback);

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
      createdAt: verificationAttempts.createdAt,
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
          replacedBefore(verification),
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
        createdAt: verificationAttempts.createdAt,
      });
    if (row) redacted.push(row);
  }
  return redacted;
}

/**
 * The account's stored webhook events about those attempts (kept 30 days, listed by GET /api/v1/events, replayable)
 * hold the number, address and evidence in full, as owners' endpoints receive them: they are masked the same way, so
 * neither the list nor a replay gives them out again. The receivers' answers kept with their deliveries may echo
 * anything in any spelling (the number, their own IP and user agent, a name from their CRM): each is replaced whole by
 * `[redacted]` (issue #33), as the sender stores answers to such events from now on. Copies already delivered are the
 * receiver's (ADR 25).
 */
async function redactWebhookEvents(
  tx: Db,
  accountId: number,
  attempts: { id: string; cellPhone: string; email: string | null }[],
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
    .set({ responseSnippet: REDACTED_MARKER })
    .where(
      and(
        inArray(webhookDeliveryAttempts.deliveryId, deliveries),
        ne(webhookDeliveryAttempts.responseSnippet, ''),
      ),
    );
}

/**
 * The copies outside the verification's own rows (issue #33): the code-send limits' buckets named by the number and
 * the address (`code-send:phone:+1…`, `code-send:email:…`, kept a day) are deleted — the day's count for that number
 * starts again, which one owner's once-per-verification redaction cannot be used to abuse; and the development
 * outbox's messages to them from the first code to the verification have their recipient masked.
 */
async function redactCopies(
  tx: Db,
  verification: VerificationRow,
  attempts: { createdAt: Date }[],
): Promise<void> {
  const buckets = [`code-send:phone:${verification.cellPhone}`];
  if (verification.email) buckets.push(`code-send:email:${verification.email.toLowerCase()}`);
  await tx.delete(rateLimitEvents).where(inArray(rateLimitEvents.bucket, buckets));
  const first = firstOf(attempts, verification.createdAt);
  const recipients = [verification.cellPhone];
  if (verification.email) recipients.push(verification.email.toLowerCase());
  await tx
    .update(outboxMessages)
    .set({
      to: sql`case when ${outboxMessages.channel} = 'sms' then ${maskPhone(verification.cellPhone)}
        else ${maskedEmail(verification.email) ?? ''} end`,
    })
    .where(
      and(
        inArray(sql`lower(${outboxMessages.to})`, recipients),
        gte(outboxMessages.createdAt, first),
        lte(outboxMessages.createdAt, verification.verifiedAt ?? verification.createdAt),
      ),
    );
}

/** The redaction with its dependencies bound (services.ts builds it; the route calls it). */
export function createVerificationRedaction(deps: VerificationRedactionDeps) {
  return {
    redact: (ctx: AccountContext, id: number): Promise<VerificationDetail> =>
      redactVerification(deps, ctx, id),
  };
}

export type VerificationRedaction = ReturnType<typeof createVerificationRedaction>;
