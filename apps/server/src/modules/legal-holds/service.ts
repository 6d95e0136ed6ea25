import {
  LEGAL_HOLD_REACH_COUNT_MAX,
  type LegalHold,
  type LegalHoldList,
  type LegalHoldSearch,
  legalHoldTexts,
  type PlaceLegalHoldBody,
  type ReleaseLegalHoldRequest,
} from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, count, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { e164Of, maskEmail, maskPhone } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { lockLegalHolds, reachCount } from './held.ts';

const { legalHolds, verifications, verifyForms } = schema;

/** `lh_` and 22 characters of 16 random bytes (base64url). */
const newLegalHoldId = (): string => `lh_${randomToken(16)}`;

type HoldRow = typeof legalHolds.$inferSelect;
/** A row as listed: the hold, its form's name now, and its reach counted (active holds only). */
type ListedRow = HoldRow & { formName: string | null; reached: number | null };

/**
 * How many verifications the hold reaches now, by the one rule (held.ts's `reachCount`, which names the hold `h`),
 * counted up to one past the cap so the answer can say "more"; null for a released hold (it reaches nothing).
 */
const reachedCount = sql<number | null>`(select case when h.released_at is null then ${reachCount(
  LEGAL_HOLD_REACH_COUNT_MAX + 1,
)} end from ${legalHolds} h where h.id = legal_holds.id)`.mapWith((value: unknown) =>
  value === null ? null : Number(value),
);

const formNameOf = sql<string | null>`(select f.name from ${verifyForms} f
  where f.id = legal_holds.verify_form_id and f.account_id = legal_holds.account_id)`;

/** The hold as the app and its webhook events show it (`reached` left out: the event carries no count). */
function toLegalHold(row: ListedRow): LegalHold {
  return {
    id: row.id,
    scope: row.scope,
    formId: row.verifyFormId,
    formName: row.formName,
    phone: row.phone,
    email: row.email,
    verificationId: row.verificationId,
    reason: row.reason,
    status: row.releasedAt === null ? 'active' : 'released',
    placedBy: row.placedBy,
    placedAt: row.placedAt.toISOString(),
    releasedBy: row.releasedBy,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    releaseReason: row.releaseReason,
    reaches:
      row.reached === null
        ? null
        : {
            verifications: Math.min(row.reached, LEGAL_HOLD_REACH_COUNT_MAX),
            more: row.reached > LEGAL_HOLD_REACH_COUNT_MAX,
          },
  };
}

/** The webhook event's data: the hold, and no more personal data than its identifier (no reach, no form name). */
function eventDataOf(row: HoldRow): Record<string, unknown> {
  const {
    reaches: _reaches,
    formName: _formName,
    ...hold
  } = toLegalHold({ ...row, formName: null, reached: null });
  return hold;
}

/**
 * The hold in the audit log, kept for years in a hash chain no erasure can reach: named by its scope, a number or an
 * address masked (as a redaction names its verification).
 */
function auditTargetOf(row: HoldRow) {
  const name =
    row.scope === 'account'
      ? 'Whole account'
      : row.scope === 'form'
        ? `Form ${row.verifyFormId}`
        : row.scope === 'verification'
          ? `Verification ${row.verificationId}`
          : row.phone !== null
            ? maskPhone(row.phone)
            : maskEmail(row.email ?? '');
  return { type: 'legal_hold' as const, id: row.id, name };
}

const memberOrKey = (ctx: AccountContext) =>
  ctx.actor.type === 'member' ? ctx.actor.user.email : ctx.actor.prefix;

/**
 * Legal holds (issue #37 item 2): placed by owners on the account, a form, a number or address, or one verification,
 * with a reason; released once, with a reason. Each change is written with its audit event and webhook event in its
 * own transaction. What a hold reaches is held.ts's rule.
 */
export function createLegalHolds(deps: {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  webhookEvents: WebhookEvents;
}) {
  const { db, clock, audit, webhookEvents } = deps;

  /** The account's holds matching `where`, as listed (form name, reach), in the list's order. */
  function listed(reader: Db | Tx, where: SQL | undefined) {
    return (
      reader
        .select({ hold: legalHolds, formName: formNameOf, reached: reachedCount })
        .from(legalHolds)
        .where(where)
        // Active first, then newest placed first.
        .orderBy(sql`${legalHolds.releasedAt} is not null`, desc(legalHolds.placedAt), desc(legalHolds.id))
    );
  }

  const rowOf = (read: { hold: HoldRow; formName: string | null; reached: number | null }): ListedRow => ({
    ...read.hold,
    formName: read.formName,
    reached: read.reached,
  });

  async function one(reader: Db | Tx, ctx: AccountContext, id: string): Promise<LegalHold> {
    const [read] = await listed(
      reader,
      and(eq(legalHolds.id, id), eq(legalHolds.accountId, ctx.accountId)),
    ).limit(1);
    if (!read) throw new AppError('not_found');
    return toLegalHold(rowOf(read));
  }

  async function list(ctx: AccountContext, search: LegalHoldSearch): Promise<LegalHoldList> {
    const where = and(
      eq(legalHolds.accountId, ctx.accountId),
      search.status === 'active' ? isNull(legalHolds.releasedAt) : undefined,
      search.status === 'released' ? isNotNull(legalHolds.releasedAt) : undefined,
    );
    const [total, rows] = await Promise.all([
      db.select({ n: count() }).from(legalHolds).where(where),
      listed(db, where)
        .limit(search.pageSize)
        .offset((search.pageNumber - 1) * search.pageSize),
    ]);
    return {
      count: total[0]?.n ?? 0,
      pageNumber: search.pageNumber,
      pageSize: search.pageSize,
      results: rows.map((read) => toLegalHold(rowOf(read))),
    };
  }

  /** The fields of the scope, checked against the account (a form or verification of another answers as unknown). */
  async function targetOf(
    ctx: AccountContext,
    body: PlaceLegalHoldBody,
  ): Promise<Pick<HoldRow, 'verifyFormId' | 'phone' | 'email' | 'verificationId'>> {
    const none = { verifyFormId: null, phone: null, email: null, verificationId: null };
    switch (body.scope) {
      case 'account':
        return none;
      case 'form': {
        const formId = body.formId ?? 0;
        const [form] = await db
          .select({ id: verifyForms.id })
          .from(verifyForms)
          .where(and(eq(verifyForms.id, formId), eq(verifyForms.accountId, ctx.accountId)));
        if (!form) throw AppError.field('validation_error', 'formId', legalHoldTexts.noSuchForm);
        return { ...none, verifyFormId: form.id };
      }
      case 'verification': {
        const verificationId = body.verificationId ?? 0;
        const [verification] = await db
          .select({ id: verifications.id })
          .from(verifications)
          .where(and(eq(verifications.id, verificationId), eq(verifications.accountId, ctx.accountId)));
        if (!verification)
          throw AppError.field('validation_error', 'verificationId', legalHoldTexts.noSuchVerification);
        return { ...none, verificationId: verification.id };
      }
      case 'identifier': {
        if (body.email) return { ...none, email: body.email.toLowerCase() };
        const phone = body.phone ? e164Of(body.phone) : null;
        if (!phone) throw AppError.field('validation_error', 'phone', legalHoldTexts.invalidPhone);
        return { ...none, phone };
      }
    }
  }

  async function place(ctx: AccountContext, body: PlaceLegalHoldBody): Promise<LegalHold> {
    const target = await targetOf(ctx, body);
    return transaction(db, async (tx) => {
      // Ordered against a redaction or purge of the account running now (held.ts).
      await lockLegalHolds(tx, ctx.accountId);
      const [row] = await tx
        .insert(legalHolds)
        .values({
          id: newLegalHoldId(),
          accountId: ctx.accountId,
          scope: body.scope,
          ...target,
          reason: body.reason,
          placedBy: memberOrKey(ctx),
          placedAt: clock.now(),
        })
        .returning();
      if (!row) throw new Error('the insert answered no row');
      await audit.record(tx, ctx, {
        action: 'legal_hold.placed',
        targets: [auditTargetOf(row)],
        changes: { scope: row.scope, reason: row.reason },
      });
      await webhookEvents.emit(tx, ctx.accountId, { type: 'legal_hold.placed', data: eventDataOf(row) });
      return one(tx, ctx, row.id);
    });
  }

  /** Released once: of any number of releases at once exactly one wins; the others, and any later one, answer 409. */
  async function release(ctx: AccountContext, id: string, body: ReleaseLegalHoldRequest): Promise<LegalHold> {
    return transaction(db, async (tx) => {
      const [row] = await tx
        .update(legalHolds)
        .set({ releasedAt: clock.now(), releasedBy: memberOrKey(ctx), releaseReason: body.reason.trim() })
        .where(
          and(eq(legalHolds.id, id), eq(legalHolds.accountId, ctx.accountId), isNull(legalHolds.releasedAt)),
        )
        .returning();
      if (!row) {
        await one(tx, ctx, id); // 404 when it is not the account's
        throw new AppError('conflict', { detail: legalHoldTexts.alreadyReleased });
      }
      await audit.record(tx, ctx, {
        action: 'legal_hold.released',
        targets: [auditTargetOf(row)],
        changes: { reason: row.releaseReason },
      });
      await webhookEvents.emit(tx, ctx.accountId, { type: 'legal_hold.released', data: eventDataOf(row) });
      return one(tx, ctx, row.id);
    });
  }

  return { list, get: (ctx: AccountContext, id: string) => one(db, ctx, id), place, release };
}

export type LegalHolds = ReturnType<typeof createLegalHolds>;
