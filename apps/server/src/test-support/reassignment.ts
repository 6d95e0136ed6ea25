import type { ApiKeyScope, LookupSettings } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { keyCall, newApiKey } from './api-v1/client.ts';
import { waitForSend } from './attempts.ts';
import type { TestClock } from './clock.ts';
import { addTestNumber, createPublicForm } from './public-verify.ts';
import { newOwner, type Owner } from './teams.ts';
import type { TwilioStandIn } from './twilio.ts';

/**
 * The world of the reassigned-number checks' tests (issue #36): an owner with a form, the given test numbers (their
 * fixed code approves them, nothing is sent), a test and a live API key; and verifications of those numbers made through
 * API v1 as a customer makes them: test ones with the fixed code, live ones with the code the Twilio stand-in received.
 */

export const REASSIGNMENT_TEST_CODE = '246810';
const scopes: ApiKeyScope[] = ['verifications:write', 'verifications:read', 'contactability:read'];

export type ReassignmentWorld = {
  app: FastifyInstance;
  clock: TestClock;
  owner: Owner;
  formId: number;
  testKey: string;
  liveKey: string;
};

export async function newReassignmentWorld(
  app: FastifyInstance,
  clock: TestClock,
  testNumbers: readonly string[] = [],
  name = 'Acme Inc.',
): Promise<ReassignmentWorld> {
  const owner = await newOwner(app, name);
  const form = await createPublicForm(owner);
  for (const cellPhone of testNumbers) await addTestNumber(owner, cellPhone, REASSIGNMENT_TEST_CODE);
  return {
    app,
    clock,
    owner,
    formId: form.id,
    testKey: (await newApiKey(owner, scopes, 'test')).key,
    liveKey: (await newApiKey(owner, scopes, 'live')).key,
  };
}

/** Starts a verification of `phone` with `key` and checks `code`: approved. Answers its id (API v1's). */
async function verifyWith(
  w: ReassignmentWorld,
  key: string,
  phone: string,
  code: (id: string) => Promise<string>,
): Promise<string> {
  // Past the number's resend cooldown: each call is a new verification.
  w.clock.advance(31_000);
  const call = keyCall(w.app, key);
  const started = await call('POST', '/api/v1/verifications', { formId: w.formId, to: phone });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json<{ id: string }>().id;
  const checked = await call('POST', `/api/v1/verifications/${id}/check`, { code: await code(id) });
  expect(checked.json<{ status: string }>().status).toBe('approved');
  return id;
}

/** A test verification of one of the world's test numbers (its fixed code; nothing is sent). */
export function verifyTestNumber(w: ReassignmentWorld, phone: string): Promise<string> {
  return verifyWith(w, w.testKey, phone, async () => REASSIGNMENT_TEST_CODE);
}

/** A live verification of `phone`: the code texted through the Twilio stand-in, read from what it received. */
export function verifyLiveNumber(
  w: ReassignmentWorld,
  twilio: TwilioStandIn,
  phone: string,
): Promise<string> {
  return verifyWith(w, w.liveKey, phone, async (id) => {
    const sent = await waitForSend(w.app, id);
    expect(sent.sendError).toBeNull();
    const body = twilio.received.filter((sms) => sms.to === phone).at(-1)?.body ?? '';
    const code = /#(\d+)\s*$/.exec(body)?.[1];
    if (!code) throw new Error(`no code texted to ${phone}`);
    return code;
  });
}

/** Changes the world's lookup settings as its owner does (PATCH /api/accounts/{id}/lookups). */
export async function setLookups(w: Pick<ReassignmentWorld, 'owner'>, body: object): Promise<LookupSettings> {
  const response = await w.owner.c.patch(`/api/accounts/${w.owner.accountId}/lookups`, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LookupSettings>();
}
