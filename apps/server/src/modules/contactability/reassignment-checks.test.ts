import type {
  ApiReassignmentCheckList,
  ContactabilityCheck,
  ContactabilityVerdict,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CODE_SEND_LIMITS } from '../../config.ts';
import { keyCall } from '../../test-support/api-v1/client.ts';
import { DAY } from '../../test-support/clock.ts';
import {
  newReassignmentWorld,
  type ReassignmentWorld,
  setLookups,
  verifyLiveNumber,
  verifyTestNumber,
} from '../../test-support/reassignment.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';

/**
 * The verdict's reassigned-number checks (issue #36 item 2, ADR 43), on each engine. Live keys and live verifications
 * against the Twilio stand-in: with the account's `reassignedChecks` on, a standing consent whose latest check is older
 * than `reassignedMaxAgeDays` (or absent) is checked before judging, and the verdict judges with the answer; off,
 * nothing is asked. A provider failure, the ceiling, or a check not answered within the verdict's wait leave the
 * verdict judged on what was known, and the verdict says which. Test keys (ADR 42's amendment): the due checks of test
 * consents are answered by the test-mode table, the stand-in asked nothing, the ceiling not in the way, and many
 * verdicts at once make one record.
 */

/** The verdict's wait (config): the held number's answer comes long after it. */
const WAIT_MS = 3_000;
const HELD_MS = 8_000;
const { t, twilio } = useTwilioTestApp({
  config: {
    reassignmentCheckWaitMs: WAIT_MS,
    // The same live numbers are verified in each test's account: past the per-number daily cap of real sends.
    codeSendLimits: { ...DEFAULT_CODE_SEND_LIMITS, perPhonePerDay: 1_000 },
  },
});

/** A number the stand-in answers `no` (not one of its table's): held past the verdict's wait. */
const HELD = '+12015550191';
const NEVER_VERIFIED = '+12015550192';
const numbers = [
  LOOKUP_NUMBERS.reassignedYes,
  LOOKUP_NUMBERS.reassignedNo,
  LOOKUP_NUMBERS.reassignedNoData,
  LOOKUP_NUMBERS.serverError,
  HELD,
];

/** Lookups of `phone`'s reassignment the stand-in received so far. */
const asked = (phone: string) =>
  twilio.lookups.filter((lookup) => lookup.phone === phone && lookup.fields === 'reassigned_number').length;

async function verdictOf(
  w: ReassignmentWorld,
  phone: string,
  key: string = w.liveKey,
): Promise<ContactabilityVerdict> {
  const response = await keyCall(t.app, key)(
    'GET',
    `/api/v1/contactability?phone=${encodeURIComponent(phone)}&purpose=informational`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ContactabilityVerdict>();
}

/** A world of its own (an account: its settings and its month's ceiling), the numbers verified live. */
async function world(settings: object, verified: readonly string[] = numbers.slice(0, 4)) {
  const w = await newReassignmentWorld(t.app, t.clock);
  await setLookups(w, settings);
  const ids = new Map<string, string>();
  for (const phone of verified) ids.set(phone, await verifyLiveNumber(w, twilio, phone));
  return { w, ids };
}

/**
 * Test numbers: another area code than the stand-in's live table, the same last four digits, which the test-mode table
 * goes by (…0101 yes, …0103 no data, …0120 a provider failure, any other no).
 */
const TEST = {
  yes: '+13125550101',
  no: '+13125550102',
  noData: '+13125550103',
  failure: '+13125550120',
  concurrent: '+13125550190',
} as const;

/** A world whose test numbers are verified with its test key (the fixed code; nothing is sent). */
async function testWorld(settings: object) {
  const w = await newReassignmentWorld(t.app, t.clock, Object.values(TEST), 'Test Mode Co');
  await setLookups(w, settings);
  const ids = new Map<string, string>();
  for (const phone of Object.values(TEST)) ids.set(phone, await verifyTestNumber(w, phone));
  return { w, ids };
}

beforeAll(() => {
  twilio.slowMs = 0;
});

describe('the verdict’s reassigned-number checks', () => {
  it('the setting off: nothing is asked; the verdict says so', async () => {
    const { w } = await world({ reassignedChecks: false });
    const verdict = await verdictOf(w, LOOKUP_NUMBERS.reassignedYes);
    expect(verdict).toMatchObject({ allowed: true, reassignment: null, reassignmentCheck: 'off' });
    expect(asked(LOOKUP_NUMBERS.reassignedYes)).toBe(0);
  });

  it('on: a due check is made before judging; yes refuses (number_reassigned), the check kept on the verification', async () => {
    const { w, ids } = await world({ reassignedChecks: true });
    const before = asked(LOOKUP_NUMBERS.reassignedYes);
    const verdict = await verdictOf(w, LOOKUP_NUMBERS.reassignedYes);
    expect(verdict).toMatchObject({
      allowed: false,
      reasons: [{ code: 'number_reassigned' }],
      consent: { verificationId: ids.get(LOOKUP_NUMBERS.reassignedYes) },
      reassignment: { checkedAt: t.clock.now().toISOString(), answer: 'yes' },
      reassignmentCheck: 'made',
    });
    expect(asked(LOOKUP_NUMBERS.reassignedYes)).toBe(before + 1);
    // Kept with the verdict: listed later, it still names the check it relied on and what it did.
    const listed = await keyCall(t.app, w.liveKey)(
      'GET',
      `/api/v1/contactability/checks?phone=${encodeURIComponent(LOOKUP_NUMBERS.reassignedYes)}`,
    );
    expect(listed.json<{ data: ContactabilityVerdict[] }>().data).toEqual([verdict]);
    const checks = await keyCall(t.app, w.liveKey)(
      'GET',
      `/api/v1/verifications/${ids.get(LOOKUP_NUMBERS.reassignedYes)}/reassignment-checks`,
    );
    expect(checks.json<ApiReassignmentCheckList>().data).toMatchObject([{ answer: 'yes' }]);
    // The yes tells the customer's systems, as a check on demand does.
    const events = await t.db.db
      .select({ data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(
        and(
          eq(schema.webhookEvents.accountId, w.owner.accountId),
          eq(schema.webhookEvents.type, 'consent.number_reassigned'),
        ),
      );
    expect(events).toMatchObject([
      { data: { verificationId: ids.get(LOOKUP_NUMBERS.reassignedYes), answer: 'yes' } },
    ]);
    // A number without consent has nothing to check.
    expect(await verdictOf(w, NEVER_VERIFIED)).toMatchObject({
      reasons: [{ code: 'no_consent' }],
      reassignment: null,
      reassignmentCheck: 'not_due',
    });
    expect(asked(NEVER_VERIFIED)).toBe(0);
  });

  it('a check younger than reassignedMaxAgeDays is reused (nothing asked); older, it is made again', async () => {
    const { w } = await world({ reassignedChecks: true, reassignedMaxAgeDays: 30 });
    const phone = LOOKUP_NUMBERS.reassignedNo;
    const first = await verdictOf(w, phone);
    expect(first).toMatchObject({ allowed: true, reassignmentCheck: 'made', reassignment: { answer: 'no' } });
    const after = asked(phone);
    t.clock.advance(10 * DAY);
    expect(await verdictOf(w, phone)).toMatchObject({
      allowed: true,
      reassignment: first.reassignment,
      reassignmentCheck: 'reused',
    });
    expect(asked(phone)).toBe(after);
    t.clock.advance(21 * DAY);
    const again = await verdictOf(w, phone);
    expect(again).toMatchObject({
      reassignment: { checkedAt: t.clock.now().toISOString(), answer: 'no' },
      reassignmentCheck: 'made',
    });
    expect(asked(phone)).toBe(after + 1);
  });

  it('the provider failing (HTTP 500): the verdict still answers, on what was known, and says the check failed', async () => {
    const { w } = await world({ reassignedChecks: true });
    const verdict = await verdictOf(w, LOOKUP_NUMBERS.serverError);
    expect(verdict).toMatchObject({ allowed: true, reassignment: null, reassignmentCheck: 'failed' });
    expect(asked(LOOKUP_NUMBERS.serverError)).toBeGreaterThan(0);
  });

  it('the monthly ceiling reached: nothing asked; the verdict answers and says so', async () => {
    const { w } = await world({ reassignedChecks: true, monthlyCeiling: { reassigned: 0 } });
    const before = asked(LOOKUP_NUMBERS.reassignedYes);
    const verdict = await verdictOf(w, LOOKUP_NUMBERS.reassignedYes);
    expect(verdict).toMatchObject({
      allowed: true,
      reassignment: null,
      reassignmentCheck: 'ceiling_reached',
    });
    expect(asked(LOOKUP_NUMBERS.reassignedYes)).toBe(before);
  });

  it('a batch of mixed numbers: each due verification checked once, each verdict on its own answer; one past the wait judged without it', async () => {
    const { w, ids } = await world({ reassignedChecks: true }, numbers);
    twilio.hold(HELD, HELD_MS);
    const before = new Map(numbers.map((phone) => [phone, asked(phone)]));
    const phones = [...numbers, LOOKUP_NUMBERS.reassignedYes, NEVER_VERIFIED];
    const response = await keyCall(t.app, w.liveKey)('POST', '/api/v1/contactability', {
      checks: phones.map((phone) => ({ phone, purpose: 'informational' })),
    });
    expect(response.statusCode, response.body).toBe(200);
    const verdicts = response.json<{ results: ContactabilityVerdict[] }>().results;
    expect(
      verdicts.map((v) => [v.phone, v.allowed, v.reassignmentCheck, v.reassignment?.answer ?? null]),
    ).toEqual([
      [LOOKUP_NUMBERS.reassignedYes, false, 'made', 'yes'],
      [LOOKUP_NUMBERS.reassignedNo, true, 'made', 'no'],
      [LOOKUP_NUMBERS.reassignedNoData, true, 'made', 'no_data'],
      [LOOKUP_NUMBERS.serverError, true, 'failed', null],
      [HELD, true, 'timed_out', null],
      [LOOKUP_NUMBERS.reassignedYes, false, 'made', 'yes'],
      [NEVER_VERIFIED, false, 'not_due', null],
    ]);
    // The same number twice in the batch: one question to the provider.
    for (const phone of numbers.filter((number) => number !== HELD))
      expect(asked(phone), phone).toBe((before.get(phone) ?? 0) + 1);
    // The held check is kept when it ends, and the next verdict reuses it.
    const heldId = ids.get(HELD) ?? '';
    await expect
      .poll(
        async () =>
          (
            await keyCall(t.app, w.liveKey)('GET', `/api/v1/verifications/${heldId}/reassignment-checks`)
          ).json<ApiReassignmentCheckList>().data.length,
        { timeout: HELD_MS + 10_000, interval: 200 },
      )
      .toBe(1);
    // The stand-in records a held question when it answers it.
    expect(asked(HELD)).toBe((before.get(HELD) ?? 0) + 1);
    expect(await verdictOf(w, HELD)).toMatchObject({
      reassignmentCheck: 'reused',
      reassignment: { answer: 'no' },
    });
  });

  it('the app’s verdict (a member, live) makes the due check of a live verification', async () => {
    const w = await newReassignmentWorld(t.app, t.clock, [], 'Live Co');
    await setLookups(w, { reassignedChecks: true });
    const phone = LOOKUP_NUMBERS.reassignedYes;
    await verifyLiveNumber(w, twilio, phone);
    const before = asked(phone);
    const response = await w.owner.c.post(`/api/contactability?account=${w.owner.accountId}`, {
      phone,
      purpose: 'informational',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ContactabilityCheck>()).toMatchObject({
      allowed: false,
      reasons: [{ code: 'number_reassigned' }],
      reassignmentCheck: 'made',
      livemode: true,
    });
    expect(asked(phone)).toBe(before + 1);
    expect(twilio.lookups.filter((lookup) => lookup.phone === phone).at(-1)).toBeDefined();
  });
});

describe('the test-mode verdict’s checks ask no provider (ADR 42 amendment)', () => {
  /** Every reassignment question the stand-in received (of any number). */
  const askedAll = () => twilio.lookups.filter((lookup) => lookup.fields === 'reassigned_number').length;

  it('a test key’s due checks are answered by the test-mode table: yes refuses, no and no data allow, …0120 failed', async () => {
    const { w, ids } = await testWorld({ reassignedChecks: true });
    const before = askedAll();
    const usage = await t.app.services.lookups.thisMonth(w.owner.accountId);
    const response = await keyCall(t.app, w.testKey)('POST', '/api/v1/contactability', {
      checks: [TEST.yes, TEST.no, TEST.noData, TEST.failure].map((phone) => ({
        phone,
        purpose: 'informational',
      })),
    });
    expect(response.statusCode, response.body).toBe(200);
    const verdicts = response.json<{ results: ContactabilityVerdict[] }>().results;
    expect(
      verdicts.map((v) => [
        v.phone,
        v.allowed,
        v.reassignmentCheck,
        v.reassignment?.answer ?? null,
        v.livemode,
      ]),
    ).toEqual([
      [TEST.yes, false, 'made', 'yes', false],
      [TEST.no, true, 'made', 'no', false],
      [TEST.noData, true, 'made', 'no_data', false],
      [TEST.failure, true, 'failed', null, false],
    ]);
    expect(verdicts[0]).toMatchObject({
      reasons: [{ code: 'number_reassigned' }],
      consent: { verificationId: ids.get(TEST.yes) },
    });
    // Nothing asked of the provider, nothing counted against the month.
    expect(askedAll()).toBe(before);
    expect(await t.app.services.lookups.thisMonth(w.owner.accountId)).toEqual(usage);
    const records = await t.db.db
      .select({ isTest: schema.lookups.isTest, status: schema.lookups.status })
      .from(schema.lookups)
      .where(eq(schema.lookups.accountId, w.owner.accountId));
    expect(records).toHaveLength(4);
    expect(records.every((record) => record.isTest)).toBe(true);
    // A check younger than reassignedMaxAgeDays is reused by the next verdict.
    expect(await verdictOf(w, TEST.yes, w.testKey)).toMatchObject({
      allowed: false,
      reassignmentCheck: 'reused',
      reassignment: verdicts[0]?.reassignment,
    });
  });

  it('the monthly ceiling does not stop test mode: nothing is spent', async () => {
    const { w } = await testWorld({ reassignedChecks: true, monthlyCeiling: { reassigned: 0 } });
    const before = askedAll();
    expect(await verdictOf(w, TEST.yes, w.testKey)).toMatchObject({
      allowed: false,
      reassignmentCheck: 'made',
      reassignment: { answer: 'yes' },
    });
    expect(askedAll()).toBe(before);
    // The live key's verdict in the same account still meets the ceiling.
    await verifyLiveNumber(w, twilio, LOOKUP_NUMBERS.reassignedNo);
    expect(await verdictOf(w, LOOKUP_NUMBERS.reassignedNo)).toMatchObject({
      reassignmentCheck: 'ceiling_reached',
    });
    expect(askedAll()).toBe(before);
  });

  it('20 test-mode verdicts of one number at once make one record and one check', async () => {
    const { w, ids } = await testWorld({ reassignedChecks: true });
    const before = askedAll();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => verdictOf(w, TEST.concurrent, w.testKey)),
    );
    expect(new Set(verdicts.map((v) => v.reassignment?.checkedAt)).size).toBe(1);
    expect(verdicts.every((v) => v.allowed && v.reassignment?.answer === 'no')).toBe(true);
    const records = await t.db.db
      .select({ id: schema.lookups.id })
      .from(schema.lookups)
      .where(and(eq(schema.lookups.accountId, w.owner.accountId), eq(schema.lookups.phone, TEST.concurrent)));
    expect(records).toHaveLength(1);
    const checks = await keyCall(t.app, w.testKey)(
      'GET',
      `/api/v1/verifications/${ids.get(TEST.concurrent)}/reassignment-checks`,
    );
    expect(checks.json<ApiReassignmentCheckList>().data).toHaveLength(1);
    expect(askedAll()).toBe(before);
  });
});
