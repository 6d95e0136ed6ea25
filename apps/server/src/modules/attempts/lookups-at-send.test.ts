import {
  type ApiProblem,
  type ApiVerification,
  publicVerifyTexts,
  type SendCodeResponse,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CODE_SEND_LIMITS } from '../../config.ts';
import type { SimSwapAnswer } from '../../messaging/lookup.ts';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { readAttempt } from '../../test-support/attempts.ts';
import { DAY } from '../../test-support/clock.ts';
import {
  addTestNumber,
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../test-support/public-verify.ts';
import { statementsOf } from '../../test-support/statements.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_LINE_TYPE_NUMBERS, LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';
import { simSwapWithinWindow } from '../lookups/index.ts';

/**
 * The carrier lookups asked when a code is requested (issue #36 item 1, ADR 42), through both doors (the hosted page's
 * send-code and API v1's POST /api/v1/verifications), against the Twilio stand-in: what is asked and when, what is
 * linked to the attempt, the carrier's line type in place of the number pattern's guess, the SIM swap's judgment and
 * refusal, and a send that goes on when the carrier tells nothing (a failure, the ceiling, a slow answer).
 */

/** The magic numbers are asked again by each test (its own account): the per-number daily limit must not stop them. */
const { t, twilio } = useTwilioTestApp({
  config: { codeSendLimits: { ...DEFAULT_CODE_SEND_LIMITS, perPhonePerDay: 1_000 } },
});

/** Longer than the send's bound (2.5 s), so the slow number's answer comes after the send went on. */
const SLOW_MS = 3_500;

beforeAll(() => {
  // "Yesterday" and "a year ago" of the SIM swap answers follow the app's clock.
  const clock = t.clock;
  twilio.now = () => clock.now();
  twilio.slowMs = SLOW_MS;
});

const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;

const lineTypeNumber = (type: string): string => {
  const phone = LOOKUP_LINE_TYPE_NUMBERS[type];
  if (!phone) throw new Error(`no stand-in number for ${type}`);
  return phone;
};

/** Where the stand-in's list of requests stood when the test began (the magic numbers are asked by several tests). */
let since = 0;
beforeEach(() => {
  since = twilio.lookups.length;
});

/** What the stand-in was asked about a number during this test: the fields of each request. */
const askedOf = (phone: string) =>
  twilio.lookups
    .slice(since)
    .filter((lookup) => lookup.phone === phone)
    .map((lookup) => lookup.fields);

async function setLookups(owner: Owner, settings: Record<string, unknown>) {
  const response = await owner.c.patch(`/api/accounts/${owner.accountId}/lookups`, settings);
  expect(response.statusCode, response.body).toBe(200);
}

/** An owner whose account asks the given lookups at send, with a live form (in `language`). */
async function setUp(settings: Record<string, unknown> = {}, language: 'en' | 'es' = 'en') {
  const owner = await newOwner(t.app);
  if (Object.keys(settings).length > 0) await setLookups(owner, settings);
  const form = await createPublicForm(owner, { language });
  return { owner, form };
}

/** The hosted page's send-code, by text unless `email` is given. */
async function sendCode(publicId: string, cellPhone: string, email?: string) {
  const consumer = await newConsumer(t.app, publicId);
  return consumer.sendCode(publicId, {
    cellPhone,
    method: email ? 'email' : 'sms',
    ...(email ? { email } : {}),
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
}

/** The attempt a 201 made, with its links to the lookups. */
async function attemptOf(response: { statusCode: number; body: string; json: <T>() => T }) {
  expect(response.statusCode, response.body).toBe(201);
  return readAttempt(t.app, response.json<SendCodeResponse>().attemptId);
}

const linksOf = (attempt: Awaited<ReturnType<typeof readAttempt>>) => ({
  lineTypeLookupId: attempt.lineTypeLookupId,
  simSwapLookupId: attempt.simSwapLookupId,
  simSwapWithinWindow: attempt.simSwapWithinWindow,
  simSwapWindowDays: attempt.simSwapWindowDays,
});

const NOTHING_LINKED = {
  lineTypeLookupId: null,
  simSwapLookupId: null,
  simSwapWithinWindow: null,
  simSwapWindowDays: null,
};

/** The account's lookup records of a number, by kind. */
async function lookupsOf(owner: Owner, phone: string) {
  const rows = await t.db.db
    .select()
    .from(schema.lookups)
    .where(and(eq(schema.lookups.accountId, owner.accountId), eq(schema.lookups.phone, phone)));
  return rows;
}

/** The account's attempts to a number: a refusal creates none. */
async function attemptsTo(owner: Owner, phone: string) {
  return t.db.db
    .select({ id: schema.verificationAttempts.id })
    .from(schema.verificationAttempts)
    .where(
      and(
        eq(schema.verificationAttempts.accountId, owner.accountId),
        eq(schema.verificationAttempts.cellPhone, phone),
      ),
    );
}

describe('settings off (the default)', () => {
  it('asks nothing and links nothing', async () => {
    const { form } = await setUp();
    const phone = newCellPhone();
    const attempt = await attemptOf(await sendCode(form.publicId, phone.typed));
    expect(askedOf(phone.e164)).toEqual([]);
    expect(linksOf(attempt)).toEqual(NOTHING_LINKED);
  });

  it('costs the send no statement: the settings ride in the form’s statement (ADR 26, one round trip)', async () => {
    const { form } = await setUp();
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    const statements = await statementsOf(t.db.db, async () => {
      const response = await consumer.sendCode(form.publicId, {
        cellPhone: phone.typed,
        method: 'sms',
        ...consumer.consentFields(),
        ...consumer.pageFields(),
      });
      expect(response.statusCode, response.body).toBe(201);
    });
    // The form with its settings (lookup_settings joined), then the send itself (the send job's read may follow).
    expect(statements[0]).toMatch(/LEFT JOIN lookup_settings/);
    expect(statements[1]).toMatch(/issue_verification_code/);
    // No statement of its own reads the settings or the lookups.
    expect(statements.filter((text) => /lookup_settings|"lookups"|from lookups/i.test(text))).toEqual([
      statements[0],
    ]);
  });

  it('asks nothing when only the reassigned-number checks are on', async () => {
    const { form } = await setUp({ reassignedChecks: true });
    const phone = newCellPhone();
    const attempt = await attemptOf(await sendCode(form.publicId, phone.typed));
    expect(askedOf(phone.e164)).toEqual([]);
    expect(linksOf(attempt)).toEqual(NOTHING_LINKED);
  });
});

describe('settings on, a text to a real number', () => {
  it('asks the line type and the SIM swap and links both records, with the judgment and its window', async () => {
    const { owner, form } = await setUp({ lineType: true, simSwap: true, simSwapWindowDays: 10 });
    const phone = LOOKUP_NUMBERS.simSwapYearAgo;
    const attempt = await attemptOf(await sendCode(form.publicId, phone));
    expect(askedOf(phone).sort()).toEqual(['line_type_intelligence', 'sim_swap']);
    const records = await lookupsOf(owner, phone);
    const lineType = records.find((row) => row.kind === 'lineType');
    const simSwap = records.find((row) => row.kind === 'simSwap');
    expect(lineType).toMatchObject({
      status: 'answered',
      lineType: 'mobile',
      carrierName: 'Stand-in Wireless',
    });
    expect(simSwap).toMatchObject({
      status: 'answered',
      lastSimSwapAt: new Date(t.clock.now().getTime() - 365 * DAY),
    });
    expect(linksOf(attempt)).toEqual({
      lineTypeLookupId: lineType?.id,
      simSwapLookupId: simSwap?.id,
      simSwapWithinWindow: false,
      simSwapWindowDays: 10,
    });
  });

  it('asks only what is on: the line type alone', async () => {
    const { form } = await setUp({ lineType: true });
    const phone = newCellPhone();
    const attempt = await attemptOf(await sendCode(form.publicId, phone.typed));
    expect(askedOf(phone.e164)).toEqual(['line_type_intelligence']);
    expect(attempt.lineTypeLookupId).not.toBeNull();
    expect(attempt.simSwapLookupId).toBeNull();
    expect(attempt.simSwapWithinWindow).toBeNull();
  });

  it('through API v1 with a live key too', async () => {
    const { owner, form } = await setUp({ lineType: true, simSwap: true });
    const { key } = await newApiKey(owner, ['verifications:write', 'verifications:read'], 'live');
    const phone = LOOKUP_NUMBERS.simSwapYesterday;
    const response = await keyCall(t.app, key)('POST', '/api/v1/verifications', {
      formId: form.id,
      to: phone,
    });
    expect(response.statusCode, response.body).toBe(201);
    const started = response.json<ApiVerification>();
    const attempt = await readAttempt(t.app, started.id ?? '');
    expect(askedOf(phone).sort()).toEqual(['line_type_intelligence', 'sim_swap']);
    expect(attempt.lineTypeLookupId).not.toBeNull();
    expect(attempt).toMatchObject({ simSwapWithinWindow: true, simSwapWindowDays: 7 });
    // The answer carries what the carrier said, as a later read of the verification does.
    expect(started.carrier).toEqual({ lineType: 'mobile', name: 'Stand-in Wireless' });
    expect(started.simSwap).toEqual({
      lastSwapAt: new Date(t.clock.now().getTime() - DAY).toISOString(),
      withinWindow: true,
      windowDays: 7,
    });
    const read = await keyCall(t.app, key)('GET', `/api/v1/verifications/${started.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<ApiVerification>()).toMatchObject({
      carrier: started.carrier,
      simSwap: started.simSwap,
    });
  });
});

describe('the carrier’s line type, in place of the number pattern’s guess', () => {
  it('refuses a number the carrier calls a landline, with the landline text, and keeps the record', async () => {
    const { owner, form } = await setUp({ lineType: true });
    const phone = lineTypeNumber('landline');
    const response = await sendCode(form.publicId, phone);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ cellPhone: [en.cellPhoneLandline] });
    expect(await attemptsTo(owner, phone)).toEqual([]);
    expect(await lookupsOf(owner, phone)).toMatchObject([{ kind: 'lineType', lineType: 'landline' }]);
  });

  it('refuses the other types a text does not reach (toll-free, VoIP, pager…), in the form’s language', async () => {
    const { owner, form } = await setUp({ lineType: true }, 'es');
    for (const type of ['tollFree', 'nonFixedVoip', 'pager']) {
      const response = await sendCode(form.publicId, lineTypeNumber(type));
      expect(response.statusCode, type).toBe(400);
      expect(response.json()).toMatchObject({ cellPhone: [es.cellPhoneUnsupported] });
      expect(await attemptsTo(owner, lineTypeNumber(type))).toEqual([]);
    }
  });

  it('keeps the pattern’s answer where the carrier told nothing (unknown, a type it may add later, an error code)', async () => {
    const { form } = await setUp({ lineType: true });
    for (const phone of [
      lineTypeNumber('unknown'),
      lineTypeNumber('satellite'),
      LOOKUP_NUMBERS.errorNoCoverage,
    ]) {
      const attempt = await attemptOf(await sendCode(form.publicId, phone));
      // Asked and linked: the record says what the carrier answered (nothing to go by).
      expect(attempt.lineTypeLookupId, phone).not.toBeNull();
    }
  });

  it('accepts a number the pattern calls a landline when the carrier answers mobile', async () => {
    // +44 20 7946 0018 is a London fixed line by the pattern; the stand-in answers `mobile` for it.
    const landline = '+44 20 7946 0018';
    const e164 = '+442079460018';
    const { owner, form } = await setUp({ lineType: true });
    const countries = await owner.c.patch(`/api/accounts/${owner.accountId}`, {
      phoneCountries: ['US', 'GB'],
    });
    expect(countries.statusCode, countries.body).toBe(200);
    const attempt = await attemptOf(await sendCode(form.publicId, landline));
    expect(askedOf(e164)).toEqual(['line_type_intelligence']);
    expect(attempt.cellPhone).toBe(e164);
    expect(attempt.lineTypeLookupId).not.toBeNull();

    // Through API v1 too, its resend included (the carrier's answer of the day is reused).
    const { key } = await newApiKey(owner, ['verifications:write'], 'live');
    t.clock.advance(60_000);
    const started = await keyCall(t.app, key)('POST', '/api/v1/verifications', {
      formId: form.id,
      to: landline,
    });
    expect(started.statusCode, started.body).toBe(201);
    t.clock.advance(60_000);
    const resent = await keyCall(t.app, key)(
      'POST',
      `/api/v1/verifications/${started.json<ApiVerification>().id}/resend`,
    );
    expect(resent.statusCode, resent.body).toBe(201);
    expect(resent.json<ApiVerification>().carrier).toEqual({ lineType: 'mobile', name: 'Stand-in Wireless' });
    expect(askedOf(e164)).toEqual(['line_type_intelligence']);
    const api = await keyCall(t.app, key)('POST', '/api/v1/verifications', {
      formId: form.id,
      to: landline,
      channel: 'email',
      email: 'x@example.com',
    });
    // E-mail asks no carrier: the pattern's landline stands.
    expect(api.statusCode).toBe(400);
    expect(api.json<ApiProblem>()).toMatchObject({ code: 'invalid_phone' });

    // Line type off: the pattern refuses, nothing is asked.
    await setLookups(owner, { lineType: false });
    const other = '+44 20 7946 0019';
    const refused = await sendCode(form.publicId, other);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ cellPhone: [en.cellPhoneLandline] });
    expect(askedOf('+442079460019')).toEqual([]);
  });
});

describe('the SIM swap within the window', () => {
  it('flags a swap yesterday, not one a year ago; a carrier that tells no date but a swap in its period (PT24H) is flagged', async () => {
    const { form } = await setUp({ simSwap: true });
    const judged = async (phone: string) => {
      const attempt = await attemptOf(await sendCode(form.publicId, phone));
      expect(attempt.simSwapLookupId, phone).not.toBeNull();
      return { withinWindow: attempt.simSwapWithinWindow, windowDays: attempt.simSwapWindowDays };
    };
    expect(await judged(LOOKUP_NUMBERS.simSwapYesterday)).toEqual({ withinWindow: true, windowDays: 7 });
    expect(await judged(LOOKUP_NUMBERS.simSwapYearAgo)).toEqual({ withinWindow: false, windowDays: 7 });
    expect(await judged(LOOKUP_NUMBERS.simSwapPeriodOnly)).toEqual({ withinWindow: true, windowDays: 7 });
  });

  it('judges nothing where the carrier told nothing (an error code): linked, no judgment', async () => {
    const { form } = await setUp({ simSwap: true });
    const attempt = await attemptOf(await sendCode(form.publicId, LOOKUP_NUMBERS.simSwapIncomplete));
    expect(attempt.simSwapLookupId).not.toBeNull();
    expect(attempt.simSwapWithinWindow).toBeNull();
    expect(attempt.simSwapWindowDays).toBeNull();
  });

  it('refuses the text when the account says so: no code, no attempt, the record kept; in the form’s language', async () => {
    for (const [language, texts] of [
      ['en', en],
      ['es', es],
    ] as const) {
      const { owner, form } = await setUp({ simSwap: true, refuseOnSimSwap: true }, language);
      const phone = LOOKUP_NUMBERS.simSwapYesterday;
      const response = await sendCode(form.publicId, phone);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ cellPhone: [texts.cellPhoneSimSwap] });
      expect(await attemptsTo(owner, phone)).toEqual([]);
      expect(await lookupsOf(owner, phone)).toMatchObject([{ kind: 'simSwap', status: 'answered' }]);
      // A swap a year ago is no reason to refuse.
      await attemptOf(await sendCode(form.publicId, LOOKUP_NUMBERS.simSwapYearAgo));
      // E-mail is what the refusal offers: it asks nothing and goes.
      await attemptOf(await sendCode(form.publicId, phone, 'consumer@example.com'));
    }
  });

  it('API v1 answers 400 sim_swap_recent on `to`', async () => {
    const { owner, form } = await setUp({ simSwap: true, refuseOnSimSwap: true });
    const { key } = await newApiKey(owner, ['verifications:write'], 'live');
    const phone = LOOKUP_NUMBERS.simSwapPeriodOnly;
    const response = await keyCall(t.app, key)('POST', '/api/v1/verifications', {
      formId: form.id,
      to: phone,
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json<ApiProblem>()).toMatchObject({
      code: 'sim_swap_recent',
      errors: [{ detail: en.cellPhoneSimSwap, pointer: '/to' }],
    });
    expect(await attemptsTo(owner, phone)).toEqual([]);
  });
});

describe('a carrier that tells nothing never stops the code', () => {
  it('a provider error (500, 429): the code goes, nothing linked, the failures recorded', async () => {
    const { owner, form } = await setUp({ lineType: true, simSwap: true, refuseOnSimSwap: true });
    for (const phone of [LOOKUP_NUMBERS.serverError, LOOKUP_NUMBERS.tooManyRequests]) {
      const attempt = await attemptOf(await sendCode(form.publicId, phone));
      expect(linksOf(attempt), phone).toEqual(NOTHING_LINKED);
      expect(attempt.sealedCode, phone).not.toBeNull();
      expect((await lookupsOf(owner, phone)).map((row) => row.status)).toEqual(['failed', 'failed']);
    }
  });

  it('the ceiling reached: the code goes, nothing asked, nothing linked', async () => {
    const { form } = await setUp({
      lineType: true,
      simSwap: true,
      monthlyCeiling: { lineType: 0, simSwap: 0 },
    });
    const phone = newCellPhone();
    const attempt = await attemptOf(await sendCode(form.publicId, phone.typed));
    expect(askedOf(phone.e164)).toEqual([]);
    expect(linksOf(attempt)).toEqual(NOTHING_LINKED);
  });

  it('a slow answer: the send does not wait for it; its record lands later and the next send reuses it', async () => {
    const { owner, form } = await setUp({ lineType: true });
    const phone = LOOKUP_NUMBERS.slow;
    const attempt = await attemptOf(await sendCode(form.publicId, phone));
    expect(linksOf(attempt)).toEqual(NOTHING_LINKED);
    // The abandoned lookup still lands (the day's reuse answers the next send from it).
    for (;;) {
      const [row] = await lookupsOf(owner, phone);
      if (row?.status === 'answered') break;
      expect(row?.status).toBe('pending');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.clock.advance(60_000);
    const next = await attemptOf(await sendCode(form.publicId, phone));
    const [record] = await lookupsOf(owner, phone);
    expect(next.lineTypeLookupId).toBe(record?.id);
    expect(askedOf(phone)).toEqual(['line_type_intelligence']);
  });
});

describe('nothing is asked where no real subscriber is reached', () => {
  it('a test number (the hosted page) and a test key (API v1)', async () => {
    const { owner, form } = await setUp({ lineType: true, simSwap: true, refuseOnSimSwap: true });
    const phone = LOOKUP_NUMBERS.simSwapYesterday;
    await addTestNumber(owner, phone);
    const hosted = await attemptOf(await sendCode(form.publicId, phone));
    expect(hosted.isTest).toBe(true);
    expect(linksOf(hosted)).toEqual(NOTHING_LINKED);

    t.clock.advance(60_000);
    const { key } = await newApiKey(owner, ['verifications:write'], 'test');
    const api = await keyCall(t.app, key)('POST', '/api/v1/verifications', { formId: form.id, to: phone });
    expect(api.statusCode, api.body).toBe(201);
    expect(linksOf(await readAttempt(t.app, api.json<{ id: string }>().id))).toEqual(NOTHING_LINKED);
    expect(askedOf(phone)).toEqual([]);
  });

  it('a code by e-mail: the address is proved, not the number', async () => {
    const { form } = await setUp({ lineType: true, simSwap: true, refuseOnSimSwap: true });
    const phone = LOOKUP_NUMBERS.simSwapPeriodOnly;
    const attempt = await attemptOf(await sendCode(form.publicId, phone, 'someone@example.com'));
    expect(attempt.method).toBe('email');
    expect(linksOf(attempt)).toEqual(NOTHING_LINKED);
    expect(askedOf(phone)).toEqual([]);
  });
});

describe('the SIM swap judgment (simSwapWithinWindow)', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  const answer = (fields: Partial<SimSwapAnswer>): SimSwapAnswer => ({
    kind: 'simSwap',
    lastSwapAt: null,
    swappedPeriod: null,
    swappedInPeriod: null,
    carrierName: null,
    errorCode: null,
    ...fields,
  });

  it('by the date where the carrier tells it: within the window’s days before the request, its last instant included', () => {
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);
    expect(simSwapWithinWindow(answer({ lastSwapAt: daysAgo(7) }), 7, now)).toBe(true);
    expect(simSwapWithinWindow(answer({ lastSwapAt: new Date(daysAgo(7).getTime() - 1) }), 7, now)).toBe(
      false,
    );
    expect(simSwapWithinWindow(answer({ lastSwapAt: daysAgo(2), swappedInPeriod: false }), 1, now)).toBe(
      false,
    );
  });

  it('by the carrier’s period where it tells no date: a swap in a period no longer than the window', () => {
    const inPeriod = (swappedPeriod: string) => answer({ swappedPeriod, swappedInPeriod: true });
    expect(simSwapWithinWindow(inPeriod('PT48H'), 2, now)).toBe(true);
    expect(simSwapWithinWindow(inPeriod('P7D'), 7, now)).toBe(true);
    expect(simSwapWithinWindow(inPeriod('P1W'), 6, now)).toBe(false);
    expect(simSwapWithinWindow(inPeriod('P30D'), 7, now)).toBe(false);
    // A period we cannot read proves nothing within the window.
    expect(simSwapWithinWindow(inPeriod('soon'), 7, now)).toBe(false);
    expect(simSwapWithinWindow(answer({ swappedPeriod: 'PT24H', swappedInPeriod: false }), 7, now)).toBe(
      false,
    );
  });

  it('nothing to judge when the carrier told nothing', () => {
    expect(simSwapWithinWindow(answer({ errorCode: 60620 }), 7, now)).toBeNull();
  });
});
