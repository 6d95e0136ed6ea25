import { MAX_PASSKEYS_PER_USER, secondFactorTexts, ssoTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { newOwner, newPerson } from '../../test-support/teams.ts';
import { SoftAuthenticator, strayKey } from '../../test-support/webauthn-authenticator.ts';
import { PASSKEY_OPTIONS_LIMITS } from './service.ts';

const t = useTestApp();
let nextIp = 1;
/** Each test its own IP, so the per-IP limits of one test never touch another. */
const client = () => new TestClient(t.app, `10.9.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`);
const failed = { nonFieldErrors: [secondFactorTexts.passkeyFailed], MainCode_: 'validation_error' };

async function registrationOptions(c: TestClient) {
  const response = await c.post('/api/auth/passkeys/registration-options');
  expect(response.statusCode).toBe(200);
  return response.json<{ challenge: string; rp: { id: string }; user: { id: string; name: string } }>();
}

/** Registers a new passkey of `authenticator` for the signed-in client; answers its id and credential id. */
async function addPasskey(c: TestClient, authenticator: SoftAuthenticator, name = 'Laptop') {
  const options = await registrationOptions(c);
  const response = authenticator.register(options);
  const added = await c.post('/api/auth/passkeys', { response, name });
  expect(added.statusCode, added.body).toBe(201);
  return { id: added.json<{ id: number }>().id, credentialId: response.id };
}

async function authenticationOptions(c: TestClient) {
  if (!c.csrfToken) await c.fetchCsrf();
  const response = await c.post('/api/auth/passkeys/authentication-options');
  expect(response.statusCode).toBe(200);
  return response.json<{ challenge: string; rpId: string; allowCredentials?: unknown[] }>();
}

async function personWithPasskey() {
  const person = await newPerson(t.app);
  const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
  const passkey = await addPasskey(person.c, authenticator);
  return { person, authenticator, passkey };
}

const del = (c: TestClient, url: string) => c.request({ method: 'DELETE', url });

async function userRow(id: number) {
  const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, id));
  return row;
}

describe('passkey registration', () => {
  it('offers options for this site, an opaque user handle, a discoverable credential and the passkeys held', async () => {
    const person = await newPerson(t.app);
    const first = await registrationOptions(person.c);
    expect(first.rp).toEqual({ id: 'veriform.example', name: 'Veriform' });
    expect(first.user.name).toBe(person.email);
    // The handle is not the address, nor the row id.
    expect(Buffer.from(first.user.id, 'base64url').toString()).not.toContain(person.email);
    expect(first.user.id).not.toBe(String(person.userId));
    expect(first).toMatchObject({
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      excludeCredentials: [],
    });
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    const { credentialId } = await addPasskey(person.c, authenticator);
    const again = await registrationOptions(person.c);
    expect(again.user.id).toBe(first.user.id);
    expect(again).toMatchObject({ excludeCredentials: [{ id: credentialId, type: 'public-key' }] });
    // The challenge is stored hashed, for this person, as a registration.
    const [row] = await t.db.db
      .select()
      .from(schema.authChallenges)
      .where(eq(schema.authChallenges.userId, person.userId));
    expect(row?.kind).toBe('passkey_registration');
    expect(row?.idHash).not.toBe(again.challenge);
  });

  it('adds a named passkey: listed, the person enrolled, this session proved, the audit log says so', async () => {
    const owner = await newOwner(t.app);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    const before = t.clock.now();
    const { id } = await addPasskey(owner.c, authenticator, 'Work laptop');
    const list = await owner.c.get('/api/auth/passkeys');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        id,
        name: 'Work laptop',
        deviceType: 'singleDevice',
        backedUp: false,
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
    ]);
    expect((await userRow(owner.userId))?.mfaEnrolledAt?.getTime()).toBeGreaterThanOrEqual(before.getTime());
    const sessions = await t.db.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, owner.userId));
    expect(sessions.map((s) => s.lastProofAt?.getTime())).toEqual([t.clock.now().getTime()]);
    const events = await t.db.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'auth.passkey_added'),
        ),
      );
    expect(events).toHaveLength(1);
    expect(events[0]?.targets).toContainEqual({ type: 'passkey', id: String(id), name: 'Work laptop' });
  });

  it('refuses an answer to no challenge, to a used one, to another person’s, and one past 5 minutes', async () => {
    const person = await newPerson(t.app);
    const other = await newPerson(t.app);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    const made = authenticator.register({ challenge: Buffer.from('x'.repeat(32)).toString('base64url') });
    const none = await person.c.post('/api/auth/passkeys', { response: made, name: 'A' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(failed);

    const options = await registrationOptions(person.c);
    const answer = authenticator.register(options);
    expect((await other.c.post('/api/auth/passkeys', { response: answer, name: 'A' })).statusCode).toBe(400);
    // Another person's attempt did not take it.
    expect((await person.c.post('/api/auth/passkeys', { response: answer, name: 'A' })).statusCode).toBe(201);
    expect((await person.c.post('/api/auth/passkeys', { response: answer, name: 'A' })).statusCode).toBe(400);

    const late = authenticator.register(await registrationOptions(person.c));
    t.clock.advance(5 * MINUTE + 1000);
    expect((await person.c.post('/api/auth/passkeys', { response: late, name: 'B' })).statusCode).toBe(400);
  });

  it('refuses a registration made for another origin or another RP id', async () => {
    const person = await newPerson(t.app);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    const wrongOrigin = authenticator.register(await registrationOptions(person.c), {
      origin: 'https://veriform.example.evil.test',
    });
    expect((await person.c.post('/api/auth/passkeys', { response: wrongOrigin, name: 'A' })).json()).toEqual(
      failed,
    );
    const wrongRp = authenticator.register(await registrationOptions(person.c), { rpId: 'evil.test' });
    expect((await person.c.post('/api/auth/passkeys', { response: wrongRp, name: 'A' })).json()).toEqual(
      failed,
    );
    expect((await person.c.get('/api/auth/passkeys')).json()).toEqual([]);
    expect((await userRow(person.userId))?.mfaEnrolledAt).toBeNull();
  });

  it(`holds at most ${MAX_PASSKEYS_PER_USER} passkeys, also when the last ones arrive at once`, async () => {
    const person = await newPerson(t.app);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    for (let i = 0; i < MAX_PASSKEYS_PER_USER - 2; i++) await addPasskey(person.c, authenticator, `Key ${i}`);
    // Five registrations prepared, answered at once: two fit.
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(authenticator.register(await registrationOptions(person.c)));
    const results = await Promise.all(
      answers.map((response, i) => person.c.post('/api/auth/passkeys', { response, name: `Burst ${i}` })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    for (const refused of results.filter((r) => r.statusCode !== 201)) {
      expect(refused.json()).toEqual({
        nonFieldErrors: [secondFactorTexts.tooManyPasskeys],
        MainCode_: 'validation_error',
      });
    }
    const options = await person.c.post('/api/auth/passkeys/registration-options');
    expect(options.statusCode).toBe(400);
    expect((await person.c.get('/api/auth/passkeys')).json()).toHaveLength(MAX_PASSKEYS_PER_USER);
  });

  it('refuses bad input: wrong types, missing fields, oversize, a name too long; and callers not signed in', async () => {
    const person = await newPerson(t.app);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    const good = authenticator.register(await registrationOptions(person.c));
    const bodies: unknown[] = [
      {},
      { name: 'A' },
      { response: good },
      { response: good, name: '' },
      { response: good, name: 'x'.repeat(101) },
      { response: good, name: 42 },
      { response: 'nope', name: 'A' },
      { response: { ...good, type: 'password' }, name: 'A' },
      { response: { ...good, id: 'not base64url!' }, name: 'A' },
      { response: { ...good, response: { clientDataJSON: 'A'.repeat(20_000) } }, name: 'A' },
      { response: { ...good, response: { ...good.response, clientDataJSON: 12 } }, name: 'A' },
    ];
    for (const body of bodies) {
      const response = await person.c.post('/api/auth/passkeys', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().MainCode_).toBe('validation_error');
    }
    // Garbage that passes the shape check is the library's to refuse.
    const garbage = { ...good, response: { ...good.response, attestationObject: 'AAAA' } };
    expect((await person.c.post('/api/auth/passkeys', { response: garbage, name: 'A' })).json()).toEqual(
      failed,
    );
    const anonymous = client();
    await anonymous.fetchCsrf();
    expect((await anonymous.post('/api/auth/passkeys/registration-options')).statusCode).toBe(401);
    expect((await anonymous.post('/api/auth/passkeys', { response: good, name: 'A' })).statusCode).toBe(401);
    expect((await anonymous.get('/api/auth/passkeys')).statusCode).toBe(401);
  });
});

describe('signing in with a passkey', () => {
  it('signs in without a password: a new session begun with the passkey, its proof made now', async () => {
    const { person, authenticator, passkey } = await personWithPasskey();
    const browser = client();
    const options = await authenticationOptions(browser);
    expect(options.rpId).toBe('veriform.example');
    expect(options.allowCredentials ?? []).toEqual([]);
    const login = await browser.post('/api/auth/login/passkey', { response: authenticator.assert(options) });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().user).toMatchObject({ email: person.email, isAuthenticated: true });
    expect((await browser.post('/api/auth/refresh-me')).json().user.email).toBe(person.email);
    const [session] = await t.db.db
      .select()
      .from(schema.sessions)
      .where(and(eq(schema.sessions.userId, person.userId), eq(schema.sessions.signedInWith, 'passkey')));
    expect(session?.lastProofAt?.getTime()).toBe(t.clock.now().getTime());
    const [stored] = await t.db.db.select().from(schema.passkeys).where(eq(schema.passkeys.id, passkey.id));
    expect(stored?.signCount).toBe(1);
    expect(stored?.lastUsedAt?.getTime()).toBe(t.clock.now().getTime());
  });

  it('refuses a replayed assertion (its challenge was taken)', async () => {
    const { authenticator } = await personWithPasskey();
    const browser = client();
    const assertion = authenticator.assert(await authenticationOptions(browser));
    expect((await browser.post('/api/auth/login/passkey', { response: assertion })).statusCode).toBe(200);
    const thief = client();
    await thief.fetchCsrf();
    const again = await thief.post('/api/auth/login/passkey', { response: assertion });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(failed);
    expect((await thief.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
  });

  it('uses one challenge once under a burst of 20: one session', async () => {
    const { person, authenticator } = await personWithPasskey();
    const browser = client();
    const assertion = authenticator.assert(await authenticationOptions(browser));
    const before = await t.db.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, person.userId));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => browser.post('/api/auth/login/passkey', { response: assertion })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    // The others find the challenge gone (400), or are refused by the guess limits first (429).
    expect(results.filter((r) => r.statusCode === 400 || r.statusCode === 429)).toHaveLength(19);
    const after = await t.db.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, person.userId));
    expect(after.length - before.length).toBe(1);
  });

  it('refuses an assertion for another origin, another RP id, a forged signature or a counter set back', async () => {
    const { authenticator } = await personWithPasskey();
    const browser = client();
    const tries = [{ origin: 'https://evil.test' }, { rpId: 'evil.test' }, { signWith: strayKey() }];
    for (const bend of tries) {
      const assertion = authenticator.assert(await authenticationOptions(browser), undefined, bend);
      const response = await browser.post('/api/auth/login/passkey', { response: assertion });
      expect(response.statusCode, JSON.stringify(Object.keys(bend))).toBe(400);
      expect(response.json()).toEqual(failed);
    }
    // A right one moves the counter on (the authenticator is at 4 after three bent tries)…
    expect(
      (
        await browser.post('/api/auth/login/passkey', {
          response: authenticator.assert(await authenticationOptions(browser)),
        })
      ).statusCode,
    ).toBe(200);
    // …and a cloned key reporting an older counter is refused.
    const cloned = authenticator.assert(await authenticationOptions(browser), undefined, { counter: 2 });
    expect((await browser.post('/api/auth/login/passkey', { response: cloned })).json()).toEqual(failed);
  });

  it('counts wrong and unknown assertions under the password limits: 5 per address and IP', async () => {
    const { person, authenticator } = await personWithPasskey();
    const attacker = client();
    for (let i = 0; i < 5; i++) {
      const forged = authenticator.assert(await authenticationOptions(attacker), undefined, {
        signWith: strayKey(),
      });
      expect((await attacker.post('/api/auth/login/passkey', { response: forged })).statusCode).toBe(400);
    }
    const right = authenticator.assert(await authenticationOptions(attacker));
    const locked = await attacker.post('/api/auth/login/passkey', { response: right });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().MainCode_).toBe('rate_limited');
    // The same address's password from this network is locked too: one rule.
    expect((await attacker.login(person.email, person.password)).statusCode).toBe(429);
    // The person from their own network is not.
    const own = client();
    const fine = authenticator.assert(await authenticationOptions(own));
    expect((await own.post('/api/auth/login/passkey', { response: fine })).statusCode).toBe(200);
  });

  it('refuses 20 wrong assertions at once past the limit: at most 5 are checked', async () => {
    const { authenticator } = await personWithPasskey();
    const attacker = client();
    const forged = [];
    for (let i = 0; i < 20; i++) {
      forged.push(
        authenticator.assert(await authenticationOptions(attacker), undefined, { signWith: strayKey() }),
      );
    }
    const results = await Promise.all(
      forged.map((response) => attacker.post('/api/auth/login/passkey', { response })),
    );
    expect(results.filter((r) => r.statusCode === 400).length).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(15);
  });

  it('refuses a person whose domain requires single sign-on, as a password is refused', async () => {
    const person = await newPerson(t.app, `pat-${Date.now()}@sso-only.example`);
    const authenticator = new SoftAuthenticator(TEST_PUBLIC_URL);
    await addPasskey(person.c, authenticator);
    const owner = await newOwner(t.app);
    await t.db.db.insert(schema.ssoConnections).values({
      accountId: owner.accountId,
      domain: 'sso-only.example',
      issuer: 'https://idp.sso-only.example',
      clientId: 'veriform',
      clientSecretSealed: 'not-used-here',
      required: true,
    });
    const browser = client();
    const response = await browser.post('/api/auth/login/passkey', {
      response: authenticator.assert(await authenticationOptions(browser)),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ nonFieldErrors: [ssoTexts.required], MainCode_: 'validation_error' });
    expect((await browser.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
  });

  it('refuses an unknown credential, and bad input', async () => {
    const stranger = new SoftAuthenticator(TEST_PUBLIC_URL);
    stranger.register({ challenge: 'AAAAAAAAAAAAAAAAAAAAAA' });
    const browser = client();
    const unknown = stranger.assert(await authenticationOptions(browser));
    const response = await browser.post('/api/auth/login/passkey', { response: unknown });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(failed);
    for (const body of [{}, { response: 1 }, { response: { ...unknown, rawId: 'x'.repeat(2000) } }]) {
      const bad = await browser.post('/api/auth/login/passkey', body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().MainCode_).toBe('validation_error');
    }
  });

  it(`answers authentication options at most ${PASSKEY_OPTIONS_LIMITS.perIp} times per IP per 15 minutes, also at once`, async () => {
    const browser = client();
    await browser.fetchCsrf();
    const { perIp } = PASSKEY_OPTIONS_LIMITS;
    const results = await Promise.all(
      Array.from({ length: perIp + 5 }, () => browser.post('/api/auth/passkeys/authentication-options')),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(perIp);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(5);
  });

  it('asks the authenticator to have verified the person for a sign-in without a password, not for a second step', async () => {
    const { person, authenticator, passkey } = await personWithPasskey();
    const browser = client();
    const unverified = authenticator.assert(await authenticationOptions(browser), undefined, {
      userVerified: false,
    });
    expect((await browser.post('/api/auth/login/passkey', { response: unverified })).json()).toEqual(failed);
    const second = authenticator.assert(await authenticationOptions(browser), undefined, {
      userVerified: false,
    });
    await expect(t.app.services.passkeys.verifyAssertionForUser(person.userId, second)).resolves.toEqual({
      passkeyId: passkey.id,
    });
  });
});

describe('removing a passkey', () => {
  it('removes it, ends the person’s other sessions, and unenrolls them when it was their last factor', async () => {
    const { person, authenticator, passkey } = await personWithPasskey();
    const second = await addPasskey(person.c, authenticator, 'Phone');
    const elsewhere = client();
    expect((await elsewhere.login(person.email, person.password)).statusCode).toBe(200);
    expect((await del(person.c, `/api/auth/passkeys/${passkey.id}`)).statusCode).toBe(204);
    expect((await elsewhere.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
    expect((await person.c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(true);
    expect((await userRow(person.userId))?.mfaEnrolledAt).not.toBeNull();
    expect((await del(person.c, `/api/auth/passkeys/${second.id}`)).statusCode).toBe(204);
    expect((await userRow(person.userId))?.mfaEnrolledAt).toBeNull();
    expect((await person.c.get('/api/auth/passkeys')).json()).toEqual([]);
    // A removed passkey signs nobody in.
    const browser = client();
    const assertion = authenticator.assert(await authenticationOptions(browser), passkey.credentialId);
    expect((await browser.post('/api/auth/login/passkey', { response: assertion })).statusCode).toBe(400);
  });

  it('answers 404 for another person’s passkey, an unknown id and one that is no number', async () => {
    const { passkey } = await personWithPasskey();
    const other = await personWithPasskey();
    for (const id of [String(passkey.id), '999999', 'abc', '1e3', '-1']) {
      const response = await del(other.person.c, `/api/auth/passkeys/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().MainCode_).toBe('not_found');
    }
    const [still] = await t.db.db.select().from(schema.passkeys).where(eq(schema.passkeys.id, passkey.id));
    expect(still).toBeDefined();
  });

  it('records the removal in the audit log', async () => {
    const owner = await newOwner(t.app);
    const { id } = await addPasskey(owner.c, new SoftAuthenticator(TEST_PUBLIC_URL), 'Old key');
    expect((await del(owner.c, `/api/auth/passkeys/${id}`)).statusCode).toBe(204);
    const events = await t.db.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'auth.passkey_removed'),
        ),
      );
    expect(events).toHaveLength(1);
  });
});

describe('verifyAssertionForUser (the second step and step-up)', () => {
  it('accepts the person’s own passkey once, refuses another person’s', async () => {
    const a = await personWithPasskey();
    const b = await personWithPasskey();
    const { passkeys } = t.app.services;
    const browser = client();
    const own = a.authenticator.assert(await authenticationOptions(browser));
    await expect(passkeys.verifyAssertionForUser(a.person.userId, own)).resolves.toEqual({
      passkeyId: a.passkey.id,
    });
    await expect(passkeys.verifyAssertionForUser(a.person.userId, own)).rejects.toMatchObject({
      statusCode: 400,
    });
    const notTheirs = b.authenticator.assert(await authenticationOptions(browser));
    await expect(passkeys.verifyAssertionForUser(a.person.userId, notTheirs)).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});
