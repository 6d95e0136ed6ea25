import type { ApiVerification } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { addTestNumber, createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';

const t = useTestApp();

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
      // A test number's verification is a test object (issue #33).
      livemode: false,
      attemptsLeft: 5,
      expiresAt: expect.any(String),
      resendAfter: expect.any(String),
      hostedUrl: null,
      approvedAt: null,
      // A test number: nothing is sent, but the message is simulated (issue #18), sent at once.
      sentAt: expect.any(String),
      // Evidence is for keys that may read verifications.
      evidence: null,
      // A code started through the API: the hosted page's consent text was not shown (issue #18).
      consent: null,
      // A test number's simulated message: delivered, unless the number is set to fail.
      delivery: { status: 'delivered', errorCode: null, reason: null },
      redactedAt: null,
      // Issue #35: not approved yet, so nothing to revoke (verifications-revoked.test.ts shows them set).
      revokedAt: null,
      revocationId: null,
      reassignment: null,
      // A test number: no carrier lookups (issue #36).
      carrier: null,
      simSwap: null,
      // Not made through a refresh link (issue #36 item 4; refresh-links.test.ts shows one).
      refreshes: null,
      // No legal hold reaches it (issue #37; legal-holds.test.ts shows one).
      heldBy: [],
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
    // A test number's verification is test data: the activity log shows it when asked (issue #33).
    const log = await owner.c.get(`/api/verifications?account=${owner.accountId}&mode=test`);
    expect(log.json<{ count: number }>().count).toBe(1);
    expect((await owner.c.get(`/api/verifications?account=${owner.accountId}`)).json().count).toBe(0);
  });

  it('a live key sends a real code, shown in full with verifications:read, and locks after the 5th wrong code', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const phone = newCellPhone();
    const { key } = await newApiKey(owner, ['verifications:write', 'verifications:read'], 'live');
    const api = apiV1(t.app, key);
    const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.e164 } });
    expect(started.response.status).toBe(201);
    expect(started.data).toMatchObject({
      to: phone.e164,
      test: false,
      source: 'api',
      evidence: { ip: '127.0.0.1', userAgent: 'lightMyRequest' },
    });
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

describe('GET /api/v1/verifications, resend and cancel', () => {
  it('pages newest first without skipping or repeating while new verifications arrive; filters narrow it', async () => {
    const { owner, form, api } = await setUp(['verifications:write', 'verifications:read']);
    const other = await createPublicForm(owner, { name: 'Other form' });
    const phones = Array.from({ length: 7 }, () => newCellPhone());
    for (const phone of phones) await addTestNumber(owner, phone.e164);
    const made: string[] = [];
    for (const [i, phone] of phones.entries()) {
      const started = await api.POST('/api/v1/verifications', {
        body: { formId: i < 5 ? form.id : other.id, to: phone.e164, externalRefId: `lead-${i % 2}` },
      });
      made.push(started.data?.id ?? '');
      // Every other one in the same millisecond as the one before: the id breaks the tie.
      if (i % 2 === 1) t.clock.advance(1000);
    }
    const first = await api.GET('/api/v1/verifications', { params: { query: { limit: 3 } } });
    expect(first.response.status).toBe(200);
    const seen = [...(first.data?.data ?? [])];
    // New ones arrive while the caller pages: they come before the first page, never inside the next ones.
    t.clock.advance(1000);
    const late = newCellPhone();
    await addTestNumber(owner, late.e164);
    await api.POST('/api/v1/verifications', { body: { formId: form.id, to: late.e164 } });
    let cursor = first.data?.nextCursor ?? null;
    while (cursor) {
      const page = await api.GET('/api/v1/verifications', {
        params: { query: { limit: 3, startingAfter: cursor } },
      });
      seen.push(...(page.data?.data ?? []));
      cursor = page.data?.nextCursor ?? null;
    }
    expect(seen.map((v) => v.id).sort()).toEqual([...made].sort());
    expect(new Set(seen.map((v) => v.id)).size).toBe(7);
    const created = seen.map((v) => v.created);
    expect([...created].sort().reverse()).toEqual(created);
    // Full numbers with verifications:read.
    expect(seen.map((v) => v.to).sort()).toEqual(phones.map((p) => p.e164).sort());

    const byForm = await api.GET('/api/v1/verifications', { params: { query: { formId: other.id } } });
    expect(byForm.data?.data).toHaveLength(2);
    const byRef = await api.GET('/api/v1/verifications', { params: { query: { externalRefId: 'lead-1' } } });
    expect(byRef.data?.data.map((v) => v.externalRefId)).toEqual(['lead-1', 'lead-1', 'lead-1']);
    const since = created[2] ?? '';
    const recent = await api.GET('/api/v1/verifications', { params: { query: { 'created[gte]': since } } });
    expect(recent.data?.data.every((v) => v.created >= since)).toBe(true);
    expect(recent.data?.data.length).toBeGreaterThanOrEqual(3);
    t.clock.advance(11 * 60_000);
    const expired = await api.GET('/api/v1/verifications', { params: { query: { status: 'expired' } } });
    expect(expired.data?.data).toHaveLength(8);
    const pending = await api.GET('/api/v1/verifications', { params: { query: { status: 'pending' } } });
    expect(pending.data?.data).toHaveLength(0);

    const badCursor = await api.GET('/api/v1/verifications', { params: { query: { startingAfter: 'x' } } });
    expect(badCursor.response.status).toBe(400);
    // Another account's verification is no cursor here.
    const stranger = await setUp();
    const theirs = await stranger.api.POST('/api/v1/verifications', {
      body: { formId: stranger.form.id, to: stranger.phone.e164 },
    });
    const foreign = await api.GET('/api/v1/verifications', {
      params: { query: { startingAfter: theirs.data?.id ?? '' } },
    });
    expect(foreign.response.status).toBe(400);
    expect((await stranger.api.GET('/api/v1/verifications')).data?.data.map((v) => v.id)).toEqual([
      theirs.data?.id,
    ]);
  });

  it('resend replaces the verification with a new code after 30 s; cancel stops a code at once', async () => {
    const { form, phone, api } = await setUp();
    const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.e164 } });
    const id = started.data?.id ?? '';
    const tooSoon = await api.POST('/api/v1/verifications/{id}/resend', { params: { path: { id } } });
    expect(tooSoon.response.status).toBe(429);
    expect(tooSoon.error).toMatchObject({ code: 'rate_limited' });
    t.clock.advance(31_000);
    const resent = await api.POST('/api/v1/verifications/{id}/resend', { params: { path: { id } } });
    expect(resent.response.status).toBe(201);
    const newId = resent.data?.id ?? '';
    expect(newId).not.toBe(id);
    expect((await api.GET('/api/v1/verifications/{id}', { params: { path: { id } } })).data?.status).toBe(
      'replaced',
    );
    const oldCheck = await api.POST('/api/v1/verifications/{id}/check', {
      params: { path: { id } },
      body: { code: '123456' },
    });
    expect(oldCheck.data?.status).toBe('replaced');

    const canceled = await api.POST('/api/v1/verifications/{id}/cancel', { params: { path: { id: newId } } });
    expect(canceled.data?.status).toBe('canceled');
    const again = await api.POST('/api/v1/verifications/{id}/cancel', { params: { path: { id: newId } } });
    expect(again.data?.status).toBe('canceled');
    const check = await api.POST('/api/v1/verifications/{id}/check', {
      params: { path: { id: newId } },
      body: { code: '123456' },
    });
    expect(check.data?.status).toBe('canceled');
    const resendCanceled = await api.POST('/api/v1/verifications/{id}/resend', {
      params: { path: { id: newId } },
    });
    expect(resendCanceled.response.status).toBe(409);
    expect(resendCanceled.error).toMatchObject({ code: 'verification_not_pending' });
    const cancelReplaced = await api.POST('/api/v1/verifications/{id}/cancel', { params: { path: { id } } });
    expect(cancelReplaced.error).toMatchObject({ code: 'verification_not_pending', status: 409 });
  });

  it('a burst of cancels and right codes at once: one wins, the verification is approved or canceled, never both', async () => {
    const { owner, form, phone, api } = await setUp();
    const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.e164 } });
    const path = { params: { path: { id: started.data?.id ?? '' } } };
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? api.POST('/api/v1/verifications/{id}/cancel', path).then((a) => a.data?.status ?? a.error?.code)
          : api
              .POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '123456' } })
              .then((a) => a.data?.status),
      ),
    );
    const final = (await api.GET('/api/v1/verifications/{id}', path)).data?.status;
    expect(['approved', 'canceled']).toContain(final);
    const made = await t.db.db
      .select({ id: schema.verifications.id })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId));
    expect(made).toHaveLength(final === 'approved' ? 1 : 0);
    if (final === 'approved') expect(answers.filter((a) => a === 'approved')).toHaveLength(1);
    else expect(answers.filter((a) => a === 'approved')).toHaveLength(0);
  });
});
