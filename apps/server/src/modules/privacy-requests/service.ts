import {
  type ApiPrivacyRequest,
  type ApiPrivacyRequestList,
  type ApiPrivacyRequestListQuery,
  type FilePrivacyRequestBody,
  type PrivacyRequest,
  type PrivacyRequestFilter,
  type PrivacyRequestHold,
  type PrivacyRequestList,
  type PrivacyRequestMatches,
  type PrivacyRequestSearch,
  privacyRequestAnswerSchema,
  privacyRequestBundleFileName,
  privacyRequestMatchesSchema,
  privacyRequestTexts,
} from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, count, desc, eq, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { maskedEmail } from '../../domain/person-mask.ts';
import { e164Of, maskEmail, maskPhone } from '../../domain/phone.ts';
import { longestRunSeconds } from '../../jobs/define.ts';
import { carryOutPrivacyRequest } from '../../jobs/definitions/carry-out-privacy-request.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { cursorPage, notACursor } from '../../lib/cursor-pages.ts';
import { AppError } from '../../lib/errors.ts';
import type { Pace } from '../../lib/pacing.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import type { AuditLog, SystemCaller } from '../audit/index.ts';
import { eraseVerdictsOf } from '../contactability/index.ts';
import { isNumberHeld, lockLegalHolds } from '../legal-holds/index.ts';
import { eraseLookupsOf } from '../lookups/index.ts';
import type { VerificationRedaction } from '../verifications/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { buildBundle } from './bundle.ts';
import { dueAtOf, extendedDueAt, isOverdue } from './due.ts';
import {
  countMatches,
  type Identifiers,
  type MatchIds,
  matchIds,
  matchIdsSchema,
  matching,
  matchingVerifications,
} from './matches.ts';

const { privacyRequests, verificationRestrictions, legalHolds } = schema;

export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;

/** How long the log keeps a request (CCPA, 11 CCR §7101(a)): 24 months from when it was filed. */
export const PRIVACY_REQUEST_RETENTION_MONTHS = 24;

/**
 * A request `running` longer than this has no try of its job left (every try expired, with the retries' waits between
 * them: the job's own queue policy, `longestRunSeconds`), so `reopenStalled` gives it up.
 */
const CARRY_OUT_LONGEST_RUN_MS = longestRunSeconds(carryOutPrivacyRequest.queue) * 1000;

/**
 * Why a carry-out went back to `open`: its job's last try failed (the handler), or the request outlived every try of
 * its job (the sweep, for a request running since before `runningBefore`).
 */
export type CarryOutFailure = { reason: 'failed' } | { reason: 'expired'; runningBefore: Date };

const NO_MATCHES: PrivacyRequestMatches = {
  verifications: 0,
  attempts: 0,
  revocations: 0,
  webhookEvents: 0,
  deliveries: 0,
};

/** An access request's answer keeps the ids of what matched, for its bundle (never shown: `toPrivacyRequest`). */
const bundleIdsSchema = z.object({ ids: matchIdsSchema });

const identifiersOf = (row: PrivacyRequestRow): Identifiers => ({
  accountId: row.accountId,
  isTest: row.isTest,
  phones: row.phones,
  emails: row.emails,
});

/** The object as the app shows it; the answer without what only the bundle reads (its ids). */
export function toPrivacyRequest(row: PrivacyRequestRow, now: Date): PrivacyRequest {
  const answered = row.status === 'answered';
  const matches = privacyRequestMatchesSchema.safeParse(row.matches);
  return {
    id: row.id,
    type: row.type,
    law: row.law,
    status: row.status,
    overdue: isOverdue(row, now),
    phones: row.phones,
    emails: row.emails,
    identifiersMasked: answered,
    requester: { name: row.requesterName, email: row.requesterEmail },
    receivedAt: row.receivedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    extendedAt: row.extendedAt?.toISOString() ?? null,
    extensionReason: row.extensionReason,
    extendable: !answered && row.extendedAt === null,
    filedBy: row.filedBy,
    matches: matches.success ? matches.data : NO_MATCHES,
    answer: row.answer === null ? null : privacyRequestAnswerSchema.parse(row.answer),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const toApi = (row: PrivacyRequestRow, now: Date): ApiPrivacyRequest => ({
  ...toPrivacyRequest(row, now),
  livemode: !row.isTest,
});

/**
 * The one rule of what masking a request's person means (issue #37): its numbers, its addresses and the requester's
 * address. The answer stores the row so (the log keeps no more personal data than the answer needs).
 */
const maskedPersonOf = (row: PrivacyRequestRow) => ({
  phones: row.phones.map(maskPhone),
  emails: row.emails.map(maskEmail),
  requesterEmail: maskedEmail(row.requesterEmail),
});

/**
 * The request as a webhook event carries it while it is still open: masked as once answered. Events are kept and sent
 * again on replay, and an erasure must not leave the person's number in them; the receiver reads the request itself
 * (`GET /api/v1/privacy-requests/{id}`) to see them.
 */
const toMaskedApi = (row: PrivacyRequestRow, now: Date): ApiPrivacyRequest => ({
  ...toApi({ ...row, ...maskedPersonOf(row) }, now),
  identifiersMasked: true,
});

/** The mode a caller reaches (ADR 29): a `vf_test_` key its test requests only; live keys and members the live ones. */
const isTestFor = (ctx: AccountContext) => keyLivemode(ctx) === false;

/** The request in the audit log: named by its id and type, never by the person's identifiers. */
const auditTargetOf = (row: { id: string; type: string }) => ({
  type: 'privacy_request' as const,
  id: row.id,
  name: `${row.type} request`,
});

/** Veriform carrying out a request, as the audit log names it. */
const systemFor = (row: { id: string }): SystemCaller => ({ id: row.id, name: `Privacy request ${row.id}` });

const filterOf = (filter: PrivacyRequestFilter, now: Date): SQL | undefined =>
  filter === 'overdue'
    ? and(ne(privacyRequests.status, 'answered'), lt(privacyRequests.dueAt, now))
    : eq(privacyRequests.status, filter);

/** Numbers parsed to E.164 as revocations parse them (US without a country code), each named once. */
function phonesOf(typed: readonly string[]): string[] {
  const phones = typed.map((value, index) => {
    const phone = e164Of(value);
    if (!phone) throw AppError.field('validation_error', `phones.${index}`, privacyRequestTexts.invalidPhone);
    return phone;
  });
  return [...new Set(phones)];
}

/** What an erasure reached besides the verifications it redacted (ADR 47 amendment): counts only. */
type Reached = { attemptsErased: number; verdictsErased: number; lookupsErased: number };

/** What an erasure or a restriction did, in words for the requester (English; the bundle's texts are the forms'). */
function messageOf(
  type: PrivacyRequestRow['type'],
  done: {
    erased: number;
    restricted: number;
    revocationsKept: number;
    holds: PrivacyRequestHold[];
  } & Partial<Reached>,
  counts: PrivacyRequestMatches,
): string {
  const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
  if (type === 'access')
    return `The data held about these identifiers is in the bundle: ${plural(counts.verifications, 'verification')}, ${plural(counts.attempts, 'code')} sent, ${plural(counts.revocations, 'revocation')}, ${plural(counts.webhookEvents, 'event')} and ${plural(counts.deliveries, 'delivery', 'deliveries')}.`;
  const held = done.holds.map((hold) => `legal hold ${hold.id} (${hold.reason})`).join('; ');
  if (type === 'restriction')
    return `${plural(done.restricted, 'verification')} restricted: kept, but no longer used as consent.`;
  const parts = [`${plural(done.erased, 'verification')} erased.`];
  const beyond = [
    done.attemptsErased ? plural(done.attemptsErased, 'other code sent', 'other codes sent') : null,
    done.verdictsErased ? plural(done.verdictsErased, 'contactability check') : null,
    done.lookupsErased ? plural(done.lookupsErased, 'carrier lookup') : null,
  ].filter((part) => part !== null);
  if (beyond.length > 0) parts.push(`Also erased: ${beyond.join(', ')}.`);
  if (done.restricted > 0)
    parts.push(
      `${plural(done.restricted, 'verification')} kept and restricted instead, because the law requires keeping them: ${held}.`,
    );
  if (done.revocationsKept > 0)
    parts.push(
      `${plural(done.revocationsKept, 'revocation')} of consent kept, so that the person is not contacted again.`,
    );
  return parts.join(' ');
}

/**
 * Data-subject requests (issue #37 item 3): filed by an owner or API v1, matched against the account's data, extended
 * once, carried out by a job (`carry-out-privacy-request`), answered, pruned after 24 months. The erasure's redaction
 * is the verifications module's (`redactFor`), so it is the one redaction of issue #19 with its copies and audit; each
 * one counts itself in the request's `erased_so_far` in its own transaction, so a retried erasure answers the total.
 * A carry-out whose job gave up goes back to `open` (`carryOutFailed`): from the handler's last try, or from the
 * hourly sweep (`reopenStalled`) once no try of the job can be left.
 */
export function createPrivacyRequests(deps: {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  jobs: JobQueue;
  redaction: VerificationRedaction;
  webhookEvents: WebhookEvents;
  /** Each redaction is a step of background work, paced (lib/pacing.ts, ADR 51). */
  pace: Pace;
}) {
  const { db, clock, audit, jobs, redaction, webhookEvents, pace } = deps;

  /** The caller's request (its account and mode), or 404. */
  async function one(reader: Db | Tx, ctx: AccountContext, id: string): Promise<PrivacyRequestRow> {
    const [row] = await reader
      .select()
      .from(privacyRequests)
      .where(
        and(
          eq(privacyRequests.id, id),
          eq(privacyRequests.accountId, ctx.accountId),
          eq(privacyRequests.isTest, isTestFor(ctx)),
        ),
      );
    if (!row) throw new AppError('not_found');
    return row;
  }

  async function file(ctx: AccountContext, body: FilePrivacyRequestBody): Promise<ApiPrivacyRequest> {
    const phones = phonesOf(body.phones);
    const emails = [...new Set(body.emails.map((email) => email.toLowerCase()))];
    const now = clock.now();
    const receivedAt = body.receivedAt ? new Date(body.receivedAt) : now;
    if (receivedAt.getTime() > now.getTime())
      throw AppError.field('validation_error', 'receivedAt', privacyRequestTexts.receivedAtOutOfRange);
    const isTest = isTestFor(ctx);
    const matches = await countMatches(db, { accountId: ctx.accountId, isTest, phones, emails });
    return transaction(db, async (tx) => {
      const [row] = await tx
        .insert(privacyRequests)
        .values({
          id: `dsr_${randomToken(16)}`,
          accountId: ctx.accountId,
          type: body.type,
          law: body.law,
          phones,
          emails,
          requesterName: body.requester.name,
          requesterEmail: body.requester.email?.toLowerCase() ?? null,
          receivedAt,
          dueAt: dueAtOf(body.law, receivedAt, false),
          filedBy: ctx.actor.type === 'member' ? ctx.actor.user.email : ctx.actor.prefix,
          isTest,
          matches,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error('the insert answered no row');
      await audit.record(tx, ctx, {
        action: 'privacy_request.filed',
        targets: [auditTargetOf(row)],
        changes: { type: row.type, law: row.law, identifiers: phones.length + emails.length },
      });
      return toApi(row, now);
    });
  }

  /** Its matches counted again while it is open or running (the data may have changed since it was filed). */
  async function refreshed(row: PrivacyRequestRow): Promise<PrivacyRequestRow> {
    if (row.status === 'answered') return row;
    const matches = await countMatches(db, identifiersOf(row));
    const [updated] = await db
      .update(privacyRequests)
      .set({ matches })
      .where(and(eq(privacyRequests.id, row.id), ne(privacyRequests.status, 'answered')))
      .returning();
    return updated ?? row;
  }

  async function get(ctx: AccountContext, id: string): Promise<ApiPrivacyRequest> {
    const row = await refreshed(await one(db, ctx, id));
    return toApi(row, clock.now());
  }

  /** The app's list: live requests, newest received first, filtered by status (`overdue` too). */
  async function list(ctx: AccountContext, search: PrivacyRequestSearch): Promise<PrivacyRequestList> {
    const now = clock.now();
    const where = and(
      eq(privacyRequests.accountId, ctx.accountId),
      eq(privacyRequests.isTest, false),
      search.status ? filterOf(search.status, now) : undefined,
    );
    const [total, rows] = await Promise.all([
      db.select({ n: count() }).from(privacyRequests).where(where),
      db
        .select()
        .from(privacyRequests)
        .where(where)
        .orderBy(desc(privacyRequests.receivedAt), desc(privacyRequests.id))
        .limit(search.pageSize)
        .offset((search.pageNumber - 1) * search.pageSize),
    ]);
    return {
      count: total[0]?.n ?? 0,
      pageNumber: search.pageNumber,
      pageSize: search.pageSize,
      results: rows.map((row) => toPrivacyRequest(row, now)),
    };
  }

  /** API v1's list: the key's mode's requests, newest received first, in cursor pages (the cursor is a request's id). */
  async function page(
    ctx: AccountContext,
    query: ApiPrivacyRequestListQuery,
  ): Promise<ApiPrivacyRequestList> {
    const now = clock.now();
    const conditions: (SQL | undefined)[] = [
      eq(privacyRequests.accountId, ctx.accountId),
      eq(privacyRequests.isTest, isTestFor(ctx)),
      query.status ? filterOf(query.status, now) : undefined,
    ];
    if (query.startingAfter !== undefined) {
      const [after] = await db
        .select({ receivedAt: privacyRequests.receivedAt, id: privacyRequests.id })
        .from(privacyRequests)
        .where(
          and(
            eq(privacyRequests.id, query.startingAfter),
            eq(privacyRequests.accountId, ctx.accountId),
            eq(privacyRequests.isTest, isTestFor(ctx)),
          ),
        );
      if (!after) throw notACursor();
      conditions.push(
        or(
          lt(privacyRequests.receivedAt, after.receivedAt),
          and(eq(privacyRequests.receivedAt, after.receivedAt), lt(privacyRequests.id, after.id)),
        ),
      );
    }
    const rows = await db
      .select()
      .from(privacyRequests)
      .where(and(...conditions))
      .orderBy(desc(privacyRequests.receivedAt), desc(privacyRequests.id))
      .limit(query.limit + 1);
    return cursorPage(
      rows.slice(0, query.limit).map((row) => toApi(row, now)),
      rows.length > query.limit,
    );
  }

  /**
   * Carried out by a job: `open` → `running` in one statement, the job enqueued in the same transaction, so of many
   * calls at once exactly one moves it and queues one job; the others (and any call once it left `open`) answer 409.
   */
  async function carryOut(ctx: AccountContext, id: string): Promise<ApiPrivacyRequest> {
    return transaction(db, async (tx) => {
      const [moved] = await tx
        .update(privacyRequests)
        .set({ status: 'running', runningSince: clock.now() })
        .where(
          and(
            eq(privacyRequests.id, id),
            eq(privacyRequests.accountId, ctx.accountId),
            eq(privacyRequests.isTest, isTestFor(ctx)),
            eq(privacyRequests.status, 'open'),
          ),
        )
        .returning();
      if (!moved) {
        await one(tx, ctx, id);
        throw new AppError('conflict', {
          detail: privacyRequestTexts.notOpen,
          problem: 'privacy_request_not_open',
        });
      }
      await jobs.enqueue(carryOutPrivacyRequest, { privacyRequestId: moved.id }, { tx });
      await audit.record(tx, ctx, {
        action: 'privacy_request.carry_out_started',
        targets: [auditTargetOf(moved)],
        changes: { type: moved.type },
      });
      return toApi(moved, clock.now());
    });
  }

  /** The one extension (its law's days more), with its reason; a second, or an answered request's, answers 400. */
  async function extend(ctx: AccountContext, id: string, reason: string): Promise<ApiPrivacyRequest> {
    return transaction(db, async (tx) => {
      const [row] = await tx
        .select()
        .from(privacyRequests)
        .where(
          and(
            eq(privacyRequests.id, id),
            eq(privacyRequests.accountId, ctx.accountId),
            eq(privacyRequests.isTest, isTestFor(ctx)),
          ),
        )
        .for('update');
      if (!row) throw new AppError('not_found');
      if (row.status === 'answered')
        throw AppError.nonField('validation_error', privacyRequestTexts.answeredNotExtendable);
      if (row.extendedAt !== null)
        throw AppError.nonField('validation_error', privacyRequestTexts.alreadyExtended);
      const dueAt = extendedDueAt(row.law, row.dueAt);
      const [updated] = await tx
        .update(privacyRequests)
        .set({ extendedAt: clock.now(), extensionReason: reason, dueAt })
        .where(eq(privacyRequests.id, row.id))
        .returning();
      if (!updated) throw new Error('the update answered no row');
      await audit.record(tx, ctx, {
        action: 'privacy_request.extended',
        targets: [auditTargetOf(updated)],
        changes: { dueAt: [row.dueAt.toISOString(), dueAt.toISOString()] },
      });
      return toApi(updated, clock.now());
    });
  }

  /** Restrictions naming the request, written once per verification and request. */
  async function restrict(row: PrivacyRequestRow, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const restrictedAt = clock.now();
    for (let start = 0; start < ids.length; start += 1000) {
      await db
        .insert(verificationRestrictions)
        .values(
          ids.slice(start, start + 1000).map((verificationId) => ({
            verificationId,
            accountId: row.accountId,
            privacyRequestId: row.id,
            restrictedAt,
          })),
        )
        .onConflictDoNothing();
    }
  }

  /** The holds that kept evidence, with their reasons and how many of the matches each kept. */
  async function holdsOf(kept: { heldBy: string[] }[]): Promise<PrivacyRequestHold[]> {
    const perHold = new Map<string, number>();
    for (const verification of kept)
      for (const id of verification.heldBy) perHold.set(id, (perHold.get(id) ?? 0) + 1);
    if (perHold.size === 0) return [];
    const rows = await db
      .select({ id: legalHolds.id, reason: legalHolds.reason })
      .from(legalHolds)
      .where(inArray(legalHolds.id, [...perHold.keys()]))
      .orderBy(legalHolds.placedAt, legalHolds.id);
    return rows.map((hold) => ({
      id: hold.id,
      reason: hold.reason,
      verifications: perHold.get(hold.id) ?? 0,
    }));
  }

  /** The holds reaching one verification now (after a redaction refused it as held). */
  async function holdsNow(who: Identifiers, id: number): Promise<string[]> {
    const [found] = await matchingVerifications(db, who, id);
    return found?.heldBy ?? [];
  }

  /**
   * An erasure's reach past the verifications (ADR 47 amendment: every copy of the person): the matching attempts no
   * verification names (masked with their copies by the verifications module's redaction, in batches under the holds'
   * lock), then each number's contactability verdicts and carrier lookups, one transaction per number under the lock.
   * Held evidence stays whole (the holds' rule, `isHeld`); revocations stay (ADR 39). Each step counts what it erased
   * in the request's row, in its own transaction (`*_erased_so_far`), as the redactions count theirs: a retried
   * erasure's answer is every run's total.
   */
  async function eraseBeyondVerifications(privacyRequestId: string, who: Identifiers): Promise<void> {
    const counted = eq(privacyRequests.id, privacyRequestId);
    await redaction.eraseUnlinkedAttempts(who.accountId, matching.attempts(who), {
      pace,
      onBatch: async (tx, erased) => {
        await tx
          .update(privacyRequests)
          .set({ attemptsErasedSoFar: sql`${privacyRequests.attemptsErasedSoFar} + ${erased}` })
          .where(counted);
      },
    });
    for (const phone of who.phones)
      await pace(() =>
        transaction(db, async (tx) => {
          await lockLegalHolds(tx, who.accountId);
          const number = { accountId: who.accountId, isTest: who.isTest, phone };
          const verdicts = await eraseVerdictsOf(tx, number, isNumberHeld);
          const lookups = await eraseLookupsOf(tx, number, isNumberHeld);
          if (verdicts + lookups > 0)
            await tx
              .update(privacyRequests)
              .set({
                verdictsErasedSoFar: sql`${privacyRequests.verdictsErasedSoFar} + ${verdicts}`,
                lookupsErasedSoFar: sql`${privacyRequests.lookupsErasedSoFar} + ${lookups}`,
              })
              .where(counted);
        }),
      );
  }

  /**
   * Counts one verification erased for the request, in the redaction's transaction (`onRedacted`): a run that dies
   * part-way keeps the count of what it erased, and a redaction rolled back counts nothing. Whatever the request's
   * status: a run reopened by the sweep while still working erased what it erased.
   */
  const countErased =
    (privacyRequestId: string) =>
    async (tx: Tx): Promise<void> => {
      await tx
        .update(privacyRequests)
        .set({ erasedSoFar: sql`${privacyRequests.erasedSoFar} + 1` })
        .where(eq(privacyRequests.id, privacyRequestId));
    };

  /**
   * The job's work: a running request carried out and answered. Erasure redacts each matching verification in its own
   * transaction (the redaction of issue #19, which takes the legal holds' lock and refuses held evidence with a 409),
   * counting it in `erased_so_far` in that transaction: the answer's `erased` is every run's total (a run that failed
   * part-way erased what it erased; the next finds only what remains). One held when matched, or held by a hold placed
   * meanwhile, is restricted instead and its holds named in the answer. Answers `not_running` when the request was not
   * running, at the start or by the answer (the sweep reopened it meanwhile: the answer is not written).
   */
  async function carryOutNow(privacyRequestId: string): Promise<'answered' | 'not_running'> {
    const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, privacyRequestId));
    if (row?.status !== 'running') return 'not_running';
    const who = identifiersOf(row);
    const counts = await countMatches(db, who);
    let ids: MatchIds | null = null;
    const kept: { id: number; heldBy: string[] }[] = [];
    if (row.type === 'access') {
      ids = await matchIds(db, who);
    } else {
      const matched = await matchingVerifications(db, who);
      if (row.type === 'restriction') {
        kept.push(...matched);
      } else {
        for (const verification of matched) {
          if (verification.heldBy.length > 0) {
            kept.push(verification);
            continue;
          }
          try {
            await pace(() =>
              redaction.redactFor(systemFor(row), row.accountId, verification.id, countErased(row.id)),
            );
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // A hold placed since it was matched (409), or redacted meanwhile by an owner (400): nothing to erase.
            if (error.code === 'conflict')
              kept.push({ id: verification.id, heldBy: await holdsNow(who, verification.id) });
            else if (error.code !== 'validation_error' && error.code !== 'not_found') throw error;
          }
        }
      }
      await restrict(
        row,
        kept.map((verification) => verification.id),
      );
      if (row.type === 'erasure') await eraseBeyondVerifications(row.id, who);
    }
    const holds = row.type === 'erasure' ? await holdsOf(kept) : [];
    const now = clock.now();
    return transaction(db, async (tx) => {
      // Locked until the answer commits: a sweep at the same time waits and then finds it answered, or reopened it
      // first and this finds it not running. The `*_erased_so_far` are every run's counts, this one's included.
      const [running] = await tx
        .select({
          erasedSoFar: privacyRequests.erasedSoFar,
          attemptsErased: privacyRequests.attemptsErasedSoFar,
          verdictsErased: privacyRequests.verdictsErasedSoFar,
          lookupsErased: privacyRequests.lookupsErasedSoFar,
        })
        .from(privacyRequests)
        .where(and(eq(privacyRequests.id, row.id), eq(privacyRequests.status, 'running')))
        .for('update');
      if (!running) return 'not_running';
      const reached: Reached | null =
        row.type === 'erasure'
          ? {
              attemptsErased: running.attemptsErased,
              verdictsErased: running.verdictsErased,
              lookupsErased: running.lookupsErased,
            }
          : null;
      const done = {
        erased: running.erasedSoFar,
        restricted: kept.length,
        revocationsKept: row.type === 'erasure' ? counts.revocations : 0,
        holds,
        ...reached,
      };
      const answer = {
        counts,
        bundleReady: row.type === 'access',
        ...done,
        message: messageOf(row.type, done, counts),
        ...(ids ? { ids } : {}),
      };
      const [answered] = await tx
        .update(privacyRequests)
        .set({
          status: 'answered',
          runningSince: null,
          answeredAt: now,
          answer,
          matches: counts,
          // The log keeps no more personal data than the answer needs (issue #37): the identifiers masked.
          ...maskedPersonOf(row),
        })
        .where(and(eq(privacyRequests.id, row.id), eq(privacyRequests.status, 'running')))
        .returning();
      if (!answered) throw new Error(`privacy request ${row.id} left running under its lock`);
      await webhookEvents.emit(tx, row.accountId, {
        type: 'privacy_request.answered',
        data: toApi(answered, now),
      });
      await audit.recordAsSystemFor(tx, row.accountId, systemFor(row), {
        action: 'privacy_request.answered',
        targets: [auditTargetOf(row)],
        changes: {
          type: row.type,
          erased: done.erased,
          restricted: kept.length,
          holds: holds.map((hold) => hold.id),
          ...reached,
        },
      });
      return 'answered';
    });
  }

  /**
   * The carry-out gave up: its job's last try failed (`failed`, the handler), or the request outlived every try of its
   * job (`expired`, `reopenStalled`; then only if it has been running since before `runningBefore`, so a run started
   * again meanwhile is left alone). The request goes back to `open`, so the owner sees it is not being carried out and
   * can start it again (what was erased stays erased and counted in `erased_so_far`; a second run finds only what
   * remains), and the audit log says so and why. One UPDATE guarded by `running`: of this and the answer at once,
   * exactly one wins. Answers whether it reopened the request.
   */
  async function carryOutFailed(privacyRequestId: string, failure: CarryOutFailure): Promise<boolean> {
    return transaction(db, async (tx) => {
      const [reopened] = await tx
        .update(privacyRequests)
        .set({ status: 'open', runningSince: null })
        .where(
          and(
            eq(privacyRequests.id, privacyRequestId),
            eq(privacyRequests.status, 'running'),
            failure.reason === 'expired'
              ? lt(privacyRequests.runningSince, failure.runningBefore)
              : undefined,
          ),
        )
        .returning();
      if (!reopened) return false;
      await audit.recordAsSystemFor(tx, reopened.accountId, systemFor(reopened), {
        action: 'privacy_request.carry_out_failed',
        targets: [auditTargetOf(reopened)],
        changes: { type: reopened.type, reason: failure.reason },
      });
      await webhookEvents.emit(tx, reopened.accountId, {
        type: 'privacy_request.reopened',
        data: toMaskedApi(reopened, clock.now()),
      });
      return true;
    });
  }

  /**
   * The hourly sweep (`reopen-stalled-privacy-requests`): requests running for longer than their job can still be
   * tried (`CARRY_OUT_LONGEST_RUN_MS`) go back to `open` through `carryOutFailed` (`expired`), one transaction each. Their
   * job's last try died without its handler's failure path (the process was killed, or the try outlived its expiry);
   * the job queue's own tables are not read. Answers how many it reopened.
   */
  async function reopenStalled(): Promise<number> {
    const runningBefore = new Date(clock.now().getTime() - CARRY_OUT_LONGEST_RUN_MS);
    const stalled = await db
      .select({ id: privacyRequests.id })
      .from(privacyRequests)
      .where(and(eq(privacyRequests.status, 'running'), lt(privacyRequests.runningSince, runningBefore)));
    let reopened = 0;
    for (const { id } of stalled)
      if (await carryOutFailed(id, { reason: 'expired', runningBefore })) reopened += 1;
    return reopened;
  }

  /** An answered access request's bundle: the ZIP, built from the ids its answer kept. */
  async function bundle(ctx: AccountContext, id: string): Promise<{ fileName: string; bytes: Uint8Array }> {
    const row = await one(db, ctx, id);
    const kept =
      row.type === 'access' && row.status === 'answered' ? bundleIdsSchema.safeParse(row.answer) : null;
    if (!kept?.success)
      throw new AppError('conflict', {
        detail: privacyRequestTexts.noBundle,
        problem: 'privacy_request_no_bundle',
      });
    const ids = kept.data.ids;
    const bytes = await buildBundle(db, row.accountId, ids);
    await audit.record(db, ctx, {
      action: 'privacy_request.bundle_downloaded',
      targets: [auditTargetOf(row)],
      changes: { verifications: ids.verifications.length },
    });
    return { fileName: privacyRequestBundleFileName(row.id), bytes };
  }

  /** The daily prune: requests filed more than 24 months ago (their restrictions stay with the evidence). */
  async function prune(): Promise<number> {
    const cutoff = clock.now();
    cutoff.setUTCMonth(cutoff.getUTCMonth() - PRIVACY_REQUEST_RETENTION_MONTHS);
    const deleted = await db
      .delete(privacyRequests)
      .where(lt(privacyRequests.createdAt, cutoff))
      .returning({ id: privacyRequests.id });
    return deleted.length;
  }

  return {
    file,
    get,
    list,
    page,
    carryOut,
    extend,
    carryOutNow,
    carryOutFailed,
    reopenStalled,
    bundle,
    prune,
  };
}

export type PrivacyRequests = ReturnType<typeof createPrivacyRequests>;
