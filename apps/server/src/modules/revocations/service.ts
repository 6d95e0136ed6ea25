import type {
  ApiRecordRevocationBody,
  ApiRevocation,
  ApiRevocationList,
  ApiRevocationListQuery,
  Revocation,
  RevocationCounts,
  RevocationList,
  RevocationSearch,
  RevocationStatus,
} from '@veriform/contracts';
import { REVOCATION_BACKDATE_DAYS, revocationTexts } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, count, desc, eq, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { stateOf } from '../../domain/nanp-area-codes.ts';
import { e164Of, PHONE_TEXT } from '../../domain/phone.ts';
import { sendRevocationConfirmation } from '../../jobs/definitions/send-revocation-confirmation.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { cursorPage, notACursor } from '../../lib/cursor-pages.ts';
import { AppError } from '../../lib/errors.ts';
import { rowsOf } from '../../lib/rows.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import { latestCodeTextTo } from '../attempts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import { escapeLike } from '../verify-forms/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { composeConfirmationSms } from './confirmation.ts';
import { revocationDeadline } from './deadline.ts';
import { markRevokedVerifications } from './marks.ts';
import { reachedVerifications } from './standing.ts';
import { statusIs, statusOf } from './status.ts';
import { languageOfWords, readReply } from './words.ts';

const { revocations, verifications } = schema;

/** A row of `verificationIdsOf`'s statement (a bigint is a number or its text, by driver). */
const reachedRowsSchema = z.array(z.object({ revocation_id: z.string(), id: z.coerce.number() }));

type RevocationRow = typeof revocations.$inferSelect;

/** A reply to a code text, as Twilio's inbound message names it (inbound-routes.ts). */
export type InboundReply = { messageSid: string; from: string; body: string };

export type RecordedReply =
  /** `confirmation`: the one text the reply is answered with (FCC 24-24), in its words' language. */
  | { recorded: 'revocation'; revocationId: string; accountId: number; confirmation: string }
  | { recorded: 'possible'; revocationId: string; accountId: number }
  | { recorded: 'duplicate' }
  | { recorded: 'not_ours' };

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

/** As API v1 shows it: whether it is a test object beside the rest. */
const toApi = (revocation: Revocation, row: RevocationRow): ApiRevocation => ({
  ...revocation,
  livemode: !row.isTest,
});

/**
 * The mode a caller reaches (ADR 29): a `vf_test_` key its test revocations only, a live key and members the live
 * ones (replies, the public page and members record live revocations).
 */
const isTestFor = (ctx: AccountContext) => keyLivemode(ctx) === false;

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
  /** The public page's confirmation text, queued in the revocation's transaction. */
  jobs: JobQueue;
}) {
  const { db, clock, audit, webhookEvents, jobs } = deps;

  /**
   * The verifications each revocation reaches (its number's or address's, of its mode, made at or before it: the rule
   * of standing.ts), by revocation id; one statement for a page.
   */
  async function verificationIdsOf(
    reader: Db | Tx,
    accountId: number,
    rows: RevocationRow[],
  ): Promise<Map<string, number[]>> {
    const byId = new Map<string, number[]>(rows.map((row) => [row.id, []]));
    if (rows.length === 0) return byId;
    const reached = reachedVerifications({
      accountId: sql`r.account_id`,
      isTest: sql`r.is_test`,
      phone: sql`r.phone`,
      email: sql`r.email`,
      receivedAt: sql`r.received_at`,
    });
    const found = await reader.execute(sql`
      select r.id as revocation_id, v.id
      from ${revocations} r cross join lateral (select v.id from ${verifications} v where ${reached}) v
      where r.account_id = ${accountId} and r.id in (${sql.join(
        rows.map((row) => sql`${row.id}`),
        sql`, `,
      )})
      order by v.id`);
    for (const row of reachedRowsSchema.parse(rowsOf(found))) byId.get(row.revocation_id)?.push(row.id);
    return byId;
  }

  /** The object as the change's transaction sees it (what its webhook event carries). */
  async function inTx(tx: Tx, row: RevocationRow): Promise<ApiRevocation> {
    const ids = await verificationIdsOf(tx, row.accountId, [row]);
    return toApi(toRevocation(row, clock.now(), ids.get(row.id) ?? []), row);
  }

  /**
   * A revocation made revoking (recorded open, or decided to be one), in the change's transaction: the verifications it
   * revokes are marked (marks.ts), then `consent.revoked` carries the object as it is once the change commits.
   */
  async function revoked(tx: Tx, row: RevocationRow): Promise<ApiRevocation> {
    await markRevokedVerifications(tx, row);
    const revocation = await inTx(tx, row);
    await webhookEvents.emit(tx, row.accountId, { type: 'consent.revoked', data: revocation });
    return revocation;
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
          // The federal 10 business days, the day read in New York; for a STOP from a Florida number (its area code,
          // domain/nanp-area-codes.ts) also Florida's 15 days (s. 501.059(10)), whichever ends first.
          deadline: revocationDeadline(
            receivedAt,
            reading.words.includes('stop') && stateOf(from) === 'FL' ? 'florida_stop' : 'federal',
          ),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return { recorded: 'duplicate' } as const;
      if (row.status === 'open') await revoked(tx, row);
      await audit.recordAsSystem(tx, row.accountId, {
        action: 'revocation.recorded',
        targets: [auditTargetOf(row)],
        changes: { channel: row.channel, status: row.status },
      });
      if (row.status !== 'open')
        return { recorded: 'possible', revocationId: row.id, accountId: row.accountId } as const;
      // Answered in the reply's own language ("ALTO" in Spanish), else the form's.
      const language = languageOfWords(reading.words) ?? answered.language;
      return {
        recorded: 'revocation',
        revocationId: row.id,
        accountId: row.accountId,
        confirmation: composeConfirmationSms(language, answered.company),
      } as const;
    });
  }

  /**
   * One made on the form's public revocation page (issue #35): a live revocation of the form's account, open at once,
   * whether or not the number or address is known there (the answer must not tell). `phone` is E.164, checked by the
   * page's adapter; `confirm` queues the one confirmation text in the same transaction (the adapter asks for it only
   * for a number that can take a text).
   */
  async function recordFromPage(
    form: { accountId: number; language: 'en' | 'es' },
    who: { phone: string | null; email: string | null },
    options: { confirm: boolean },
  ): Promise<{ id: string; receivedAt: string }> {
    const receivedAt = clock.now();
    return transaction(db, async (tx) => {
      const [inserted] = await tx
        .insert(revocations)
        .values({
          id: randomToken(16),
          accountId: form.accountId,
          channel: 'public_page',
          phone: who.phone,
          email: who.email,
          status: 'open',
          receivedAt,
          deadline: revocationDeadline(receivedAt, 'federal'),
        })
        .returning();
      if (!inserted) throw new Error('the insert answered no row');
      await revoked(tx, inserted);
      await audit.recordAsSystem(tx, inserted.accountId, {
        action: 'revocation.recorded',
        targets: [auditTargetOf(inserted)],
        changes: { channel: inserted.channel, status: inserted.status },
      });
      if (options.confirm && inserted.phone)
        await jobs.enqueue(
          sendRevocationConfirmation,
          { revocationId: inserted.id, language: form.language },
          { tx },
        );
      return { id: inserted.id, receivedAt: inserted.receivedAt.toISOString() };
    });
  }

  async function list(ctx: AccountContext, search: RevocationSearch): Promise<RevocationList> {
    const now = clock.now();
    const conditions: (SQL | undefined)[] = [
      eq(revocations.accountId, ctx.accountId),
      eq(revocations.isTest, false),
    ];
    if (search.status) conditions.push(statusIs(search.status, now));
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

  /**
   * One received elsewhere, recorded by a member or API v1: open at once, its deadline counted from when it was
   * received (now, or API v1's `receivedAt`: up to a year back, never ahead of the clock).
   */
  async function record(ctx: AccountContext, body: ApiRecordRevocationBody): Promise<ApiRevocation> {
    let phone: string | null = null;
    if (body.phone) {
      phone = e164Of(body.phone);
      if (!phone) throw AppError.field('validation_error', 'phone', revocationTexts.invalidPhone);
    }
    const now = clock.now();
    const receivedAt = body.receivedAt ? new Date(body.receivedAt) : now;
    if (receivedAt > now || receivedAt.getTime() < now.getTime() - REVOCATION_BACKDATE_DAYS * 86_400_000)
      throw AppError.field('validation_error', 'receivedAt', revocationTexts.receivedAtOutOfRange);
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
          isTest: isTestFor(ctx),
        })
        .returning();
      if (!inserted) throw new Error('the insert answered no row');
      const revocation = await revoked(tx, inserted);
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
        and(
          eq(revocations.id, id),
          eq(revocations.accountId, ctx.accountId),
          eq(revocations.isTest, isTestFor(ctx)),
          eq(revocations.status, from),
        ),
      )
      .returning();
    return row ?? null;
  }

  /** A possible one decided: open (a revocation, its deadline as counted on arrival) or dismissed; else 409. */
  async function decide(ctx: AccountContext, id: string, isRevocation: boolean): Promise<ApiRevocation> {
    return transaction(db, async (tx) => {
      const moved = await move(tx, ctx, id, 'possible', { status: isRevocation ? 'open' : 'dismissed' });
      if (!moved) throw new AppError('conflict', { detail: revocationTexts.notPossible });
      const revocation = isRevocation ? await revoked(tx, moved) : await inTx(tx, moved);
      await audit.record(tx, ctx, {
        action: 'revocation.decided',
        targets: [auditTargetOf(moved)],
        changes: { isRevocation },
      });
      return revocation;
    });
  }

  /** Honoured: an open or overdue one acknowledged, once; else 409 and nothing changes. */
  async function acknowledge(ctx: AccountContext, id: string): Promise<ApiRevocation> {
    return transaction(db, async (tx) => {
      const moved = await move(tx, ctx, id, 'open', { status: 'acknowledged', acknowledgedAt: clock.now() });
      if (!moved) {
        // Another account's, the other mode's or an unknown id is a 404 as anywhere; a known one not open, a 409.
        await one(tx, ctx, id);
        throw new AppError('conflict', { detail: revocationTexts.notOpen, problem: 'revocation_not_open' });
      }
      const revocation = await inTx(tx, moved);
      await webhookEvents.emit(tx, moved.accountId, { type: 'revocation.acknowledged', data: revocation });
      await audit.record(tx, ctx, { action: 'revocation.acknowledged', targets: [auditTargetOf(moved)] });
      return revocation;
    });
  }

  /** The caller's revocation (its account and mode), or 404. */
  async function one(reader: Db | Tx, ctx: AccountContext, id: string): Promise<RevocationRow> {
    const [row] = await reader
      .select()
      .from(revocations)
      .where(
        and(
          eq(revocations.id, id),
          eq(revocations.accountId, ctx.accountId),
          eq(revocations.isTest, isTestFor(ctx)),
        ),
      );
    if (!row) throw new AppError('not_found');
    return row;
  }

  /**
   * The dashboard's counts of live revocations waiting on the customer: one statement over the account's open and
   * possible ones (few: the rest are acknowledged or dismissed), overdue read against today in New York.
   */
  async function counts(ctx: AccountContext): Promise<RevocationCounts> {
    const now = clock.now();
    const counted = (status: RevocationStatus) =>
      sql<number>`count(*) filter (where ${statusIs(status, now)})`.mapWith(Number);
    const [row] = await db
      .select({
        open: counted('open'),
        overdue: counted('overdue'),
        possible: counted('possible'),
      })
      .from(revocations)
      .where(
        and(
          eq(revocations.accountId, ctx.accountId),
          eq(revocations.isTest, false),
          inArray(revocations.status, ['open', 'possible']),
        ),
      );
    return { open: row?.open ?? 0, overdue: row?.overdue ?? 0, possible: row?.possible ?? 0 };
  }

  /** API v1's read of one. */
  async function get(ctx: AccountContext, id: string): Promise<ApiRevocation> {
    const row = await one(db, ctx, id);
    const ids = await verificationIdsOf(db, ctx.accountId, [row]);
    return toApi(toRevocation(row, clock.now(), ids.get(row.id) ?? []), row);
  }

  /**
   * API v1's list: newest received first, in cursor pages (the cursor is the last revocation's id; its received time
   * and id are the page's key, so revocations that arrive meanwhile never shift a page).
   */
  async function page(ctx: AccountContext, query: ApiRevocationListQuery): Promise<ApiRevocationList> {
    const now = clock.now();
    const conditions: (SQL | undefined)[] = [
      eq(revocations.accountId, ctx.accountId),
      eq(revocations.isTest, isTestFor(ctx)),
    ];
    if (query.status) conditions.push(statusIs(query.status, now));
    if (query.phone) {
      const phone = e164Of(query.phone);
      if (!phone) throw AppError.field('validation_error', 'phone', revocationTexts.invalidPhone);
      conditions.push(eq(revocations.phone, phone));
    }
    if (query.startingAfter !== undefined) {
      const [after] = await db
        .select({ receivedAt: revocations.receivedAt, id: revocations.id })
        .from(revocations)
        .where(
          and(
            eq(revocations.id, query.startingAfter),
            eq(revocations.accountId, ctx.accountId),
            eq(revocations.isTest, isTestFor(ctx)),
          ),
        );
      if (!after) throw notACursor();
      conditions.push(
        or(
          lt(revocations.receivedAt, after.receivedAt),
          and(eq(revocations.receivedAt, after.receivedAt), lt(revocations.id, after.id)),
        ),
      );
    }
    const rows = await db
      .select()
      .from(revocations)
      .where(and(...conditions))
      .orderBy(desc(revocations.receivedAt), desc(revocations.id))
      .limit(query.limit + 1);
    const hasMore = rows.length > query.limit;
    const shown = rows.slice(0, query.limit);
    const ids = await verificationIdsOf(db, ctx.accountId, shown);
    return cursorPage(
      shown.map((row) => toApi(toRevocation(row, now, ids.get(row.id) ?? []), row)),
      hasMore,
    );
  }

  return {
    recordReply,
    recordFromPage,
    list,
    counts,
    record,
    decide,
    acknowledge,
    get,
    page,
    describe: inTx,
  };
}

export type Revocations = ReturnType<typeof createRevocations>;
