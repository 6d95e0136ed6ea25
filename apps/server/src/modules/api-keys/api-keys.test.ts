import { createHash } from 'node:crypto';
import {
  type ApiKey,
  type ApiKeyScope,
  apiKeyTexts,
  type CreatedApiKey,
  errorTexts,
  MAX_ACTIVE_API_KEYS,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { statementsOf as statementsOfDb } from '../../test-support/statements.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { generateApiKey } from './key-format.ts';

const t = useTestApp();

const notFound = { detail: errorTexts.notFound, MainCode_: 'not_found' };
const permissionDenied = { detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' };
const notAuthenticated = { detail: errorTexts.notAuthenticated, MainCode_: 'not_authenticated' };

type Body = { name?: unknown; mode?: unknown; scopes?: unknown; account?: unknown };

const create = (owner: Pick<Owner, 'c'>, accountId: number, body: Body = {}) =>
  owner.c.post('/api/api-keys', {
    account: accountId,
    name: 'CRM',
    mode: 'live',
    scopes: ['forms:read'],
    ...body,
  });

async function createKey(owner: Owner, body: Body = {}): Promise<CreatedApiKey> {
  const response = await create(owner, owner.accountId, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiKey>();
}

const listOf = async (person: Pick<Owner, 'c'>, accountId: number): Promise<ApiKey[]> => {
  const response = await person.c.get(`/api/api-keys?account=${accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: ApiKey[] }>().results;
};

const revoke = (person: Pick<Owner, 'c'>, id: number) =>
  person.c.request({ method: 'DELETE', url: `/api/api-keys/${id}` });

/** A request as a customer's system makes it: the key, no cookie. */
const withKey = (key: string, url: string, ip = '10.77.0.1') =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` }, remoteAddress: ip });

const statementsOf = (call: () => Promise<unknown>) => statementsOfDb(t.db.db, call);

describe('/api/api-keys (owners)', () => {
  it('creates a key shown once, lists it without the secret, and keeps only its SHA-256', async () => {
    const owner = await newOwner(t.app);
    const created = await createKey(owner, {
      name: 'Salesforce sync',
      mode: 'live',
      scopes: ['verifications:write', 'forms:read'],
    });
    expect(created).toEqual({
      id: expect.any(Number),
      account: owner.accountId,
      name: 'Salesforce sync',
      mode: 'live',
      prefix: created.key.slice(0, 12),
      scopes: ['verifications:write', 'forms:read'],
      created: t.clock.now().toISOString(),
      lastUsedAt: null,
      lastUsedIp: null,
      revokedAt: null,
      createdBy: { id: owner.userId, name: 'Ada Lovelace', email: owner.email },
      key: expect.stringMatching(/^vf_live_[0-9A-Za-z]{49}$/),
    });
    const { key, ...listed } = created;
    expect(await listOf(owner, owner.accountId)).toEqual([listed]);
    const list = await owner.c.get(`/api/api-keys?account=${owner.accountId}`);
    expect(list.body).not.toContain(key);
    expect(list.body).not.toContain(key.slice(12));

    const [row] = await t.db.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, created.id));
    // PGlite answers a Uint8Array, node-postgres a Buffer.
    expect(Buffer.from(row?.secretHash ?? []).toString('hex')).toBe(
      createHash('sha256').update(key).digest('hex'),
    );
    expect(row?.createdByUserId).toBe(owner.userId);
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
  });

  it('lists newest first, revoked keys included; revoking twice keeps the first time and never un-revokes', async () => {
    const owner = await newOwner(t.app);
    const first = await createKey(owner, { name: 'First', mode: 'test' });
    t.clock.advance(1000);
    const second = await createKey(owner, { name: 'Second' });
    expect((await listOf(owner, owner.accountId)).map((k) => k.name)).toEqual(['Second', 'First']);

    const revoked = await revoke(owner, first.id);
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    const revokedAt = t.clock.now().toISOString();
    t.clock.advance(5 * MINUTE);
    const again = await revoke(owner, first.id);
    expect(again.statusCode).toBe(204);

    const list = await listOf(owner, owner.accountId);
    expect(list.map((k) => [k.name, k.revokedAt])).toEqual([
      ['Second', null],
      ['First', revokedAt],
    ]);
    expect(second.revokedAt).toBeNull();
  });

  it('a member may neither list, create nor revoke keys (403)', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const key = await createKey(owner);
    const list = await member.c.get(`/api/api-keys?account=${owner.accountId}`);
    const created = await create(member, owner.accountId);
    const revoked = await revoke(member, key.id);
    for (const response of [list, created, revoked]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(permissionDenied);
    }
    expect((await listOf(owner, owner.accountId)).map((k) => k.revokedAt)).toEqual([null]);
  });

  it('another account: 404 for its list, for creating in it and for revoking its key', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app, 'Stranger Ltd.');
    const key = await createKey(owner);
    for (const response of [
      await stranger.c.get(`/api/api-keys?account=${owner.accountId}`),
      await create(stranger, owner.accountId),
      await revoke(stranger, key.id),
      await revoke(stranger, 2_147_483_647),
      await revoke(stranger, 0),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect(await listOf(stranger, stranger.accountId)).toEqual([]);
    expect((await listOf(owner, owner.accountId)).map((k) => k.revokedAt)).toEqual([null]);
  });

  it('an owner whose address is unverified gets 403; logged out 401', async () => {
    const owner = await newOwner(t.app);
    await t.db.db
      .update(schema.users)
      .set({ emailIsVerified: false })
      .where(eq(schema.users.id, owner.userId));
    for (const response of [
      await owner.c.get(`/api/api-keys?account=${owner.accountId}`),
      await create(owner, owner.accountId),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        detail: errorTexts.emailNotVerified,
        MainCode_: 'email_not_verified',
      });
    }
    await owner.c.post('/api/auth/logout');
    expect((await owner.c.get(`/api/api-keys?account=${owner.accountId}`)).statusCode).toBe(401);
    expect((await create(owner, owner.accountId)).statusCode).toBe(401);
  });

  it('wrong types, missing fields, an oversize name, unknown or repeated scopes: 400 on the field', async () => {
    const owner = await newOwner(t.app);
    const cases: [Body, string][] = [
      [{ name: undefined }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'two\nlines' }, 'name'],
      [{ mode: 'prod' }, 'mode'],
      [{ mode: undefined }, 'mode'],
      [{ scopes: [] }, 'scopes'],
      [{ scopes: 'forms:read' }, 'scopes'],
      [{ scopes: undefined }, 'scopes'],
      [{ scopes: ['forms:read', 'forms:read'] }, 'scopes'],
      [{ scopes: ['forms:write'] }, 'scopes.0'],
      [{ account: 'abc' }, 'account'],
    ];
    for (const [body, field] of cases) {
      const response = await create(owner, owner.accountId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const answer = response.json();
      expect(answer.MainCode_, JSON.stringify(body)).toBe('validation_error');
      expect(answer[field]?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(
      (await create(owner, owner.accountId, { scopes: ['forms:read', 'forms:read'] })).json(),
    ).toMatchObject({
      scopes: ['Each scope may be named once.'],
    });
    expect((await owner.c.get('/api/api-keys?account=abc')).statusCode).toBe(400);
    // A 100-character name is fine.
    expect((await create(owner, owner.accountId, { name: 'x'.repeat(100) })).statusCode).toBe(201);
    expect(await listOf(owner, owner.accountId)).toHaveLength(1);
  });

  it(`at most ${MAX_ACTIVE_API_KEYS} unrevoked keys, even when many are created at once; revoked keys do not count`, async () => {
    const owner = await newOwner(t.app);
    const start = MAX_ACTIVE_API_KEYS - 5;
    await t.db.db.insert(schema.apiKeys).values(
      Array.from({ length: start }, (_, i) => {
        const key = generateApiKey('live');
        return {
          accountId: owner.accountId,
          name: `Seeded ${i}`,
          mode: 'live' as const,
          prefix: key.slice(0, 12),
          secretHash: createHash('sha256').update(key).digest(),
          scopes: ['forms:read'],
        };
      }),
    );
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(owner, owner.accountId, { name: `Burst ${i}` })),
    );
    expect(burst.filter((r) => r.statusCode >= 500).map((r) => r.body)).toEqual([]);
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = burst.filter((r) => r.statusCode === 400);
    expect(refused).toHaveLength(15);
    expect(refused[0]?.json()).toEqual({
      nonFieldErrors: [apiKeyTexts.tooMany],
      MainCode_: 'validation_error',
    });
    const list = await listOf(owner, owner.accountId);
    expect(list).toHaveLength(MAX_ACTIVE_API_KEYS);

    const oldest = list.at(-1);
    if (!oldest) throw new Error('no key listed');
    expect((await revoke(owner, oldest.id)).statusCode).toBe(204);
    const after = await Promise.all(
      Array.from({ length: 5 }, (_, i) => create(owner, owner.accountId, { name: `After ${i}` })),
    );
    expect(after.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400]);
    // Another account has its own allowance.
    const other = await newOwner(t.app, 'Other Inc.');
    expect((await create(other, other.accountId)).statusCode).toBe(201);
  });
});

describe('a key in Authorization: Bearer', () => {
  it('reads what its scopes grant in its own account; revoked, it answers 401 on the very next request', async () => {
    const owner = await newOwner(t.app);
    const form = await owner.c.post('/api/verify-forms', { name: 'Keyed form', account: owner.accountId });
    const { key, id } = await createKey(owner, { scopes: ['forms:read'] });
    // A key's door is API v1 (the session API answers it 403: issue #33, ADR 29).
    const url = '/api/v1/forms';

    const forms = await withKey(key, url);
    expect(forms.statusCode, forms.body).toBe(200);
    expect(forms.json().data.map((f: { id: number }) => f.id)).toEqual([form.json().id]);
    expect((await withKey(key, `/api/verify-forms?account=${owner.accountId}`)).statusCode).toBe(403);

    expect((await revoke(owner, id)).statusCode).toBe(204);
    const after = await withKey(key, url);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((await withKey(key, `/api/verify-forms?account=${owner.accountId}`)).json()).toEqual(
      notAuthenticated,
    );
  });

  it('another account named: 404; a capability its scopes lack: 403; managing keys is never a key’s', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app, 'Other Inc.');
    const otherForm = await other.c.post('/api/verify-forms', { name: 'Theirs', account: other.accountId });
    const { key } = await createKey(owner, { scopes: ['forms:read'] });
    for (const url of [
      `/api/verify-forms?account=${other.accountId}`,
      `/api/verify-forms/${otherForm.json().id}`,
    ]) {
      const response = await withKey(key, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual(notFound);
    }

    const writer = await createKey(owner, { scopes: ['verifications:write'] });
    const denied = await withKey(writer.key, `/api/verify-forms?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(permissionDenied);

    const all = await createKey(owner, {
      scopes: ['verifications:write', 'verifications:read', 'forms:read'],
    });
    const keys = await withKey(all.key, `/api/api-keys?account=${owner.accountId}`);
    expect(keys.statusCode).toBe(403);
    expect(keys.json()).toEqual(permissionDenied);
  });

  it('a malformed key, or one with a broken checksum, is 401 without a database statement', async () => {
    const owner = await newOwner(t.app);
    const { key } = await createKey(owner);
    const url = `/api/verify-forms?account=${owner.accountId}`;
    const last = key.charAt(key.length - 1);
    const typo = `${key.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`;
    const middle = 30;
    const typoInside = `${key.slice(0, middle)}${key.charAt(middle) === 'Z' ? 'Y' : 'Z'}${key.slice(middle + 1)}`;
    for (const token of [typo, typoInside, key.slice(0, -1), `${key}x`, 'vf_live_short', 'not-a-key']) {
      let response: Awaited<ReturnType<typeof withKey>> | undefined;
      const statements = await statementsOf(async () => {
        response = await withKey(token, url);
      });
      expect(response?.statusCode, token).toBe(401);
      expect(response?.json()).toEqual(notAuthenticated);
      expect(statements, token).toEqual([]);
    }
    // A well-formed key that is nobody's costs the one lookup.
    const unknown = generateApiKey('live');
    const statements = await statementsOf(() => withKey(unknown, url));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('"api_keys"');
  });

  it('shows when and from where it was last used; writes that at most once a minute per address', async () => {
    const owner = await newOwner(t.app);
    const { key, id } = await createKey(owner);
    const url = `/api/verify-forms?account=${owner.accountId}`;
    const writes = (statements: string[]) => statements.filter((s) => /^update "api_keys"/i.test(s));

    const firstUse = t.clock.now().toISOString();
    expect(writes(await statementsOf(() => withKey(key, url, '10.77.1.1')))).toHaveLength(1);
    const listed = (await listOf(owner, owner.accountId)).find((k) => k.id === id);
    expect(listed).toMatchObject({ lastUsedAt: firstUse, lastUsedIp: '10.77.1.1' });

    // Within the minute, from the same address: a lookup and nothing else.
    t.clock.advance(30_000);
    const again = await statementsOf(() => withKey(key, url, '10.77.1.1'));
    expect(writes(again)).toEqual([]);
    expect(again.filter((s) => s.includes('"api_keys"'))).toHaveLength(1);
    // Another address: written at once.
    expect(writes(await statementsOf(() => withKey(key, url, '10.77.1.2')))).toHaveLength(1);
    expect((await listOf(owner, owner.accountId))[0]).toMatchObject({
      lastUsedAt: t.clock.now().toISOString(),
      lastUsedIp: '10.77.1.2',
    });
    // The same address past the minute: written again.
    t.clock.advance(MINUTE + 1);
    expect(writes(await statementsOf(() => withKey(key, url, '10.77.1.2')))).toHaveLength(1);
    expect((await listOf(owner, owner.accountId))[0]?.lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('a vf_test_ key is a test-mode identity with its scopes; a revoked one is nobody', async () => {
    const owner = await newOwner(t.app);
    const scopes: ApiKeyScope[] = ['verifications:write', 'forms:read'];
    const created = await createKey(owner, { mode: 'test', scopes });
    expect(created.key.startsWith('vf_test_')).toBe(true);
    const identity = await t.app.services.apiKeys.authenticate(created.key, { ip: '10.77.2.1' });
    expect(identity).toEqual({
      keyId: created.id,
      accountId: owner.accountId,
      prefix: created.key.slice(0, 12),
      mode: 'test',
      scopes,
    });
    await revoke(owner, created.id);
    expect(await t.app.services.apiKeys.authenticate(created.key, { ip: '10.77.2.1' })).toBeNull();
  });
});
