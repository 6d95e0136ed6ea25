import { type ApiKeyScope, type ApiVerification, apiKeyScopes } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiV1, keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import {
  addTestNumber,
  createPublicForm,
  newCellPhone,
  newConsumer,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #33 item 1 (ADR 29): test mode is a separate world. A `vf_test_` key reads and acts only on test objects (made
 * for the account's test numbers), a `vf_live_` key only on live ones; the other mode's object answers exactly as an
 * unknown id does, and nothing a real consumer produced is reachable with a test key.
 */

const t = useTestApp();

const allScopes: ApiKeyScope[] = [...apiKeyScopes];
const TEST_CODE = '424242';

type World = {
  owner: Owner;
  formId: number;
  testNumber: string;
  liveKey: string;
  testKey: string;
  /** Approved on the hosted page by a real consumer (a live number). */
  liveApproved: string;
  /** Pending, started with the live key to a real number. */
  livePending: string;
  /** Approved through the test key on the test number. */
  testApproved: string;
  /** Pending, started with the test key on the test number. */
  testPending: string;
  /** Asked for on the hosted page to the test number (item 3: test mode). */
  hostedTest: string;
};

let w: World;

const raw = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);

beforeAll(async () => {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  const testNumber = newCellPhone().e164;
  await addTestNumber(owner, testNumber, TEST_CODE);
  const liveKey = (await newApiKey(owner, allScopes, 'live')).key;
  const testKey = (await newApiKey(owner, allScopes, 'test')).key;

  const liveApproved = (await verifyPhone(t.app, form.publicId)).sent.attemptId;
  const livePending = await apiV1(t.app, liveKey).POST('/api/v1/verifications', {
    body: { formId: form.id, to: newCellPhone().e164 },
  });
  expect(livePending.response.status).toBe(201);

  const test = apiV1(t.app, testKey);
  const testApproved = await test.POST('/api/v1/verifications', {
    body: { formId: form.id, to: testNumber },
  });
  expect(testApproved.response.status).toBe(201);
  const testApprovedId = testApproved.data?.id ?? '';
  const checked = await test.POST('/api/v1/verifications/{id}/check', {
    params: { path: { id: testApprovedId } },
    body: { code: TEST_CODE },
  });
  expect(checked.data?.status).toBe('approved');

  // The hosted page, to the test number: no real consumer made it. (30 s between codes to one number.)
  t.clock.advance(31_000);
  const consumer = await newConsumer(t.app, form.publicId);
  const hosted = await consumer.sendCode(form.publicId, {
    cellPhone: testNumber,
    method: 'sms',
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  expect(hosted.statusCode, hosted.body).toBe(201);
  const hostedTest = hosted.json<{ attemptId: string }>().attemptId;

  // Started last, so the hosted-page code (same form and number) does not replace it.
  t.clock.advance(31_000);
  const testPending = await test.POST('/api/v1/verifications', { body: { formId: form.id, to: testNumber } });
  expect(testPending.response.status, JSON.stringify(testPending.error)).toBe(201);

  w = {
    owner,
    formId: form.id,
    testNumber,
    liveKey,
    testKey,
    liveApproved,
    livePending: livePending.data?.id ?? '',
    testApproved: testApprovedId,
    testPending: testPending.data?.id ?? '',
    hostedTest,
  };
});

const unknownId = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Every route that takes a verification's id, as a key reaches it. */
const idRoutes = (id: string): { method: 'GET' | 'POST'; url: string; body?: unknown }[] => [
  { method: 'GET', url: `/api/v1/verifications/${id}` },
  { method: 'POST', url: `/api/v1/verifications/${id}/check`, body: { code: TEST_CODE } },
  { method: 'POST', url: `/api/v1/verifications/${id}/resend` },
  { method: 'POST', url: `/api/v1/verifications/${id}/cancel` },
  { method: 'POST', url: `/api/v1/verifications/${id}/refresh` },
  { method: 'GET', url: `/api/v1/verifications/${id}/certificate` },
  { method: 'GET', url: `/api/v1/verifications/${id}/certificate.pdf` },
];

async function listIds(key: string): Promise<string[]> {
  const response = await raw(key, 'GET', '/api/v1/verifications?limit=100');
  expect(response.statusCode).toBe(200);
  return response.json<{ data: ApiVerification[] }>().data.map((v) => v.id ?? '');
}

describe('API v1 verifications: each key reaches its own mode only', () => {
  it('lists: a test key only test verifications (the hosted page’s to a test number included), a live key only live ones', async () => {
    const test = await listIds(w.testKey);
    expect(new Set(test)).toEqual(new Set([w.testApproved, w.testPending, w.hostedTest]));
    const live = await listIds(w.liveKey);
    expect(new Set(live)).toEqual(new Set([w.liveApproved, w.livePending]));

    const tested = await raw(w.testKey, 'GET', '/api/v1/verifications?limit=100');
    for (const v of tested.json<{ data: ApiVerification[] }>().data)
      expect(v).toMatchObject({ livemode: false });
    const lived = await raw(w.liveKey, 'GET', '/api/v1/verifications?limit=100');
    for (const v of lived.json<{ data: ApiVerification[] }>().data)
      expect(v).toMatchObject({ livemode: true });
  });

  it('a verification of the other mode answers every route exactly as an unknown id does (404, nothing changed)', async () => {
    for (const [key, others] of [
      [w.testKey, [w.liveApproved, w.livePending]],
      [w.liveKey, [w.testApproved, w.testPending, w.hostedTest]],
    ] as const) {
      for (const id of others) {
        for (const [route, unknown] of idRoutes(id).map((r, i) => [r, idRoutes(unknownId)[i]] as const)) {
          if (!unknown) throw new Error('no twin');
          const answer = await raw(key, route.method, route.url, route.body);
          const expected = await raw(key, unknown.method, unknown.url, unknown.body);
          expect(answer.statusCode, `${route.method} ${route.url}`).toBe(404);
          expect(answer.headers['content-type']).toContain('application/problem+json');
          expect(answer.json(), route.url).toEqual(expected.json());
        }
      }
    }
    // Nothing was canceled, checked or replaced by the refused calls.
    const statuses = await t.db.db
      .select({ id: schema.verificationAttempts.id, status: schema.verificationAttempts.status })
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.accountId, w.owner.accountId));
    const statusOf = (id: string) => statuses.find((s) => s.id === id)?.status;
    expect(statusOf(w.livePending)).toBe('pending');
    expect(statusOf(w.testPending)).toBe('pending');
    expect(statusOf(w.liveApproved)).toBe('verified');
    expect(statusOf(w.testApproved)).toBe('verified');
    expect(statuses).toHaveLength(5);
  });

  it('each key reads its own: the verification and its certificate (JSON and PDF)', async () => {
    for (const [key, id, livemode] of [
      [w.testKey, w.testApproved, false],
      [w.liveKey, w.liveApproved, true],
    ] as const) {
      const got = await raw(key, 'GET', `/api/v1/verifications/${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toMatchObject({ id, livemode, test: !livemode, status: 'approved' });
      expect((await raw(key, 'GET', `/api/v1/verifications/${id}/certificate`)).statusCode).toBe(200);
      expect((await raw(key, 'GET', `/api/v1/verifications/${id}/certificate.pdf`)).statusCode).toBe(200);
    }
  });

  it('a cursor of the other mode is no cursor of this list (400), as an unknown one', async () => {
    for (const [key, other] of [
      [w.testKey, w.livePending],
      [w.liveKey, w.testPending],
    ] as const) {
      const answer = await raw(key, 'GET', `/api/v1/verifications?startingAfter=${other}`);
      const unknown = await raw(key, 'GET', `/api/v1/verifications?startingAfter=${unknownId}`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual(unknown.json());
    }
  });

  it('a live key never starts a verification to a test number (Stripe’s live mode declines test cards): 403', async () => {
    const response = await raw(w.liveKey, 'POST', '/api/v1/verifications', {
      formId: w.formId,
      to: w.testNumber,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'live_mode_test_number', status: 403 });
  });

  it('an Idempotency-Key replays only its own key’s answer: a test key reusing a live key’s gets its own', async () => {
    const idempotencyKey = 'same-key-both-modes';
    const send = (key: string, to: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/verifications',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        payload: JSON.stringify({ formId: w.formId, to }),
      });
    const live = await send(w.liveKey, newCellPhone().e164);
    expect(live.statusCode).toBe(201);
    t.clock.advance(31_000);
    const test = await send(w.testKey, w.testNumber);
    expect(test.statusCode, test.body).toBe(201);
    expect(test.json().id).not.toBe(live.json().id);
    expect(test.json()).toMatchObject({ livemode: false });
    // The same key's replay is its own object again, in its own mode.
    const replay = await send(w.testKey, w.testNumber);
    expect(replay.json()).toEqual(test.json());
  });
});

describe('API v1 events: each key lists and reads its own mode’s', () => {
  type Event = { id: string; type: string; livemode: boolean; data: { id?: string; livemode?: boolean } };
  const events = async (key: string): Promise<Event[]> => {
    const response = await raw(key, 'GET', '/api/v1/events?limit=100');
    expect(response.statusCode).toBe(200);
    return response.json<{ data: Event[] }>().data;
  };

  it('a test key lists only events about test objects; a live key none of them; the other’s id is a 404', async () => {
    const test = await events(w.testKey);
    const live = await events(w.liveKey);
    expect(test.length).toBeGreaterThan(0);
    expect(live.length).toBeGreaterThan(0);
    for (const event of test) expect(event).toMatchObject({ livemode: false, data: { livemode: false } });
    for (const event of live) expect(event.livemode).toBe(true);
    const liveIds = new Set([w.liveApproved, w.livePending]);
    expect(test.some((e) => liveIds.has(e.data.id ?? ''))).toBe(false);
    // The events of the code sent to the test number from the hosted page are test events too (item 3).
    expect(test.some((e) => e.data.id === w.hostedTest)).toBe(true);
    expect(live.some((e) => e.data.id === w.liveApproved && e.type === 'verification.approved')).toBe(true);

    const [oneLive] = live;
    const [oneTest] = test;
    if (!oneLive || !oneTest) throw new Error('no events');
    const unknown = await raw(w.testKey, 'GET', '/api/v1/events/evt_AAAAAAAAAAAAAAAAAAAAAA');
    for (const [key, id] of [
      [w.testKey, oneLive.id],
      [w.liveKey, oneTest.id],
    ] as const) {
      const answer = await raw(key, 'GET', `/api/v1/events/${id}`);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual(unknown.json());
      const cursor = await raw(key, 'GET', `/api/v1/events?startingAfter=${id}`);
      expect(cursor.statusCode).toBe(400);
    }
    expect((await raw(w.testKey, 'GET', `/api/v1/events/${oneTest.id}`)).json()).toMatchObject({
      livemode: false,
    });
  });

  it('stores each event’s mode from its object, whichever emitter stored it (TypeScript or SQL)', async () => {
    const rows = await t.db.db
      .select({
        type: schema.webhookEvents.type,
        data: schema.webhookEvents.data,
        livemode: schema.webhookEvents.livemode,
      })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.accountId, w.owner.accountId));
    const types = new Set<string>();
    for (const row of rows) {
      const data = row.data as { test?: boolean };
      if (typeof data.test === 'boolean') {
        expect(row.livemode, row.type).toBe(!data.test);
        types.add(`${row.type}:${row.livemode}`);
      }
    }
    // code_sent is stored by SQL (emit_webhook_event), approved by judge_code's SQL, canceled by TypeScript.
    expect([...types]).toEqual(
      expect.arrayContaining([
        'verification.code_sent:false',
        'verification.code_sent:true',
        'verification.approved:false',
        'verification.approved:true',
      ]),
    );
  });
});

describe('API v1 audit events', () => {
  it('a test key reads none (the audit log is live data); a live key reads them, each livemode true', async () => {
    const test = await raw(w.testKey, 'GET', '/api/v1/audit-events?limit=100');
    expect(test.statusCode).toBe(200);
    expect(test.json()).toEqual({ data: [], hasMore: false, nextCursor: null });
    const live = await raw(w.liveKey, 'GET', '/api/v1/audit-events?limit=100');
    expect(live.statusCode).toBe(200);
    const data = live.json<{ data: { livemode: boolean }[] }>().data;
    expect(data.length).toBeGreaterThan(0);
    for (const event of data) expect(event.livemode).toBe(true);
  });
});

describe('the session API is for people: a key of either mode reaches none of it', () => {
  it('the activity log, its export, a detail, its certificate, the attempts and the audit log answer a key 403', async () => {
    const [verification] = await t.db.db
      .select({ id: schema.verifications.id })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, w.owner.accountId))
      .limit(1);
    if (!verification) throw new Error('no verification');
    const account = w.owner.accountId;
    for (const key of [w.testKey, w.liveKey]) {
      for (const url of [
        `/api/verifications?account=${account}`,
        `/api/verifications/export-csv?account=${account}`,
        `/api/verifications/${verification.id}`,
        `/api/verifications/${verification.id}/timeline`,
        `/api/verifications/${verification.id}/certificate`,
        `/api/verification-attempts?account=${account}`,
        `/api/verification-attempts/export-csv?account=${account}`,
        `/api/audit-events?account=${account}`,
        `/api/audit-events/export?account=${account}`,
        `/api/verify-forms?account=${account}`,
      ]) {
        const response = await raw(key, 'GET', url);
        expect(response.statusCode, url).toBe(403);
      }
    }
  });
});
