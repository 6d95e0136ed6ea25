import type {
  ApiReassignmentCheck,
  ApiReassignmentCheckList,
  ApiVerification,
  VerificationDetail,
  VerifyForm,
} from '@veriform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS, STAND_IN_CARRIER } from '../../test-support/twilio-lookup.ts';
import { noApprovedCodeText } from './number-checks.ts';
import {
  APPROVED_AT,
  approvedVerification,
  createForm,
  linkCarrierLookups,
  type Made,
} from './test-helpers.ts';

/**
 * What a verification carries of the carrier (issue #36 items 1–2): the line type, the SIM swap judged when its code
 * was requested, and its latest reassigned-number check, on the app's detail and API v1's object alike; and the app's
 * "Check for reassignment" (`POST|GET /api/verifications/{id}/reassignment-checks`) against the Twilio stand-in.
 * The code send that links the lookups is another slice's: here they are linked as it will, straight in the database.
 */

const { t, twilio } = useTwilioTestApp();

const detailOf = async (owner: Owner, made: Made) => {
  const response = await owner.c.get(`/api/verifications/${made.verificationId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationDetail>();
};
const checksUrl = (made: Made) => `/api/verifications/${made.verificationId}/reassignment-checks`;

let owner: Owner;
let form: VerifyForm;

beforeAll(async () => {
  twilio.slowMs = 0;
  owner = await newOwner(t.app);
  form = await createForm(owner);
});

describe('what a verification carries of the carrier', () => {
  it('the detail and API v1’s object: the line type, the SIM swap as judged, the latest reassigned-number check', async () => {
    const made = await approvedVerification(t, form, { phone: LOOKUP_NUMBERS.reassignedYes });
    const { key } = await newApiKey(owner, ['verifications:read'], 'live');
    const apiObject = async () => {
      const response = await keyCall(t.app, key)('GET', `/api/v1/verifications/${made.attemptId}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ApiVerification>();
    };

    // Nothing asked yet: null, never an empty answer.
    expect(await detailOf(owner, made)).toMatchObject({ carrier: null, simSwap: null, reassignment: null });
    expect(await apiObject()).toMatchObject({ carrier: null, simSwap: null, reassignment: null });

    const swappedAt = new Date(APPROVED_AT.getTime() - 2 * 86_400_000);
    await linkCarrierLookups(t, owner.accountId, made, {
      lineType: 'mobile',
      carrierName: STAND_IN_CARRIER,
      lastSimSwapAt: swappedAt,
      withinWindow: true,
      windowDays: 7,
    });
    const carrier = { lineType: 'mobile', name: STAND_IN_CARRIER };
    const simSwap = { lastSwapAt: swappedAt.toISOString(), withinWindow: true, windowDays: 7 };
    expect(await detailOf(owner, made)).toMatchObject({ carrier, simSwap, reassignment: null });
    expect(await apiObject()).toMatchObject({ carrier, simSwap, reassignment: null });

    // The button's check: the provider says yes; both read the same latest check.
    const checked = await owner.c.post(checksUrl(made));
    expect(checked.statusCode, checked.body).toBe(201);
    const check = checked.json<ApiReassignmentCheck>();
    expect(check).toMatchObject({
      verificationId: made.attemptId,
      answer: 'yes',
      lastVerifiedDate: '2026-03-10',
    });
    const reassignment = {
      checkedAt: check.checkedAt,
      lastVerifiedDate: '2026-03-10',
      answer: 'yes',
      errorCode: null,
    };
    expect((await detailOf(owner, made)).reassignment).toEqual(reassignment);
    expect((await apiObject()).reassignment).toEqual(reassignment);
    expect(twilio.lookups.filter((l) => l.phone === made.phone)).toHaveLength(1);
  });

  it('a carrier that tells no swap date: lastSwapAt null, the judgment kept; a line type this build does not name reads unknown', async () => {
    const made = await approvedVerification(t, form, { phone: '+12015550177' });
    await linkCarrierLookups(t, owner.accountId, made, {
      lineType: 'satellite',
      carrierName: null,
      lastSimSwapAt: null,
      withinWindow: true,
      windowDays: 3,
    });
    expect(await detailOf(owner, made)).toMatchObject({
      carrier: { lineType: 'unknown', name: null },
      simSwap: { lastSwapAt: null, withinWindow: true, windowDays: 3 },
    });
  });
});

describe('POST|GET /api/verifications/{id}/reassignment-checks', () => {
  it('members who may read verifications check and list; others 403; another account’s id 404; CSRF as every unsafe call', async () => {
    const made = await approvedVerification(t, form, { phone: LOOKUP_NUMBERS.reassignedNoData });
    const reader = await join(t.app, owner, { canSearchData: true });
    const plain = await join(t.app, owner, { canSearchData: false });
    const stranger = await newOwner(t.app);

    expect((await owner.c.post(checksUrl(made), {}, { csrf: false })).statusCode).toBe(403);
    expect((await plain.c.post(checksUrl(made))).statusCode).toBe(403);
    expect((await plain.c.get(checksUrl(made))).statusCode).toBe(403);
    expect((await stranger.c.post(checksUrl(made))).statusCode).toBe(404);
    expect((await stranger.c.get(checksUrl(made))).statusCode).toBe(404);
    expect(twilio.lookups.filter((l) => l.phone === made.phone)).toHaveLength(0);

    const checked = await reader.c.post(checksUrl(made));
    expect(checked.statusCode, checked.body).toBe(201);
    // No data is no data, never no.
    expect(checked.json<ApiReassignmentCheck>().answer).toBe('no_data');
    const listed = await reader.c.get(checksUrl(made));
    expect(listed.statusCode).toBe(200);
    expect(listed.json<ApiReassignmentCheckList>().data).toEqual([checked.json()]);
    expect((await detailOf(owner, made)).reassignment?.answer).toBe('no_data');
  });

  it('what cannot be checked says why; a provider that did not answer is 503 to retry; past the ceiling 429', async () => {
    const refusal = async (made: Made) => {
      const response = await owner.c.post(checksUrl(made));
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ MainCode_: string; nonFieldErrors: string[] }>();
    };
    const email = await approvedVerification(t, form, { phone: '+12015550178', method: 'email' });
    expect((await refusal(email)).nonFieldErrors[0]).toMatch(/e-mail/);
    const test = await approvedVerification(t, form, { phone: '+12015550179', isTest: true });
    expect((await refusal(test)).nonFieldErrors[0]).toMatch(/test verification/);
    const codeless = await approvedVerification(t, form, { phone: '+12015550180', withAttempt: false });
    expect(await refusal(codeless)).toMatchObject({ nonFieldErrors: [noApprovedCodeText] });
    expect((await owner.c.get(checksUrl(codeless))).json()).toEqual({ data: [] });

    const failing = await approvedVerification(t, form, { phone: LOOKUP_NUMBERS.serverError });
    const failed = await owner.c.post(checksUrl(failing));
    expect(failed.statusCode, failed.body).toBe(503);
    expect(failed.headers['retry-after']).toBe('30');
    expect(failed.json()).toMatchObject({ MainCode_: 'lookup_failed' });
    expect((await detailOf(owner, failing)).reassignment).toBeNull();

    const capped = await newOwner(t.app);
    const cappedForm = await createForm(capped);
    const patched = await capped.c.patch(`/api/accounts/${capped.accountId}/lookups`, {
      monthlyCeiling: { reassigned: 0 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const overCeiling = await approvedVerification(t, cappedForm, { phone: LOOKUP_NUMBERS.reassignedNo });
    const refused = await capped.c.post(checksUrl(overCeiling));
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ MainCode_: 'lookup_ceiling_reached' });
  });
});
