import { randomBytes } from 'node:crypto';
import type { LookupKind, LookupSummary } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LookupFailedError } from '../../messaging/lookup.ts';
import { createAttempt, nextCellPhone } from '../../test-support/attempts.ts';
import { DAY } from '../../test-support/clock.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_LINE_TYPE_NUMBERS, LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';
import type { LookupParams } from './index.ts';

/**
 * The dashboard's carrier lookups (issue #36 item 5): `GET /api/lookups/summary?account=…` with the report's dates, the
 * live lookups asked of the Twilio stand-in in them, per kind: asked (answered and failed), failed, and the answers.
 * Members who view reports read it; another account's is 404 (plugins/tenancy.test.ts walks that too).
 */

const { t } = useTwilioTestApp();
const { lookups, verificationAttempts, verifyForms } = schema;

const today = () => t.clock.now().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * DAY).toISOString().slice(0, 10);

async function summaryOf(owner: Pick<Owner, 'c' | 'accountId'>, range = ''): Promise<LookupSummary> {
  const response = await owner.c.get(`/api/lookups/summary?account=${owner.accountId}&tz=UTC${range}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LookupSummary>();
}

/** Asks the stand-in as the app does (live); a request without an answer is a failed record, as the app keeps it. */
async function ask(owner: Owner, kind: LookupKind, phone: string, params: LookupParams = {}) {
  try {
    return await t.app.services.lookups.lookUp(owner.accountId, kind, phone, params);
  } catch (error) {
    if (error instanceof LookupFailedError) return null;
    throw error;
  }
}

/**
 * Links a SIM swap record to a code request of the owner's with the judgment its send made (what the send-time slice
 * writes), on a form of the owner's.
 */
async function judged(owner: Owner, lookupId: number, withinWindow: boolean | null) {
  const { db } = t.app.services;
  const [form] = await db
    .insert(verifyForms)
    .values({
      publicId: randomBytes(9).toString('base64url'),
      accountId: owner.accountId,
      name: 'Sign-up form',
    })
    .returning();
  if (!form) throw new Error('form insert returned no row');
  const another = await createAttempt(t.app);
  const attempt = await createAttempt(t.app, {
    sameFormAs: { ...another, accountId: owner.accountId, verifyFormId: form.id },
  });
  await db
    .update(verificationAttempts)
    .set({
      simSwapLookupId: lookupId,
      simSwapWithinWindow: withinWindow,
      simSwapWindowDays: withinWindow === null ? null : 7,
    })
    .where(eq(verificationAttempts.id, attempt.id));
}

const EMPTY = {
  lineType: { asked: 0, failed: 0, byType: [] },
  simSwap: { asked: 0, failed: 0, withinWindow: 0, outsideWindow: 0, noData: 0 },
  reassigned: { asked: 0, failed: 0, yes: 0, no: 0, noData: 0 },
};

describe('GET /api/lookups/summary', () => {
  it('an account that never asked: zeros, and the range the report would use', async () => {
    const owner = await newOwner(t.app);
    expect(await summaryOf(owner)).toEqual({
      range: { gte: daysAgo(6), lte: today(), tz: 'UTC' },
      ...EMPTY,
    });
  });

  it('counts the live lookups asked in the range, per kind and answer; not reused answers, test mode, other accounts or other days', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app);
    // Three days before the range below: counted in the last 7 days, not today.
    await ask(owner, 'reassigned', LOOKUP_NUMBERS.reassignedYes, { lastVerifiedDate: '2025-06-01' });
    t.clock.advance(3 * DAY);

    // Line type: two mobiles, a landline, no coverage (no type told), a 500 (failed).
    await ask(owner, 'lineType', nextCellPhone());
    await ask(owner, 'lineType', nextCellPhone());
    await ask(owner, 'lineType', LOOKUP_LINE_TYPE_NUMBERS.landline ?? '');
    await ask(owner, 'lineType', LOOKUP_NUMBERS.errorNoCoverage);
    expect(await ask(owner, 'lineType', LOOKUP_NUMBERS.serverError)).toBeNull();

    // Reassigned: yes, no, no data twice (Twilio's "no data available", an empty answer), a 429 (failed); the same
    // question again within the day is answered from its record, nothing asked.
    const date = { lastVerifiedDate: '2026-01-15' };
    await ask(owner, 'reassigned', LOOKUP_NUMBERS.reassignedYes, date);
    await ask(owner, 'reassigned', LOOKUP_NUMBERS.reassignedYes, date);
    await ask(owner, 'reassigned', LOOKUP_NUMBERS.reassignedNo, date);
    await ask(owner, 'reassigned', LOOKUP_NUMBERS.reassignedNoData, date);
    await ask(owner, 'reassigned', LOOKUP_NUMBERS.reassignedEmpty, date);
    expect(await ask(owner, 'reassigned', LOOKUP_NUMBERS.tooManyRequests, date)).toBeNull();

    // SIM swap: as the code sends judged them. Swapped yesterday, flagged on one code and not on another (a shorter
    // window then): within; a year ago: outside; the carrier told nothing, or no code judged it: no data.
    const yesterday = await ask(owner, 'simSwap', LOOKUP_NUMBERS.simSwapYesterday);
    const yearAgo = await ask(owner, 'simSwap', LOOKUP_NUMBERS.simSwapYearAgo);
    const incomplete = await ask(owner, 'simSwap', LOOKUP_NUMBERS.simSwapIncomplete);
    await ask(owner, 'simSwap', nextCellPhone());
    if (!yesterday || !yearAgo || !incomplete) throw new Error('the stand-in answers these');
    await judged(owner, yesterday.id, true);
    await judged(owner, yesterday.id, false);
    await judged(owner, yearAgo.id, false);
    await judged(owner, incomplete.id, null);

    // Not counted: another account's, and a test-mode record (ADR 29: the dashboard is live data).
    await ask(other, 'lineType', nextCellPhone());
    await t.app.services.db.insert(lookups).values({
      accountId: owner.accountId,
      isTest: true,
      kind: 'lineType',
      phone: nextCellPhone(),
      status: 'answered',
      provider: 'twilio',
      answer: {},
      lineType: 'landline',
      askedAt: t.clock.now(),
      answeredAt: t.clock.now(),
    });

    const expected = {
      lineType: {
        asked: 5,
        failed: 1,
        byType: [
          { lineType: 'mobile', count: 2 },
          { lineType: 'landline', count: 1 },
          { lineType: 'no_data', count: 1 },
        ],
      },
      simSwap: { asked: 4, failed: 0, withinWindow: 1, outsideWindow: 1, noData: 2 },
      reassigned: { asked: 5, failed: 1, yes: 1, no: 1, noData: 2 },
    };
    const todayOnly = `&created__date__preset=custom&created__date__gte=${today()}&created__date__lte=${today()}`;
    expect(await summaryOf(owner, todayOnly)).toEqual({
      range: { gte: today(), lte: today(), tz: 'UTC' },
      ...expected,
    });
    // The last 7 days hold the check of three days before.
    const week = await summaryOf(owner, '&created__date__preset=last7d');
    expect(week.reassigned).toEqual({ asked: 6, failed: 1, yes: 2, no: 1, noData: 2 });
    // Days before any lookup: nothing.
    const before = `&created__date__preset=custom&created__date__gte=${daysAgo(30)}&created__date__lte=${daysAgo(10)}`;
    expect(await summaryOf(owner, before)).toMatchObject(EMPTY);
    // The other account counts its own only.
    expect((await summaryOf(other)).lineType).toEqual({
      asked: 1,
      failed: 0,
      byType: [{ lineType: 'mobile', count: 1 }],
    });
  });

  it('members who view reports read it; a member without that right gets 403, another account 404', async () => {
    const owner = await newOwner(t.app);
    await ask(owner, 'lineType', nextCellPhone());
    const reader = await join(t.app, owner, { canSearchData: false, canViewReports: true });
    const plain = await join(t.app, owner, { canSearchData: true, canViewReports: false });
    const stranger = await newOwner(t.app);

    expect((await summaryOf({ c: reader.c, accountId: owner.accountId })).lineType.asked).toBe(1);
    const refused = await plain.c.get(`/api/lookups/summary?account=${owner.accountId}`);
    expect(refused.statusCode).toBe(403);
    const elsewhere = await stranger.c.get(`/api/lookups/summary?account=${owner.accountId}`);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
  });
});
