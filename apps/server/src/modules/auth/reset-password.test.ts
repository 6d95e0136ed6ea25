import type { AuthResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { HOUR, MINUTE } from '../../test-support/clock.ts';
import { initialDataOf, latestLink, outboxFor } from '../../test-support/outbox.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.2.0.${nextIp++}`);

const NEW_PASSWORD = 'Brand-new-pass-7';
const sent = { detail: 'If an account uses that address, a link to reset the password is on its way.' };
const invalidToken = { nonFieldErrors: ['This link is invalid or has expired.'], MainCode_: 'invalid_token' };

async function anonymous() {
  const c = client();
  await c.fetchCsrf();
  return c;
}

/** A signed-up user (logged in on `c`) who then asked for a reset link. */
async function userWithResetLink() {
  const c = client();
  const { payload, id } = await c.signupNew();
  const asked = await (await anonymous()).post('/api/auth/reset-password', { email: payload.email });
  expect(asked.statusCode).toBe(200);
  return { c, payload, id, link: await latestLink(t.app, payload.email, 'reset-password') };
}

function confirm(c: TestClient, link: { uidb64: string; token: string }, password = NEW_PASSWORD) {
  return c.post('/api/auth/reset-password/confirm', {
    uidb64: link.uidb64,
    token: link.token,
    newPassword: password,
    newPasswordConfirm: password,
  });
}

describe('POST /api/auth/reset-password', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const { payload } = await client().signupNew();
    const known = await (await anonymous()).post('/api/auth/reset-password', { email: payload.email });
    const unknownAddress = `nobody-${payload.email}`;
    const unknown = await (await anonymous()).post('/api/auth/reset-password', { email: unknownAddress });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(sent);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(sent);
    expect(await outboxFor(t.app, unknownAddress)).toEqual([]);
    const [message] = await outboxFor(t.app, payload.email);
    expect(message?.subject).toBe('Reset your Veriform password');
  });

  it('finds the user whatever the case of the address', async () => {
    const { payload } = await client().signupNew();
    await (await anonymous()).post('/api/auth/reset-password', { email: payload.email.toUpperCase() });
    await expect(latestLink(t.app, payload.email, 'reset-password')).resolves.toBeDefined();
  });

  it('builds the link from PUBLIC_URL, whatever Host the request names', async () => {
    const { payload } = await client().signupNew();
    const c = await anonymous();
    await c.post(
      '/api/auth/reset-password',
      { email: payload.email },
      { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
    );
    const link = await latestLink(t.app, payload.email, 'reset-password');
    expect(link.url.startsWith(`${TEST_PUBLIC_URL}/auth/reset-password/confirm/`)).toBe(true);
    const [message] = await outboxFor(t.app, payload.email);
    expect(message?.text).not.toContain('evil.example');
  });

  it('validates the address', async () => {
    const response = await (await anonymous()).post('/api/auth/reset-password', { email: 'not-an-address' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ email: ['Invalid email'], MainCode_: 'validation_error' });
  });

  it('limits one network to 3 requests an hour per address (known or not), with Retry-After', async () => {
    for (const email of [(await client().signupNew()).payload.email, 'ghost-limit@example.com']) {
      const c = await anonymous();
      for (let i = 0; i < 3; i++)
        expect((await c.post('/api/auth/reset-password', { email })).statusCode).toBe(200);
      const refused = await c.post('/api/auth/reset-password', { email });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        detail: expect.stringMatching(/^Too many requests\. Try again in \d+ minutes?\.$/),
        MainCode_: 'rate_limited',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(59 * 60);
      // Another network is not locked out of recovery by those requests.
      expect((await (await anonymous()).post('/api/auth/reset-password', { email })).statusCode).toBe(200);
    }
  });

  it('sends at most 10 links an hour to one address, whoever asks, and answers every request alike', async () => {
    const { payload } = await client().signupNew();
    for (let i = 0; i < 14; i++) {
      const asked = await (await anonymous()).post('/api/auth/reset-password', { email: payload.email });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual(sent);
    }
    const links = (await outboxFor(t.app, payload.email)).filter((m) =>
      m.text.includes('/auth/reset-password/'),
    );
    expect(links).toHaveLength(10);
    t.clock.advance(HOUR + MINUTE);
    await (await anonymous()).post('/api/auth/reset-password', { email: payload.email });
    const later = (await outboxFor(t.app, payload.email)).filter((m) =>
      m.text.includes('/auth/reset-password/'),
    );
    expect(later).toHaveLength(11);
  });

  it('limits requests per IP to 10 an hour', async () => {
    const c = await anonymous();
    for (let i = 0; i < 10; i++) {
      const response = await c.post('/api/auth/reset-password', { email: `ip-limit-${i}@example.com` });
      expect(response.statusCode).toBe(200);
    }
    const refused = await c.post('/api/auth/reset-password', { email: 'ip-limit-x@example.com' });
    expect(refused.statusCode).toBe(429);
    t.clock.advance(HOUR + MINUTE);
    expect((await c.post('/api/auth/reset-password', { email: 'ip-limit-y@example.com' })).statusCode).toBe(
      200,
    );
  });
});

describe('the reset link page', () => {
  it('says whether the link is valid, consumes nothing, and sends no referrer', async () => {
    const { link } = await userWithResetLink();
    for (let i = 0; i < 2; i++) {
      const page = await client().get(link.path);
      expect(page.statusCode).toBe(200);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(initialDataOf(page.body)).toMatchObject({ extra: { resetPasswordConfirm: { isValid: true } } });
    }
    expect((await confirm(await anonymous(), link)).statusCode).toBe(200);
    const used = await client().get(link.path);
    expect(initialDataOf(used.body)).toMatchObject({ extra: { resetPasswordConfirm: { isValid: false } } });
  });

  it('is invalid for a made-up link', async () => {
    const page = await client().get('/auth/reset-password/confirm/MQ/abc-def/');
    expect(initialDataOf(page.body)).toMatchObject({ extra: { resetPasswordConfirm: { isValid: false } } });
  });
});

describe('POST /api/auth/reset-password/confirm', () => {
  it('sets the new password (argon2id): the new one logs in, the old one no longer does', async () => {
    const { payload, link, id } = await userWithResetLink();
    const response = await confirm(await anonymous(), link);
    expect(response.statusCode).toBe(200);
    expect(response.json<AuthResponse>().user.isAuthenticated).toBe(false);
    expect((await client().login(payload.email, payload.password)).statusCode).toBe(400);
    expect((await client().login(payload.email, NEW_PASSWORD)).statusCode).toBe(200);
    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordChangedAt).toEqual(t.clock.now());
  });

  it('ends every session of the user, the caller’s included', async () => {
    const { c, payload, link } = await userWithResetLink();
    const other = client();
    expect((await other.login(payload.email, payload.password)).statusCode).toBe(200);
    // login changed the state the link was signed with; ask again.
    await (await anonymous()).post('/api/auth/reset-password', { email: payload.email });
    const fresh = await latestLink(t.app, payload.email, 'reset-password');
    expect(fresh.token).not.toBe(link.token);

    const response = await confirm(c, fresh);
    expect(response.statusCode).toBe(200);
    const body = response.json<AuthResponse>();
    expect(body.user.isAuthenticated).toBe(false);
    expect(c.cookies.has('vf_session')).toBe(false);
    expect((await c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
    expect((await other.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
    const rows = await t.db.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, body.user.id ?? -1));
    expect(rows).toEqual([]);
  });

  it('keeps another user’s session who happens to submit the link', async () => {
    const { link } = await userWithResetLink();
    const someoneElse = client();
    const { id } = await someoneElse.signupNew();
    const response = await confirm(someoneElse, link);
    expect(response.statusCode).toBe(200);
    expect(response.json<AuthResponse>().user).toMatchObject({ id, isAuthenticated: true });
  });

  it('marks an unverified address verified: the link proved the mailbox', async () => {
    const { link, payload } = await userWithResetLink();
    await confirm(await anonymous(), link);
    const login = await client().login(payload.email, NEW_PASSWORD);
    expect(login.json<AuthResponse>().user).toMatchObject({
      emailIsVerified: true,
      emailVerifiedAsOf: t.clock.now().toISOString(),
    });
  });

  it('works once', async () => {
    const { link } = await userWithResetLink();
    expect((await confirm(await anonymous(), link)).statusCode).toBe(200);
    const again = await confirm(await anonymous(), link, 'Another-pass-8');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalidToken);
  });

  it('expires after an hour', async () => {
    const { link } = await userWithResetLink();
    t.clock.advance(HOUR - MINUTE);
    expect(initialDataOf((await client().get(link.path)).body)).toMatchObject({
      extra: { resetPasswordConfirm: { isValid: true } },
    });
    t.clock.advance(2 * MINUTE);
    const response = await confirm(await anonymous(), link);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidToken);
  });

  it('dies when the user logs in before using it', async () => {
    const { link, payload } = await userWithResetLink();
    t.clock.advance(1000);
    await client().login(payload.email, payload.password);
    expect((await confirm(await anonymous(), link)).json()).toEqual(invalidToken);
  });

  it('refuses a tampered token, a malformed uid and another user’s token', async () => {
    const a = await userWithResetLink();
    const b = await userWithResetLink();
    const last = a.link.token.at(-1) === 'A' ? 'B' : 'A';
    const cases = [
      { uidb64: a.link.uidb64, token: `${a.link.token.slice(0, -1)}${last}` },
      { uidb64: a.link.uidb64, token: 'garbage' },
      { uidb64: '!!', token: a.link.token },
      { uidb64: 'OTk5OTk5', token: a.link.token },
      // B's token with A's uid, and the other way round.
      { uidb64: a.link.uidb64, token: b.link.token },
      { uidb64: b.link.uidb64, token: a.link.token },
    ];
    for (const link of cases) {
      const response = await confirm(await anonymous(), link);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidToken);
    }
    // Both real links still work afterwards.
    expect((await confirm(await anonymous(), a.link)).statusCode).toBe(200);
    expect((await confirm(await anonymous(), b.link)).statusCode).toBe(200);
  });

  it('checks the new password with the spec’s messages before touching the token', async () => {
    const { link } = await userWithResetLink();
    const c = await anonymous();
    const post = (newPassword: string, newPasswordConfirm = newPassword) =>
      c.post('/api/auth/reset-password/confirm', { ...link, newPassword, newPasswordConfirm });

    expect((await post('Short-1')).json()).toEqual({
      newPassword: ['Passwords must be at least 9 characters long.'],
      MainCode_: 'validation_error',
    });
    expect((await post('NoDigitsHere!')).json()).toEqual({
      newPassword: ['Password does not meet requirements'],
      MainCode_: 'validation_error',
    });
    expect((await post('NoSpecial123')).json()).toEqual({
      newPassword: ['Password does not meet requirements'],
      MainCode_: 'validation_error',
    });
    expect((await post(NEW_PASSWORD, 'Something-else-9')).json()).toEqual({
      newPasswordConfirm: ['The two passwords do not match.'],
      MainCode_: 'validation_error',
    });
    expect((await post('')).statusCode).toBe(400);
    // Nothing was consumed by the refusals.
    expect((await confirm(c, link)).statusCode).toBe(200);
  });
});
