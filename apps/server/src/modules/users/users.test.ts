import type { User } from '@veriform/contracts';
import { schema } from '@veriform/db';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { multipartBody } from '../../test-support/multipart.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.6.0.${nextIp++}`);

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

async function loggedIn() {
  const c = client();
  const { id, payload } = await c.signupNew();
  return { c, id, payload };
}

async function tinyPngForm() {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  return multipartBody([
    { name: 'uploadedProfileImage', filename: 'a.png', contentType: 'image/png', data: png },
  ]);
}

/** Every /api/users/{id} call, as the given client would make it. */
async function callAll(c: TestClient, id: number | string) {
  return [
    await c.patch(`/api/users/${id}`, { name: 'Mallory' }),
    await c.postMultipart(`/api/users/${id}/update-uploaded-profile-image`, await tinyPngForm()),
    await c.patch(`/api/users/${id}/delete-uploaded-profile-image`),
    await c.patch(`/api/users/${id}/check-delete`),
  ];
}

describe('/api/users/{id}: only one’s own', () => {
  it('another user’s id, an unknown id and a non-numeric id answer 404 for every call, and change nothing', async () => {
    const victim = await loggedIn();
    const { c } = await loggedIn();
    for (const id of [victim.id, 999_999, 'abc', '0', `${victim.id}.0`]) {
      for (const response of await callAll(c, id)) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(notFound);
      }
    }
    const me = (await victim.c.post('/api/auth/refresh-me')).json().user;
    expect(me).toMatchObject({ name: 'Ada Lovelace', uploadedProfileImage: null });
  });

  it('a wrong id answers 404 before the body is looked at', async () => {
    const victim = await loggedIn();
    const { c } = await loggedIn();
    const response = await c.patch(`/api/users/${victim.id}`, { name: '' });
    expect(response.statusCode).toBe(404);
  });

  it('logged out: 401 for every call', async () => {
    const { id } = await loggedIn();
    const c = client();
    await c.fetchCsrf();
    for (const response of await callAll(c, id)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        detail: 'Authentication credentials were not provided.',
        MainCode_: 'not_authenticated',
      });
    }
  });
});

describe('PATCH /api/users/{id}', () => {
  it('renames the user (trimmed) and answers the user', async () => {
    const { c, id, payload } = await loggedIn();
    const response = await c.patch(`/api/users/${id}`, { name: '  Grace Hopper  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json<User>()).toEqual({
      id,
      name: 'Grace Hopper',
      email: payload.email,
      uploadedProfileImage: null,
      isAuthenticated: true,
      emailIsVerified: false,
      emailVerifiedAsOf: null,
    });
    expect((await c.post('/api/auth/refresh-me')).json().user.name).toBe('Grace Hopper');
  });

  it('validates the name', async () => {
    const { c, id } = await loggedIn();
    const cases: [unknown, string][] = [
      [{ name: '' }, 'Required'],
      [{ name: '   ' }, 'Required'],
      [{}, 'Required'],
      [{ name: 'x'.repeat(151) }, 'String must contain at most 150 character(s)'],
      [{ name: 42 }, 'Expected string, received number'],
    ];
    for (const [body, message] of cases) {
      const response = await c.patch(`/api/users/${id}`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ name: [message], MainCode_: 'validation_error' });
    }
    expect((await c.patch(`/api/users/${id}`, { name: 'x'.repeat(150) })).statusCode).toBe(200);
  });
});

describe('PATCH /api/users/{id}/check-delete', () => {
  async function account(displayName: string, members: { userId: number; role: 'owner' | 'member' }[]) {
    const [row] = await t.db.db.insert(schema.accounts).values({ displayName }).returning();
    const accountId = row?.id ?? 0;
    await t.db.db.insert(schema.memberships).values(members.map((m) => ({ ...m, accountId })));
  }

  it('can delete without memberships', async () => {
    const { c, id } = await loggedIn();
    const response = await c.patch(`/api/users/${id}/check-delete`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ canDelete: true, reasons: [] });
  });

  it('cannot while the only owner of an account, with or without other members; co-owned or member is fine', async () => {
    const me = await loggedIn();
    const other = await loggedIn();
    await account('Zeta Solo', [{ userId: me.id, role: 'owner' }]);
    await account('Acme', [
      { userId: me.id, role: 'owner' },
      { userId: other.id, role: 'member' },
    ]);
    await account('Co-owned', [
      { userId: me.id, role: 'owner' },
      { userId: other.id, role: 'owner' },
    ]);
    await account('Theirs', [
      { userId: me.id, role: 'member' },
      { userId: other.id, role: 'owner' },
    ]);

    const response = await me.c.patch(`/api/users/${me.id}/check-delete`);
    expect(response.json()).toEqual({
      canDelete: false,
      reasons: [
        'You are the only owner of Acme. Make someone else an owner, or close that account, first.',
        'You are the only owner of Zeta Solo. Make someone else an owner, or close that account, first.',
      ],
    });
    expect((await other.c.patch(`/api/users/${other.id}/check-delete`)).json()).toEqual({
      canDelete: false,
      reasons: [
        'You are the only owner of Theirs. Make someone else an owner, or close that account, first.',
      ],
    });
  });
});
