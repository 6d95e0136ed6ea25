import type {
  ApiKeyScope,
  ApiReassignmentCheck,
  ApiReassignmentCheckList,
  ApiVerification,
  ContactabilityVerdict,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CODE_SEND_LIMITS } from '../../config.ts';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { createAttempt, readAttempt } from '../../test-support/attempts.ts';
import {
  newReassignmentWorld,
  type ReassignmentWorld,
  setLookups,
  verifyLiveNumber as verifyLive,
  verifyTestNumber as verifyTest,
} from '../../test-support/reassignment.ts';
import { newOwner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';

/**
 * Reassigned-number checks on demand (issue #36 items 2 and 3, ADR 42), on each engine. Live keys and live verifications
 * (their codes texted through the Twilio stand-in) against the stand-in's Lookup answers: the question sent (the number,
 * `LastVerifiedDate` the UTC date of approval), each answer kept as it came (`no_data` never `no`), a failed lookup no
 * check, the ceiling, the key's own mode and account only, the scopes, the verdict refusing after `yes` only, and 10
 * checks asked at once one provider request and one check. Test keys and test verifications (ADR 42's amendment "test
 * mode asks no provider"): answered by the test-mode table (the number's last four digits), the stand-in asked nothing,
 * the month's usage untouched, the day's reuse and "many at once, one record" as in live mode.
 */

const { t, twilio } = useTwilioTestApp({
  // Live numbers are verified again and again through the same API key: past the per-number daily cap of real sends.
  config: { codeSendLimits: { ...DEFAULT_CODE_SEND_LIMITS, perPhonePerDay: 1_000 } },
});

/** A Canadian number (+1 too, in the fiction range): the database covers US numbers only. */
const CANADA = '+14165550123';
const CONCURRENT = '+12015550190';
/**
 * The account's test numbers: another area code than the stand-in's live table, the same last four digits, since the
 * test-mode table goes by those (…0101 yes, …0103 no data, …0120 a provider failure, any other no).
 */
const TEST = {
  yes: '+13125550101',
  no: '+13125550102',
  noData: '+13125550103',
  failure: '+13125550120',
  other: '+13125550177',
  concurrent: '+13125550190',
} as const;
const testNumbers = Object.values(TEST);

const scopes: ApiKeyScope[] = ['verifications:write', 'verifications:read', 'contactability:read'];
let w: ReassignmentWorld;

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);
const checkUrl = (id: string) => `/api/v1/verifications/${id}/reassignment-checks`;

/** Verifies a test number through the test key (nothing is sent; the fixed code approves it). */
const verifyTestNumber = (phone: string) => verifyTest(w, phone);
/** Verifies a number through the live key (the code texted through the stand-in). */
const verifyLiveNumber = (phone: string) => verifyLive(w, twilio, phone);

async function check(key: string, id: string): Promise<ApiReassignmentCheck> {
  const response = await call(key, 'POST', checkUrl(id));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiReassignmentCheck>();
}

const compactDate = (iso: string) => iso.slice(0, 10).replaceAll('-', '');

/** The lookup records of a number (every mode, every status). */
const lookupRowsOf = (phone: string) =>
  t.db.db
    .select({
      isTest: schema.lookups.isTest,
      status: schema.lookups.status,
      answer: schema.lookups.answer,
      reassigned: schema.lookups.reassigned,
    })
    .from(schema.lookups)
    .where(eq(schema.lookups.phone, phone));

beforeAll(async () => {
  twilio.slowMs = 0;
  w = await newReassignmentWorld(t.app, t.clock, testNumbers);
});

describe('POST /api/v1/verifications/{id}/reassignment-checks', () => {
  it('asks with the UTC date of approval and keeps each answer as it came: yes, no, no data, an empty answer, an error code', async () => {
    const cases = [
      [LOOKUP_NUMBERS.reassignedYes, 'yes', null],
      [LOOKUP_NUMBERS.reassignedNo, 'no', null],
      [LOOKUP_NUMBERS.reassignedNoData, 'no_data', null],
      [LOOKUP_NUMBERS.reassignedEmpty, 'no_data', null],
      [LOOKUP_NUMBERS.reassignedNullWithError, 'no_data', 60607],
    ] as const;
    for (const [phone, answer, errorCode] of cases) {
      const id = await verifyLiveNumber(phone);
      const approvedAt = (await readAttempt(t.app, id)).verifiedAt?.toISOString() ?? '';
      const made = await check(w.liveKey, id);
      expect(made).toEqual({
        id: expect.any(String),
        verificationId: id,
        checkedAt: t.clock.now().toISOString(),
        lastVerifiedDate: approvedAt.slice(0, 10),
        answer,
        errorCode,
        provider: 'twilio',
        livemode: true,
      });
      const sent = twilio.lookups.filter((lookup) => lookup.phone === phone);
      expect(sent.map((lookup) => [lookup.fields, lookup.lastVerifiedDate])).toEqual([
        ['reassigned_number', compactDate(approvedAt)],
      ]);
      // The verification carries its latest check; the list every check.
      const read = await call(w.liveKey, 'GET', `/api/v1/verifications/${id}`);
      expect(read.json<ApiVerification>().reassignment).toEqual({
        checkedAt: made.checkedAt,
        lastVerifiedDate: made.lastVerifiedDate,
        answer,
        errorCode,
      });
      const listed = await call(w.liveKey, 'GET', checkUrl(id));
      expect(listed.json<ApiReassignmentCheckList>()).toEqual({ data: [made] });
    }
  });

  it('answers the same question within the day with the same check; a day later with a new one, listed newest first', async () => {
    const id = await verifyLiveNumber(LOOKUP_NUMBERS.reassignedNo);
    const before = await call(w.liveKey, 'GET', checkUrl(id));
    const first = before.json<ApiReassignmentCheckList>().data[0] ?? (await check(w.liveKey, id));
    const asked = twilio.lookups.length;
    t.clock.advance(60_000);
    expect(await check(w.liveKey, id)).toEqual(first);
    expect(twilio.lookups.length).toBe(asked);
    t.clock.advance(25 * 60 * 60 * 1000);
    const later = await check(w.liveKey, id);
    expect(later.id).not.toBe(first.id);
    expect(twilio.lookups.length).toBe(asked + 1);
    const listed = (await call(w.liveKey, 'GET', checkUrl(id))).json<ApiReassignmentCheckList>();
    expect(listed.data).toEqual([later, first]);
  });

  it('a failed lookup answers 503 lookup_failed, retryable, and records no check', async () => {
    const id = await verifyLiveNumber(LOOKUP_NUMBERS.serverError);
    const asked = twilio.lookups.length;
    const response = await call(w.liveKey, 'POST', checkUrl(id));
    expect(response.statusCode, response.body).toBe(503);
    expect(twilio.lookups.length).toBe(asked + 1);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.headers['retry-after']).toBeDefined();
    expect(response.json()).toMatchObject({ code: 'lookup_failed', status: 503 });
    expect((await call(w.liveKey, 'GET', checkUrl(id))).json()).toEqual({ data: [] });
    expect((await call(w.liveKey, 'GET', `/api/v1/verifications/${id}`)).json()).toMatchObject({
      reassignment: null,
    });
  });

  it('refuses what it cannot check (422): a non-US number, an e-mail verification, one not approved, one redacted', async () => {
    const sameForm = await readAttempt(t.app, await verifyTestNumber(TEST.no));
    /** An approved test verification made straight in the database (a form allowing the number's country). */
    const approved = async (options: Parameters<typeof createAttempt>[1]) => {
      const made = await createAttempt(t.app, { sameFormAs: sameForm, status: 'verified', ...options });
      await t.db.db
        .update(schema.verificationAttempts)
        .set({ isTest: true, verifiedAt: t.clock.now() })
        .where(eq(schema.verificationAttempts.id, made.id));
      return made;
    };
    const canadian = await approved({ cellPhone: CANADA });
    const ukAnswer = await call(w.testKey, 'POST', checkUrl(canadian.id));
    expect(ukAnswer.statusCode, ukAnswer.body).toBe(422);
    expect(ukAnswer.json()).toMatchObject({
      code: 'reassignment_check_not_possible',
      detail: expect.stringContaining('US numbers only'),
    });
    const byEmail = await approved({ method: 'email' });
    const emailAnswer = await call(w.testKey, 'POST', checkUrl(byEmail.id));
    expect(emailAnswer.statusCode, emailAnswer.body).toBe(422);
    expect(emailAnswer.json()).toMatchObject({ detail: expect.stringContaining('e-mail') });
    const pending = await createAttempt(t.app, { sameFormAs: sameForm });
    await t.db.db
      .update(schema.verificationAttempts)
      .set({ isTest: true })
      .where(eq(schema.verificationAttempts.id, pending.id));
    const pendingAnswer = await call(w.testKey, 'POST', checkUrl(pending.id));
    expect(pendingAnswer.statusCode, pendingAnswer.body).toBe(422);
    expect(pendingAnswer.json()).toMatchObject({ detail: expect.stringContaining('not approved') });
    // Redacted (an erasure request): its verification's `redacted_at` set, as the redaction does.
    const redacted = await readAttempt(t.app, await verifyTestNumber(TEST.no));
    await t.db.db
      .update(schema.verifications)
      .set({ redactedAt: t.clock.now() })
      .where(eq(schema.verifications.id, redacted.verificationId ?? 0));
    const redactedAnswer = await call(w.testKey, 'POST', checkUrl(redacted.id));
    expect(redactedAnswer.statusCode, redactedAnswer.body).toBe(422);
    expect(redactedAnswer.json()).toMatchObject({ detail: expect.stringContaining('redacted') });
  });

  it('reaches the key’s own mode and account only (404 otherwise), and needs its scopes', async () => {
    const testId = await verifyTestNumber(TEST.no);
    const live = await createAttempt(t.app, {
      sameFormAs: await readAttempt(t.app, testId),
      cellPhone: LOOKUP_NUMBERS.reassignedNo,
      status: 'verified',
    });
    await t.db.db
      .update(schema.verificationAttempts)
      .set({ verifiedAt: t.clock.now() })
      .where(eq(schema.verificationAttempts.id, live.id));
    for (const method of ['POST', 'GET'] as const) {
      expect((await call(w.liveKey, method, checkUrl(testId))).statusCode).toBe(404);
      expect((await call(w.testKey, method, checkUrl(live.id))).statusCode).toBe(404);
      expect((await call(w.testKey, method, checkUrl('AAAAAAAAAAAAAAAAAAAAAA'))).statusCode).toBe(404);
    }
    const liveCheck = await check(w.liveKey, live.id);
    expect(liveCheck).toMatchObject({ verificationId: live.id, answer: 'no', livemode: true });
    // The live question went to the provider itself, and is kept as a live record.
    const lookupRows = await t.db.db
      .select({ isTest: schema.lookups.isTest })
      .from(schema.lookups)
      .where(eq(schema.lookups.phone, LOOKUP_NUMBERS.reassignedNo));
    expect(lookupRows.map((row) => row.isTest)).toContain(false);
    expect(
      twilio.lookups.filter((lookup) => lookup.phone === LOOKUP_NUMBERS.reassignedNo).length,
    ).toBeGreaterThan(0);

    const other = await newOwner(t.app);
    const otherKey = (await newApiKey(other, scopes, 'live')).key;
    for (const method of ['POST', 'GET'] as const) {
      const answer = await call(otherKey, method, checkUrl(live.id));
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found' });
    }
    const readOnly = (await newApiKey(w.owner, ['verifications:read'], 'live')).key;
    expect((await call(readOnly, 'POST', checkUrl(live.id))).statusCode).toBe(403);
    expect((await call(readOnly, 'GET', checkUrl(live.id))).statusCode).toBe(200);
    const writeOnly = (await newApiKey(w.owner, ['verifications:write'], 'live')).key;
    expect((await call(writeOnly, 'GET', checkUrl(live.id))).statusCode).toBe(403);
  });

  it('past the month’s ceiling answers 429 lookup_ceiling_reached and asks nothing', async () => {
    const patched = await w.owner.c.patch(`/api/accounts/${w.owner.accountId}/lookups`, {
      monthlyCeiling: { reassigned: 1 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    try {
      const id = await verifyLiveNumber(LOOKUP_NUMBERS.reassignedYes);
      const asked = twilio.lookups.length;
      const answer = await call(w.liveKey, 'POST', checkUrl(id));
      expect(answer.statusCode, answer.body).toBe(429);
      expect(answer.json()).toMatchObject({ code: 'lookup_ceiling_reached' });
      expect(twilio.lookups.length).toBe(asked);
    } finally {
      await w.owner.c.patch(`/api/accounts/${w.owner.accountId}/lookups`, {
        monthlyCeiling: { reassigned: 1_000_000 },
      });
    }
  });
});

describe('test mode asks no provider (ADR 42 amendment)', () => {
  it('answers from the test-mode table by the last four digits, asks the stand-in nothing, and keeps a test record', async () => {
    const asked = twilio.lookups.length;
    const cases = [
      [TEST.yes, 'yes', 'yes'],
      [TEST.no, 'no', 'no'],
      [TEST.noData, 'no_data', 'no_data_available'],
      [TEST.other, 'no', 'no'],
    ] as const;
    for (const [phone, answer, twilioWord] of cases) {
      const id = await verifyTestNumber(phone);
      const approvedAt = (await readAttempt(t.app, id)).verifiedAt?.toISOString() ?? '';
      const made = await check(w.testKey, id);
      expect(made).toEqual({
        id: expect.any(String),
        verificationId: id,
        checkedAt: t.clock.now().toISOString(),
        lastVerifiedDate: approvedAt.slice(0, 10),
        answer,
        errorCode: null,
        provider: 'twilio',
        livemode: false,
      });
      // The record is kept as a real one is: a test record, the body Twilio-shaped and marked as test mode's.
      const rows = await lookupRowsOf(phone);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        isTest: true,
        status: 'answered',
        reassigned: answer,
        answer: {
          phone_number: phone,
          test_mode: true,
          reassigned_number: {
            is_number_reassigned: twilioWord,
            last_verified_date: approvedAt.slice(0, 10),
            error_code: null,
          },
        },
      });
      const read = await call(w.testKey, 'GET', `/api/v1/verifications/${id}`);
      expect(read.json<ApiVerification>().reassignment).toMatchObject({ answer, errorCode: null });
    }
    expect(twilio.lookups.length).toBe(asked);
    // What a test answer does: a yes refuses the test key's verdict, as a live yes refuses the live one's.
    const query = new URLSearchParams({ phone: TEST.yes, purpose: 'informational' });
    const verdict = await call(w.testKey, 'GET', `/api/v1/contactability?${query}`);
    expect(verdict.json<ContactabilityVerdict>()).toMatchObject({
      allowed: false,
      reasons: [{ code: 'number_reassigned' }],
      livemode: false,
    });
    expect(twilio.lookups.length).toBe(asked);
  });

  it('…0120 simulates a provider failure: 503 lookup_failed, retryable, no check recorded, nothing asked', async () => {
    const id = await verifyTestNumber(TEST.failure);
    const asked = twilio.lookups.length;
    const response = await call(w.testKey, 'POST', checkUrl(id));
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toMatchObject({ code: 'lookup_failed', status: 503 });
    expect((await call(w.testKey, 'GET', checkUrl(id))).json()).toEqual({ data: [] });
    expect((await lookupRowsOf(TEST.failure)).map((row) => [row.isTest, row.status])).toEqual([
      [true, 'failed'],
    ]);
    // Retrying fails again, as the table says (a failure is never reused as an answer).
    expect((await call(w.testKey, 'POST', checkUrl(id))).statusCode).toBe(503);
    expect(twilio.lookups.length).toBe(asked);
  });

  it('is not counted in the month’s usage, nor refused by the ceiling: nothing is spent', async () => {
    const usage = await t.app.services.lookups.thisMonth(w.owner.accountId);
    const first = await check(w.testKey, await verifyTestNumber(TEST.yes));
    expect(first).toMatchObject({ answer: 'yes', livemode: false });
    expect(await t.app.services.lookups.thisMonth(w.owner.accountId)).toEqual(usage);
    await setLookups(w, { monthlyCeiling: { reassigned: 0 } });
    try {
      // A new question (a day later: the day's reuse does not answer it) is still answered with the ceiling at 0.
      t.clock.advance(25 * 60 * 60 * 1000);
      const asked = twilio.lookups.length;
      // (Read again: a day later may be another month.)
      const usageNow = await t.app.services.lookups.thisMonth(w.owner.accountId);
      const later = await check(w.testKey, await verifyTestNumber(TEST.noData));
      expect(later).toMatchObject({ answer: 'no_data', livemode: false });
      expect(twilio.lookups.length).toBe(asked);
      expect(await t.app.services.lookups.thisMonth(w.owner.accountId)).toEqual(usageNow);
      // The live key's question still meets the ceiling.
      const live = await call(
        w.liveKey,
        'POST',
        checkUrl(await verifyLiveNumber(LOOKUP_NUMBERS.reassignedNo)),
      );
      expect(live.statusCode, live.body).toBe(429);
    } finally {
      await setLookups(w, { monthlyCeiling: { reassigned: 1_000_000 } });
    }
  });

  it('answers the same question within the day with the same check; a day later with a new one', async () => {
    const id = await verifyTestNumber(TEST.no);
    const asked = twilio.lookups.length;
    const first = await check(w.testKey, id);
    const records = (await lookupRowsOf(TEST.no)).length;
    t.clock.advance(60_000);
    expect(await check(w.testKey, id)).toEqual(first);
    expect(await lookupRowsOf(TEST.no)).toHaveLength(records);
    t.clock.advance(25 * 60 * 60 * 1000);
    const later = await check(w.testKey, id);
    expect(later.id).not.toBe(first.id);
    expect(await lookupRowsOf(TEST.no)).toHaveLength(records + 1);
    expect((await call(w.testKey, 'GET', checkUrl(id))).json<ApiReassignmentCheckList>().data).toEqual([
      later,
      first,
    ]);
    expect(twilio.lookups.length).toBe(asked);
  });
});

describe('what an answer does: the verdict', () => {
  const verdictOf = async (phone: string): Promise<ContactabilityVerdict> => {
    const query = new URLSearchParams({ phone, purpose: 'informational' });
    const response = await call(w.liveKey, 'GET', `/api/v1/contactability?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ContactabilityVerdict>();
  };

  it('refuses a number whose consent’s latest check says yes (number_reassigned); not after no or no data', async () => {
    for (const phone of [LOOKUP_NUMBERS.reassignedNo, LOOKUP_NUMBERS.reassignedNoData]) {
      const id = await verifyLiveNumber(phone);
      await check(w.liveKey, id);
      expect(await verdictOf(phone)).toMatchObject({
        allowed: true,
        reasons: [],
        consent: { verificationId: id },
      });
    }
    const id = await verifyLiveNumber(LOOKUP_NUMBERS.reassignedYes);
    expect((await verdictOf(LOOKUP_NUMBERS.reassignedYes)).allowed).toBe(true);
    t.clock.advance(25 * 60 * 60 * 1000);
    const made = await check(w.liveKey, id);
    // The customer's systems hear of it once: `consent.number_reassigned`, the check as data; asking again the same
    // day answers the same check and tells nobody twice.
    expect(await check(w.liveKey, id)).toEqual(made);
    const events = await t.db.db
      .select({ data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.type, 'consent.number_reassigned'));
    expect(
      events
        .map((event) => event.data)
        .filter((data) => (data as { verificationId?: string }).verificationId === id),
    ).toEqual([made]);
    expect(await verdictOf(LOOKUP_NUMBERS.reassignedYes)).toMatchObject({
      allowed: false,
      reasons: [{ code: 'number_reassigned', text: expect.stringContaining('disconnected') }],
      consent: { verificationId: id },
    });
    // A new verification is new consent: the old check is not its own.
    await verifyLiveNumber(LOOKUP_NUMBERS.reassignedYes);
    expect((await verdictOf(LOOKUP_NUMBERS.reassignedYes)).allowed).toBe(true);
  });
});

describe('checks asked at once', () => {
  it('10 concurrent checks of one verification make one provider request and one check', async () => {
    const id = await verifyLiveNumber(CONCURRENT);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(w.liveKey, 'POST', checkUrl(id))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(201));
    const checks = answers.map((answer) => answer.json<ApiReassignmentCheck>());
    expect(new Set(checks.map((made) => made.id)).size).toBe(1);
    expect(twilio.lookups.filter((lookup) => lookup.phone === CONCURRENT)).toHaveLength(1);
    const listed = (await call(w.liveKey, 'GET', checkUrl(id))).json<ApiReassignmentCheckList>();
    expect(listed.data).toEqual([checks[0]]);
  });

  it('20 concurrent test-mode checks of one verification make one record and one check, and ask the stand-in nothing', async () => {
    const id = await verifyTestNumber(TEST.concurrent);
    const asked = twilio.lookups.length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(w.testKey, 'POST', checkUrl(id))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(201));
    const checks = answers.map((answer) => answer.json<ApiReassignmentCheck>());
    expect(new Set(checks.map((made) => made.id)).size).toBe(1);
    expect(checks[0]).toMatchObject({ answer: 'no', livemode: false });
    expect(await lookupRowsOf(TEST.concurrent)).toHaveLength(1);
    expect(twilio.lookups.length).toBe(asked);
    const listed = (await call(w.testKey, 'GET', checkUrl(id))).json<ApiReassignmentCheckList>();
    expect(listed.data).toEqual([checks[0]]);
  });
});
