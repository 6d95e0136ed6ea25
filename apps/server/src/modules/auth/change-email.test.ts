import type { AuthResponse, EmailChangeRequest } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { DAY, MINUTE } from '../../test-support/clock.ts';
import { initialDataOf, latestLink, outboxFor, type TokenLink } from '../../test-support/outbox.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.4.0.${nextIp++}`);

const SECOND = 1000;
const invalidToken = { nonFieldErrors: ['This link is invalid or has expired.'], MainCode_: 'invalid_token' };
let nextAddress = 1;
const newAddress = () => `new-${nextAddress++}-${Date.now()}@example.org`;

async function loggedIn() {
  const c = client();
  const { payload, id } = await c.signupNew();
  return { c, payload, id };
}

/** Every test user's password (newSignup's default). */
const PASSWORD = newSignup().password;

const requestChange = (c: TestClient, toEmail: string, password = PASSWORD) =>
  c.post('/api/auth/change-email/request', { toEmail, password });

async function anonymous() {
  const c = client();
  await c.fetchCsrf();
  return c;
}

function confirm(c: TestClient, link: TokenLink) {
  return c.post('/api/auth/change-email/confirm', { uidb64: link.uidb64, token: link.token });
}

async function pageValidity(link: TokenLink) {
  const page = await client().get(link.path);
  expect(page.headers['referrer-policy']).toBe('no-referrer');
  return (initialDataOf(page.body) as { extra: { changeEmailConfirm?: { isValid: boolean } } }).extra
    .changeEmailConfirm?.isValid;
}

async function retrieve(c: TestClient): Promise<EmailChangeRequest> {
  const response = await c.get('/api/auth/change-email/retrieve');
  expect(response.statusCode).toBe(200);
  return response.json<EmailChangeRequest>();
}

describe('authentication', () => {
  it('retrieve, request and resend need a logged-in user', async () => {
    const c = await anonymous();
    const calls = [
      c.get('/api/auth/change-email/retrieve'),
      requestChange(c, newAddress()),
      c.post('/api/auth/change-email/resend'),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        detail: 'Authentication credentials were not provided.',
        MainCode_: 'not_authenticated',
      });
    }
  });
});

describe('GET /api/auth/change-email/retrieve', () => {
  it('answers an empty request when the user never asked for a change', async () => {
    const { c, id } = await loggedIn();
    expect(await retrieve(c)).toEqual({
      id: null,
      user: id,
      fromEmail: '',
      toEmail: '',
      requestedAt: null,
      successfullyChangedAt: null,
      lastRequestedANewFromOrToEmailAt: null,
      lastSentAChangeEmailAt: null,
      lastSuccessfullyChangedAt: null,
      status: '',
      status_display: '',
    });
  });
});

describe('the whole change', () => {
  it('request → pending → confirm → successfully_changed; the old address is told', async () => {
    const { c, payload, id } = await loggedIn();
    const to = newAddress();
    const response = await c.post(
      '/api/auth/change-email/request',
      { toEmail: to.toUpperCase(), password: payload.password },
      { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
    );
    expect(response.statusCode).toBe(200);
    const now = t.clock.now().toISOString();
    const pending = {
      id: expect.any(Number),
      user: id,
      fromEmail: payload.email,
      toEmail: to,
      requestedAt: now,
      successfullyChangedAt: null,
      lastRequestedANewFromOrToEmailAt: now,
      lastSentAChangeEmailAt: now,
      lastSuccessfullyChangedAt: null,
      status: 'pending',
      status_display: 'Pending',
    };
    expect(response.json()).toEqual(pending);
    expect(await retrieve(c)).toEqual(pending);

    // The link goes to the NEW address, built from PUBLIC_URL whatever the Host; nothing has changed yet.
    const link = await latestLink(t.app, to, 'change-email');
    expect(link.url.startsWith(`${TEST_PUBLIC_URL}/auth/change-email/confirm/`)).toBe(true);
    expect((await outboxFor(t.app, to))[0]?.text).not.toContain('evil.example');
    expect((await c.post('/api/auth/refresh-me')).json().user.email).toBe(payload.email);
    expect(await pageValidity(link)).toBe(true);

    t.clock.advance(MINUTE);
    const confirmed = await confirm(c, link);
    expect(confirmed.statusCode).toBe(200);
    const changedAt = t.clock.now().toISOString();
    expect(confirmed.json<AuthResponse>().user).toMatchObject({
      id,
      email: to,
      emailIsVerified: true,
      emailVerifiedAsOf: changedAt,
    });
    expect(await retrieve(c)).toEqual({
      ...pending,
      successfullyChangedAt: changedAt,
      lastSuccessfullyChangedAt: changedAt,
      status: 'successfully_changed',
      status_display: 'Successfully changed',
    });

    const [notice] = await outboxFor(t.app, payload.email);
    expect(notice?.subject).toBe('Your Veriform e-mail address was changed');
    expect(notice?.text).toContain(to);
    // The new address logs in; the old one no longer does.
    expect((await client().login(to, payload.password)).statusCode).toBe(200);
    expect((await client().login(payload.email, payload.password)).statusCode).toBe(400);
  });

  it('the link works once', async () => {
    const { c } = await loggedIn();
    const to = newAddress();
    await requestChange(c, to);
    const link = await latestLink(t.app, to, 'change-email');
    expect((await confirm(c, link)).statusCode).toBe(200);
    const again = await confirm(c, link);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalidToken);
    expect(await pageValidity(link)).toBe(false);
  });

  it('confirms from a logged-out client (another device); the caller stays anonymous', async () => {
    const { c, payload, id } = await loggedIn();
    const to = newAddress();
    await requestChange(c, to);
    const link = await latestLink(t.app, to, 'change-email');
    const elsewhere = await anonymous();
    const response = await confirm(elsewhere, link);
    expect(response.statusCode).toBe(200);
    expect(response.json<AuthResponse>().user.isAuthenticated).toBe(false);
    expect(elsewhere.cookies.has('vf_session')).toBe(false);
    // The requesting tab sees the change on its next refresh.
    expect((await c.post('/api/auth/refresh-me')).json().user).toMatchObject({ id, email: to });
    expect((await client().login(to, payload.password)).statusCode).toBe(200);
  });

  it('refuses a tampered token and another user’s token', async () => {
    const a = await loggedIn();
    const b = await loggedIn();
    const toA = newAddress();
    const toB = newAddress();
    await requestChange(a.c, toA);
    await requestChange(b.c, toB);
    const linkA = await latestLink(t.app, toA, 'change-email');
    const linkB = await latestLink(t.app, toB, 'change-email');
    const last = linkA.token.at(-1) === 'A' ? 'B' : 'A';
    for (const link of [
      { ...linkA, token: `${linkA.token.slice(0, -1)}${last}` },
      { ...linkA, token: linkB.token },
      { ...linkB, token: linkA.token },
      { ...linkA, uidb64: 'bm9wZQ' },
    ]) {
      const response = await confirm(await anonymous(), link);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidToken);
    }
    expect((await confirm(await anonymous(), linkA)).statusCode).toBe(200);
  });
});

describe('POST /api/auth/change-email/request', () => {
  it('refuses the current address, in any case', async () => {
    const { c, payload } = await loggedIn();
    const response = await requestChange(c, payload.email.toUpperCase());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      toEmail: ['That is already your e-mail address.'],
      MainCode_: 'validation_error',
    });
  });

  it('refuses an address another user has, in any case', async () => {
    const { c } = await loggedIn();
    const taken = newSignup();
    await client().signup(taken);
    const response = await requestChange(c, taken.email.toUpperCase());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      toEmail: ['A user with that e-mail address already exists.'],
      MainCode_: 'email_taken',
    });
    expect((await retrieve(c)).status).toBe('');
  });

  it('validates the address', async () => {
    const { c } = await loggedIn();
    expect((await requestChange(c, 'nope')).json()).toEqual({
      toEmail: ['Invalid email'],
      MainCode_: 'validation_error',
    });
    expect((await c.post('/api/auth/change-email/request', {})).json()).toEqual({
      toEmail: ['Required'],
      password: ['Required'],
      MainCode_: 'validation_error',
    });
  });

  it('a newer request replaces the older one, whose link then dies', async () => {
    const { c } = await loggedIn();
    const first = newAddress();
    await requestChange(c, first);
    const firstLink = await latestLink(t.app, first, 'change-email');
    const firstState = await retrieve(c);

    t.clock.advance(31 * SECOND);
    const second = newAddress();
    const response = await requestChange(c, second);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: firstState.id, toEmail: second, status: 'pending' });
    expect(await pageValidity(firstLink)).toBe(false);
    expect((await confirm(c, firstLink)).json()).toEqual(invalidToken);

    const secondLink = await latestLink(t.app, second, 'change-email');
    expect((await confirm(c, secondLink)).json<AuthResponse>().user.email).toBe(second);
  });

  it('re-asking for the same target re-arms it but keeps lastRequestedANewFromOrToEmailAt', async () => {
    const { c } = await loggedIn();
    const to = newAddress();
    const first = (await requestChange(c, to)).json<EmailChangeRequest>();
    t.clock.advance(MINUTE);
    const again = (await requestChange(c, to)).json<EmailChangeRequest>();
    expect(again.requestedAt).toBe(t.clock.now().toISOString());
    expect(again.lastSentAChangeEmailAt).toBe(t.clock.now().toISOString());
    expect(again.lastRequestedANewFromOrToEmailAt).toBe(first.lastRequestedANewFromOrToEmailAt);
    expect(await outboxFor(t.app, to)).toHaveLength(2);
  });

  it('sends at most once every 30 seconds', async () => {
    const { c } = await loggedIn();
    expect((await requestChange(c, newAddress())).statusCode).toBe(200);
    const tooSoon = await requestChange(c, newAddress());
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().MainCode_).toBe('rate_limited');
    expect(Number(tooSoon.headers['retry-after'])).toBeLessThanOrEqual(30);
    t.clock.advance(31 * SECOND);
    expect((await requestChange(c, newAddress())).statusCode).toBe(200);
  });

  it('limits requests per user to 10 an hour, refused ones included', async () => {
    const { c, payload } = await loggedIn();
    const taken = newSignup();
    await client().signup(taken);
    for (let i = 0; i < 10; i++) expect((await requestChange(c, taken.email)).statusCode).toBe(400);
    const refused = await requestChange(c, newAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^Too many requests\. Try again in \d+ minutes?\.$/);
    // The same-address check costs nothing and still answers.
    expect((await requestChange(c, payload.email)).statusCode).toBe(400);
  });
});

describe('POST /api/auth/change-email/resend', () => {
  it('refuses when nothing is pending', async () => {
    const { c } = await loggedIn();
    const response = await c.post('/api/auth/change-email/resend');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: ['There is no pending e-mail change to resend.'],
      MainCode_: 'validation_error',
    });
  });

  it('refuses after the change went through', async () => {
    const { c } = await loggedIn();
    const to = newAddress();
    await requestChange(c, to);
    await confirm(c, await latestLink(t.app, to, 'change-email'));
    t.clock.advance(MINUTE);
    expect((await c.post('/api/auth/change-email/resend')).statusCode).toBe(400);
  });

  it('sends the pending link again (not within 30 s of the last send); both links work', async () => {
    const { c } = await loggedIn();
    const to = newAddress();
    const requested = (await requestChange(c, to)).json<EmailChangeRequest>();
    const firstLink = await latestLink(t.app, to, 'change-email');
    expect((await c.post('/api/auth/change-email/resend')).statusCode).toBe(429);

    t.clock.advance(31 * SECOND);
    const resent = await c.post('/api/auth/change-email/resend');
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({
      ...requested,
      lastSentAChangeEmailAt: t.clock.now().toISOString(),
    });
    expect(await outboxFor(t.app, to)).toHaveLength(2);
    expect(await pageValidity(firstLink)).toBe(true);
    expect(await pageValidity(await latestLink(t.app, to, 'change-email'))).toBe(true);
  });

  it('expires after 3 days; a resend re-arms it with a new link', async () => {
    const { c } = await loggedIn();
    const to = newAddress();
    await requestChange(c, to);
    const oldLink = await latestLink(t.app, to, 'change-email');

    t.clock.advance(3 * DAY - MINUTE);
    expect((await retrieve(c)).status).toBe('pending');
    t.clock.advance(2 * MINUTE);
    expect(await retrieve(c)).toMatchObject({ status: 'expired', status_display: 'Expired' });
    expect(await pageValidity(oldLink)).toBe(false);
    expect((await confirm(c, oldLink)).json()).toEqual(invalidToken);

    const resent = await c.post('/api/auth/change-email/resend');
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({
      status: 'pending',
      status_display: 'Pending',
      requestedAt: t.clock.now().toISOString(),
    });
    // The old link stays dead (its requested-at is gone); the new one works.
    expect(await pageValidity(oldLink)).toBe(false);
    const newLink = await latestLink(t.app, to, 'change-email');
    expect((await confirm(c, newLink)).json<AuthResponse>().user.email).toBe(to);
  });
});

describe('POST /api/auth/change-email/confirm', () => {
  it('refuses when someone else took the address in the meantime', async () => {
    const { c, payload } = await loggedIn();
    const to = newAddress();
    await requestChange(c, to);
    const link = await latestLink(t.app, to, 'change-email');
    await client().signup(newSignup({ email: to }));

    const response = await confirm(c, link);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: ['A user with that e-mail address already exists.'],
      MainCode_: 'email_taken',
    });
    expect((await c.post('/api/auth/refresh-me')).json().user.email).toBe(payload.email);
    const [row] = await t.db.db
      .select()
      .from(schema.emailChangeRequests)
      .where(eq(schema.emailChangeRequests.toEmail, to));
    expect(row?.status).toBe('pending');
  });

  it('validates its body', async () => {
    const response = await (await anonymous()).post('/api/auth/change-email/confirm', { uidb64: 'MQ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ token: ['Required'], MainCode_: 'validation_error' });
  });
});

describe('the current password is asked for (issue 13 item 8)', () => {
  const wrongPassword = {
    password: ['Your current password was entered incorrectly.'],
    MainCode_: 'validation_error',
  };

  it('a wrong one is a 400 on password: nothing is sent, nothing pending, not even whether the address is taken', async () => {
    const { c, payload } = await loggedIn();
    const to = newAddress();
    const response = await requestChange(c, to, 'Not-my-password-1');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(wrongPassword);
    expect(await outboxFor(t.app, to)).toEqual([]);
    expect(await outboxFor(t.app, payload.email)).toHaveLength(1); // the sign-up's verification link only
    expect((await retrieve(c)).status).toBe('');

    const taken = newSignup();
    await client().signup(taken);
    expect((await requestChange(c, taken.email, 'Not-my-password-1')).json()).toEqual(wrongPassword);
  });

  it('wrong ones count as failed logins: after 5, the right one is refused too, and so is logging in from there', async () => {
    const { c, payload } = await loggedIn();
    for (let i = 0; i < 5; i++) {
      expect((await requestChange(c, newAddress(), `Wrong-${i}-password`)).statusCode).toBe(400);
    }
    const locked = await requestChange(c, newAddress(), payload.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().detail).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
    expect((await new TestClient(t.app, c.ip).login(payload.email, payload.password)).statusCode).toBe(429);
    t.clock.advance(15 * MINUTE + SECOND);
    expect((await requestChange(c, newAddress(), payload.password)).statusCode).toBe(200);
  });
});

describe('the old address hears of a request at once, with a link that cancels it', () => {
  async function cancelPage(link: TokenLink) {
    const page = await client().get(link.path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    return (initialDataOf(page.body) as { extra: { changeEmailCancel?: { isValid: boolean } } }).extra
      .changeEmailCancel?.isValid;
  }
  const cancel = (c: TestClient, link: TokenLink) =>
    c.post('/api/auth/change-email/cancel', { uidb64: link.uidb64, token: link.token });
  const cancelled = { detail: 'The e-mail address change was cancelled. Your login keeps its address.' };

  it('the notice names the new address; the page only checks the link; its POST cancels, from any device', async () => {
    const { c, payload } = await loggedIn();
    const to = newAddress();
    expect((await requestChange(c, to)).statusCode).toBe(200);

    const [notice] = await outboxFor(t.app, payload.email);
    expect(notice?.subject).toBe('A change of your Veriform e-mail address was requested');
    expect(notice?.text).toContain(`from ${payload.email} to ${to}`);
    const link = await latestLink(t.app, payload.email, 'change-email-cancel');
    expect(link.url.startsWith(`${TEST_PUBLIC_URL}/auth/change-email/cancel/`)).toBe(true);
    // Opening the page (as a mail scanner would) consumes nothing.
    expect(await cancelPage(link)).toBe(true);
    expect(await cancelPage(link)).toBe(true);
    expect((await retrieve(c)).status).toBe('pending');

    const response = await cancel(await anonymous(), link);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(cancelled);
    expect((await retrieve(c)).status).toBe('');
    // The confirmation link died with the request; the cancel link works once.
    const confirmLink = await latestLink(t.app, to, 'change-email');
    expect(await pageValidity(confirmLink)).toBe(false);
    expect((await confirm(await anonymous(), confirmLink)).json()).toEqual(invalidToken);
    expect(await cancelPage(link)).toBe(false);
    expect((await cancel(await anonymous(), link)).json()).toEqual(invalidToken);
    expect((await c.post('/api/auth/refresh-me')).json().user.email).toBe(payload.email);
    expect((await c.post('/api/auth/change-email/resend')).statusCode).toBe(400);
  });

  it('dies once the change is confirmed, and with a newer request (which sends a new one)', async () => {
    const { c, payload } = await loggedIn();
    await requestChange(c, newAddress());
    const first = await latestLink(t.app, payload.email, 'change-email-cancel');
    t.clock.advance(31 * SECOND);
    const to = newAddress();
    await requestChange(c, to);
    const second = await latestLink(t.app, payload.email, 'change-email-cancel');
    expect(second.token).not.toBe(first.token);
    expect(await cancelPage(first)).toBe(false);
    expect((await cancel(await anonymous(), first)).json()).toEqual(invalidToken);

    expect((await confirm(c, await latestLink(t.app, to, 'change-email'))).statusCode).toBe(200);
    expect(await cancelPage(second)).toBe(false);
    expect((await cancel(await anonymous(), second)).json()).toEqual(invalidToken);
  });

  it('a plain resend keeps it; re-arming an expired request sends the old address a fresh one', async () => {
    const { c, payload } = await loggedIn();
    await requestChange(c, newAddress());
    const first = await latestLink(t.app, payload.email, 'change-email-cancel');
    t.clock.advance(31 * SECOND);
    expect((await c.post('/api/auth/change-email/resend')).statusCode).toBe(200);
    expect(await latestLink(t.app, payload.email, 'change-email-cancel')).toEqual(first);
    expect(await cancelPage(first)).toBe(true);

    t.clock.advance(3 * DAY + MINUTE);
    expect(await cancelPage(first)).toBe(false);
    expect((await c.post('/api/auth/change-email/resend')).statusCode).toBe(200);
    const fresh = await latestLink(t.app, payload.email, 'change-email-cancel');
    expect(fresh.token).not.toBe(first.token);
    expect((await cancel(await anonymous(), fresh)).json()).toEqual(cancelled);
  });

  it('refuses a tampered token, another user’s, and the confirmation token (and the other way round)', async () => {
    const a = await loggedIn();
    const b = await loggedIn();
    const toA = newAddress();
    await requestChange(a.c, toA);
    await requestChange(b.c, newAddress());
    const cancelA = await latestLink(t.app, a.payload.email, 'change-email-cancel');
    const cancelB = await latestLink(t.app, b.payload.email, 'change-email-cancel');
    const confirmA = await latestLink(t.app, toA, 'change-email');
    const last = cancelA.token.at(-1) === 'A' ? 'B' : 'A';
    for (const link of [
      { ...cancelA, token: `${cancelA.token.slice(0, -1)}${last}` },
      { ...cancelA, token: cancelB.token },
      { ...cancelA, token: confirmA.token },
      { ...cancelA, uidb64: 'bm9wZQ' },
    ]) {
      expect((await cancel(await anonymous(), link)).json()).toEqual(invalidToken);
    }
    expect((await confirm(await anonymous(), { ...confirmA, token: cancelA.token })).json()).toEqual(
      invalidToken,
    );
    expect((await cancel(await anonymous(), cancelA)).json()).toEqual(cancelled);
  });

  it('50 cancels and confirmations at once: exactly one of them wins, and the state says which', async () => {
    for (let round = 0; round < 2; round++) {
      const { c, payload } = await loggedIn();
      const to = newAddress();
      await requestChange(c, to);
      const cancelLink = await latestLink(t.app, payload.email, 'change-email-cancel');
      const confirmLink = await latestLink(t.app, to, 'change-email');
      const others = await Promise.all(Array.from({ length: 4 }, () => anonymous()));
      const calls = Array.from({ length: 50 }, (_, i) => {
        const from = others[i % others.length] ?? c;
        return i % 2 === round ? cancel(from, cancelLink) : confirm(from, confirmLink);
      });
      const answers = await Promise.all(calls);
      const won = answers.filter((r) => r.statusCode === 200);
      expect(won).toHaveLength(1);
      for (const lost of answers.filter((r) => r.statusCode !== 200))
        expect(lost.json()).toEqual(invalidToken);
      const email = (await c.post('/api/auth/refresh-me')).json().user.email;
      if (won[0]?.json().detail === cancelled.detail) {
        expect(email).toBe(payload.email);
        expect((await retrieve(c)).status).toBe('');
      } else {
        expect(email).toBe(to);
        expect((await retrieve(c)).status).toBe('successfully_changed');
      }
    }
  });
});
