import type {
  RecordRevocationBody,
  Revocation,
  RevocationList,
  RevocationSearch,
  RevocationStatus,
} from '@veriform/contracts';
import { revocationTexts } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { e164Of, PHONE_TEXT } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { latestCodeTextTo } from '../attempts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import { escapeLike } from '../verify-forms/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { DEFAULT_DEADLINE_ZONE, dateIn, isOverdue, revocationDeadline } from './deadline.ts';
import { readReply } from './words.ts';

const { revocations, verifications } = schema;

type RevocationRow = typeof revocations.$inferSelect;

/** A reply to a code text, as Twilio's inbound message names it (inbound-routes.ts). */
export type InboundReply = { messageSid: string; from: string; body: string };

export type RecordedReply =
  | { recorded: 'revocation' | 'possible'; revocationId: string; accountId: number }
  | { recorded: 'duplicate' }
  | { recorded: 'not_ours' };

/** What a row is now: an open one past its deadline is overdue (never stored: the clock moves, the row does not). */
function statusOf(row: RevocationRow, now: Date): RevocationStatus {
  return row.status === 'open' && isOverdue(row.deadline, now) ? 'overdue' : row.status;
}

/** The object as the app and API v1 show it. */
function toRevocation(row: RevocationRow, now: Date, verificationIds: number[]): Revocation {
  return {
    id: row.id,
    channel: row.channel,
    via: row.via,
    note: row.note,
    recordedBy: row.recordedBy,
    phone: row.phone,
    email: row.email,
    words: row.words,
    perSeWords: row.perSeWords,
    status: statusOf(row, now),
    receivedAt: row.receivedAt.toISOString(),
    deadline: row.deadline,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    verificationIds,
  };
}

/** The revocation in the audit log: its number (or address) names it, as a verification's number names it. */
const auditTargetOf = (row: RevocationRow) => ({
  type: 'revocation' as const,
  id: row.id,
  name: row.phone ?? row.email ?? row.id,
});

/**
 * Revocations of consent (issue #35), from every channel so far built: replies to code texts (Twilio's inbound
 * webhook) and members recording what reached the customer elsewhere. Each is written with its side effects in one
 * transaction: `consent.revoked` for a revocation (not for a possible one until it is decided), the audit event.
 */
export function createRevocations(deps: {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  webhookEvents: WebhookEvents;
}) {
  const { db, clock, audit, webhookEvents } = deps;

  /** The account's verifications of the rows' numbers made before each revocation, by revocation id. */
  async function verificationIdsOf(
    reader: Db | Tx,
    accountId: number,
    rows: RevocationRow[],
  ): Promise<Map<string, number[]>> {
    const phones = [...new Set(rows.flatMap((row) => (row.phone ? [row.phone] : [])))];
    const byId = new Map<string, number[]>(rows.map((row) => [row.id, []]));
    if (phones.length === 0) return byId;
    const found = await reader
      .select({ id: verifications.id, phone: verifications.cellPhone, createdAt: verifications.createdAt })
      .from(verifications)
      .where(and(eq(verifications.accountId, accountId), inArray(verifications.cellPhone, phones)))
      .orderBy(verifications.id);
    for (const row of rows)
      byId.set(
        row.id,
        found.filter((v) => v.phone === row.phone && v.createdAt <= row.receivedAt).map((v) => v.id),
      );
    return byId;
  }

  /** The object as the change's transaction sees it (what its webhook event carries). */
  async function inTx(tx: Tx, row: RevocationRow): Promise<Revocation> {
    const ids = await verificationIdsOf(tx, row.accountId, [row]);
    return toRevocation(row, clock.now(), ids.get(row.id) ?? []);
  }

  /** `consent.revoked` in the change's transaction, with the object as it is once the change commits. */
  async function emitRevoked(tx: Tx, revocation: Revocation, accountId: number): Promise<void> {
    await webhookEvents.emit(tx, accountId, { type: 'consent.revoked', data: revocation });
  }

  async function recordReply({ messageSid, from, body }: InboundReply): Promise<RecordedReply> {
    const answered = await latestCodeTextTo(db, from);
    if (!answered) return { recorded: 'not_ours' };
    const reading = readReply(body);
    const receivedAt = clock.now();
    return transaction(db, async (tx) => {
      const [row] = await tx
        .insert(revocations)
        .values({
          id: randomToken(16),
          accountId: answered.accountId,
          channel: 'sms_reply',
          phone: from,
          words: body,
          perSeWords: reading.words,
          status: reading.kind === 'revocation' ? 'open' : 'possible',
          providerMessageId: messageSid,
          attemptId: answered.attemptId,
          receivedAt,
          // The federal 10 business days, the day read in New York. Florida's 15 days for a STOP (s. 501.059) is
          // never earlier unless two holidays fall within; it waits for the area codes of the contactability verdict.
          deadline: revocationDeadline(receivedAt, 'federal'),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return { recorded: 'duplicate' } as const;
      if (row.status === 'open') await emitRevoked(tx, await inTx(tx, row), row.accountId);
      await audit.recordAsSystem(tx, row.accountId, {
        action: 'revocation.recorded',
        targets: [auditTargetOf(row)],
        changes: { channel: row.channel, status: row.status },
      });
      return {
        recorded: row.status === 'open' ? 'revocation' : 'possible',
        revocationId: row.id,
        accountId: row.accountId,
      } as const;
    });
  }

  async function list(ctx: AccountContext, search: RevocationSearch): Promise<RevocationList> {
    const now = clock.now();
    const today = dateIn(now, DEFAULT_DEADLINE_ZONE);
    const conditions: (SQL | undefined)[] = [eq(revocations.accountId, ctx.accountId)];
    if (search.status === 'open')
      conditions.push(eq(revocations.status, 'open'), gte(revocations.deadline, today));
    else if (search.status === 'overdue')
      conditions.push(eq(revocations.status, 'open'), lt(revocations.deadline, today));
    else if (search.status) conditions.push(eq(revocations.status, search.status));
    const q = search.q?.trim();
    if (q) {
      const digits = q.replace(/\D/g, '');
      conditions.push(
        digits.length >= 3 && PHONE_TEXT.test(q)
          ? sql`${revocations.phone} like ${`%${digits}%`}`
          : ilike(revocations.email, `%${escapeLike(q)}%`),
      );
    }
    const where = and(...conditions);
    const [total, rows] = await Promise.all([
      db.select({ n: count() }).from(revocations).where(where),
      db
        .select()
        .from(revocations)
        .where(where)
        .orderBy(desc(revocations.receivedAt), desc(revocations.id))
        .limit(search.pageSize)
        .offset((search.pageNumber - 1) * search.pageSize),
    ]);
    const ids = await verificationIdsOf(db, ctx.accountId, rows);
    return {
      count: total[0]?.n ?? 0,
      pageNumber: search.pageNumber,
      pageSize: search.pageSize,
      results: rows.map((row) => toRevocation(row, now, ids.get(row.id) ?? [])),
    };
  }

  /** One received elsewhere, recorded by a member: open at once, its deadline counted from now. */
  async function record(ctx: AccountContext, body: RecordRevocationBody): Promise<Revocation> {
    let phone: string | null = null;
    if (body.phone) {
      phone = e164Of(body.phone);
      if (!phone) throw AppError.field('validation_error', 'phone', revocationTexts.invalidPhone);
    }
    const receivedAt = clock.now();
    const recordedBy = ctx.actor.type === 'member' ? ctx.actor.user.email : ctx.actor.prefix;
    return transaction(db, async (tx) => {
      const [inserted] = await tx
        .insert(revocations)
        .values({
          id: randomToken(16),
          accountId: ctx.accountId,
          channel: ctx.actor.type === 'member' ? 'member' : 'api',
          via: body.via,
          note: body.note,
          recordedBy,
          phone,
          email: body.email ?? null,
          status: 'open',
          receivedAt,
          deadline: revocationDeadline(receivedAt, 'federal'),
        })
        .returning();
      if (!inserted) throw new Error('the insert answered no row');
      const revocation = await inTx(tx, inserted);
      await emitRevoked(tx, revocation, inserted.accountId);
      await audit.record(tx, ctx, {
        action: 'revocation.recorded',
        targets: [auditTargetOf(inserted)],
        changes: { channel: inserted.channel, via: inserted.via },
      });
      return revocation;
    });
  }

  /** Moves one row from `from` (in the caller's account) by `set`; null when it is not in that state. */
  async function move(
    tx: Tx,
    ctx: AccountContext,
    id: string,
    from: RevocationRow['status'],
    set: Partial<RevocationRow>,
  ): Promise<RevocationRow | null> {
    const [row] = await tx
      .update(revocations)
      .set(set)
      .where(
        and(eq(revocations.id, id), eq(revocations.accountId, ctx.accountId), eq(revocations.status, from)),
      )
      .returning();
    return row ?? null;
  }

  /** A possible one decided: open (a revocation, its deadline as counted on arrival) or dismissed; else 409. */
  async function decide(ctx: AccountContext, id: string, isRevocation: boolean): Promise<Revocation> {
    return transaction(db, async (tx) => {
      const moved = await move(tx, ctx, id, 'possible', { status: isRevocation ? 'open' : 'dismissed' });
      if (!moved) throw new AppError('conflict', { detail: revocationTexts.notPossible });
      const revocation = await inTx(tx, moved);
      if (isRevocation) await emitRevoked(tx, revocation, moved.accountId);
      await audit.record(tx, ctx, {
        action: 'revocation.decided',
        targets: [auditTargetOf(moved)],
        changes: { isRevocation },
      });
      return revocation;
    });
  }

  /** Honoured: an open or overdue one acknowledged, once; else 409 and nothing changes. */
  async function acknowledge(ctx: AccountContext, id: string): Promise<Revocation> {
    return transaction(db, async (tx) => {
      const moved = await move(tx, ctx, id, 'open', { status: 'acknowledged', acknowledgedAt: clock.now() });
      if (!moved) throw new AppError('conflict', { detail: revocationTexts.notOpen });
      const revocation = await inTx(tx, moved);
      await webhookEvents.emit(tx, moved.accountId, { type: 'revocation.acknowledged', data: revocation });
      await audit.record(tx, ctx, { action: 'revocation.acknowledged', targets: [auditTargetOf(moved)] });
      return revocation;
    });
  }

  return { recordReply, list, record, decide, acknowledge };
}

export type Revocations = ReturnType<typeof createRevocations>;
