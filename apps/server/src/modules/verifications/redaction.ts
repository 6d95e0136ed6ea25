import { legalHoldTexts, type VerificationDetail } from '@veriform/contracts';
import type { Db, Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import { maskedEmail, maskPerson, type Person } from '../../domain/person-mask.ts';
import type { PersonRedaction } from '../../domain/person-redaction.ts';
import { maskPhone } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { type Pace, unpaced } from '../../lib/pacing.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import {
  type ErasedAttempt,
  eraseUnlinkedAttemptBatch,
  redactVerificationRecord,
} from '../attempts/index.ts';
import type { AuditEntry, AuditLog, SystemCaller } from '../audit/index.ts';
import { heldBy, isHeld, lockLegalHolds } from '../legal-holds/index.ts';
import { redactLookupsOf } from '../lookups/index.ts';
import { unmarkVerification } from '../revocations/index.ts';
import { detailRowOf, toDetailDto } from './service.ts';

const {
  legalHolds,
  verifications,
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

/**
 * Another module's copies of the person, redacted in the same transaction: API v1's stored Idempotency-Key answers
 * (`redactIdempotentAnswers`), passed in by services.ts so this read model imports no module that imports it back
 * (ADR 36).
 */
export type RedactStoredAnswers = (tx: Db, accountId: number, redaction: PersonRedaction) => Promise<number>;

/** Who redacts: a request's member or key, or Veriform carrying out a data-subject request (issue #37). */
export type RedactionCaller = AccountContext | { readonly accountId: number; readonly system: SystemCaller };

/**
 * The caller's own write that belongs to one redaction (a data-subject request counting what it erased, issue #37):
 * run in the redaction's transaction once the verification is redacted, so both commit or neither does. It runs before
 * the redaction's audit event, because the event takes the account's audit chain head, which every writer takes last
 * (a hook taking a row lock after it could deadlock with a writer holding that row and waiting for the head).
 */
export type OnRedacted = (tx: Tx) => Promise<void>;

/** The same for a batch of an erasure's unlinked attempts: how many it masked, in the batch's transaction. */
export type OnErasedBatch = (tx: Tx, erased: number) => Promise<void>;

export type VerificationRedactionDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  redactStoredAnswers: RedactStoredAnswers;
};

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
 *
 * The verification's and its attempts' rows are masked by their owner, the attempts module
 * (`redactVerificationRecord`, ADR 35); the lock, the refusal of a second redaction, the other copies and the audit
 * event are this file's, all in one transaction, with the caller's `onRedacted` if any. Answers the verification's id.
 */
export async function redactVerification(
  deps: VerificationRedactionDeps,
  ctx: RedactionCaller,
  id: number,
  onRedacted?: OnRedacted,
): Promise<number> {
  const { db, clock, audit, redactStoredAnswers } = deps;
  const record = (tx: Db, entry: AuditEntry) =>
    'system' in ctx
      ? audit.recordAsSystemFor(tx, ctx.accountId, ctx.system, entry)
      : audit.record(tx, ctx, entry);
  const row = await transaction(db, async (tx) => {
    // Before the row's lock, as a hold's placement and the purge take it: a hold placed meanwhile is seen (issue #37).
    await lockLegalHolds(tx, ctx.accountId);
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
    await refuseHeld(tx, found);
    const now = clock.now();
    const maskedPhone = maskPhone(found.cellPhone);
    // The verification's own rows are the attempts module's to write (ADR 35): masked there, in this transaction.
    const { verification: redacted, attempts } = await redactVerificationRecord(tx, found, now);
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
    await redactCopies(tx, found, firstOf(attempts, found.createdAt), found.verifiedAt ?? found.createdAt);
    // Its carrier lookups (issue #36): the number masked, the provider's bodies removed, the answers kept.
    await redactLookupsOf(tx, attemptIds, maskedPhone);
    // Its number and address are masked, so no revocation names it any more (issue #35).
    await unmarkVerification(tx, found.id);
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

    await onRedacted?.(tx);
    await record(tx, {
      action: 'verification.redacted',
      targets: [{ type: 'verification', id: String(found.id), name: maskedPhone }],
      changes: {
        attempts: attemptIds.length,
        certificateId: certificates[0]?.id ?? null,
      },
    });
    return redacted;
  });
  return row.id;
}

/**
 * The verification as the detail reads it after its redaction (its number and address masked, so no revocation names
 * them any more: issue #35): what the owner's redaction answers.
 */
async function redactedDetail(db: Db, accountId: number, id: number): Promise<VerificationDetail> {
  const read = await detailRowOf(db, accountId, id);
  if (!read) throw new Error(`verification ${id} vanished after its redaction`);
  return toDetailDto(read);
}

type VerificationRow = typeof verifications.$inferSelect;

/** Held evidence is never redacted (issue #37): 409 naming the first hold that reaches it, and its reason. */
async function refuseHeld(tx: Db, found: VerificationRow): Promise<void> {
  const holds = heldBy({
    accountId: sql`${found.accountId}::integer`,
    verifyFormId: sql`${found.verifyFormId}::integer`,
    cellPhone: sql`${found.cellPhone}::text`,
    email: sql`${found.email}::text`,
    id: sql`${found.id}::bigint`,
  });
  const [hold] = await tx
    .select({ id: legalHolds.id, reason: legalHolds.reason })
    .from(legalHolds)
    .where(sql`${legalHolds.id} = (${holds})[1]`);
  if (hold) throw new AppError('conflict', { detail: legalHoldTexts.redactionRefused(hold.id, hold.reason) });
}

/** The earliest of the attempts' times (or `fallback`): no copy about them is older. */
const firstOf = (attempts: { createdAt: Date }[], fallback: Date): Date =>
  attempts.reduce((earliest, a) => (a.createdAt < earliest ? a.createdAt : earliest), fallback);

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
  attempts: { id: string; cellPhone: string; email: string | null; createdAt: Date }[],
): Promise<void> {
  const masked = JSON.stringify(attempts.map((a) => ({ id: a.id, to: a.cellPhone, email: a.email })));
  // No event about an attempt is older than the attempt: the account's events index is read from there on, not whole
  // (an account's 30 days of events, at every redaction of a bulk erasure).
  const since = firstOf(attempts, new Date(8.64e15));
  await tx
    .update(webhookEvents)
    .set({
      data: sql`${webhookEvents.data} || jsonb_build_object('to', m.to, 'email', m.email, 'evidence', null)`,
    })
    .from(sql`jsonb_to_recordset(${masked}::jsonb) as m(id text, "to" text, email text)`)
    .where(
      and(
        eq(webhookEvents.accountId, accountId),
        gte(webhookEvents.createdAt, since),
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
        gte(webhookEvents.createdAt, since),
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
async function redactCopies(tx: Db, person: Person, first: Date, last: Date): Promise<void> {
  const buckets = [`code-send:phone:${person.cellPhone}`];
  if (person.email) buckets.push(`code-send:email:${person.email.toLowerCase()}`);
  await tx.delete(rateLimitEvents).where(inArray(rateLimitEvents.bucket, buckets));
  const recipients = [person.cellPhone];
  if (person.email) recipients.push(person.email.toLowerCase());
  await tx
    .update(outboxMessages)
    .set({
      to: sql`case when ${outboxMessages.channel} = 'sms' then ${maskPhone(person.cellPhone)}
        else ${maskedEmail(person.email) ?? ''} end`,
    })
    .where(
      and(
        inArray(sql`lower(${outboxMessages.to})`, recipients),
        gte(outboxMessages.createdAt, first),
        lte(outboxMessages.createdAt, last),
      ),
    );
}

/** How many unlinked attempts one transaction of an erasure masks. */
const ERASURE_BATCH = 200;

/**
 * An erasure request's reach past the verifications it redacted (issue #37 item 3, ADR 47 amendment): the account's
 * attempts no verification names that match the request (`matching`: the privacy requests' rule), masked by their
 * owner (`eraseUnlinkedAttemptBatch`, held ones kept by the holds' rule), with every copy of them the redaction
 * masks for a verification's attempts: code entries' and page views' IP and user agent, webhook events and the
 * receivers' answers, Idempotency-Key answers, code-send buckets, the development outbox, their carrier lookups. In
 * batches, each one transaction under the account's holds' lock (a hold placed meanwhile is seen by the next batch)
 * and one step of `pace`, with the caller's `onBatch` (the request's count). No audit event of its own: the request's
 * answer counts them. Answers how many attempts were masked.
 */
async function eraseUnlinkedAttempts(
  deps: VerificationRedactionDeps,
  accountId: number,
  matching: SQL,
  pace: Pace,
  onBatch?: OnErasedBatch,
): Promise<number> {
  const { db, redactStoredAnswers } = deps;
  let total = 0;
  for (;;) {
    const done = await pace(() =>
      transaction(db, async (tx) => {
        await lockLegalHolds(tx, accountId);
        const erased = await eraseUnlinkedAttemptBatch(tx, {
          accountId,
          matching,
          kept: isHeld,
          limit: ERASURE_BATCH,
        });
        if (erased.length === 0) return 0;
        const attempts = erased.map((e) => e.attempt);
        const attemptIds = attempts.map((a) => a.id);
        await tx
          .update(codeEntries)
          .set({ ip: null, userAgent: null })
          .where(inArray(codeEntries.attemptId, attemptIds));
        await redactWebhookEvents(tx, accountId, attempts);
        const viewIds = [...new Set(attempts.flatMap((a) => (a.pageViewId === null ? [] : [a.pageViewId])))];
        if (viewIds.length > 0)
          await tx
            .update(formPageViews)
            .set({ ip: null, userAgent: null })
            .where(and(eq(formPageViews.accountId, accountId), inArray(formPageViews.id, viewIds)));
        // Per person named (a number, and its address if any): their copies found by their spellings.
        const byPerson = new Map<string, ErasedAttempt[]>();
        for (const e of erased) {
          const key = `${e.person.cellPhone} ${e.person.email?.toLowerCase() ?? ''}`;
          byPerson.set(key, [...(byPerson.get(key) ?? []), e]);
        }
        for (const group of byPerson.values()) {
          const [first] = group;
          if (!first) continue;
          const person = first.person;
          const ids = group.map((e) => e.attempt.id);
          const since = firstOf(
            group.map((e) => e.attempt),
            first.attempt.createdAt,
          );
          const last = group.reduce((latest, e) => (e.expiresAt > latest ? e.expiresAt : latest), since);
          await redactStoredAnswers(tx, accountId, {
            attempts: group.map((e) => e.attempt),
            needles: [...ids, person.cellPhone],
            mask: (text) => maskPerson(text, person),
            since,
          });
          await redactCopies(tx, person, since, last);
          await redactLookupsOf(tx, ids, maskPhone(person.cellPhone));
        }
        await onBatch?.(tx, erased.length);
        return erased.length;
      }),
    );
    total += done;
    if (done < ERASURE_BATCH) return total;
  }
}

/** The redaction with its dependencies bound (services.ts builds it; the route calls it). */
export function createVerificationRedaction(deps: VerificationRedactionDeps) {
  return {
    redact: async (ctx: AccountContext, id: number): Promise<VerificationDetail> =>
      redactedDetail(deps.db, ctx.accountId, await redactVerification(deps, ctx, id)),
    /**
     * The same redaction carried out by Veriform for a data-subject request (issue #37): the audit event names it, and
     * `onRedacted` is the request's own write in the redaction's transaction (its count of what it erased). Answers
     * nothing: the request reads no detail back (one read fewer per verification of a bulk erasure).
     */
    redactFor: async (
      system: SystemCaller,
      accountId: number,
      id: number,
      onRedacted?: OnRedacted,
    ): Promise<void> => {
      await redactVerification(deps, { accountId, system }, id, onRedacted);
    },
    /**
     * An erasure's masking of the matching attempts no verification names (issue #37): how many. Each batch is one
     * step of `pace` (lib/pacing.ts: background work leaves the living room).
     */
    eraseUnlinkedAttempts: (
      accountId: number,
      matching: SQL,
      { pace = unpaced, onBatch }: { pace?: Pace; onBatch?: OnErasedBatch } = {},
    ): Promise<number> => eraseUnlinkedAttempts(deps, accountId, matching, pace, onBatch),
  };
}

export type VerificationRedaction = ReturnType<typeof createVerificationRedaction>;
