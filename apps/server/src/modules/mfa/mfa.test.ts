import {
  type CompanyInfo,
  errorTexts,
  MFA_LOGIN_TTL_MS,
  type SecondFactors,
  STEP_UP_MAX_AGE_MS,
  secondFactorTexts,
  type TeamMembershipList,
  type TotpSetupResponse,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/crypto.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { join, newOwner, newPerson, nextIp, type Person } from '../../test-support/teams.ts';
import { codeAt, enrolTotp, nextStep, stepUpWithTotp } from '../../test-support/totp.ts';
import { SoftAuthenticator } from '../../test-support/webauthn-authenticator.ts';

const t = useTestApp();

const wrongCode = { code: [secondFactorTexts.wrongCode], MainCode_: 'validation_error' };
const noPendingLogin = { nonFieldErrors: [secondFactorTexts.noPendingLogin], MainCode_: 'invalid_token' };
const stepUpRequired = { detail: secondFactorTexts.stepUpRequired, MainCode_: 'step_up_required' };
const setupRequired = { detail: secondFactorTexts.mfaSetupRequired, MainCode_: 'mfa_setup_required' };
const notFound = { detail: errorTexts.notFound, MainCode_: 'not_found' };

async function actionsIn(accountId: number): Promise<string[]> {
  const rows = await t.db.db
    .select({ action: schema.auditEvents.action })
    .from(schema.auditEvents)
    .where(eq(schema.auditEvents.accountId, accountId))
    .orderBy(asc(schema.auditEvents.sequence));
  return rows.map((row) => row.action);
}

async function userRow(userId: number) {
  const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, userId));
  if (!row) throw new Error('no user');
  return row;
}

/** A fresh browser for the person (its own address, so no limit of another test touches it). */
async function freshBrowser(person: Pick<Person, 'email' | 'password'>) {
  const c = new TestClient(t.app, nextIp());
  const response = await c.login(person.email, person.password);
  return { c, response };
}

const createKey = (c: TestClient, accountId: number) =>
  c.post('/api/api-keys', { account: accountId, name: 'CRM', mode: 'live', scopes: ['forms:read'] });

describe('TOTP enrolment', () => {
  it('starts with a secret and its otpauth URL, is on after a first right code, and answers 10 recovery codes once', async () => {
    const owner = await newOwner(t.app);
    const before = (await owner.c.get('/api/auth/mfa')).json<SecondFactors>();
    expect(before).toEqual({
      totp: { enabled: false, confirmedAt: null },
      recoveryCodesLeft: 0,
      passkeys: 0,
      lastProofAt: null,
    });

    const started = await owner.c.post('/api/auth/mfa/totp');
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUrl } = started.json<TotpSetupResponse>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Veriform');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');

    // Not a factor until confirmed: the sign-in stays one step.
    expect((await userRow(owner.userId)).mfaEnrolledAt).toBeNull();
    const wrong = await owner.c.post('/api/auth/mfa/totp/confirm', { code: codeAt(secret, t.clock, 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(wrongCode);

    const confirmed = await owner.c.post('/api/auth/mfa/totp/confirm', { code: codeAt(secret, t.clock) });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(new Set(recoveryCodes).size).toBe(10);

    const user = await userRow(owner.userId);
    expect(user.mfaEnrolledAt?.getTime()).toBe(t.clock.now().getTime());
    const after = (await owner.c.get('/api/auth/mfa')).json<SecondFactors>();
    expect(after).toMatchObject({ totp: { enabled: true }, recoveryCodesLeft: 10, passkeys: 0 });
    expect(after.lastProofAt).toBe(t.clock.now().toISOString());

    // A second start is refused while one is confirmed (it is removed first).
    const again = await owner.c.post('/api/auth/mfa/totp');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      nonFieldErrors: [secondFactorTexts.totpAlreadyEnabled],
      MainCode_: 'validation_error',
    });
    expect(await actionsIn(owner.accountId)).toContain('auth.mfa_enrolled');
  });

  it('keeps no secret in clear: the TOTP secret is sealed, the recovery codes are SHA-256 hashes', async () => {
    const owner = await newOwner(t.app);
    const { secret, recoveryCodes } = await enrolTotp(owner.c, t.clock);
    const [totp] = await t.db.db
      .select()
      .from(schema.userTotp)
      .where(eq(schema.userTotp.userId, owner.userId));
    expect(totp?.secretSealed).toMatch(/^v1\./);
    expect(totp?.secretSealed).not.toContain(secret);
    expect(totp?.secretSealed).not.toContain(secret.toLowerCase());
    // Sealed for this person: it opens under their context only.
    expect(t.app.services.sealer.open(totp?.secretSealed ?? '', `totp:${owner.userId}`)).toBe(secret);
    expect(() => t.app.services.sealer.open(totp?.secretSealed ?? '', `totp:${owner.userId + 1}`)).toThrow();

    const stored = await t.db.db
      .select()
      .from(schema.recoveryCodes)
      .where(eq(schema.recoveryCodes.userId, owner.userId));
    expect(stored).toHaveLength(10);
    const hashes = stored.map((row) => row.codeHash);
    for (const code of recoveryCodes) {
      const bare = code.replace('-', '');
      expect(hashes).not.toContain(code);
      expect(hashes).not.toContain(bare);
      expect(hashes).toContain(sha256Hex(bare));
    }
  });

  it('refuses a confirmation with nothing started, and bad input', async () => {
    const person = await newPerson(t.app);
    const nothing = await person.c.post('/api/auth/mfa/totp/confirm', { code: '123456' });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toEqual({
      nonFieldErrors: [secondFactorTexts.noTotpToConfirm],
      MainCode_: 'validation_error',
    });
    for (const code of ['12345', '1234567', 'abcdef', 123456, null, 'x'.repeat(100)]) {
      const bad = await person.c.post('/api/auth/mfa/totp/confirm', { code });
      expect(bad.statusCode, String(code)).toBe(400);
    }
    expect((await person.c.post('/api/auth/mfa/totp/confirm', {})).statusCode).toBe(400);
    // Signed out: 401.
    const anonymous = new TestClient(t.app, nextIp());
    await anonymous.fetchCsrf();
    expect((await anonymous.post('/api/auth/mfa/totp')).statusCode).toBe(401);
    expect((await anonymous.get('/api/auth/mfa')).statusCode).toBe(401);
  });
});

describe('TOTP codes', () => {
  it('accepts the steps −1, 0 and +1 around now and refuses ±2 (controlled clock)', async () => {
    const person = await newPerson(t.app);
    const { secret } = await enrolTotp(person.c, t.clock);
    for (const offset of [-1, 0, 1]) {
      t.clock.advance(10 * 30_000);
      const response = await person.c.post('/api/auth/step-up', {
        method: 'totp',
        code: codeAt(secret, t.clock, offset),
      });
      expect(response.statusCode, `offset ${offset}`).toBe(200);
    }
    for (const offset of [-2, 2]) {
      t.clock.advance(10 * 30_000);
      const response = await person.c.post('/api/auth/step-up', {
        method: 'totp',
        code: codeAt(secret, t.clock, offset),
      });
      expect(response.statusCode, `offset ${offset}`).toBe(400);
      expect(response.json()).toEqual(wrongCode);
    }
  });

  it('refuses a code used again within its window, and an earlier step once a later one was used', async () => {
    const person = await newPerson(t.app);
    const { secret } = await enrolTotp(person.c, t.clock);
    nextStep(t.clock);
    const code = codeAt(secret, t.clock);
    expect((await person.c.post('/api/auth/step-up', { method: 'totp', code })).statusCode).toBe(200);
    const replay = await person.c.post('/api/auth/step-up', { method: 'totp', code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual(wrongCode);
    // Still inside the window 15 s later: refused all the same.
    t.clock.advance(15_000);
    expect((await person.c.post('/api/auth/step-up', { method: 'totp', code })).statusCode).toBe(400);
    // The step before it (accepted by the window) is at or below the last one used.
    nextStep(t.clock);
    const later = codeAt(secret, t.clock, 1);
    expect((await person.c.post('/api/auth/step-up', { method: 'totp', code: later })).statusCode).toBe(200);
    const earlier = codeAt(secret, t.clock, 0);
    expect((await person.c.post('/api/auth/step-up', { method: 'totp', code: earlier })).statusCode).toBe(
      400,
    );
  });

  it('counts wrong codes as wrong passwords: 5 per address and IP, then 429 even for the right code', async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await owner.c.post('/api/auth/step-up', {
        method: 'totp',
        code: codeAt(secret, t.clock, 7),
      });
      expect(wrong.statusCode).toBe(400);
    }
    const locked = await stepUpWithTotp(owner.c, secret, t.clock);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().MainCode_).toBe('rate_limited');
    // And the password's sign-in from that network shares the buckets.
    expect((await owner.c.login(owner.email, owner.password)).statusCode).toBe(429);
    const actions = await actionsIn(owner.accountId);
    expect(actions.filter((a) => a === 'auth.mfa_failed')).toHaveLength(5);
    t.clock.advance(16 * MINUTE);
    expect((await stepUpWithTotp(owner.c, secret, t.clock)).statusCode).toBe(200);
  });
});

describe('sign-in in two steps', () => {
  it('answers mfaRequired and no session after the password; the second step signs in once', async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);

    const { c, response } = await freshBrowser(owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    expect(response.cookies.map((cookie) => cookie.name)).not.toContain('vf_session');
    const pending = response.cookies.find((cookie) => cookie.name === 'vf_mfa_login');
    expect(pending).toMatchObject({ httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(pending?.maxAge).toBe(MFA_LOGIN_TTL_MS / 1000);
    expect((await c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
    // Stored as a hash only.
    const [row] = await t.db.db
      .select()
      .from(schema.authChallenges)
      .where(eq(schema.authChallenges.idHash, sha256Hex(pending?.value ?? '')));
    expect(row).toMatchObject({ kind: 'mfa_login', userId: owner.userId });
    await expect(actionsIn(owner.accountId)).resolves.not.toContain('auth.login_succeeded');

    // A wrong code keeps the pending sign-in.
    const wrong = await c.post('/api/auth/login/mfa', { method: 'totp', code: codeAt(secret, t.clock, 9) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(wrongCode);
    const pendingToken = c.cookies.get('vf_mfa_login') ?? '';
    expect(pendingToken).not.toBe('');

    const right = await c.post('/api/auth/login/mfa', { method: 'totp', code: codeAt(secret, t.clock) });
    expect(right.statusCode).toBe(200);
    expect(right.json().user).toMatchObject({ email: owner.email, isAuthenticated: true });
    expect(c.cookies.has('vf_session')).toBe(true);
    expect(c.cookies.has('vf_mfa_login')).toBe(false);
    const status = (await c.get('/api/auth/mfa')).json<SecondFactors>();
    expect(status.lastProofAt).toBe(t.clock.now().toISOString());
    const actions = await actionsIn(owner.accountId);
    expect(actions).toContain('auth.login_succeeded');
    expect(actions).toContain('auth.mfa_failed');

    // The same pending sign-in again (a copied cookie): gone.
    nextStep(t.clock);
    const thief = new TestClient(t.app, nextIp());
    await thief.fetchCsrf();
    thief.cookies.set('vf_mfa_login', pendingToken);
    const reused = await thief.post('/api/auth/login/mfa', { method: 'totp', code: codeAt(secret, t.clock) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual(noPendingLogin);
    expect(thief.cookies.has('vf_session')).toBe(false);
  });

  it('refuses an expired pending sign-in, a missing one, and a made-up one', async () => {
    const person = await newPerson(t.app);
    const { secret } = await enrolTotp(person.c, t.clock);
    const { c } = await freshBrowser(person);
    t.clock.advance(MFA_LOGIN_TTL_MS + 1000);
    const expired = await c.post('/api/auth/login/mfa', { method: 'totp', code: codeAt(secret, t.clock) });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual(noPendingLogin);

    const none = new TestClient(t.app, nextIp());
    await none.fetchCsrf();
    const missing = await none.post('/api/auth/login/mfa', { method: 'totp', code: '123456' });
    expect(missing.json()).toEqual(noPendingLogin);
    none.cookies.set('vf_mfa_login', 'made-up');
    expect((await none.post('/api/auth/login/mfa', { method: 'totp', code: '123456' })).json()).toEqual(
      noPendingLogin,
    );
    // Bad bodies are 400 before anything.
    for (const body of [{}, { method: 'sms', code: '123456' }, { method: 'totp' }, { method: 'passkey' }]) {
      expect((await none.post('/api/auth/login/mfa', body)).statusCode).toBe(400);
    }
  });

  it('signs in with a recovery code once: it is used up, written in the audit log, and refused again', async () => {
    const owner = await newOwner(t.app);
    const { recoveryCodes } = await enrolTotp(owner.c, t.clock);
    const [first] = recoveryCodes;
    if (!first) throw new Error('no code');
    const { c } = await freshBrowser(owner);
    // Case and hyphen forgiven.
    const response = await c.post('/api/auth/login/mfa', {
      method: 'recovery_code',
      code: first.replace('-', '').toUpperCase(),
    });
    expect(response.statusCode).toBe(200);
    const actions = await actionsIn(owner.accountId);
    expect(actions).toContain('auth.recovery_code_used');
    expect((await c.get('/api/auth/mfa')).json<SecondFactors>().recoveryCodesLeft).toBe(9);

    const { c: again } = await freshBrowser(owner);
    const reused = await again.post('/api/auth/login/mfa', { method: 'recovery_code', code: first });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual(wrongCode);
  });

  it('answers 400 for a passkey assertion that is no passkey of the person', async () => {
    const person = await newPerson(t.app);
    await enrolTotp(person.c, t.clock);
    const { c } = await freshBrowser(person);
    const response = await c.post('/api/auth/login/mfa', {
      method: 'passkey',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
        clientExtensionResults: {},
      },
    });
    expect(response.statusCode).toBe(400);
    expect(c.cookies.has('vf_session')).toBe(false);
  });
});

describe('step-up', () => {
  it('asks a person with a factor again after 10 minutes, then lets them through after POST step-up', async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    // The enrolment is a proof: fresh for 10 minutes.
    expect((await createKey(owner.c, owner.accountId)).statusCode).toBe(201);
    t.clock.advance(STEP_UP_MAX_AGE_MS + 1000);
    const stale = await createKey(owner.c, owner.accountId);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual(stepUpRequired);

    const stepUp = await stepUpWithTotp(owner.c, secret, t.clock);
    expect(stepUp.statusCode).toBe(200);
    expect(stepUp.json()).toEqual({ lastProofAt: t.clock.now().toISOString() });
    expect((await createKey(owner.c, owner.accountId)).statusCode).toBe(201);
    expect(await actionsIn(owner.accountId)).toContain('auth.step_up');
  });

  it('asks again after a new enrolment the session has not proved since', async () => {
    const owner = await newOwner(t.app);
    await enrolTotp(owner.c, t.clock);
    t.clock.advance(MINUTE);
    // As a passkey added on another device does: the latest enrolment is now.
    await t.db.db
      .update(schema.users)
      .set({ mfaEnrolledAt: t.clock.now() })
      .where(eq(schema.users.id, owner.userId));
    const response = await createKey(owner.c, owner.accountId);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(stepUpRequired);
  });

  it('asks for a step-up before a new factor is enrolled by a session that has not proved its own lately', async () => {
    // A stolen session must not enrol its own authenticator: the new factor's confirmation would be a proof in itself.
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    t.clock.advance(STEP_UP_MAX_AGE_MS + 1000);
    for (const [url, body] of [
      ['/api/auth/passkeys/registration-options', undefined],
      // A body of the right shape: step-up is asked after validation (a malformed body is a 400 first).
      [
        '/api/auth/passkeys',
        {
          response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'a' } },
          name: 'Phone',
        },
      ],
      ['/api/auth/mfa/totp', undefined],
      ['/api/auth/mfa/totp/confirm', { code: '123456' }],
    ] as const) {
      const refused = await owner.c.post(url, body);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual(stepUpRequired);
    }
    expect((await owner.c.get('/api/auth/passkeys')).json()).toEqual([]);
    // Proved again: the passkey is added.
    expect((await stepUpWithTotp(owner.c, secret, t.clock)).statusCode).toBe(200);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    const options = await owner.c.post('/api/auth/passkeys/registration-options');
    expect(options.statusCode, options.body).toBe(200);
    const added = await owner.c.post('/api/auth/passkeys', {
      response: authenticator.register(options.json()),
      name: 'Phone',
    });
    expect(added.statusCode, added.body).toBe(201);
  });

  it('never asks a person without a second factor', async () => {
    const owner = await newOwner(t.app);
    t.clock.advance(STEP_UP_MAX_AGE_MS * 3);
    expect((await createKey(owner.c, owner.accountId)).statusCode).toBe(201);
    expect((await owner.c.get(`/api/audit-events/export?account=${owner.accountId}`)).statusCode).toBe(200);
  });

  it("answers 404 for another account's id before asking for a step-up", async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app);
    await enrolTotp(owner.c, t.clock);
    t.clock.advance(STEP_UP_MAX_AGE_MS + 1000);
    const key = await createKey(owner.c, stranger.accountId);
    expect(key.statusCode).toBe(404);
    expect(key.json()).toEqual(notFound);
    const retention = await owner.c.request({
      method: 'PUT',
      url: `/api/accounts/${stranger.accountId}/retention`,
      body: { years: 5 },
    });
    expect(retention.statusCode).toBe(404);
    const exported = await owner.c.get(`/api/audit-events/export?account=${stranger.accountId}`);
    expect(exported.statusCode).toBe(404);
    // Their own: the step-up.
    const own = await owner.c.request({
      method: 'PUT',
      url: `/api/accounts/${owner.accountId}/retention`,
      body: { years: 5 },
    });
    expect(own.json()).toEqual(stepUpRequired);
  });

  it('refuses a step-up to a person without a factor, and bad proofs', async () => {
    const person = await newPerson(t.app);
    const response = await person.c.post('/api/auth/step-up', { method: 'totp', code: '123456' });
    expect(response.statusCode).toBe(400);
    expect(
      (await person.c.post('/api/auth/step-up', { method: 'recovery_code', code: 'short' })).statusCode,
    ).toBe(400);
  });
});

describe('removing the authenticator app and new recovery codes', () => {
  it('asks for a step-up, ends the other sessions, and leaves the person without a factor', async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);
    const { c: other } = await freshBrowser(owner);
    expect(
      (await other.post('/api/auth/login/mfa', { method: 'totp', code: codeAt(secret, t.clock) })).statusCode,
    ).toBe(200);

    t.clock.advance(STEP_UP_MAX_AGE_MS + 1000);
    const stale = await owner.c.request({ method: 'DELETE', url: '/api/auth/mfa/totp' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual(stepUpRequired);
    expect((await stepUpWithTotp(owner.c, secret, t.clock)).statusCode).toBe(200);

    const removed = await owner.c.request({ method: 'DELETE', url: '/api/auth/mfa/totp' });
    expect(removed.statusCode).toBe(204);
    expect((await userRow(owner.userId)).mfaEnrolledAt).toBeNull();
    expect((await owner.c.get('/api/auth/mfa')).json<SecondFactors>()).toMatchObject({
      totp: { enabled: false },
      recoveryCodesLeft: 0,
    });
    // This session stays, the other one ended.
    expect((await owner.c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(true);
    expect((await other.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
    expect(await actionsIn(owner.accountId)).toContain('auth.mfa_removed');
    // Signing in is one step again; a second removal finds nothing.
    expect((await freshBrowser(owner)).response.json().user.isAuthenticated).toBe(true);
    expect((await owner.c.request({ method: 'DELETE', url: '/api/auth/mfa/totp' })).statusCode).toBe(404);
  });

  it('makes new recovery codes under step-up; the old ones stop working', async () => {
    const owner = await newOwner(t.app);
    const { secret, recoveryCodes: old } = await enrolTotp(owner.c, t.clock);
    const made = await owner.c.post('/api/auth/mfa/recovery-codes');
    expect(made.statusCode).toBe(200);
    const fresh = made.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => old.includes(code))).toBe(false);
    const oldCode = old[0] ?? '';
    expect(
      (await owner.c.post('/api/auth/step-up', { method: 'recovery_code', code: oldCode })).statusCode,
    ).toBe(400);
    expect(
      (await owner.c.post('/api/auth/step-up', { method: 'recovery_code', code: fresh[0] })).statusCode,
    ).toBe(200);
    expect(await actionsIn(owner.accountId)).toContain('auth.recovery_codes_regenerated');

    t.clock.advance(STEP_UP_MAX_AGE_MS + 1000);
    expect((await owner.c.post('/api/auth/mfa/recovery-codes')).json()).toEqual(stepUpRequired);
    nextStep(t.clock);
    expect((await stepUpWithTotp(owner.c, secret, t.clock)).statusCode).toBe(200);
    expect((await owner.c.post('/api/auth/mfa/recovery-codes')).statusCode).toBe(200);
  });
});

describe('a passkey as the second factor (the passkeys module checks the assertion)', () => {
  async function addPasskey(c: TestClient, authenticator: SoftAuthenticator) {
    const options = await c.post('/api/auth/passkeys/registration-options');
    const added = await c.post('/api/auth/passkeys', {
      response: authenticator.register(options.json()),
      name: 'Laptop',
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  async function assertion(c: TestClient, authenticator: SoftAuthenticator) {
    const options = await c.post('/api/auth/passkeys/authentication-options');
    expect(options.statusCode).toBe(200);
    return authenticator.assert(options.json());
  }

  it('finishes the sign-in and renews a step-up; the team list counts the passkey', async () => {
    const owner = await newOwner(t.app);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    await addPasskey(owner.c, authenticator);

    const { c, response } = await freshBrowser(owner);
    expect(response.json()).toEqual({ mfaRequired: true, methods: ['passkey'] });
    const signedIn = await c.post('/api/auth/login/mfa', {
      method: 'passkey',
      response: await assertion(c, authenticator),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(c.cookies.has('vf_session')).toBe(true);

    t.clock.advance(STEP_UP_MAX_AGE_MS + 1000);
    expect((await createKey(c, owner.accountId)).json()).toEqual(stepUpRequired);
    const stepUp = await c.post('/api/auth/step-up', {
      method: 'passkey',
      response: await assertion(c, authenticator),
    });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    expect((await createKey(c, owner.accountId)).statusCode).toBe(201);

    const team = (await c.get(`/api/memberships?accountId=${owner.accountId}`)).json<TeamMembershipList>();
    expect(team.results[0]?.mfa).toEqual({ totp: false, passkeys: 1 });
  });

  it("refuses another person's passkey on the second step, and counts it as a failed proof", async () => {
    const owner = await newOwner(t.app);
    await enrolTotp(owner.c, t.clock);
    const other = await newPerson(t.app);
    const theirs = new SoftAuthenticator(TEST_PUBLIC_URL);
    await addPasskey(other.c, theirs);
    const { c } = await freshBrowser(owner);
    const refused = await c.post('/api/auth/login/mfa', {
      method: 'passkey',
      response: await assertion(c, theirs),
    });
    expect(refused.statusCode).toBe(400);
    expect(c.cookies.has('vf_session')).toBe(false);
    expect(await actionsIn(owner.accountId)).toContain('auth.mfa_failed');
  });
});

describe("an account's second-factor requirement", () => {
  it('an owner turns it on; members without a factor get mfa_setup_required on every account call until they enrol', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const stranger = await newOwner(t.app);

    const turnedOn = await owner.c.patch(`/api/accounts/${owner.accountId}`, { requireMfa: true });
    expect(turnedOn.statusCode).toBe(200);
    expect(turnedOn.json<CompanyInfo>().requireMfa).toBe(true);
    const [event] = await t.db.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'account.mfa_requirement_changed'),
        ),
      );
    expect(event).toBeDefined();

    // Everyone without a factor, the owner included (they are led to set one up too).
    for (const person of [owner, member]) {
      const company = await person.c.get(`/api/accounts/${owner.accountId}`);
      expect(company.statusCode).toBe(403);
      expect(company.json()).toEqual(setupRequired);
      const team = await person.c.get(`/api/memberships?accountId=${owner.accountId}`);
      expect(team.json()).toEqual(setupRequired);
      // Who they are, and enrolment, stay open.
      expect((await person.c.post('/api/auth/refresh-me')).statusCode).toBe(200);
      expect((await person.c.get('/api/memberships')).statusCode).toBe(200);
      expect((await person.c.get('/api/auth/mfa')).statusCode).toBe(200);
    }
    // Another account's id is still a 404, not a hint.
    expect((await member.c.get(`/api/accounts/${stranger.accountId}`)).json()).toEqual(notFound);
    // Their other accounts are not affected.
    expect((await stranger.c.get(`/api/accounts/${stranger.accountId}`)).statusCode).toBe(200);

    await enrolTotp(member.c, t.clock);
    expect((await member.c.get(`/api/accounts/${owner.accountId}`)).statusCode).toBe(200);
    nextStep(t.clock);
    await enrolTotp(owner.c, t.clock);
    const team = await owner.c.get(`/api/memberships?accountId=${owner.accountId}`);
    expect(team.statusCode).toBe(200);
    const byUser = new Map(team.json<TeamMembershipList>().results.map((m) => [m.user.id, m.mfa]));
    expect(byUser.get(member.userId)).toEqual({ totp: true, passkeys: 0 });
    expect(byUser.get(owner.userId)).toEqual({ totp: true, passkeys: 0 });

    const off = await owner.c.patch(`/api/accounts/${owner.accountId}`, { requireMfa: false });
    expect(off.json<CompanyInfo>().requireMfa).toBe(false);
    const wrongType = await owner.c.patch(`/api/accounts/${owner.accountId}`, { requireMfa: 'yes' });
    expect(wrongType.statusCode).toBe(400);
    // Members may not change it.
    expect((await member.c.patch(`/api/accounts/${owner.accountId}`, { requireMfa: true })).statusCode).toBe(
      403,
    );
  });

  it('shows each member without a factor as such in the team list', async () => {
    const owner = await newOwner(t.app);
    await join(t.app, owner);
    const team = (
      await owner.c.get(`/api/memberships?accountId=${owner.accountId}`)
    ).json<TeamMembershipList>();
    expect(team.results.map((m) => m.mfa)).toEqual([
      { totp: false, passkeys: 0 },
      { totp: false, passkeys: 0 },
    ]);
  });
});
