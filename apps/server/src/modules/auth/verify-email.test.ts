import type { AuthResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encodeUid } from '../../lib/tokens.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { DAY, HOUR, MINUTE } from '../../test-support/clock.ts';
import { initialDataOf, latestVerifyLink, outboxFor } from '../../test-support/outbox.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.1.0.${nextIp++}`);

async function signedUp() {
  const payload = newSignup();
  const c = client();
  const auth = await c.signup(payload);
  return { c, payload, auth, link: await latestVerifyLink(t.app, payload.email) };
}

const invalidToken = {
  nonFieldErrors: ['This link is invalid or has expired.'],
  MainCode_: 'invalid_token',
};

async function confirm(c: TestClient, body: { uidb64: string; token: string }) {
  if (!c.csrfToken) await c.fetchCsrf();
  return c.post('/api/auth/verify-email/confirm', body);
}

describe('POST /api/auth/verify-email/confirm', () => {
  it('verifies the address and answers the caller’s auth response', async () => {
    const { c, link } = await signedUp();
    const response = await confirm(c, link);
    expect(response.statusCode).toBe(200);
    const body = response.json<AuthResponse>();
    expect(body.user.emailIsVerified).toBe(true);
    expect(body.user.emailVerifiedAsOf).toBe(t.clock.now().toISOString());
  });

  it('does not log anyone in: an anonymous caller stays anonymous', async () => {
    const { link, payload } = await signedUp();
    const stranger = client();
    const response = await confirm(stranger, link);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.isAuthenticated).toBe(false);
    expect(stranger.cookies.has('vf_session')).toBe(false);
    const login = await client().login(payload.email, payload.password);
    expect(login.json().user.emailIsVerified).toBe(true);
  });

  it('works once: a reused link is invalid', async () => {
    const { c, link } = await signedUp();
    expect((await confirm(c, link)).statusCode).toBe(200);
    const again = await confirm(c, link);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalidToken);
  });

  it('expires after 3 days', async () => {
    const { c, link } = await signedUp();
    t.clock.advance(3 * DAY + MINUTE);
    const response = await confirm(c, link);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidToken);
  });

  it('still works just before the 3 days are over', async () => {
    const { c, link } = await signedUp();
    t.clock.advance(3 * DAY - MINUTE);
    expect((await confirm(c, link)).statusCode).toBe(200);
  });

  it('refuses a tampered token or uid', async () => {
    const { c, link } = await signedUp();
    const [ts, sig = ''] = link.token.split('-');
    const flipped = `${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    for (const body of [
      { uidb64: link.uidb64, token: `${ts}-${flipped}` },
      { uidb64: link.uidb64, token: `${(Number.parseInt(ts ?? '0', 36) + 1).toString(36)}-${sig}` },
      { uidb64: link.uidb64, token: 'garbage' },
      { uidb64: '!!!', token: link.token },
      { uidb64: encodeUid(999_999), token: link.token },
    ]) {
      const response = await confirm(c, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidToken);
    }
    // The real link still works afterwards.
    expect((await confirm(c, link)).statusCode).toBe(200);
  });

  it('refuses one user’s token on another user’s uid', async () => {
    const first = await signedUp();
    const second = await signedUp();
    const response = await confirm(first.c, { uidb64: second.link.uidb64, token: first.link.token });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidToken);
  });

  it('answers missing fields with field errors', async () => {
    const c = client();
    const response = await confirm(c, { uidb64: '', token: undefined as unknown as string });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      uidb64: ['Required'],
      token: ['Required'],
      MainCode_: 'validation_error',
    });
  });
});

describe('the verify-email link page', () => {
  it('says the link is valid, without consuming it, and sends no referrer', async () => {
    const { c, link } = await signedUp();
    const page = await client().get(link.path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(initialDataOf(page.body)).toMatchObject({ extra: { verifyEmailConfirm: { isValid: true } } });
    // A second look (a mail scanner, then the person) is still valid, and the POST still works.
    const again = await client().get(link.path);
    expect(initialDataOf(again.body)).toMatchObject({ extra: { verifyEmailConfirm: { isValid: true } } });
    expect((await confirm(c, link)).statusCode).toBe(200);
  });

  it('says a used, tampered or expired link is invalid', async () => {
    const used = await signedUp();
    await confirm(used.c, used.link);
    const tampered = `/auth/verify-email/confirm/${used.link.uidb64}/zzzz-0000000000/`;
    const expired = await signedUp();
    t.clock.advance(4 * DAY);
    for (const path of [used.link.path, tampered, expired.link.path, '/auth/verify-email/confirm/MQ/x/']) {
      const page = await client().get(path);
      expect(page.statusCode).toBe(200);
      expect(initialDataOf(page.body)).toMatchObject({ extra: { verifyEmailConfirm: { isValid: false } } });
    }
  });
});

describe('POST /api/auth/signup/resend-verification-email', () => {
  const sameAnswer = { detail: 'If that address needs verifying, a new link is on its way.' };

  it('answers alike for an unverified, a verified and an unknown address; sends only to the unverified', async () => {
    const unverified = await signedUp();
    const verified = await signedUp();
    await confirm(verified.c, verified.link);
    const unknown = `nobody-${Date.now()}@example.com`;

    for (const email of [unverified.payload.email, verified.payload.email, unknown]) {
      const c = client();
      await c.fetchCsrf();
      const response = await c.post('/api/auth/signup/resend-verification-email', { email });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(sameAnswer);
    }
    expect(await outboxFor(t.app, unverified.payload.email)).toHaveLength(2);
    expect(await outboxFor(t.app, verified.payload.email)).toHaveLength(1);
    expect(await outboxFor(t.app, unknown)).toHaveLength(0);
  });

  it('the new link works, and so does the old one until the address is verified', async () => {
    const { c, payload, link: first } = await signedUp();
    t.clock.advance(MINUTE);
    await c.post('/api/auth/signup/resend-verification-email', { email: payload.email });
    const second = await latestVerifyLink(t.app, payload.email);
    expect(second.token).not.toBe(first.token);
    expect((await confirm(c, second)).statusCode).toBe(200);
    expect((await confirm(c, first)).statusCode).toBe(400);
  });

  it('limits one network to 3 an hour per address, counting unknown addresses too', async () => {
    const email = `limited-${Date.now()}@example.com`;
    const c = client();
    await c.fetchCsrf();
    for (let i = 0; i < 3; i++) {
      expect((await c.post('/api/auth/signup/resend-verification-email', { email })).statusCode).toBe(200);
    }
    const limited = await c.post('/api/auth/signup/resend-verification-email', {
      email: email.toUpperCase(),
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      detail: 'Too many requests. Try again in 60 minutes.',
      MainCode_: 'rate_limited',
    });
    expect(limited.headers['retry-after']).toBe('3600');
    const other = client();
    await other.fetchCsrf();
    expect((await other.post('/api/auth/signup/resend-verification-email', { email })).statusCode).toBe(200);
    t.clock.advance(HOUR);
    expect((await c.post('/api/auth/signup/resend-verification-email', { email })).statusCode).toBe(200);
  });

  it('limits each IP to 10 an hour', async () => {
    const c = client();
    await c.fetchCsrf();
    for (let i = 0; i < 10; i++) {
      const response = await c.post('/api/auth/signup/resend-verification-email', {
        email: `ip-limit-${i}-${Date.now()}@example.com`,
      });
      expect(response.statusCode).toBe(200);
    }
    const limited = await c.post('/api/auth/signup/resend-verification-email', { email: 'x@example.com' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('validates the address', async () => {
    const c = client();
    await c.fetchCsrf();
    const response = await c.post('/api/auth/signup/resend-verification-email', { email: 'nope' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ email: ['Invalid email'], MainCode_: 'validation_error' });
  });

  it('the link page GET counts nothing against the limits', async () => {
    const before = await t.db.db.select({ n: count() }).from(schema.rateLimitEvents);
    await client().get('/auth/verify-email/confirm/MQ/x/');
    const after = await t.db.db.select({ n: count() }).from(schema.rateLimitEvents);
    expect(after).toEqual(before);
  });
});
