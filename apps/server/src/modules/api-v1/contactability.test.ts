import type {
  ApiKeyScope,
  ApiRevocation,
  ContactabilityCheckList,
  ContactabilityVerdict,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import {
  addTestNumber,
  createPublicForm,
  newCellPhone,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #35: "may I contact this number now?". Consent is the newest verification at the instant asked about, younger
 * than the account's consent age, not revoked since; marketing waits for the federal and state windows at the
 * number's local time. Every verdict is kept and listed; test and live keys ask about their own worlds.
 */

const t = useTestApp();

const scopes: ApiKeyScope[] = [
  'verifications:write',
  'verifications:read',
  'revocations:write',
  'revocations:read',
  'contactability:read',
];
const CODE = '246810';
/** New Jersey (Eastern, no state window) and Florida (Eastern, 8:00–20:00). */
const NJ = '+12015550181';
const FL = '+13055550182';

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);

async function verdictOf(key: string, query: Record<string, string>): Promise<ContactabilityVerdict> {
  const response = await call(key, 'GET', `/api/v1/contactability?${new URLSearchParams(query)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ContactabilityVerdict>();
}

/**
 * The next 15 January after now, at `utcTime`: always winter (Eastern Standard Time, UTC−5), always within a year of
 * now, so each window's edge is at a known UTC instant whatever day the suite runs.
 */
function nextJanuary15(utcTime: string): string {
  const now = t.clock.now();
  let year = now.getUTCFullYear();
  if (new Date(`${year}-01-15T${utcTime}Z`) <= now) year += 1;
  return new Date(`${year}-01-15T${utcTime}Z`).toISOString();
}

type World = { owner: Owner; formId: number; testKey: string; liveKey: string };
let w: World;

/** Verifies a test number through the test key (nothing is sent; the fixed code approves it). */
async function verifyTestNumber(phone: string): Promise<string> {
  t.clock.advance(31_000);
  const started = await call(w.testKey, 'POST', '/api/v1/verifications', { formId: w.formId, to: phone });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json<{ id: string }>().id;
  const checked = await call(w.testKey, 'POST', `/api/v1/verifications/${id}/check`, { code: CODE });
  expect(checked.json<{ status: string }>().status).toBe('approved');
  return id;
}

beforeAll(async () => {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  for (const cellPhone of [NJ, FL]) await addTestNumber(owner, cellPhone, CODE);
  w = {
    owner,
    formId: form.id,
    testKey: (await newApiKey(owner, scopes, 'test')).key,
    liveKey: (await newApiKey(owner, scopes, 'live')).key,
  };
});

describe('GET /api/v1/contactability', () => {
  it('refuses a number never verified, naming the reason, and keeps the verdict', async () => {
    const phone = newCellPhone().e164;
    const verdict = await verdictOf(w.testKey, { phone, purpose: 'informational' });
    expect(verdict).toMatchObject({
      phone,
      allowed: false,
      reasons: [{ code: 'no_consent' }],
      consent: null,
      livemode: false,
      timeZone: 'America/Los_Angeles',
      state: 'CA',
      rulesVersion: expect.any(String),
    });
    const kept = (
      await call(w.testKey, 'GET', `/api/v1/contactability/checks?phone=${encodeURIComponent(phone)}`)
    ).json<ContactabilityCheckList>();
    // Listed later, the same verdict, what it did about a reassigned-number check included (ADR 43).
    expect(verdict).toMatchObject({ reassignment: null, reassignmentCheck: 'off' });
    expect(kept.data).toEqual([verdict]);
  });

  it('allows a verified number inside the window; refuses marketing at 21:00 and says when it may', async () => {
    const verificationId = await verifyTestNumber(NJ);
    const noon = await verdictOf(w.testKey, { phone: NJ, at: nextJanuary15('17:00:00') });
    expect(noon).toMatchObject({
      allowed: true,
      reasons: [],
      consent: { verificationId, certificateId: null },
      revokedAt: null,
      timeZone: 'America/New_York',
      localTime: expect.stringMatching(/T12:00:00-05:00$/),
      withinCallingWindow: true,
      nextAllowedAt: null,
    });
    // 20:59 is in, 21:00 is out (the window runs up to, not including, 21:00); it opens at 8:00 the next morning.
    expect((await verdictOf(w.testKey, { phone: NJ, at: nextJanuary15('01:59:00') })).allowed).toBe(true);
    const nine = await verdictOf(w.testKey, { phone: NJ, at: nextJanuary15('02:00:00') });
    expect(nine).toMatchObject({
      allowed: false,
      reasons: [{ code: 'quiet_hours' }],
      withinCallingWindow: false,
    });
    expect(nine.nextAllowedAt).toBe(nextJanuary15('13:00:00'));
    // Informational texts are not refused by the window; the window is still reported.
    const info = await verdictOf(w.testKey, {
      phone: NJ,
      at: nextJanuary15('02:00:00'),
      purpose: 'informational',
    });
    expect(info).toMatchObject({ allowed: true, withinCallingWindow: false, nextAllowedAt: null });
  });

  it('applies Florida’s 8:00–20:00 to a Florida number: 19:59 in, 20:00 out', async () => {
    await verifyTestNumber(FL);
    expect((await verdictOf(w.testKey, { phone: FL, at: nextJanuary15('00:59:00') })).allowed).toBe(true);
    const eight = await verdictOf(w.testKey, { phone: FL, at: nextJanuary15('01:00:00') });
    expect(eight).toMatchObject({ allowed: false, reasons: [{ code: 'state_quiet_hours' }], state: 'FL' });
    expect(eight.nextAllowedAt).toBe(nextJanuary15('13:00:00'));
  });

  it('a revocation after verification A refuses; verification B after it is new consent', async () => {
    const phone = '+12015550183';
    await addTestNumber(w.owner, phone, CODE);
    const a = await verifyTestNumber(phone);
    t.clock.advance(1000);
    const revoked = await call(w.testKey, 'POST', '/api/v1/revocations', { phone, via: 'phone_call' });
    const revocation = revoked.json<ApiRevocation>();
    const afterA = await verdictOf(w.testKey, { phone, purpose: 'informational' });
    expect(afterA).toMatchObject({
      allowed: false,
      reasons: [{ code: 'revoked' }],
      consent: { verificationId: a },
      revocationId: revocation.id,
      revokedAt: revocation.receivedAt,
    });
    // Asked about an instant before the revocation arrived, the consent stood.
    const before = await verdictOf(w.testKey, {
      phone,
      purpose: 'informational',
      at: new Date(new Date(revocation.receivedAt).getTime() - 500).toISOString(),
    });
    expect(before).toMatchObject({ allowed: true, consent: { verificationId: a }, revokedAt: null });

    const b = await verifyTestNumber(phone);
    const afterB = await verdictOf(w.testKey, { phone, purpose: 'informational' });
    expect(afterB).toMatchObject({ allowed: true, consent: { verificationId: b }, revokedAt: null });
  });

  it('a consent older than the account’s consent age is refused as too old', async () => {
    const phone = '+12015550184';
    await addTestNumber(w.owner, phone, CODE);
    await verifyTestNumber(phone);
    // Beyond the year a verdict may be asked about, so the consent is aged by moving its row instead.
    await t.db.db
      .update(schema.verifications)
      .set({ verifiedAt: new Date(t.clock.now().getTime() - 19 * 31 * DAY) })
      .where(eq(schema.verifications.cellPhone, phone));
    const old = await verdictOf(w.testKey, { phone, purpose: 'informational' });
    expect(old).toMatchObject({ allowed: false, reasons: [{ code: 'consent_too_old' }] });
    expect(old.reasons[0]?.text).toContain('18 months');

    // The owner's setting: 24 months lets it stand; outside 1–60 is refused and changes nothing.
    const patch = (body: unknown) =>
      w.owner.c.request({ method: 'PATCH', url: `/api/accounts/${w.owner.accountId}`, body });
    for (const consentMaxAgeMonths of [0, 61, 1.5, '24'])
      expect((await patch({ consentMaxAgeMonths })).statusCode).toBe(400);
    const changed = await patch({ consentMaxAgeMonths: 24 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ consentMaxAgeMonths: 24 });
    expect((await verdictOf(w.testKey, { phone, purpose: 'informational' })).allowed).toBe(true);
    expect((await patch({ consentMaxAgeMonths: 18 })).statusCode).toBe(200);
  });

  it('a live key asks about live consent only: a real consumer’s verification, never a test one', async () => {
    const form = await createPublicForm(w.owner);
    const { e164 } = await verifyPhone(t.app, form.publicId);
    expect((await verdictOf(w.liveKey, { phone: e164, purpose: 'informational' })).allowed).toBe(true);
    expect((await verdictOf(w.testKey, { phone: e164, purpose: 'informational' })).allowed).toBe(false);
    const live = await verdictOf(w.liveKey, { phone: NJ, purpose: 'informational' });
    expect(live).toMatchObject({ allowed: false, reasons: [{ code: 'no_consent' }], livemode: true });
    const liveChecks = (
      await call(w.liveKey, 'GET', '/api/v1/contactability/checks?limit=100')
    ).json<ContactabilityCheckList>();
    expect(liveChecks.data.every((check) => check.livemode)).toBe(true);
    const stranger = await newOwner(t.app);
    const strangerKey = (await newApiKey(stranger, ['contactability:read'], 'live')).key;
    expect((await verdictOf(strangerKey, { phone: e164, purpose: 'informational' })).allowed).toBe(false);
    const strangerChecks = (
      await call(strangerKey, 'GET', '/api/v1/contactability/checks')
    ).json<ContactabilityCheckList>();
    expect(strangerChecks.data).toHaveLength(1);
  });

  it('refuses bad questions with a problem naming the field', async () => {
    const far = new Date(t.clock.now().getTime() + 400 * DAY).toISOString();
    for (const [query, pointer] of [
      ['phone=12', '/phone'],
      ['', '/phone'],
      [`phone=${encodeURIComponent(NJ)}&channel=fax`, '/channel'],
      [`phone=${encodeURIComponent(NJ)}&purpose=sales`, '/purpose'],
      [`phone=${encodeURIComponent(NJ)}&at=0000-01-01T00:00:00Z`, '/at'],
      [`phone=${encodeURIComponent(NJ)}&at=${encodeURIComponent(far)}`, '/at'],
    ] as const) {
      const response = await call(w.testKey, 'GET', `/api/v1/contactability?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ errors: { pointer: string }[] }>().errors.map((e) => e.pointer)).toContain(
        pointer,
      );
    }
    const noScope = (await newApiKey(w.owner, ['verifications:read'], 'test')).key;
    expect(
      (await call(noScope, 'GET', `/api/v1/contactability?phone=${encodeURIComponent(NJ)}`)).statusCode,
    ).toBe(403);
  });
});

describe('POST /api/v1/contactability', () => {
  it('answers a batch in the order asked, and keeps each verdict', async () => {
    const before = await t.db.db.$count(schema.contactabilityChecks);
    const checks = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0 ? { phone: NJ, purpose: 'informational' } : { phone: newCellPhone().e164 },
    );
    const response = await call(w.testKey, 'POST', '/api/v1/contactability', { checks });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const { results } = response.json<{ results: ContactabilityVerdict[] }>();
    expect(results).toHaveLength(1000);
    expect(results.map((r) => r.phone)).toEqual(checks.map((c) => c.phone));
    expect(results.filter((_r, i) => i % 2 === 0).every((r) => r.allowed)).toBe(true);
    expect(results.filter((_r, i) => i % 2 === 1).every((r) => r.reasons[0]?.code === 'no_consent')).toBe(
      true,
    );
    expect(await t.db.db.$count(schema.contactabilityChecks)).toBe(before + 1000);
  });

  it('refuses the whole batch when one entry is bad, naming it, and keeps nothing', async () => {
    const before = await t.db.db.$count(schema.contactabilityChecks);
    const bad = [{ phone: NJ }, { phone: NJ }, { phone: NJ }, { phone: 'twelve' }];
    const response = await call(w.testKey, 'POST', '/api/v1/contactability', { checks: bad });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { pointer: string }[] }>().errors[0]?.pointer).toBe('/checks/3/phone');
    const tooMany = Array.from({ length: 1001 }, () => ({ phone: NJ }));
    expect((await call(w.testKey, 'POST', '/api/v1/contactability', { checks: tooMany })).statusCode).toBe(
      400,
    );
    expect((await call(w.testKey, 'POST', '/api/v1/contactability', { checks: [] })).statusCode).toBe(400);
    expect(await t.db.db.$count(schema.contactabilityChecks)).toBe(before);
  });
});
