import type { ApiVerification } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();

async function addTestNumber(owner: Owner, cellPhone: string, code = '123456') {
  const response = await owner.c.post('/api/test-phone-numbers', {
    account: owner.accountId,
    cellPhone,
    code,
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** An owner with a live form, a test number and a test key allowed to write verifications. */
async function setUp(
  scopes: ('verifications:write' | 'verifications:read' | 'forms:read')[] = ['verifications:write'],
) {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  const phone = newCellPhone();
  await addTestNumber(owner, phone.e164);
  const { key } = await newApiKey(owner, scopes);
  return { owner, form, phone, key, api: apiV1(t.app, key) };
}

const problemOf = (response: Response, body: unknown) => ({ status: response.status, body });

describe('POST /api/v1/verifications and /check', () => {
  it('starts a verification to a test number, says a wrong code is incorrect, approves the right one once', async () => {
    const { owner, form, phone, api } = await setUp();
    const started = await api.POST('/api/v1/verifications', {
      body: { formId: form.id, to: phone.typed, externalRefId: 'lead-1' },
    });
    expect(started.response.status).toBe(201);
    const verification = started.data as ApiVerification;
    expect(verification).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      status: 'pending',
      formId: form.id,
      channel: 'sms',
      // Without verifications:read the number is masked.
      to: expect.stringMatching(/^\+1 •.*\d{4}$/),
      email: null,
      externalRefId: 'lead-1',
      source: 'api',
      test: true,
      attemptsLeft: 5,
      expiresAt: expect.any(String),
      resendAfter: expect.any(String),
      hostedUrl: null,
      approvedAt: null,
      created: expect.any(String),
    });
    const id = verification.id ?? '';
    const path = { params: { path: { id } } };

    const wrong = await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '000000' } });
    expect(wrong.response.status).toBe(200);
    expect(wrong.data).toMatchObject({
      status: 'incorrect',
      attemptsLeft: 4,
      verification: { status: 'pending' },
    });

    const right = await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '123456' } });
    expect(right.data).toMatchObject({
      status: 'approved',
      verification: { id, status: 'approved', approvedAt: expect.any(String) },
    });
    const again = await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '123456' } });
    expect(again.data?.status).toBe('already_approved');
    expect((await api.GET('/api/v1/verifications/{id}', path)).data?.status).toBe('approved');

    // Kept as evidence like any other, marked as made through the API.
    const rows = await t.db.db
      .select({ source: schema.verifications.source, ref: schema.verifications.externalRefId })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId));
    expect(rows).toEqual([{ source: 'api', ref: 'lead-1' }]);
    const log = await owner.c.get(`/api/verifications?account=${owner.accountId}`);
    expect(log.json<{ count: number }>().count).toBe(1);
  });

  it('a live key sends a real code, shown in full with verifications:read, and locks after the 5th wrong code', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const phone = newCellPhone();
    const { key } = await newApiKey(owner, ['verifications:write', 'verifications:read'], 'live');
    const api = apiV1(t.app, key);
    const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.e164 } });
    expect(started.response.status).toBe(201);
    expect(started.data).toMatchObject({ to: phone.e164, test: false, source: 'api' });
    const code = await latestCodeTo(t.app, phone.e164);
    const path = { params: { path: { id: started.data?.id ?? '' } } };
    const wrongCode = code === '999999' ? '999998' : '999999';
    const statuses = [];
    for (let i = 0; i < 5; i += 1) {
      const check = await api.POST('/api/v1/verifications/{id}/check', {
        ...path,
        body: { code: wrongCode },
      });
      statuses.push(`${check.data?.status}:${check.data?.attemptsLeft}`);
    }
    expect(statuses).toEqual(['incorrect:4', 'incorrect:3', 'incorrect:2', 'incorrect:1', 'max_attempts:0']);
    const late = await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code } });
    expect(late.data?.status).toBe('max_attempts');
  });

  it('without `to` answers the hosted page bound to the reference, sending nothing', async () => {
    const { form, api } = await setUp();
    const hosted = await api.POST('/api/v1/verifications', {
      body: { formId: form.id, externalRefId: 'lead 7/8' },
    });
    expect(hosted.response.status).toBe(201);
    expect(hosted.data).toMatchObject({
      id: null,
      source: 'hosted',
      hostedUrl: `https://veriform.example/f/${form.publicId}?ref=lead%207%2F8`,
    });
  });

  it('refuses with typed problems: bad numbers, test mode, inactive and unknown forms, other accounts, scopes', async () => {
    const { owner, form, api, key } = await setUp();
    const start = async (body: Record<string, unknown>, client = api) => {
      const { response, error } = await client.POST('/api/v1/verifications', {
        body: body as { formId: number },
      });
      return problemOf(response, error);
    };
    expect(await start({ formId: form.id, to: '12' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_phone', errors: [{ pointer: '/to' }] },
    });
    expect(await start({ formId: form.id, to: '+1 212 555 0100' })).toMatchObject({
      status: 403,
      body: { code: 'test_mode_number_required' },
    });
    expect(await start({ formId: form.id, to: '+44 7400 123456' })).toMatchObject({
      status: 400,
      body: { code: 'phone_country_not_allowed' },
    });
    expect(await start({ formId: 'x', to: '+1 212 555 0100' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', errors: [{ pointer: '/formId' }] },
    });
    expect(await start({ formId: form.id, to: '+1 212 555 0100', surprise: true })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request' },
    });
    const inactive = await createPublicForm(owner, { isLive: false });
    expect(await start({ formId: inactive.id, to: '+1 212 555 0100' })).toMatchObject({
      status: 409,
      body: { code: 'form_not_live' },
    });

    const other = await setUp();
    expect(await start({ formId: other.form.id, to: other.phone.e164 })).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    const theirs = await other.api.POST('/api/v1/verifications', {
      body: { formId: other.form.id, to: other.phone.e164 },
    });
    const path = { params: { path: { id: theirs.data?.id ?? '' } } };
    expect((await api.GET('/api/v1/verifications/{id}', path)).response.status).toBe(404);
    const check = await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '123456' } });
    expect(problemOf(check.response, check.error)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(
      (await api.GET('/api/v1/verifications/{id}', { params: { path: { id: 'nope' } } })).response.status,
    ).toBe(404);

    const { key: formsOnly } = await newApiKey(owner, ['forms:read']);
    expect(await start({ formId: form.id, to: '+1 212 555 0100' }, apiV1(t.app, formsOnly))).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope' },
    });
    expect(key).toMatch(/^vf_test_/);
  });

  it('a burst of starts to one number gets exactly one code; the rest are told when to retry', async () => {
    const { form, phone, api } = await setUp();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.e164 } }),
      ),
    );
    const statuses = answers.map((a) => a.response.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(429)]);
    const refused = answers.find((a) => a.response.status === 429);
    expect(refused?.error).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused?.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a burst of wrong codes counts every one and locks at the fifth, never approving after', async () => {
    const { form, phone, api } = await setUp();
    const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.e164 } });
    const path = { params: { path: { id: started.data?.id ?? '' } } };
    const checks = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '000001' } }),
      ),
    );
    const counts = checks.reduce<Record<string, number>>((acc, c) => {
      const status = c.data?.status ?? 'error';
      acc[status] = (acc[status] ?? 0) + 1;
      return acc;
    }, {});
    expect(counts.incorrect).toBe(4);
    expect(counts.max_attempts).toBe(6);
    const right = await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '123456' } });
    expect(right.data?.status).toBe('max_attempts');
  });
});
