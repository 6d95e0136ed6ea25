import type { ApiForm } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();

async function newForm(owner: Owner, name: string): Promise<number> {
  const response = await owner.c.post('/api/verify-forms', { account: owner.accountId, name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

describe('GET /api/v1/forms', () => {
  it('lists the key’s account’s forms, newest first, in cursor pages that never repeat or skip', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app, 'Other Inc.');
    const ids = [];
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) ids.push(await newForm(owner, name));
    await newForm(other, 'Not yours');
    const { key } = await newApiKey(owner, ['forms:read']);
    const api = apiV1(t.app, key);

    const first = await api.GET('/api/v1/forms', { params: { query: { limit: 2 } } });
    expect(first.response.status).toBe(200);
    expect(first.data?.data.map((f: ApiForm) => f.name)).toEqual(['Five', 'Four']);
    expect(first.data?.hasMore).toBe(true);
    expect(first.data?.data[0]).toEqual({
      id: ids[4],
      name: 'Five',
      category: '',
      language: 'en',
      isLive: false,
      hostedUrl: expect.stringMatching(/^https:\/\/veriform\.example\/f\/[A-Za-z0-9_-]{16}$/),
      created: expect.any(String),
    });
    // A form made while paging lands before the first page, not inside the next one.
    await newForm(owner, 'Six');
    const seen = [...(first.data?.data ?? [])];
    let cursor = first.data?.nextCursor ?? null;
    while (cursor) {
      const page = await api.GET('/api/v1/forms', { params: { query: { limit: 2, startingAfter: cursor } } });
      expect(page.response.status).toBe(200);
      seen.push(...(page.data?.data ?? []));
      cursor = page.data?.nextCursor ?? null;
      if (cursor) expect(page.data?.hasMore).toBe(true);
    }
    expect(seen.map((f) => f.id)).toEqual([...ids].reverse());
  });

  it('says its limits on every answer and answers problems for bad input, a missing scope and no key', async () => {
    const owner = await newOwner(t.app);
    const { key } = await newApiKey(owner, ['forms:read']);
    const ok = await apiV1(t.app, key).GET('/api/v1/forms');
    expect(ok.response.headers.get('ratelimit-policy')).toBe('"api-key";q=100;w=1');
    expect(ok.response.headers.get('ratelimit')).toMatch(/^"api-key";r=99;t=1$/);

    const bad = await t.app.inject({
      url: '/api/v1/forms?limit=500&startingAfter=abc',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(bad.json()).toMatchObject({
      type: 'https://veriform.example/docs/api#error-invalid_request',
      title: 'Invalid request',
      status: 400,
      code: 'invalid_request',
      errors: [{ pointer: '/limit', detail: expect.any(String) }],
    });
    const badCursor = await t.app.inject({
      url: '/api/v1/forms?startingAfter=abc',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(badCursor.json()).toMatchObject({
      code: 'invalid_request',
      errors: [{ pointer: '/startingAfter' }],
    });

    const { key: auditOnly } = await newApiKey(owner, ['verifications:write']);
    const scope = await t.app.inject({
      url: '/api/v1/forms',
      headers: { authorization: `Bearer ${auditOnly}` },
    });
    expect(scope.statusCode).toBe(403);
    expect(scope.json()).toMatchObject({ code: 'insufficient_scope', status: 403 });

    for (const authorization of [undefined, 'Bearer ', 'Bearer vf_test_nope', `Basic ${key}`]) {
      const anonymous = await t.app.inject({
        url: '/api/v1/forms',
        headers: authorization ? { authorization } : {},
      });
      expect(anonymous.statusCode, authorization).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="Veriform API"');
      expect(anonymous.json()).toMatchObject({ code: 'unauthenticated', status: 401 });
    }
    // The owner's own session is no caller of API v1.
    const session = await owner.c.get('/api/v1/forms');
    expect(session.statusCode).toBe(401);

    const unknown = await t.app.inject({
      url: '/api/v1/nothing',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
  });
});
