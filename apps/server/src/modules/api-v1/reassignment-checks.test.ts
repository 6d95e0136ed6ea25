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
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { createAttempt, readAttempt } from '../../test-support/attempts.ts';
import {
  newReassignmentWorld,
  type ReassignmentWorld,
  verifyTestNumber as verifyTest,
} from '../../test-support/reassignment.ts';
import { newOwner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';

/**
 * Reassigned-number checks on demand (issue #36 items 2 and 3, ADR 42), on each engine, against the Twilio stand-in's
 * Lookup answers: the question sent (the number, `LastVerifiedDate` the UTC date of approval), each answer kept as it
 * came (`no_data` never `no`), a failed lookup no check, the key's own mode and account only, the scopes, the verdict
 * refusing after `yes` only, and 10 checks asked at once one provider request and one check.
 */

const { t, twilio } = useTwilioTestApp();

/** A Canadian number (+1 too, in the fiction range): the database covers US numbers only. */
const CANADA = '+14165550123';
const CONCURRENT = '+12015550190';
const testNumbers = [
  LOOKUP_NUMBERS.reassignedYes,
  LOOKUP_NUMBERS.reassignedNo,
  LOOKUP_NUMBERS.reassignedNoData,
  LOOKUP_NUMBERS.reassignedEmpty,
  LOOKUP_NUMBERS.reassignedNullWithError,
  LOOKUP_NUMBERS.serverError,
  CONCURRENT,
];

const scopes: ApiKeyScope[] = ['verifications:write', 'verifications:read', 'contactability:read'];
let w: ReassignmentWorld;

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);
const checkUrl = (id: string) => `/api/v1/verifications/${id}/reassignment-checks`;

/** Verifies a test number through the test key (nothing is sent; the fixed code approves it). */
const verifyTestNumber = (phone: string) => verifyTest(w, phone);

async function check(key: string, id: string): Promise<ApiReassignmentCheck> {
  const response = await call(key, 'POST', checkUrl(id));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiReassignmentCheck>();
}

const compactDate = (iso: string) => iso.slice(0, 10).replaceAll('-', '');

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
      const id = await verifyTestNumber(phone);
      const approvedAt = (await readAttempt(t.app, id)).verifiedAt?.toISOString() ?? '';
      const made = await check(w.testKey, id);
      expect(made).toEqual({
        id: expect.any(String),
        verificationId: id,
        checkedAt: t.clock.now().toISOString(),
        lastVerifiedDate: approvedAt.slice(0, 10),
        answer,
        errorCode,
        provider: 'twilio',
        livemode: false,
      });
      const sent = twilio.lookups.filter((lookup) => lookup.phone === phone);
      expect(sent.map((lookup) => [lookup.fields, lookup.lastVerifiedDate])).toEqual([
        ['reassigned_number', compactDate(approvedAt)],
      ]);
      // The verification carries its latest check; the list every check.
      const read = await call(w.testKey, 'GET', `/api/v1/verifications/${id}`);
      expect(read.json<ApiVerification>().reassignment).toEqual({
        checkedAt: made.checkedAt,
        lastVerifiedDate: made.lastVerifiedDate,
        answer,
        errorCode,
      });
      const listed = await call(w.testKey, 'GET', checkUrl(id));
      expect(listed.json<ApiReassignmentCheckList>()).toEqual({ data: [made] });
    }
  });

  it('answers the same question within the day with the same check; a day later with a new one, listed newest first', async () => {
    const id = await verifyTestNumber(LOOKUP_NUMBERS.reassignedNo);
    const before = await call(w.testKey, 'GET', checkUrl(id));
    const first = before.json<ApiReassignmentCheckList>().data[0] ?? (await check(w.testKey, id));
    t.clock.advance(60_000);
    expect(await check(w.testKey, id)).toEqual(first);
    t.clock.advance(25 * 60 * 60 * 1000);
    const later = await check(w.testKey, id);
    expect(later.id).not.toBe(first.id);
    const listed = (await call(w.testKey, 'GET', checkUrl(id))).json<ApiReassignmentCheckList>();
    expect(listed.data).toEqual([later, first]);
  });

  it('a failed lookup answers 503 lookup_failed, retryable, and records no check', async () => {
    const id = await verifyTestNumber(LOOKUP_NUMBERS.serverError);
    const response = await call(w.testKey, 'POST', checkUrl(id));
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.headers['retry-after']).toBeDefined();
    expect(response.json()).toMatchObject({ code: 'lookup_failed', status: 503 });
    expect((await call(w.testKey, 'GET', checkUrl(id))).json()).toEqual({ data: [] });
    expect((await call(w.testKey, 'GET', `/api/v1/verifications/${id}`)).json()).toMatchObject({
      reassignment: null,
    });
  });

  it('refuses what it cannot check (422): a non-US number, an e-mail verification, one not approved, one redacted', async () => {
    const sameForm = await readAttempt(t.app, await verifyTestNumber(LOOKUP_NUMBERS.reassignedNo));
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
    const redacted = await readAttempt(t.app, await verifyTestNumber(LOOKUP_NUMBERS.reassignedNo));
    await t.db.db
      .update(schema.verifications)
      .set({ redactedAt: t.clock.now() })
      .where(eq(schema.verifications.id, redacted.verificationId ?? 0));
    const redactedAnswer = await call(w.testKey, 'POST', checkUrl(redacted.id));
    expect(redactedAnswer.statusCode, redactedAnswer.body).toBe(422);
    expect(redactedAnswer.json()).toMatchObject({ detail: expect.stringContaining('redacted') });
  });

  it('reaches the key’s own mode and account only (404 otherwise), and needs its scopes', async () => {
    const testId = await verifyTestNumber(LOOKUP_NUMBERS.reassignedNo);
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
    // A test record is not a live one: the live question went to the provider itself.
    const lookupRows = await t.db.db
      .select({ isTest: schema.lookups.isTest })
      .from(schema.lookups)
      .where(eq(schema.lookups.phone, LOOKUP_NUMBERS.reassignedNo));
    expect(lookupRows.map((row) => row.isTest)).toContain(false);

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
      const id = await verifyTestNumber(LOOKUP_NUMBERS.reassignedYes);
      const asked = twilio.lookups.length;
      const answer = await call(w.testKey, 'POST', checkUrl(id));
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

describe('what an answer does: the verdict', () => {
  const verdictOf = async (phone: string): Promise<ContactabilityVerdict> => {
    const query = new URLSearchParams({ phone, purpose: 'informational' });
    const response = await call(w.testKey, 'GET', `/api/v1/contactability?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ContactabilityVerdict>();
  };

  it('refuses a number whose consent’s latest check says yes (number_reassigned); not after no or no data', async () => {
    for (const phone of [LOOKUP_NUMBERS.reassignedNo, LOOKUP_NUMBERS.reassignedNoData]) {
      const id = await verifyTestNumber(phone);
      await check(w.testKey, id);
      expect(await verdictOf(phone)).toMatchObject({
        allowed: true,
        reasons: [],
        consent: { verificationId: id },
      });
    }
    const id = await verifyTestNumber(LOOKUP_NUMBERS.reassignedYes);
    expect((await verdictOf(LOOKUP_NUMBERS.reassignedYes)).allowed).toBe(true);
    t.clock.advance(25 * 60 * 60 * 1000);
    const made = await check(w.testKey, id);
    // The customer's systems hear of it once: `consent.number_reassigned`, the check as data; asking again the same
    // day answers the same check and tells nobody twice.
    expect(await check(w.testKey, id)).toEqual(made);
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
    await verifyTestNumber(LOOKUP_NUMBERS.reassignedYes);
    expect((await verdictOf(LOOKUP_NUMBERS.reassignedYes)).allowed).toBe(true);
  });
});

describe('checks asked at once', () => {
  it('10 concurrent checks of one verification make one provider request and one check', async () => {
    const id = await verifyTestNumber(CONCURRENT);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(w.testKey, 'POST', checkUrl(id))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(201));
    const checks = answers.map((answer) => answer.json<ApiReassignmentCheck>());
    expect(new Set(checks.map((made) => made.id)).size).toBe(1);
    expect(twilio.lookups.filter((lookup) => lookup.phone === CONCURRENT)).toHaveLength(1);
    const listed = (await call(w.testKey, 'GET', checkUrl(id))).json<ApiReassignmentCheckList>();
    expect(listed.data).toEqual([checks[0]]);
  });
});
