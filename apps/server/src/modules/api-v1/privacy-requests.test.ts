import type { ApiKeyScope, ApiPrivacyRequest, ApiPrivacyRequestList, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { jobsSettled } from '../../test-support/jobs.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { approvedVerification, createForm } from '../verifications/test-helpers.ts';

/**
 * Issue #37 item 3: data-subject requests in API v1. The customer's privacy tooling files them, lists them in cursor
 * pages, reads one, extends it once, carries it out and downloads an access bundle; test keys and live keys see
 * separate worlds (a test request reaches test data only); another account's id answers 404; scopes are enforced.
 */

const t = useTestApp();

const scopes: ApiKeyScope[] = ['privacy:read', 'privacy:write'];

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);

async function fileWith(key: string, body: Record<string, unknown>): Promise<ApiPrivacyRequest> {
  const response = await call(key, 'POST', '/api/v1/privacy-requests', {
    law: 'ccpa',
    requester: { name: 'Ana Díaz', email: 'ana@example.com' },
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiPrivacyRequest>();
}

type World = { owner: Owner; form: VerifyForm; liveKey: string; testKey: string };
let w: World;

beforeAll(async () => {
  const owner = await newOwner(t.app);
  w = {
    owner,
    form: await createForm(owner),
    liveKey: (await newApiKey(owner, scopes, 'live')).key,
    testKey: (await newApiKey(owner, scopes, 'test')).key,
  };
});

describe('POST /api/v1/privacy-requests', () => {
  it('files one: open, due in 45 days under the CCPA, its matches in the key’s mode only, livemode', async () => {
    const phone = '+12015550301';
    await approvedVerification(t, w.form, { phone });
    await approvedVerification(t, w.form, { phone, isTest: true });
    const live = await fileWith(w.liveKey, { type: 'access', phones: [phone] });
    expect(live).toMatchObject({
      status: 'open',
      livemode: true,
      phones: [phone],
      requester: { name: 'Ana Díaz', email: 'ana@example.com' },
      matches: { verifications: 1, attempts: 1 },
    });
    expect(live.filedBy).toMatch(/^vf_live_/);
    const test = await fileWith(w.testKey, { type: 'access', phones: [phone] });
    expect(test).toMatchObject({ livemode: false, matches: { verifications: 1, attempts: 1 } });
    // Each key sees its own mode's request only.
    expect((await call(w.testKey, 'GET', `/api/v1/privacy-requests/${live.id}`)).statusCode).toBe(404);
    expect((await call(w.liveKey, 'GET', `/api/v1/privacy-requests/${test.id}`)).statusCode).toBe(404);
  });

  it('bad input: a problem+json 400 naming the field', async () => {
    for (const body of [
      { type: 'access', law: 'ccpa', requester: { name: 'Ana' } },
      { type: 'access', law: 'ccpa', requester: { name: 'Ana' }, phones: ['123'] },
      {
        type: 'access',
        law: 'ccpa',
        requester: { name: 'Ana' },
        phones: ['+12015550100'],
        receivedAt: '0000-01-01T00:00:00Z',
      },
      { type: 'forget', law: 'ccpa', requester: { name: 'Ana' }, phones: ['+12015550100'] },
      'not an object',
    ]) {
      const response = await call(w.liveKey, 'POST', '/api/v1/privacy-requests', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});

describe('reading, extending, carrying out', () => {
  it('lists in cursor pages, newest received first, filtered by status', async () => {
    const owner = await newOwner(t.app, 'Pages Co');
    const key = (await newApiKey(owner, scopes, 'live')).key;
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const received = new Date(t.clock.now().getTime() - (3 - i) * 60_000).toISOString();
      ids.push(
        (await fileWith(key, { type: 'access', phones: [`+1201555040${i}`], receivedAt: received })).id,
      );
    }
    const first = (await call(key, 'GET', '/api/v1/privacy-requests?limit=2')).json<ApiPrivacyRequestList>();
    expect(first.data.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    const second = (
      await call(key, 'GET', `/api/v1/privacy-requests?limit=2&startingAfter=${first.nextCursor}`)
    ).json<ApiPrivacyRequestList>();
    expect(second.data.map((r) => r.id)).toEqual([ids[0]]);
    expect(second.hasMore).toBe(false);
    const answered = (
      await call(key, 'GET', '/api/v1/privacy-requests?status=answered')
    ).json<ApiPrivacyRequestList>();
    expect(answered.data).toEqual([]);
    expect((await call(key, 'GET', '/api/v1/privacy-requests?startingAfter=dsr_nope')).statusCode).toBe(400);
  });

  it('extends once; carries out (202, then 409); the test request’s erasure reaches test data only', async () => {
    const phone = '+12015550311';
    const live = await approvedVerification(t, w.form, { phone });
    const test = await approvedVerification(t, w.form, { phone, isTest: true });
    const request = await fileWith(w.testKey, { type: 'erasure', law: 'gdpr', phones: [phone] });
    const extended = await call(w.testKey, 'POST', `/api/v1/privacy-requests/${request.id}/extend`, {
      reason: 'Two systems to search.',
    });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(
      new Date(extended.json<ApiPrivacyRequest>().dueAt).getTime() - new Date(request.dueAt).getTime(),
    ).toBe(60 * 86_400_000);
    const again = await call(w.testKey, 'POST', `/api/v1/privacy-requests/${request.id}/extend`, {
      reason: 'More.',
    });
    expect(again.statusCode).toBe(400);

    const started = await call(w.testKey, 'POST', `/api/v1/privacy-requests/${request.id}/carry-out`);
    expect(started.statusCode, started.body).toBe(202);
    const second = await call(w.testKey, 'POST', `/api/v1/privacy-requests/${request.id}/carry-out`);
    expect(second.statusCode).toBe(409);
    expect(second.json<{ code: string }>().code).toBe('privacy_request_not_open');
    await jobsSettled(t.app);
    const read = (
      await call(w.testKey, 'GET', `/api/v1/privacy-requests/${request.id}`)
    ).json<ApiPrivacyRequest>();
    expect(read).toMatchObject({ status: 'answered', answer: { erased: 1, restricted: 0 } });
    const rows = await t.db.db
      .select({ id: schema.verifications.id, redactedAt: schema.verifications.redactedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.cellPhone, phone));
    expect(rows.find((row) => row.id === test.verificationId)?.redactedAt).not.toBeNull();
    expect(rows.find((row) => row.id === live.verificationId)?.redactedAt).toBeNull();
  });

  it('the access bundle: a ZIP for an answered access request, 409 otherwise', async () => {
    const phone = '+12015550321';
    await approvedVerification(t, w.form, { phone });
    const request = await fileWith(w.liveKey, { type: 'access', phones: [phone] });
    const early = await call(w.liveKey, 'GET', `/api/v1/privacy-requests/${request.id}/bundle`);
    expect(early.statusCode).toBe(409);
    expect(early.json<{ code: string }>().code).toBe('privacy_request_no_bundle');
    expect(
      (await call(w.liveKey, 'POST', `/api/v1/privacy-requests/${request.id}/carry-out`, {})).statusCode,
    ).toBe(202);
    await jobsSettled(t.app);
    const bundle = await call(w.liveKey, 'GET', `/api/v1/privacy-requests/${request.id}/bundle`);
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(bundle.rawPayload));
    expect(Object.keys(files)).toContain('data.json');
    expect(Object.keys(files)).toContain('verifications.csv');
  });
});

describe('scopes and accounts', () => {
  it('403 without privacy:read or privacy:write; 404 for another account’s request', async () => {
    const request = await fileWith(w.liveKey, { type: 'access', phones: ['+12015550331'] });
    const readOnly = (await newApiKey(w.owner, ['privacy:read'], 'live')).key;
    const none = (await newApiKey(w.owner, ['verifications:read'], 'live')).key;
    expect((await call(none, 'GET', '/api/v1/privacy-requests')).statusCode).toBe(403);
    expect((await call(none, 'GET', `/api/v1/privacy-requests/${request.id}`)).statusCode).toBe(403);
    expect((await call(none, 'GET', `/api/v1/privacy-requests/${request.id}/bundle`)).statusCode).toBe(403);
    expect((await call(readOnly, 'GET', `/api/v1/privacy-requests/${request.id}`)).statusCode).toBe(200);
    const filed = await call(readOnly, 'POST', '/api/v1/privacy-requests', {
      type: 'access',
      law: 'ccpa',
      requester: { name: 'Ana' },
      phones: ['+12015550332'],
    });
    expect(filed.statusCode).toBe(403);
    expect(filed.json<{ code: string }>().code).toBe('insufficient_scope');
    expect(
      (await call(readOnly, 'POST', `/api/v1/privacy-requests/${request.id}/carry-out`)).statusCode,
    ).toBe(403);
    expect(
      (await call(readOnly, 'POST', `/api/v1/privacy-requests/${request.id}/extend`, { reason: 'x' }))
        .statusCode,
    ).toBe(403);

    const stranger = await newOwner(t.app, 'Stranger Co');
    const strangerKey = (await newApiKey(stranger, scopes, 'live')).key;
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/bundle'],
      ['POST', '/carry-out'],
    ] as const) {
      const response = await call(strangerKey, method, `/api/v1/privacy-requests/${request.id}${path}`);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    const list = (await call(strangerKey, 'GET', '/api/v1/privacy-requests')).json<ApiPrivacyRequestList>();
    expect(list.data).toEqual([]);
  });
});
