import {
  type AuthResponse,
  SSO_CALLBACK_PATH,
  type SsoSettingsResponse,
  ssoTexts,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { startOidcProvider, type TestOidcProvider } from '../../test-support/oidc-provider.ts';
import { join, newOwner, newPerson, nextIp, type Owner } from '../../test-support/teams.ts';

const { accountDomains, auditEvents, memberships, sessions, ssoConnections, ssoIdentities, users } = schema;

const redirectUri = `${TEST_PUBLIC_URL}${SSO_CALLBACK_PATH}`;

let provider: TestOidcProvider;
/** Another provider with the same client: its codes are another issuer's (a mix-up). */
let impostor: TestOidcProvider;
/** A provider whose discovery document names another issuer (localhost) than the URL it is fetched at (127.0.0.1). */
let misnamed: TestOidcProvider;
/** ID tokens valid 30 seconds, for the expired token. */
let shortLived: TestOidcProvider;

// DOMAIN_PROOF_ALLOW_HTTP on, as in development: the provider on loopback is reached over http://.
const t = useTestApp(async () => {
  provider = await startOidcProvider({ redirectUri });
  impostor = await startOidcProvider({
    redirectUri,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
  });
  misnamed = await startOidcProvider({ redirectUri, issuerHost: 'localhost' });
  shortLived = await startOidcProvider({ redirectUri, idTokenTtlSeconds: 30 });
  return { env: { DOMAIN_PROOF_ALLOW_HTTP: 'true' } };
});
afterAll(async () => {
  await Promise.all([provider, impostor, misnamed, shortLived].map((p) => p?.close()));
});

const ssoUrl = (accountId: number) => `/api/accounts/${accountId}/sso`;

let domainCounter = 0;
const freshDomain = () => `sso${++domainCounter}-${Date.now()}.example`;

/** The account's domain, verified (the proof itself is domains.test.ts's). */
async function verifiedDomain(accountId: number, domain = freshDomain()): Promise<string> {
  const now = t.clock.now();
  await t.db.db.insert(accountDomains).values({
    accountId,
    domain,
    token: `vf-test-${domain}`,
    verifiedAt: now,
    verifiedBy: 'dns',
    createdAt: now,
  });
  return domain;
}

function put(owner: Owner, body: Record<string, unknown>, accountId = owner.accountId) {
  return owner.c.request({ method: 'PUT', url: ssoUrl(accountId), body });
}

/** An owner whose account has a verified domain connected to `idp` (default role member unless told). */
async function connected(
  idp: TestOidcProvider = provider,
  options: { defaultRole?: 'member' | 'owner'; required?: boolean } = {},
) {
  const owner = await newOwner(t.app);
  const domain = await verifiedDomain(owner.accountId);
  const response = await put(owner, {
    domain,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    defaultRole: options.defaultRole ?? 'member',
    required: options.required ?? false,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { owner, domain };
}

/** The browser's GET /auth/sso/start: the provider's authorization URL it is sent to. */
async function start(c: TestClient, email: string): Promise<URL> {
  const response = await c.get(`/auth/sso/start?email=${encodeURIComponent(email)}`);
  expect(response.statusCode, response.body).toBe(303);
  return new URL(String(response.headers.location));
}

const callback = (c: TestClient, url: URL) => c.get(`${url.pathname}${url.search}`);

/** Start, sign in at `idp` as `login`, come back: the callback's answer. */
async function signInThrough(
  c: TestClient,
  email: string,
  idp: TestOidcProvider = provider,
): Promise<LightMyRequestResponse> {
  const back = await idp.signIn((await start(c, email)).href, email);
  return callback(c, back);
}

async function viewer(c: TestClient): Promise<AuthResponse> {
  await c.fetchCsrf();
  const response = await c.post('/api/auth/refresh-me');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuthResponse>();
}

const userByEmail = async (email: string) =>
  (await t.db.db.select().from(users).where(eq(users.email, email)).limit(1))[0];

const eventsOf = (accountId: number, action: string) =>
  t.db.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.action, action)))
    .orderBy(asc(auditEvents.sequence));

describe('SSO settings', () => {
  it('answers no connection, the verified domains and the redirect URI to register', async () => {
    const owner = await newOwner(t.app);
    const domain = await verifiedDomain(owner.accountId);
    const response = await owner.c.get(ssoUrl(owner.accountId));
    expect(response.statusCode).toBe(200);
    expect(response.json<SsoSettingsResponse>()).toEqual({
      connection: null,
      verifiedDomains: [domain],
      redirectUri,
    });
  });

  it('connects a provider: the secret is sealed at rest, never answered, and not in the audit log', async () => {
    const owner = await newOwner(t.app);
    const domain = await verifiedDomain(owner.accountId);
    const response = await put(owner, {
      domain: domain.toUpperCase(),
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      defaultRole: 'owner',
      required: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(provider.clientSecret);
    const { connection } = response.json<SsoSettingsResponse>();
    expect(connection).toMatchObject({
      domain,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecretSet: true,
      defaultRole: 'owner',
      required: false,
      redirectUri,
    });
    const again = await owner.c.get(ssoUrl(owner.accountId));
    expect(again.body).not.toContain(provider.clientSecret);
    expect(again.json<SsoSettingsResponse>().connection?.clientSecretSet).toBe(true);

    const [row] = await t.db.db
      .select()
      .from(ssoConnections)
      .where(eq(ssoConnections.accountId, owner.accountId));
    expect(row?.clientSecretSealed).toMatch(/^v1\./);
    expect(row?.clientSecretSealed).not.toContain(provider.clientSecret);
    expect(t.app.services.sealer.open(row?.clientSecretSealed ?? '', `sso:${owner.accountId}`)).toBe(
      provider.clientSecret,
    );

    const events = await eventsOf(owner.accountId, 'account.sso_changed');
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0])).not.toContain(provider.clientSecret);
    expect(events[0]?.changes).toMatchObject({ domain: [null, domain], clientSecret: [null, 'replaced'] });
  });

  it('keeps the stored secret when an edit leaves it out; a first connection needs one', async () => {
    const owner = await newOwner(t.app);
    const domain = await verifiedDomain(owner.accountId);
    const body = { domain, issuer: provider.issuer, clientId: provider.clientId, defaultRole: 'member' };
    const missing = await put(owner, { ...body, required: false });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ clientSecret: [ssoTexts.secretRequired] });

    expect(
      (await put(owner, { ...body, clientSecret: provider.clientSecret, required: false })).statusCode,
    ).toBe(200);
    const edited = await put(owner, { ...body, required: true });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<SsoSettingsResponse>().connection).toMatchObject({
      required: true,
      clientSecretSet: true,
    });
    const [row] = await t.db.db
      .select()
      .from(ssoConnections)
      .where(eq(ssoConnections.accountId, owner.accountId));
    expect(t.app.services.sealer.open(row?.clientSecretSealed ?? '', `sso:${owner.accountId}`)).toBe(
      provider.clientSecret,
    );
  });

  it('refuses a domain that is not verified, or only added', async () => {
    const owner = await newOwner(t.app);
    const now = t.clock.now();
    const unverified = freshDomain();
    await t.db.db
      .insert(accountDomains)
      .values({ accountId: owner.accountId, domain: unverified, token: 'vf-x', createdAt: now });
    for (const domain of [unverified, freshDomain()]) {
      const response = await put(owner, {
        domain,
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        defaultRole: 'member',
        required: false,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        domain: [ssoTexts.domainNotVerified],
        MainCode_: 'validation_error',
      });
    }
  });

  it("refuses another account's domain", async () => {
    const { domain } = await connected();
    const other = await newOwner(t.app);
    await verifiedDomain(other.accountId, domain);
    const response = await put(other, {
      domain,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      defaultRole: 'member',
      required: false,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ domain: [ssoTexts.domainTaken] });
  });

  it('refuses an issuer whose discovery fails: another issuer named, nothing listening, a private address', async () => {
    const owner = await newOwner(t.app);
    const domain = await verifiedDomain(owner.accountId);
    const closed = await startOidcProvider({ redirectUri });
    await closed.close();
    for (const issuer of [
      misnamed.issuer.replace('localhost', '127.0.0.1'),
      closed.issuer,
      'http://10.0.0.1',
    ]) {
      const response = await put(owner, {
        domain,
        issuer,
        clientId: 'x',
        clientSecret: 'y',
        defaultRole: 'member',
        required: false,
      });
      expect(response.statusCode, issuer).toBe(400);
      expect(response.json()).toMatchObject({ issuer: [ssoTexts.discoveryFailed] });
    }
    expect(await eventsOf(owner.accountId, 'account.sso_changed')).toHaveLength(0);
  });

  it('refuses bad input', async () => {
    const owner = await newOwner(t.app);
    const domain = await verifiedDomain(owner.accountId);
    const good = {
      domain,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      defaultRole: 'member',
      required: false,
    };
    for (const bad of [
      { ...good, issuer: 'ftp://example.com' },
      { ...good, issuer: 42 },
      { ...good, clientId: '' },
      { ...good, clientSecret: 'x'.repeat(2049) },
      { ...good, defaultRole: 'admin' },
      { ...good, required: 'yes' },
      { ...good, domain: undefined },
    ]) {
      const response = await put(owner, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it("answers 404 for another account's id, 403 for a member", async () => {
    const { owner } = await connected();
    const stranger = await newOwner(t.app);
    expect((await stranger.c.get(ssoUrl(owner.accountId))).statusCode).toBe(404);
    const body = {
      domain: 'x.example',
      issuer: provider.issuer,
      clientId: 'x',
      clientSecret: 'y',
      defaultRole: 'owner',
      required: true,
    };
    expect((await put(stranger, body, owner.accountId)).statusCode).toBe(404);
    const member = await join(t.app, owner);
    expect((await member.c.get(ssoUrl(owner.accountId))).statusCode).toBe(403);
    expect((await member.c.request({ method: 'PUT', url: ssoUrl(owner.accountId), body })).statusCode).toBe(
      403,
    );
    const anonymous = new TestClient(t.app, nextIp());
    expect((await anonymous.get(ssoUrl(owner.accountId))).statusCode).toBe(401);
  });
});

describe('SSO sign-in', () => {
  it('signs a new person of the domain in: user, identity, membership with the default role, an SSO session', async () => {
    const { owner, domain } = await connected(provider, { defaultRole: 'owner' });
    const email = `grace@${domain}`;
    const c = new TestClient(t.app, nextIp());
    const response = await signInThrough(c, email);
    expect(response.statusCode, response.body).toBe(303);
    expect(response.headers.location).toBe('/');

    const me = await viewer(c);
    expect(me.user.email).toBe(email);
    const user = await userByEmail(email);
    expect(user?.emailIsVerified).toBe(true);
    const [membership] = await t.db.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, user?.id ?? 0));
    expect(membership).toMatchObject({ accountId: owner.accountId, role: 'owner' });
    const identities = await t.db.db
      .select()
      .from(ssoIdentities)
      .where(eq(ssoIdentities.userId, user?.id ?? 0));
    expect(identities).toMatchObject([{ issuer: provider.issuer, subject: `sub-${email}` }]);
    const [session] = await t.db.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user?.id ?? 0));
    expect(session?.signedInWith).toBe('sso');
    expect(session?.lastProofAt).not.toBeNull();
    expect(session?.currentMembershipId).toBe(membership?.id);
    // No password signs this person in.
    const password = await new TestClient(t.app, nextIp()).login(email, '');
    expect(password.statusCode).toBe(400);

    const [login] = await eventsOf(owner.accountId, 'auth.sso_login');
    expect(login?.changes).toEqual({ role: [null, 'owner'] });
    expect(login?.actorId).toBe(String(user?.id));
  });

  it('a second sign-in reuses the identity: the same person, no second membership', async () => {
    const { owner, domain } = await connected();
    const email = `ada@${domain}`;
    expect((await signInThrough(new TestClient(t.app, nextIp()), email)).headers.location).toBe('/');
    const c = new TestClient(t.app, nextIp());
    expect((await signInThrough(c, email)).headers.location).toBe('/');
    const user = await userByEmail(email);
    expect((await viewer(c)).user.id).toBe(user?.id);
    expect(
      await t.db.db
        .select()
        .from(ssoIdentities)
        .where(eq(ssoIdentities.userId, user?.id ?? 0)),
    ).toHaveLength(1);
    expect(
      await t.db.db
        .select()
        .from(memberships)
        .where(eq(memberships.userId, user?.id ?? 0)),
    ).toHaveLength(1);
    const logins = await eventsOf(owner.accountId, 'auth.sso_login');
    expect(logins.map((event) => event.changes)).toEqual([{ role: [null, 'member'] }, null]);
  });

  it('links a person who already signed up with a password by their address', async () => {
    const { owner, domain } = await connected();
    const person = await newPerson(t.app, `linus@${domain}`, { verified: false });
    const c = new TestClient(t.app, nextIp());
    expect((await signInThrough(c, person.email)).headers.location).toBe('/');
    expect((await viewer(c)).user.id).toBe(person.userId);
    expect((await userByEmail(person.email))?.emailIsVerified).toBe(true);
    const [membership] = await t.db.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, person.userId));
    expect(membership?.accountId).toBe(owner.accountId);
  });

  it('a replayed state fails: the first callback signs in, the same callback again does not', async () => {
    const { owner, domain } = await connected();
    const email = `replay@${domain}`;
    const c = new TestClient(t.app, nextIp());
    const back = await provider.signIn((await start(c, email)).href, email);
    expect((await callback(c, back)).headers.location).toBe('/');
    const attacker = new TestClient(t.app, nextIp());
    const again = await callback(attacker, back);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/auth/login?sso_error=expired');
    expect(attacker.cookies.size).toBe(0);
    const user = await userByEmail(email);
    expect(
      await t.db.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.id ?? 0)),
    ).toHaveLength(1);
    expect(await eventsOf(owner.accountId, 'auth.sso_login')).toHaveLength(1);
  });

  it('an unknown or missing state fails', async () => {
    const c = new TestClient(t.app, nextIp());
    for (const url of [`${SSO_CALLBACK_PATH}?code=abc&state=nope`, SSO_CALLBACK_PATH]) {
      const response = await c.get(url);
      expect(response.headers.location).toBe('/auth/login?sso_error=expired');
    }
  });

  it('a bad nonce fails: the ID token names another nonce than the one stored', async () => {
    const { owner, domain } = await connected();
    const email = `nonce@${domain}`;
    const c = new TestClient(t.app, nextIp());
    const authorization = await start(c, email);
    authorization.searchParams.set('nonce', 'not-the-stored-nonce');
    const back = await provider.signIn(authorization.href, email);
    const response = await callback(c, back);
    expect(response.headers.location).toBe('/auth/login?sso_error=provider');
    expect(await userByEmail(email)).toBeUndefined();
    const [failed] = await eventsOf(owner.accountId, 'auth.sso_failed');
    expect(failed?.changes).toEqual({ reason: 'provider' });
    expect(JSON.stringify(failed)).not.toContain(email);
  });

  it('a wrong issuer fails: a code from another provider (its iss) for our state', async () => {
    const { domain } = await connected();
    const email = `mixup@${domain}`;
    const c = new TestClient(t.app, nextIp());
    const authorization = await start(c, email);
    const elsewhere = new URL(`${authorization.pathname}${authorization.search}`, impostor.issuer);
    const back = await impostor.signIn(elsewhere.href, email);
    expect(back.searchParams.get('iss')).toBe(impostor.issuer);
    expect((await callback(c, back)).headers.location).toBe('/auth/login?sso_error=provider');
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('an address the provider does not say is verified fails', async () => {
    const { domain } = await connected();
    const email = `unverified@${domain}`;
    provider.people.set(email, { sub: `sub-u-${domain}`, email, emailVerified: false });
    const c = new TestClient(t.app, nextIp());
    expect((await signInThrough(c, email)).headers.location).toBe('/auth/login?sso_error=email_unverified');
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("an address of another domain fails, even if that domain is another account's connection", async () => {
    const { domain } = await connected();
    const { domain: otherDomain } = await connected();
    const email = `eve@${domain}`;
    provider.people.set(email, {
      sub: `sub-eve-${domain}`,
      email: `eve@${otherDomain}`,
      emailVerified: true,
    });
    const c = new TestClient(t.app, nextIp());
    expect((await signInThrough(c, email)).headers.location).toBe('/auth/login?sso_error=wrong_domain');
    expect(await userByEmail(`eve@${otherDomain}`)).toBeUndefined();
  });

  it('no connection for the domain: 400 saying so (JSON, or a page for a browser)', async () => {
    const c = new TestClient(t.app, nextIp());
    const response = await c.get('/auth/sso/start?email=someone%40nowhere.example');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      email: [ssoTexts.noConnection('nowhere.example')],
      MainCode_: 'validation_error',
    });
    const page = await c.get('/auth/sso/start?email=someone%40nowhere.example', { accept: 'text/html' });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('No single sign-on is set up for nowhere.example.');
    for (const bad of [
      '/auth/sso/start',
      '/auth/sso/start?email=nobody',
      `/auth/sso/start?email=${'a'.repeat(300)}`,
    ]) {
      expect((await c.get(bad)).statusCode, bad).toBe(400);
    }
  });

  it('a connection whose domain lost its proof signs no one in', async () => {
    const { owner, domain } = await connected();
    await t.db.db
      .delete(accountDomains)
      .where(and(eq(accountDomains.accountId, owner.accountId), eq(accountDomains.domain, domain)));
    const response = await new TestClient(t.app, nextIp()).get(`/auth/sso/start?email=x%40${domain}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ email: [ssoTexts.noConnection(domain)] });
  });

  it('`required` refuses a password sign-in for the domain, not for others', async () => {
    const { domain } = await connected(provider, { required: true });
    const person = await newPerson(t.app, `pat@${domain}`);
    const refused = await new TestClient(t.app, nextIp()).login(person.email, person.password);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ nonFieldErrors: [ssoTexts.required] });
    const elsewhere = await newPerson(t.app);
    expect(
      (await new TestClient(t.app, nextIp()).login(elsewhere.email, elsewhere.password)).statusCode,
    ).toBe(200);
  });

  // The last two move the app's clock on (two minutes, then ten).
  it('an expired ID token fails (the app clock past its expiry and the tolerance)', async () => {
    const { domain } = await connected(shortLived);
    const control = `intime@${domain}`;
    expect((await signInThrough(new TestClient(t.app, nextIp()), control, shortLived)).headers.location).toBe(
      '/',
    );
    const email = `expired@${domain}`;
    const c = new TestClient(t.app, nextIp());
    const back = await shortLived.signIn((await start(c, email)).href, email);
    t.clock.advance(2 * MINUTE);
    expect((await callback(c, back)).headers.location).toBe('/auth/login?sso_error=provider');
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('a state older than 10 minutes fails', async () => {
    const { domain } = await connected();
    const email = `late@${domain}`;
    const c = new TestClient(t.app, nextIp());
    const back = await provider.signIn((await start(c, email)).href, email);
    t.clock.advance(10 * MINUTE + 1000);
    expect((await callback(c, back)).headers.location).toBe('/auth/login?sso_error=expired');
    expect(await userByEmail(email)).toBeUndefined();
  });
});
