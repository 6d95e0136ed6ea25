import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../test-support/app.ts';
import { startTwilioStandIn, type TwilioStandIn, twilioError } from '../test-support/twilio.ts';
import {
  LOOKUP_LINE_TYPE_NUMBERS,
  LOOKUP_NUMBERS,
  lookupAnswer,
  STAND_IN_CARRIER,
} from '../test-support/twilio-lookup.ts';
import {
  type CarrierLookup,
  createCarrierLookup,
  LookupFailedError,
  LookupNotConfiguredError,
  type LookupQuestion,
  readLookupAnswer,
} from './lookup.ts';

/**
 * The Twilio Lookup v2 client (issue #36) against the stand-in over real HTTP, through the same Twilio client and
 * TWILIO_API_URL as the code texts: every case of the stand-in's table, the credentials, and failures as errors to
 * retry (never answers). No database: the client asks and reads, the lookups module keeps.
 */

const TIMEOUT_MS = 300;
const NOW = new Date('2026-06-15T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

let standIn: TwilioStandIn;
let lookup: CarrierLookup;

beforeAll(async () => {
  standIn = await startTwilioStandIn();
  standIn.now = () => NOW;
  // Long enough to show the timeout, short enough for a quick test.
  standIn.slowMs = 2_000;
  lookup = createCarrierLookup(testConfig(standIn.env(), { lookupTimeoutMs: TIMEOUT_MS }));
});
afterAll(async () => {
  await standIn.close();
});

const lineType = (phone: string) => lookup.ask({ kind: 'lineType', phone });
const simSwap = (phone: string) => lookup.ask({ kind: 'simSwap', phone });
const reassigned = (phone: string, lastVerifiedDate = '2026-01-20') =>
  lookup.ask({ kind: 'reassigned', phone, lastVerifiedDate });
const failureOf = async (question: Promise<unknown>) => {
  const error = await question.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LookupFailedError);
  return error;
};

describe('the request', () => {
  it('is one field per question with the account’s Basic auth; a reassigned-number check sends YYYYMMDD', async () => {
    const before = standIn.lookups.length;
    await lineType('+12015550170');
    await simSwap('+12015550170');
    await reassigned('+12015550170', '2025-12-31');
    expect(standIn.lookups.slice(before)).toEqual([
      { phone: '+12015550170', fields: 'line_type_intelligence', lastVerifiedDate: null, status: 200 },
      { phone: '+12015550170', fields: 'sim_swap', lastVerifiedDate: null, status: 200 },
      { phone: '+12015550170', fields: 'reassigned_number', lastVerifiedDate: '20251231', status: 200 },
    ]);
  });

  it('hands back the body exactly as Twilio sent it (the evidence)', async () => {
    const { body } = await reassigned(LOOKUP_NUMBERS.reassignedNo, '2026-01-20');
    const sent = lookupAnswer(
      LOOKUP_NUMBERS.reassignedNo,
      new URLSearchParams({ Fields: 'reassigned_number', LastVerifiedDate: '20260120' }),
      NOW,
    );
    expect(sent).toEqual({ status: 200, body });
    expect(body).toMatchObject({
      reassigned_number: { last_verified_date: '2026-01-20', is_number_reassigned: 'no', error_code: null },
    });
  });

  it('wrong credentials are refused (401, 20003), counted by the stand-in, and an error to retry', async () => {
    const wrong = createCarrierLookup(
      testConfig({ ...standIn.env(), TWILIO_AUTH_TOKEN: 'not-the-token' }, { lookupTimeoutMs: TIMEOUT_MS }),
    );
    const before = { unauthorized: standIn.unauthorized, lookups: standIn.lookups.length };
    const error = await failureOf(wrong.ask({ kind: 'lineType', phone: '+12015550170' }));
    expect(error).toMatchObject({ retryable: true, status: 401, code: 20003 });
    expect(standIn.unauthorized).toBe(before.unauthorized + 1);
    expect(standIn.lookups).toHaveLength(before.lookups);
  });

  it('without TWILIO_* every question fails, not retryable (nothing was asked)', async () => {
    const disabled = createCarrierLookup(testConfig());
    expect(disabled.transport).toBe('disabled');
    const error = await failureOf(disabled.ask({ kind: 'simSwap', phone: '+12015550170' }));
    expect(error).toBeInstanceOf(LookupNotConfiguredError);
    expect(error).toMatchObject({ retryable: false });
  });
});

describe('reassigned number', () => {
  it('yes, no; no data for "no_data_available", for an empty answer and for null, the error code kept', async () => {
    expect((await reassigned(LOOKUP_NUMBERS.reassignedYes)).answer).toEqual({
      kind: 'reassigned',
      answer: 'yes',
      errorCode: null,
    });
    expect((await reassigned(LOOKUP_NUMBERS.reassignedNo)).answer).toMatchObject({ answer: 'no' });
    expect((await reassigned(LOOKUP_NUMBERS.reassignedNoData)).answer).toEqual({
      kind: 'reassigned',
      answer: 'no_data',
      errorCode: null,
    });
    const empty = await reassigned(LOOKUP_NUMBERS.reassignedEmpty);
    expect(empty.body).toMatchObject({ reassigned_number: null });
    expect(empty.answer).toEqual({ kind: 'reassigned', answer: 'no_data', errorCode: null });
    expect((await reassigned(LOOKUP_NUMBERS.reassignedNullWithError)).answer).toEqual({
      kind: 'reassigned',
      answer: 'no_data',
      errorCode: 60607,
    });
  });

  it('never reads anything but a plain "yes" or "no" as one (an error code typed as a string is kept)', () => {
    const answerOf = (field: unknown) => readLookupAnswer('reassigned', { reassigned_number: field });
    expect(answerOf({ is_number_reassigned: 'No' })).toEqual({
      kind: 'reassigned',
      answer: 'no_data',
      errorCode: null,
    });
    expect(answerOf({ is_number_reassigned: 'unknown', error_code: '60600' })).toEqual({
      kind: 'reassigned',
      answer: 'no_data',
      errorCode: 60600,
    });
    expect(answerOf({})).toEqual({ kind: 'reassigned', answer: 'no_data', errorCode: null });
  });
});

describe('provider error codes inside an answer: answers, with their code', () => {
  it('no coverage (60600) and a package not enabled (60606), for every kind', async () => {
    for (const [phone, code] of [
      [LOOKUP_NUMBERS.errorNoCoverage, 60600],
      [LOOKUP_NUMBERS.errorPackageNotEnabled, 60606],
    ] as const) {
      expect((await lineType(phone)).answer).toEqual({
        kind: 'lineType',
        lineType: null,
        carrierName: null,
        errorCode: code,
      });
      expect((await simSwap(phone)).answer).toEqual({
        kind: 'simSwap',
        lastSwapAt: null,
        swappedPeriod: null,
        swappedInPeriod: null,
        carrierName: null,
        errorCode: code,
      });
      expect((await reassigned(phone)).answer).toEqual({
        kind: 'reassigned',
        answer: 'no_data',
        errorCode: code,
      });
    }
  });

  it('an incomplete SIM swap answer from the carrier (60620)', async () => {
    expect((await simSwap(LOOKUP_NUMBERS.simSwapIncomplete)).answer).toMatchObject({
      lastSwapAt: null,
      swappedInPeriod: null,
      errorCode: 60620,
    });
  });
});

describe('SIM swap', () => {
  it('yesterday, a year ago (their instants), and a carrier that tells only "swapped in its period"', async () => {
    expect((await simSwap(LOOKUP_NUMBERS.simSwapYesterday)).answer).toEqual({
      kind: 'simSwap',
      lastSwapAt: new Date(NOW.getTime() - DAY_MS),
      swappedPeriod: 'PT48H',
      swappedInPeriod: true,
      carrierName: STAND_IN_CARRIER,
      errorCode: null,
    });
    expect((await simSwap(LOOKUP_NUMBERS.simSwapYearAgo)).answer).toMatchObject({
      lastSwapAt: new Date(NOW.getTime() - 365 * DAY_MS),
      swappedInPeriod: false,
    });
    expect((await simSwap(LOOKUP_NUMBERS.simSwapPeriodOnly)).answer).toMatchObject({
      lastSwapAt: null,
      swappedPeriod: 'PT24H',
      swappedInPeriod: true,
    });
    expect((await simSwap('+12015550170')).answer).toMatchObject({
      lastSwapAt: null,
      swappedInPeriod: false,
    });
  });

  it('a date that is no instant is no instant (the body keeps it)', () => {
    const answer = readLookupAnswer('simSwap', {
      sim_swap: { last_sim_swap: { last_sim_swap_date: 'soon' } },
    });
    expect(answer).toMatchObject({ lastSwapAt: null });
  });
});

describe('line type', () => {
  it('each of Twilio’s types in our words, the carrier where Twilio names one; a new type reads as unknown', async () => {
    const expected: Record<string, string> = {
      mobile: 'mobile',
      landline: 'landline',
      fixedVoip: 'fixed_voip',
      nonFixedVoip: 'non_fixed_voip',
      tollFree: 'toll_free',
      premium: 'premium',
      sharedCost: 'shared_cost',
      personal: 'personal',
      uan: 'uan',
      voicemail: 'voicemail',
      pager: 'pager',
      unknown: 'unknown',
      satellite: 'unknown',
    };
    for (const [twilioType, phone] of Object.entries(LOOKUP_LINE_TYPE_NUMBERS)) {
      const { answer, body } = await lineType(phone);
      expect(answer, twilioType).toMatchObject({
        kind: 'lineType',
        lineType: expected[twilioType],
        errorCode: null,
      });
      expect(body, twilioType).toMatchObject({ line_type_intelligence: { type: twilioType } });
    }
    expect((await lineType(LOOKUP_LINE_TYPE_NUMBERS.landline ?? '')).answer).toMatchObject({
      carrierName: STAND_IN_CARRIER,
    });
    expect((await lineType(LOOKUP_LINE_TYPE_NUMBERS.tollFree ?? '')).answer).toMatchObject({
      carrierName: null,
    });
  });
});

describe('a failed request is an error to retry, never an answer', () => {
  const questions = (phone: string): LookupQuestion[] => [
    { kind: 'lineType', phone },
    { kind: 'reassigned', phone, lastVerifiedDate: '2026-01-20' },
  ];

  it('500 and 429, with Twilio’s code', async () => {
    for (const question of questions(LOOKUP_NUMBERS.serverError))
      expect(await failureOf(lookup.ask(question))).toMatchObject({
        retryable: true,
        status: 500,
        code: 20500,
      });
    for (const question of questions(LOOKUP_NUMBERS.tooManyRequests))
      expect(await failureOf(lookup.ask(question))).toMatchObject({
        retryable: true,
        status: 429,
        code: 20429,
      });
  });

  it('a refused request (404) is an error too, not worth retrying', async () => {
    expect(await failureOf(lineType(LOOKUP_NUMBERS.notFound))).toMatchObject({
      retryable: false,
      status: 404,
      code: 20404,
    });
  });

  it('a 200 whose body is no JSON, or not the documented shape', async () => {
    expect(await failureOf(lineType(LOOKUP_NUMBERS.notJson))).toMatchObject({ retryable: true, status: 200 });
    standIn.scriptLookup('+12015550171', { status: 200, body: { line_type_intelligence: 'mobile' } });
    expect(await failureOf(lineType('+12015550171'))).toMatchObject({ retryable: true, status: 200 });
  });

  it('a slow answer times out (the client’s timeout, not the stand-in’s delay)', async () => {
    const started = performance.now();
    const error = await failureOf(simSwap(LOOKUP_NUMBERS.slow));
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ retryable: true, status: undefined });
    expect(String(error)).toMatch(new RegExp(`no answer within ${TIMEOUT_MS} ms`));
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(standIn.slowMs);
  });

  it('nobody listening (the network)', async () => {
    const unreachable = createCarrierLookup(
      testConfig({ ...standIn.env(), TWILIO_API_URL: 'http://127.0.0.1:9' }, { lookupTimeoutMs: TIMEOUT_MS }),
    );
    expect(await failureOf(unreachable.ask({ kind: 'lineType', phone: '+12015550170' }))).toMatchObject({
      retryable: true,
      status: undefined,
    });
  });

  it('a scripted failure before the number’s own answer: the next request answers', async () => {
    standIn.scriptLookup('+12015550172', twilioError(503, 20503, 'Service Unavailable'));
    expect(await failureOf(lineType('+12015550172'))).toMatchObject({ retryable: true, status: 503 });
    expect((await lineType('+12015550172')).answer).toMatchObject({ lineType: 'mobile' });
  });
});
