import type { AuthResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.3.0.${nextIp++}`);

const NEW_PASSWORD = 'Changed-pass-42';

async function loggedIn() {
  const c = client();
  const { payload, id } = await c.signupNew();
  return { c, payload, id };
}

function change(c: TestClient, previousPassword: string, newPassword = NEW_PASSWORD, confirm = newPassword) {
  return c.post('/api/auth/change-password', { previousPassword, newPassword, newPasswordConfirm: confirm });
}

describe('POST /api/auth/change-password', () => {
  it('needs a logged-in user (401, the spec’s not-authenticated text)', async () => {
    const c = client();
    await c.fetchCsrf();
    const response = await change(c, 'whatever', 'x');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: 'Authentication credentials were not provided.',
      MainCode_: 'not_authenticated',
    });
  });

  it('refuses a wrong current password on previousPassword', async () => {
    const { c, payload } = await loggedIn();
    const response = await change(c, 'Not-my-password-1');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      previousPassword: ['Your current password was entered incorrectly.'],
      MainCode_: 'validation_error',
    });
    expect((await client().login(payload.email, payload.password)).statusCode).toBe(200);
  });

  it('counts wrong current passwords as failed logins: 5 lock this network out for 15 minutes', async () => {
    const { c, payload } = await loggedIn();
    for (let i = 0; i < 5; i++) expect((await change(c, `Wrong-${i}-password`)).statusCode).toBe(400);
    const locked = await change(c, payload.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().detail).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
    expect(locked.headers['retry-after']).toBeDefined();
    // The same buckets as login: logging in from this network is locked too, from another it is not.
    expect((await new TestClient(t.app, c.ip).login(payload.email, payload.password)).statusCode).toBe(429);
    expect((await client().login(payload.email, payload.password)).statusCode).toBe(200);
    t.clock.advance(15 * MINUTE + 1000);
    expect((await change(c, payload.password)).statusCode).toBe(200);
  });

  it('checks the new password with the spec’s messages', async () => {
    const { c, payload } = await loggedIn();
    expect((await change(c, payload.password, 'Short-1')).json()).toEqual({
      newPassword: ['Passwords must be at least 9 characters long.'],
      MainCode_: 'validation_error',
    });
    expect((await change(c, payload.password, 'nodigits-here')).json()).toEqual({
      newPassword: ['Password does not meet requirements'],
      MainCode_: 'validation_error',
    });
    expect((await change(c, payload.password, NEW_PASSWORD, 'Other-pass-42')).json()).toEqual({
      newPasswordConfirm: ['The two passwords do not match.'],
      MainCode_: 'validation_error',
    });
    const missing = await c.post('/api/auth/change-password', { newPassword: NEW_PASSWORD });
    expect(missing.json()).toEqual({
      previousPassword: ['Required'],
      newPasswordConfirm: ['Required'],
      MainCode_: 'validation_error',
    });
  });

  it('sets the password, keeps this session on a new id and a new CSRF token, ends the others', async () => {
    const { c, payload, id } = await loggedIn();
    const other = client();
    await other.login(payload.email, payload.password);
    const oldSessionId = c.cookies.get('vf_session');
    const oldCsrf = c.csrfToken;

    const response = await change(c, payload.password);
    expect(response.statusCode).toBe(200);
    const body = response.json<AuthResponse>();
    expect(body.user).toMatchObject({ id, isAuthenticated: true });
    expect(body.csrfToken).not.toBe(oldCsrf);
    expect(c.cookies.get('vf_session')).toMatch(/^[\w-]{43}$/);
    expect(c.cookies.get('vf_session')).not.toBe(oldSessionId);

    expect((await c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(true);
    expect((await other.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
    const stale = client();
    stale.cookies.set('vf_session', oldSessionId ?? '');
    await stale.fetchCsrf();
    expect((await stale.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);

    expect((await client().login(payload.email, payload.password)).statusCode).toBe(400);
    expect((await client().login(payload.email, NEW_PASSWORD)).statusCode).toBe(200);
    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, id));
    expect(row?.passwordChangedAt).toEqual(t.clock.now());
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('keeps the remembered current membership across the new session id', async () => {
    const { c, id, payload } = await loggedIn();
    const [account] = await t.db.db.insert(schema.accounts).values({ displayName: 'Initech' }).returning();
    const [membership] = await t.db.db
      .insert(schema.memberships)
      .values({ userId: id, accountId: account?.id ?? 0, role: 'owner' })
      .returning();
    await t.db.db
      .update(schema.sessions)
      .set({ currentMembershipId: membership?.id ?? null })
      .where(eq(schema.sessions.userId, id));
    const response = await change(c, payload.password);
    expect(response.json<AuthResponse>().currentMembership?.id).toBe(membership?.id);
    const [session] = await t.db.db.select().from(schema.sessions).where(eq(schema.sessions.userId, id));
    expect(session?.currentMembershipId).toBe(membership?.id);
  });
});
