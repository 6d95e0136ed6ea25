import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { LOGIN_FAILURE_LIMITS } from './service.ts';

const t = useTestApp();
let nextIp = 1;
/** Each test its own IP, so the per-IP limits of one test never touch another. */
const client = () => new TestClient(t.app, `10.0.0.${nextIp++}`);

async function registeredUser() {
  const signup = newSignup();
  const c = client();
  await c.signup(signup);
  return signup;
}

describe('POST /api/auth/login', () => {
  it('logs in with the right password, case-insensitively on the address', async () => {
    const user = await registeredUser();
    const c = client();
    const response = await c.login(user.email.toUpperCase(), user.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email: user.email, isAuthenticated: true });
    expect((await c.post('/api/auth/refresh-me')).json().user.email).toBe(user.email);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const user = await registeredUser();
    const wrong = await client().login(user.email, 'Wrong-password-1');
    const unknown = await client().login(`nobody-${user.email}`, user.password);
    const expected = {
      nonFieldErrors: ['Unable to log in with the provided e-mail and password.'],
      MainCode_: 'invalid_credentials',
    };
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(expected);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(expected);
  });

  it('locks a client (address from one network) out after 5 failures, even for the right password', async () => {
    const user = await registeredUser();
    const attacker = client();
    for (let i = 0; i < 5; i++) {
      expect((await attacker.login(user.email, 'Wrong-password-1')).statusCode).toBe(400);
    }
    const locked = await attacker.login(user.email, user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      detail: 'Too many failed login attempts. Try again in 15 minutes.',
      MainCode_: 'rate_limited',
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Failures from elsewhere never lock the real user out: the right password from their own network works.
    expect((await client().login(user.email, user.password)).statusCode).toBe(200);

    t.clock.advance(15 * MINUTE + 1000);
    expect((await attacker.login(user.email, user.password)).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    const user = await registeredUser();
    for (let i = 0; i < 5; i++) {
      const sprayed = new TestClient(t.app, `2001:db8:77:1:${i + 1}::1`);
      expect((await sprayed.login(user.email, 'Wrong-password-1')).statusCode).toBe(400);
    }
    const sameSubnet = new TestClient(t.app, '2001:db8:77:1:ffff::9');
    expect((await sameSubnet.login(user.email, user.password)).statusCode).toBe(429);
    const otherSubnet = new TestClient(t.app, '2001:db8:77:2::1');
    expect((await otherSubnet.login(user.email, user.password)).statusCode).toBe(200);
  });

  it('past 100 failures a day on one address, each network gets a single guess; a new one still gets in', async () => {
    const user = await registeredUser();
    const ceiling = `login-fail:email:${user.email}`;
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perAddressCeiling; i++)
      await t.app.services.rateLimit.hit(ceiling);

    const guesser = client();
    expect((await guesser.login(user.email, 'Wrong-password-1')).statusCode).toBe(400);
    const second = await guesser.login(user.email, user.password);
    expect(second.statusCode).toBe(429);
    expect(second.json().detail).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
    // A network that has not failed for this address is not refused because of failures elsewhere.
    expect((await client().login(user.email, user.password)).statusCode).toBe(200);
  });

  it('locks an IP out after 20 failures in 15 minutes', async () => {
    const c = client();
    for (let i = 0; i < 20; i++) {
      expect((await c.login(`unknown${i}@example.com`, 'Wrong-password-1')).statusCode).toBe(400);
    }
    const locked = await c.login('another@example.com', 'Wrong-password-1');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(locked.json().detail).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
  });

  it('a successful login clears the failures counted for the address', async () => {
    const user = await registeredUser();
    for (let i = 0; i < 4; i++) await client().login(user.email, 'Wrong-password-1');
    expect((await client().login(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await client().login(user.email, 'Wrong-password-1');
    expect((await client().login(user.email, user.password)).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie (not Secure outside production)', async () => {
    const user = await registeredUser();
    const response = await client().login(user.email, user.password);
    const cookie = response.cookies.find((c) => c.name === 'vf_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    const csrf = response.cookies.find((c) => c.name === 'vf_csrf');
    expect(csrf).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('stores only the hash of the session id', async () => {
    const user = await registeredUser();
    const c = client();
    await c.login(user.email, user.password);
    const id = c.cookies.get('vf_session') ?? '';
    const rows = await t.db.db.select().from(schema.sessions);
    expect(rows.some((r) => r.idHash === id)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.idHash))).toBe(true);
  });

  it('issues a new session id on login; the old id stops working', async () => {
    const user = await registeredUser();
    const c = client();
    await c.login(user.email, user.password);
    const first = c.cookies.get('vf_session');
    await c.login(user.email, user.password);
    const second = c.cookies.get('vf_session');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const stale = client();
    stale.cookies.set('vf_session', first ?? '');
    const me = await stale.post('/api/auth/refresh-me', {}, { csrf: false });
    // refresh-me needs CSRF like every unsafe call; fetch a token first.
    expect(me.statusCode).toBe(403);
    await stale.fetchCsrf();
    const answer = await stale.post('/api/auth/refresh-me');
    expect(answer.json().user.isAuthenticated).toBe(false);
    expect(stale.cookies.has('vf_session')).toBe(false);
  });

  it('logs in cleanly from a browser that still holds an ended session', async () => {
    const user = await registeredUser();
    const c = client();
    await c.login(user.email, user.password);
    await c.post('/api/auth/logout');
    c.cookies.set('vf_session', 'x'.repeat(43));
    const response = await c.login(user.email, user.password);
    expect(response.cookies.filter((x) => x.name === 'vf_session')).toHaveLength(1);
    expect((await c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(true);
  });

  it('issues a new session id on signup even when the browser already had one', async () => {
    const user = await registeredUser();
    const c = client();
    await c.login(user.email, user.password);
    const before = c.cookies.get('vf_session');
    await c.signup(newSignup());
    expect(c.cookies.get('vf_session')).not.toBe(before);
  });

  it('logout ends the session and answers the anonymous user', async () => {
    const user = await registeredUser();
    const c = client();
    await c.login(user.email, user.password);
    const id = c.cookies.get('vf_session') ?? '';
    const response = await c.post('/api/auth/logout');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { isAuthenticated: false, id: null }, memberships: [] });
    expect(c.cookies.has('vf_session')).toBe(false);

    const replay = client();
    replay.cookies.set('vf_session', id);
    await replay.fetchCsrf();
    expect((await replay.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
  });

  it('expires after 14 days without use and slides while in use', async () => {
    const user = await registeredUser();
    const c = client();
    await c.login(user.email, user.password);
    // Used every 9 days: the expiry keeps moving (within the 30-day absolute lifetime, session-lifetime.test.ts).
    for (let i = 0; i < 3; i++) {
      t.clock.advance(9 * 24 * 60 * MINUTE);
      expect((await c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(true);
    }
    t.clock.advance(14 * 24 * 60 * MINUTE + 1000);
    expect((await c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
  });

  it('rotates the CSRF token on login and logout', async () => {
    const user = await registeredUser();
    const c = client();
    const anonymous = await c.fetchCsrf();
    await c.login(user.email, user.password);
    const loggedIn = c.csrfToken;
    expect(loggedIn).not.toBe(anonymous);
    // The old token no longer passes.
    const old = await c.post('/api/auth/refresh-me', {}, { headers: { 'x-csrftoken': anonymous } });
    expect(old.statusCode).toBe(403);
    await c.post('/api/auth/logout');
    expect(c.csrfToken).not.toBe(loggedIn);
  });

  it('remembers the last login time', async () => {
    const user = await registeredUser();
    await client().login(user.email, user.password);
    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, user.email));
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
  });
});

describe('refresh-me', () => {
  it('answers the anonymous user with a CSRF token when logged out', async () => {
    const c = client();
    await c.fetchCsrf();
    const response = await c.post('/api/auth/refresh-me');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      csrfToken: c.csrfToken,
      user: {
        id: null,
        name: '',
        email: '',
        uploadedProfileImage: null,
        isAuthenticated: false,
        emailIsVerified: false,
        emailVerifiedAsOf: null,
      },
      memberships: [],
      currentMembership: null,
    });
  });

  it('answers the memberships with their accounts; the current one is the remembered one, else the first', async () => {
    const user = await registeredUser();
    const c = client();
    const login = (await c.login(user.email, user.password)).json();
    const userId: number = login.user.id;
    const accounts = await t.db.db
      .insert(schema.accounts)
      .values([{ displayName: 'Acme' }, { displayName: 'Globex' }])
      .returning();
    const [acme, globex] = accounts;
    if (!acme || !globex) throw new Error('accounts not created');
    const memberships = await t.db.db
      .insert(schema.memberships)
      .values([
        { userId, accountId: acme.id, role: 'owner', canSearchData: true, canViewReports: true },
        { userId, accountId: globex.id, role: 'member' },
      ])
      .returning();

    const body = (await c.post('/api/auth/refresh-me')).json();
    expect(body.memberships).toHaveLength(2);
    expect(body.memberships[0]).toEqual({
      id: memberships[1]?.id,
      role: 'member',
      canSearchData: false,
      canViewReports: false,
      account: { id: globex.id, displayName: 'Globex', uploadedProfileImage: null },
    });
    expect(body.currentMembership).toEqual(body.memberships[0]);

    await t.db.db.update(schema.sessions).set({ currentMembershipId: memberships[0]?.id ?? null });
    const again = (await c.post('/api/auth/refresh-me')).json();
    expect(again.currentMembership.account.displayName).toBe('Acme');
  });
});

describe('production cookies', () => {
  it('are __Host- prefixed and Secure', async () => {
    const prod = await buildTestApp(t.db, {
      env: { NODE_ENV: 'production' },
      // Production needs a build; point it at a throwaway one.
      config: { webRoot: await fakeWebBuild() },
    });
    try {
      const user = newSignup();
      const c = new TestClient(prod.app, '10.9.9.9');
      await c.signup(user);
      const response = await c.login(user.email, user.password);
      const session = response.cookies.find((x) => x.name === '__Host-vf_session');
      const csrf = response.cookies.find((x) => x.name === '__Host-vf_csrf');
      expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
      expect(session?.domain).toBeUndefined();
      expect(csrf).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
      expect(response.cookies.some((x) => x.name === 'vf_session')).toBe(false);
    } finally {
      await prod.app.close();
    }
  });
});

async function fakeWebBuild(): Promise<string> {
  const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const root = await mkdtemp(join(tmpdir(), 'vf-web-'));
  await mkdir(join(root, 'dist', 'assets'), { recursive: true });
  await writeFile(join(root, 'dist', 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  return root;
}
