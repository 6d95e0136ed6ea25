import { lookupTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { createCarrierLookup, LookupFailedError } from '../../messaging/lookup.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import { nextCellPhone } from '../../test-support/attempts.ts';
import { DAY, HOUR, MINUTE } from '../../test-support/clock.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS, lookupAnswer } from '../../test-support/twilio-lookup.ts';
import { problemOfAppError } from '../api-v1/index.ts';
import { createLookups, type LookupRecord } from './index.ts';

/**
 * Carrier lookups (issue #36, ADR 42), on each engine: every question and answer kept; the same question within a day
 * answered from the last record; questions asked at once made one request (a claim in the database, so across
 * processes too); the monthly ceiling per kind exact under bursts; a failed request never an answer, never counted.
 */

/** Short enough for a quick timeout test, long enough for PGlite's bursts on a loaded machine. */
const TIMEOUT_MS = 1_000;
const { t, twilio } = useTwilioTestApp({ config: { lookupTimeoutMs: TIMEOUT_MS } });

const lookUp = (...args: Parameters<typeof t.app.services.lookups.lookUp>) =>
  t.app.services.lookups.lookUp(...args);
/** The requests the stand-in received for a number. */
const asked = (phone: string) => twilio.lookups.filter((lookup) => lookup.phone === phone);
const rowsOf = (accountId: number, phone: string) =>
  t.db.db
    .select()
    .from(schema.lookups)
    .where(and(eq(schema.lookups.accountId, accountId), eq(schema.lookups.phone, phone)));

async function setCeiling(owner: Owner, monthlyCeiling: Record<string, number>) {
  const response = await owner.c.patch(`/api/accounts/${owner.accountId}/lookups`, { monthlyCeiling });
  expect(response.statusCode, response.body).toBe(200);
}

beforeAll(() => {
  // "Yesterday" and "a year ago" of the SIM swap answers follow the app's clock: the clock itself, read here, since a
  // held answer (the slow number's) may be written after this file's app has closed.
  const clock = t.clock;
  twilio.now = () => clock.now();
  twilio.slowMs = TIMEOUT_MS + 1_000;
});

describe('a lookup is asked once and kept', () => {
  it('keeps the question (number, kind, LastVerifiedDate) and the answer exactly, with the provider and the times', async () => {
    const owner = await newOwner(t.app);
    const askedAt = t.clock.now();
    const record = await lookUp(owner.accountId, 'reassigned', LOOKUP_NUMBERS.reassignedYes, {
      lastVerifiedDate: '2026-01-20',
    });
    const sent = lookupAnswer(
      LOOKUP_NUMBERS.reassignedYes,
      new URLSearchParams({ Fields: 'reassigned_number', LastVerifiedDate: '20260120' }),
      askedAt,
    );
    expect(record).toEqual({
      id: expect.any(Number),
      accountId: owner.accountId,
      livemode: true,
      phone: LOOKUP_NUMBERS.reassignedYes,
      lastVerifiedDate: '2026-01-20',
      provider: 'twilio',
      askedAt,
      answeredAt: askedAt,
      answer: { kind: 'reassigned', answer: 'yes', errorCode: null },
      body: expect.any(Object),
    });
    // The body as the provider sent it.
    expect(sent).toEqual({ status: 200, body: record.body });
    const [row] = await rowsOf(owner.accountId, LOOKUP_NUMBERS.reassignedYes);
    expect(row).toMatchObject({
      kind: 'reassigned',
      isTest: false,
      lastVerifiedDate: '2026-01-20',
      status: 'answered',
      provider: 'twilio',
      reassigned: 'yes',
      errorCode: null,
      failure: null,
      answer: record.body,
    });
    expect(await t.app.services.lookups.thisMonth(owner.accountId)).toEqual({
      lineType: 0,
      simSwap: 0,
      reassigned: 1,
    });
  });

  it('keeps each kind’s answer in its columns: line type and carrier, the SIM swap’s instant, an error code', async () => {
    const owner = await newOwner(t.app);
    const line = await lookUp(owner.accountId, 'lineType', nextCellPhone());
    expect(line.answer).toEqual({
      kind: 'lineType',
      lineType: 'mobile',
      carrierName: 'Stand-in Wireless',
      errorCode: null,
    });
    const swap = await lookUp(owner.accountId, 'simSwap', LOOKUP_NUMBERS.simSwapYesterday);
    expect(swap.answer).toMatchObject({
      lastSwapAt: new Date(t.clock.now().getTime() - DAY),
      swappedInPeriod: true,
    });
    const [swapRow] = await rowsOf(owner.accountId, LOOKUP_NUMBERS.simSwapYesterday);
    expect(swapRow).toMatchObject({
      lastSimSwapAt: new Date(t.clock.now().getTime() - DAY),
      simSwappedPeriod: 'PT48H',
      simSwappedInPeriod: true,
    });
    const noData = await lookUp(owner.accountId, 'reassigned', LOOKUP_NUMBERS.reassignedNullWithError, {
      lastVerifiedDate: '2025-03-01',
    });
    expect(noData.answer).toEqual({ kind: 'reassigned', answer: 'no_data', errorCode: 60607 });
    const [noDataRow] = await rowsOf(owner.accountId, LOOKUP_NUMBERS.reassignedNullWithError);
    expect(noDataRow).toMatchObject({ reassigned: 'no_data', errorCode: 60607, status: 'answered' });
  });

  it('refuses a malformed question before anything is asked', async () => {
    const owner = await newOwner(t.app);
    await expect(lookUp(owner.accountId, 'lineType', '2015550100')).rejects.toThrow(/E\.164/);
    await expect(lookUp(owner.accountId, 'reassigned', '+12015550102')).rejects.toThrow(/lastVerifiedDate/);
    await expect(
      lookUp(owner.accountId, 'reassigned', '+12015550102', { lastVerifiedDate: '2026-02-30' }),
    ).rejects.toThrow(/lastVerifiedDate/);
    await expect(
      lookUp(owner.accountId, 'simSwap', '+12015550102', { lastVerifiedDate: '2026-02-01' }),
    ).rejects.toThrow(/only a reassigned-number check/);
  });
});

describe('the same question within a day is answered from the last record', () => {
  it('without asking again; another date, kind or account is another question; after a day it is asked again', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app);
    const phone = nextCellPhone();
    const question = { lastVerifiedDate: '2026-01-20' };
    const first = await lookUp(owner.accountId, 'reassigned', phone, question);

    t.clock.advance(DAY - MINUTE);
    expect(await lookUp(owner.accountId, 'reassigned', phone, question)).toEqual(first);
    expect(asked(phone)).toHaveLength(1);

    const otherDate = await lookUp(owner.accountId, 'reassigned', phone, { lastVerifiedDate: '2026-01-21' });
    const otherKind = await lookUp(owner.accountId, 'lineType', phone);
    const otherAccount = await lookUp(other.accountId, 'reassigned', phone, question);
    expect(new Set([first.id, otherDate.id, otherKind.id, otherAccount.id]).size).toBe(4);
    expect(asked(phone)).toHaveLength(4);

    t.clock.advance(2 * MINUTE);
    const again = await lookUp(owner.accountId, 'reassigned', phone, question);
    expect(again.id).not.toBe(first.id);
    expect(again.askedAt).toEqual(t.clock.now());
    expect(asked(phone)).toHaveLength(5);
    // Both records stay: each is the proof of its own moment.
    expect(await rowsOf(owner.accountId, phone)).toHaveLength(4);
  });
});

describe('questions asked at the same time make one request', () => {
  it('20 identical questions at once: one request, 20 equal answers, one record, one counted', async () => {
    const owner = await newOwner(t.app);
    const phone = nextCellPhone();
    twilio.hold(phone, 150);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        lookUp(owner.accountId, 'reassigned', phone, { lastVerifiedDate: '2026-01-20' }),
      ),
    );
    expect(asked(phone)).toHaveLength(1);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await rowsOf(owner.accountId, phone)).toHaveLength(1);
    expect((await t.app.services.lookups.thisMonth(owner.accountId)).reassigned).toBe(1);
  });

  it('across processes: 20 services on one database (nothing shared but it), one question each at once', async () => {
    const owner = await newOwner(t.app);
    const phone = nextCellPhone();
    twilio.hold(phone, 150);
    const processes = Array.from({ length: 20 }, () =>
      createLookups({
        db: t.db.db,
        clock: t.clock,
        carrierLookup: createCarrierLookup(t.config),
        timeoutMs: TIMEOUT_MS,
      }),
    );
    const answers = await Promise.all(
      processes.map((lookups) =>
        lookups.lookUp(owner.accountId, 'reassigned', phone, { lastVerifiedDate: '2026-01-20' }),
      ),
    );
    expect(asked(phone)).toHaveLength(1);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await rowsOf(owner.accountId, phone)).toHaveLength(1);
    expect((await t.app.services.lookups.thisMonth(owner.accountId)).reassigned).toBe(1);
  });

  it('a claim left by a process that died is taken over once its request must have timed out', async () => {
    const owner = await newOwner(t.app);
    const phone = nextCellPhone();
    const [dead] = await t.db.db
      .insert(schema.lookups)
      .values({
        accountId: owner.accountId,
        kind: 'lineType',
        phone,
        status: 'pending',
        provider: 'twilio',
        askedAt: new Date(t.clock.now().getTime() - TIMEOUT_MS - 6_000),
      })
      .returning();
    await t.db.db.insert(schema.lookupUsage).values({
      accountId: owner.accountId,
      kind: 'lineType',
      month: `${t.clock.now().toISOString().slice(0, 7)}-01`,
      asked: 1,
    });

    const record = await lookUp(owner.accountId, 'lineType', phone);
    expect(record.id).not.toBe(dead?.id);
    expect(asked(phone)).toHaveLength(1);
    const rows = await rowsOf(owner.accountId, phone);
    expect(rows.find((row) => row.id === dead?.id)).toMatchObject({
      status: 'failed',
      failure: expect.stringMatching(/^abandoned/),
    });
    // The dead claim's unit was given back, the new one taken.
    expect((await t.app.services.lookups.thisMonth(owner.accountId)).lineType).toBe(1);
  });
});

describe('a failed request is no answer', () => {
  it('everyone waiting on it gets the error to retry; nothing is reused or counted; the next call asks again', async () => {
    const owner = await newOwner(t.app);
    const phone = LOOKUP_NUMBERS.serverError;
    twilio.hold(phone, 100);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => lookUp(owner.accountId, 'lineType', phone)),
    );
    const before = asked(phone).length;
    expect(before).toBe(1);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      if (result.status === 'rejected') {
        expect(result.reason).toBeInstanceOf(LookupFailedError);
        expect(result.reason).toMatchObject({ retryable: true });
      }
    }
    const rows = await rowsOf(owner.accountId, phone);
    expect(rows).toEqual([
      expect.objectContaining({
        status: 'failed',
        failure: expect.stringMatching(/Twilio error 20500 \(HTTP 500\)/),
        answer: null,
        answeredAt: expect.any(Date),
      }),
    ]);
    expect((await t.app.services.lookups.thisMonth(owner.accountId)).lineType).toBe(0);

    await expect(lookUp(owner.accountId, 'lineType', phone)).rejects.toBeInstanceOf(LookupFailedError);
    expect(asked(phone)).toHaveLength(before + 1);
  });

  it('a slow provider: the request times out, recorded as failed, not counted', async () => {
    const owner = await newOwner(t.app);
    const error = await lookUp(owner.accountId, 'simSwap', LOOKUP_NUMBERS.slow).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true });
    const [row] = await rowsOf(owner.accountId, LOOKUP_NUMBERS.slow);
    expect(row).toMatchObject({
      status: 'failed',
      failure: `Twilio Lookup gave no answer within ${TIMEOUT_MS} ms`,
    });
    expect((await t.app.services.lookups.thisMonth(owner.accountId)).simSwap).toBe(0);
  });
});

describe('the monthly ceiling, per kind', () => {
  it('20 different questions at once: exactly the ceiling asked, the rest refused with 429 and nothing asked', async () => {
    const owner = await newOwner(t.app);
    await setCeiling(owner, { lineType: 5 });
    const phones = Array.from({ length: 20 }, () => nextCellPhone());
    const results = await Promise.allSettled(
      phones.map((phone) => lookUp(owner.accountId, 'lineType', phone)),
    );

    const answered = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(answered).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect(reason).toMatchObject({
        code: 'lookup_ceiling_reached',
        statusCode: 429,
        detail: lookupTexts.ceilingReached('lineType', 5),
        headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
      });
    }
    expect(phones.flatMap((phone) => asked(phone))).toHaveLength(5);
    const rows = await t.db.db
      .select()
      .from(schema.lookups)
      .where(eq(schema.lookups.accountId, owner.accountId));
    expect(rows.map((row) => row.status)).toEqual(Array(5).fill('answered'));
    expect(await t.app.services.lookups.thisMonth(owner.accountId)).toEqual({
      lineType: 5,
      simSwap: 0,
      reassigned: 0,
    });

    // Past the ceiling: a day's answer is still given (nothing is asked), other kinds still asked.
    const [first] = answered;
    const reused = first?.status === 'fulfilled' ? first.value : undefined;
    expect(reused).toBeDefined();
    if (reused) expect(await lookUp(owner.accountId, 'lineType', reused.phone)).toEqual(reused);
    await lookUp(owner.accountId, 'simSwap', nextCellPhone());
    // A raised ceiling lets the next one through.
    await setCeiling(owner, { lineType: 6 });
    await lookUp(owner.accountId, 'lineType', nextCellPhone());
    await expect(lookUp(owner.accountId, 'lineType', nextCellPhone())).rejects.toMatchObject({
      code: 'lookup_ceiling_reached',
    });
  });

  it('a ceiling of 0 asks nothing; a failed request gives its unit back; a new month counts from 0', async () => {
    const owner = await newOwner(t.app);
    await setCeiling(owner, { reassigned: 0, simSwap: 1 });
    const phone = nextCellPhone();
    await expect(
      lookUp(owner.accountId, 'reassigned', phone, { lastVerifiedDate: '2026-01-20' }),
    ).rejects.toMatchObject({ code: 'lookup_ceiling_reached' });
    expect(asked(phone)).toHaveLength(0);
    expect(await rowsOf(owner.accountId, phone)).toEqual([]);

    await expect(lookUp(owner.accountId, 'simSwap', LOOKUP_NUMBERS.tooManyRequests)).rejects.toMatchObject({
      retryable: true,
      status: 429,
    });
    const records: LookupRecord[] = [await lookUp(owner.accountId, 'simSwap', nextCellPhone())];
    await expect(lookUp(owner.accountId, 'simSwap', nextCellPhone())).rejects.toMatchObject({
      code: 'lookup_ceiling_reached',
    });

    t.clock.advance(32 * DAY);
    records.push(await lookUp(owner.accountId, 'simSwap', nextCellPhone()));
    expect((await t.app.services.lookups.thisMonth(owner.accountId)).simSwap).toBe(1);
    expect(records).toHaveLength(2);
  });

  it('reads as 429 `lookup_ceiling_reached` in the session API and as its problem type in API v1', async () => {
    const owner = await newOwner(t.app);
    await setCeiling(owner, { lineType: 0 });
    const error = await lookUp(owner.accountId, 'lineType', nextCellPhone()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    if (!(error instanceof AppError)) return;

    const app = Fastify();
    registerErrorHandler(app);
    app.get('/api/x', async () => {
      throw error;
    });
    const response = await app.inject({ url: '/api/x' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.json()).toEqual({
      detail: lookupTexts.ceilingReached('lineType', 0),
      MainCode_: 'lookup_ceiling_reached',
    });
    await app.close();

    expect(problemOfAppError('https://veriform.example', error)).toEqual({
      type: 'https://veriform.example/docs/api#error-lookup_ceiling_reached',
      title: 'Lookup ceiling reached',
      status: 429,
      detail: lookupTexts.ceilingReached('lineType', 0),
      code: 'lookup_ceiling_reached',
    });
  });
});

// The day's reuse is measured from when a question was asked; a few hours later still counts as the same day.
describe('the reuse window', () => {
  it('starts at the question asked, not at the day’s start', async () => {
    const owner = await newOwner(t.app);
    const phone = nextCellPhone();
    const first = await lookUp(owner.accountId, 'lineType', phone);
    t.clock.advance(12 * HOUR);
    expect((await lookUp(owner.accountId, 'lineType', phone)).id).toBe(first.id);
  });
});
