import { carrierLineTypes, type LookupKind, lookupTexts } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import {
  type CarrierLookup,
  type LookupAnswer,
  LookupFailedError,
  type LookupQuestion,
} from '../../messaging/lookup.ts';
import { createTestModeLookup } from '../../messaging/test-mode-lookup.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import { ceilingsOf } from './settings.ts';
import { monthOf, usageIn } from './usage.ts';

const { lookups, lookupUsage } = schema;

type LookupRow = typeof lookups.$inferSelect;

/**
 * Carrier lookups (issue #36, ADR 42): one question put to the provider (Twilio Lookup v2) and its answer, kept. The
 * same question (account, mode, kind, number and `LastVerifiedDate`) asked again within a day is answered from the
 * last record; questions asked at the same moment make one request (a `pending` row, unique per question, is the claim:
 * the others wait for its answer, in whichever process they run); each account asks at most its monthly ceiling of
 * each kind (counted in `lookup_usage` by the statement that checks it). A failed request is no answer: its row is
 * marked failed, its unit of the ceiling given back, and the caller gets `LookupFailedError` to retry.
 *
 * Test mode asks no provider (ADR 42's amendment): a test key's question is answered by the test-mode lookup
 * (messaging/test-mode-lookup.ts, its table of magic numbers), recorded and reused as any other, and not counted
 * against the month's ceiling (nothing is spent).
 */

/** How long an answer stands for the same question: a day. */
export const LOOKUP_REUSE_MS = 24 * 60 * 60 * 1000;

/** The record of one lookup, as the provider answered it. */
export type LookupRecord = {
  id: number;
  accountId: number;
  livemode: boolean;
  phone: string;
  /** The reassigned-number check's `LastVerifiedDate` (YYYY-MM-DD), null for the other kinds. */
  lastVerifiedDate: string | null;
  provider: 'twilio';
  askedAt: Date;
  answeredAt: Date;
  answer: LookupAnswer;
  /** The provider's body exactly as received. */
  body: unknown;
};

/** What is asked besides the number: a reassigned-number check's consent date. */
export type LookupParams = { lastVerifiedDate?: string };

/** An account and a mode, without a request: the verdict's and the schedule's checks (test: a test key's world). */
export type AccountMode = { accountId: number; livemode: boolean };

/** Who asks: a request's account context (its mode from the key), an account and mode, or an account (live) for jobs. */
export type LookupAsker = AccountContext | AccountMode | number;

/** Polling for another process's claim: from 10 ms, doubling, to 100 ms (ADR 42 measured it). */
const WAIT_FIRST_MS = 10;
const WAIT_MAX_MS = 100;
/** A claim older than the request's timeout and this margin was left by a process that died: taken over. */
const CLAIM_MARGIN_MS = 5_000;

const E164 = /^\+[1-9]\d{6,14}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds until the next UTC month begins (the ceiling's Retry-After). */
function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

function questionOf(kind: LookupKind, phone: string, params: LookupParams): LookupQuestion {
  if (!E164.test(phone)) throw new TypeError(`lookUp: not an E.164 number: ${phone}`);
  if (kind !== 'reassigned') {
    if (params.lastVerifiedDate !== undefined)
      throw new TypeError('lookUp: only a reassigned-number check takes lastVerifiedDate');
    return { kind, phone };
  }
  const date = params.lastVerifiedDate;
  if (
    date === undefined ||
    !ISO_DATE.test(date) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  )
    throw new TypeError('lookUp: a reassigned-number check needs lastVerifiedDate as YYYY-MM-DD');
  return { kind, phone, lastVerifiedDate: date };
}

/** The typed columns of an answer (the record keeps the body beside them). */
function columnsOf(answer: LookupAnswer) {
  switch (answer.kind) {
    case 'lineType':
      return { lineType: answer.lineType, carrierName: answer.carrierName, errorCode: answer.errorCode };
    case 'simSwap':
      return {
        lastSimSwapAt: answer.lastSwapAt,
        simSwappedPeriod: answer.swappedPeriod,
        simSwappedInPeriod: answer.swappedInPeriod,
        carrierName: answer.carrierName,
        errorCode: answer.errorCode,
      };
    case 'reassigned':
      return { reassigned: answer.answer, errorCode: answer.errorCode };
  }
}

function answerOf(row: LookupRow): LookupAnswer {
  switch (row.kind) {
    case 'lineType':
      return {
        kind: 'lineType',
        lineType: carrierLineTypes.find((type) => type === row.lineType) ?? null,
        carrierName: row.carrierName,
        errorCode: row.errorCode,
      };
    case 'simSwap':
      return {
        kind: 'simSwap',
        lastSwapAt: row.lastSimSwapAt,
        swappedPeriod: row.simSwappedPeriod,
        swappedInPeriod: row.simSwappedInPeriod,
        carrierName: row.carrierName,
        errorCode: row.errorCode,
      };
    case 'reassigned':
      return { kind: 'reassigned', answer: row.reassigned ?? 'no_data', errorCode: row.errorCode };
  }
}

function recordOf(row: LookupRow): LookupRecord {
  if (!row.answeredAt) throw new Error(`lookup ${row.id} has no answer yet`);
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: !row.isTest,
    phone: row.phone,
    lastVerifiedDate: row.lastVerifiedDate,
    provider: row.provider,
    askedAt: row.askedAt,
    answeredAt: row.answeredAt,
    answer: answerOf(row),
    body: row.answer,
  };
}

/** Thrown inside the claim's transaction to roll it back: the question was answered meanwhile. */
class AnsweredMeanwhile extends Error {
  readonly row: LookupRow;
  constructor(row: LookupRow) {
    super('answered meanwhile');
    this.row = row;
  }
}

type Claimed = { claimed: LookupRow } | { waitFor: number } | { again: true };

export function createLookups(deps: {
  db: Db;
  clock: Clock;
  carrierLookup: CarrierLookup;
  /** Answers test mode's questions without asking anyone (default: messaging/test-mode-lookup.ts). */
  testModeLookup?: CarrierLookup;
  /** The provider request's timeout (config `lookupTimeoutMs`): how long a claim may stand, and waiters wait. */
  timeoutMs: number;
}) {
  const { db, clock, carrierLookup, timeoutMs } = deps;
  const testModeLookup = deps.testModeLookup ?? createTestModeLookup();
  /** Who answers: never the provider for a test-mode question (a test key proves no real subscriber). */
  const answererOf = (isTest: boolean): CarrierLookup => (isTest ? testModeLookup : carrierLookup);
  const claimLifetimeMs = timeoutMs + CLAIM_MARGIN_MS;
  /**
   * This process's questions in flight, by question: a second caller here shares the first one's promise instead of
   * polling the database (on PGlite, the only process, every poll would run on the main thread). The claim in the
   * database is what makes one request across processes; this only spares the polls.
   */
  const inFlight = new Map<string, Promise<LookupRecord>>();

  /** The same question: account, mode, kind, number, and the consent date of a reassigned-number check. */
  function sameQuestion(accountId: number, isTest: boolean, question: LookupQuestion): SQL {
    const conditions = [
      eq(lookups.accountId, accountId),
      eq(lookups.kind, question.kind),
      eq(lookups.phone, question.phone),
      eq(lookups.isTest, isTest),
    ];
    if (question.kind === 'reassigned')
      conditions.push(eq(lookups.lastVerifiedDate, question.lastVerifiedDate));
    const all = and(...conditions);
    if (!all) throw new Error('no condition');
    return all;
  }

  /** The newest answer to the question asked within the last day, if any. */
  async function reusable(reader: Db | Tx, same: SQL): Promise<LookupRow | undefined> {
    const since = new Date(clock.now().getTime() - LOOKUP_REUSE_MS);
    const [row] = await reader
      .select()
      .from(lookups)
      .where(and(same, eq(lookups.status, 'answered'), gt(lookups.askedAt, since)))
      .orderBy(desc(lookups.askedAt))
      .limit(1);
    return row;
  }

  /** Gives back a unit of the month's count: a request that failed asked nothing the provider answered. */
  async function giveBack(tx: Tx, accountId: number, kind: LookupKind, askedAt: Date) {
    await tx
      .update(lookupUsage)
      .set({ asked: sql`${lookupUsage.asked} - 1` })
      .where(
        and(
          eq(lookupUsage.accountId, accountId),
          eq(lookupUsage.kind, kind),
          eq(lookupUsage.month, monthOf(askedAt)),
          gt(lookupUsage.asked, 0),
        ),
      );
  }

  /**
   * One short transaction (no request inside it: on PGlite an open transaction holds every other query): a claim a
   * dead process left is taken over; the claim is inserted unless another stands (then its id is waited for); an answer
   * that arrived meanwhile rolls it back; the month's count takes the unit only below the ceiling.
   */
  async function claim(accountId: number, isTest: boolean, question: LookupQuestion): Promise<Claimed> {
    const same = sameQuestion(accountId, isTest, question);
    try {
      return await transaction(db, async (tx): Promise<Claimed> => {
        const now = clock.now();
        const abandoned = await tx
          .update(lookups)
          .set({ status: 'failed', failure: 'abandoned: no answer recorded in time', answeredAt: now })
          .where(
            and(
              same,
              eq(lookups.status, 'pending'),
              lt(lookups.askedAt, new Date(now.getTime() - claimLifetimeMs)),
            ),
          )
          .returning({ askedAt: lookups.askedAt });
        if (!isTest)
          for (const { askedAt } of abandoned) await giveBack(tx, accountId, question.kind, askedAt);

        const [claimed] = await tx
          .insert(lookups)
          .values({
            accountId,
            isTest,
            kind: question.kind,
            phone: question.phone,
            lastVerifiedDate: question.kind === 'reassigned' ? question.lastVerifiedDate : null,
            status: 'pending',
            provider: answererOf(isTest).provider,
            askedAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (!claimed) {
          const [pending] = await tx
            .select({ id: lookups.id })
            .from(lookups)
            .where(and(same, eq(lookups.status, 'pending')))
            .limit(1);
          return pending ? { waitFor: pending.id } : { again: true };
        }

        const answered = await reusable(tx, same);
        if (answered) throw new AnsweredMeanwhile(answered);
        // Test mode spends nothing: not counted, never refused by the ceiling.
        if (isTest) return { claimed };

        const ceiling = (await ceilingsOf(tx, accountId))[question.kind];
        const counted =
          ceiling > 0
            ? await tx
                .insert(lookupUsage)
                .values({ accountId, kind: question.kind, month: monthOf(now), asked: 1 })
                .onConflictDoUpdate({
                  target: [lookupUsage.accountId, lookupUsage.kind, lookupUsage.month],
                  set: { asked: sql`${lookupUsage.asked} + 1` },
                  setWhere: lt(lookupUsage.asked, ceiling),
                })
                .returning({ asked: lookupUsage.asked })
            : [];
        if (counted.length === 0) {
          throw new AppError('lookup_ceiling_reached', {
            detail: lookupTexts.ceilingReached(question.kind, ceiling),
            headers: { 'Retry-After': String(secondsToNextMonth(now)) },
          });
        }
        return { claimed };
      });
    } catch (error) {
      if (error instanceof AnsweredMeanwhile) return { again: true };
      throw error;
    }
  }

  /** Asks the provider for a claimed question and records what came back, answer or failure. */
  async function ask(claimed: LookupRow, question: LookupQuestion): Promise<LookupRecord> {
    let reply: Awaited<ReturnType<CarrierLookup['ask']>>;
    try {
      reply = await answererOf(claimed.isTest).ask(question);
    } catch (error) {
      const failure = error instanceof Error ? error.message : String(error);
      await transaction(db, async (tx) => {
        await tx
          .update(lookups)
          .set({ status: 'failed', failure, answeredAt: clock.now() })
          .where(and(eq(lookups.id, claimed.id), eq(lookups.status, 'pending')));
        if (!claimed.isTest) await giveBack(tx, claimed.accountId, question.kind, claimed.askedAt);
      });
      throw error;
    }
    const [answered] = await db
      .update(lookups)
      .set({ status: 'answered', answer: reply.body, ...columnsOf(reply.answer), answeredAt: clock.now() })
      .where(eq(lookups.id, claimed.id))
      .returning();
    if (!answered) throw new Error(`lookup ${claimed.id} vanished`);
    return recordOf(answered);
  }

  /** Waits for another request's claim: its answer, or its failure (the same error to retry). */
  async function awaitClaim(id: number): Promise<LookupRecord | undefined> {
    const deadline = performance.now() + claimLifetimeMs;
    let delay = WAIT_FIRST_MS;
    for (;;) {
      const [row] = await db.select().from(lookups).where(eq(lookups.id, id)).limit(1);
      if (!row) return undefined;
      if (row.status === 'answered') return recordOf(row);
      if (row.status === 'failed') {
        throw new LookupFailedError(`The same lookup asked at the same time failed: ${row.failure ?? ''}`, {
          retryable: true,
        });
      }
      if (performance.now() >= deadline) {
        throw new LookupFailedError('The same lookup asked at the same time has no answer yet', {
          retryable: true,
        });
      }
      await sleep(delay);
      delay = Math.min(WAIT_MAX_MS, delay * 2);
    }
  }

  /**
   * The answer to one question: from the last record when the same question was answered within the day; else by
   * asking the provider once, however many ask at the same time; refused with 429 `lookup_ceiling_reached` (nothing
   * asked) past the account's monthly ceiling of the kind. Throws `LookupFailedError` when the request failed.
   */
  async function lookUp(
    asker: LookupAsker,
    kind: LookupKind,
    phone: string,
    params: LookupParams = {},
  ): Promise<LookupRecord> {
    const question = questionOf(kind, phone, params);
    const accountId = typeof asker === 'number' ? asker : asker.accountId;
    const isTest =
      typeof asker === 'number'
        ? false
        : 'livemode' in asker
          ? !asker.livemode
          : keyLivemode(asker) === false;
    const key = JSON.stringify([accountId, isTest, kind, phone, params.lastVerifiedDate ?? null]);
    const running = inFlight.get(key);
    if (running) return running;
    const answer = answerOnce(accountId, isTest, question).finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
    return answer;
  }

  async function answerOnce(
    accountId: number,
    isTest: boolean,
    question: LookupQuestion,
  ): Promise<LookupRecord> {
    const same = sameQuestion(accountId, isTest, question);
    // A claim can end between our insert and our read of it, and an answer arrive between our read and our claim:
    // each round starts again from the day's answers. Three rounds are plenty; more means something is wrong.
    for (let round = 0; round < 3; round += 1) {
      const answered = await reusable(db, same);
      if (answered) return recordOf(answered);
      const outcome = await claim(accountId, isTest, question);
      if ('claimed' in outcome) return ask(outcome.claimed, question);
      if ('waitFor' in outcome) {
        const record = await awaitClaim(outcome.waitFor);
        if (record) return record;
      }
    }
    throw new LookupFailedError('The lookup could not be claimed: the same question kept changing hands', {
      retryable: true,
    });
  }

  return {
    lookUp,
    /** This month's lookups asked of the provider (UTC), per kind: what the ceiling counts. */
    thisMonth: (accountId: number) => usageIn(db, accountId, clock.now()),
  };
}

export type Lookups = ReturnType<typeof createLookups>;
