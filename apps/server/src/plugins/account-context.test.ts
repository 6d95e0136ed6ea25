import { type ApiKeyScope, apiKeyScopes, capabilities } from '@veriform/contracts';
import { schema } from '@veriform/db';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routeInventory } from '../security/route-inventory.ts';
import { useTestApp } from '../test-support/app.ts';
import { newOwner, type Owner } from '../test-support/teams.ts';
import { actorCan, type MembershipRow, memberOf, type Rights } from './account-context.ts';
import type { ApiKeyAuthenticator, ApiKeyIdentity } from './caller.ts';
import { registerErrorHandler } from './error-handler.ts';
import { accountContext, registerTenancy } from './tenancy.ts';

/**
 * The account context (ADR 15): what members and API keys may do, how a key's request is resolved (the key table
 * arrives with issue #15: a stand-in authenticator here), and that every account route declares its account.
 */

const t = useTestApp();

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };
const permissionDenied = {
  detail: 'You are not permitted to perform that action.',
  MainCode_: 'permission_denied',
};
const notAuthenticated = {
  detail: 'Authentication credentials were not provided.',
  MainCode_: 'not_authenticated',
};

const membership = (
  role: 'owner' | 'member',
  canSearchData = false,
  canViewReports = false,
): MembershipRow => ({
  id: 1,
  userId: 1,
  accountId: 1,
  role,
  canSearchData,
  canViewReports,
  createdAt: new Date(0),
});

const memberActor = (row: MembershipRow): Rights => ({ type: 'member', membership: row });
const keyActor = (scopes: ApiKeyScope[]): Rights => ({
  type: 'api_key',
  keyId: 1,
  prefix: 'vf_test_abcd',
  mode: 'test',
  scopes,
});
const grantedTo = (actor: Rights) => capabilities.filter((capability) => actorCan(actor, capability)).sort();

describe('what an actor may do', () => {
  it('an owner may do everything; a member what docs/roles.md says, the two switches adding their right', () => {
    expect(grantedTo(memberActor(membership('owner')))).toEqual([...capabilities].sort());
    expect(grantedTo(memberActor(membership('member')))).toEqual(
      ['manageForms', 'readForms', 'writeVerifications'].sort(),
    );
    expect(grantedTo(memberActor(membership('member', true, false)))).toEqual(
      // canSearchData also opens revocations and the verdict (issue #35): they hold numbers as the log does.
      [
        'checkContactability',
        'manageForms',
        'readForms',
        'readRevocations',
        'searchData',
        'writeRevocations',
        'writeVerifications',
      ].sort(),
    );
    expect(grantedTo(memberActor(membership('member', false, true)))).toEqual(
      ['manageForms', 'readForms', 'viewReports', 'writeVerifications'].sort(),
    );
  });

  it.each([
    ['verifications:write', ['writeVerifications']],
    ['verifications:read', ['searchData']],
    ['forms:read', ['readForms']],
    ['audit:read', ['readAuditLog']],
    ['events:read', ['readEvents']],
    ['revocations:read', ['readRevocations']],
    ['revocations:write', ['writeRevocations']],
    ['contactability:read', ['checkContactability']],
    ['privacy:read', ['readPrivacyRequests']],
    ['privacy:write', ['writePrivacyRequests']],
  ] as const)('an API key with only %s may %j', (scope, capabilities) => {
    expect(grantedTo(keyActor([scope]))).toEqual([...capabilities].sort());
  });

  it('a key with every scope still cannot manage the team, the company or forms, nor see reports; none, nothing', () => {
    expect(grantedTo(keyActor([...apiKeyScopes]))).toEqual(
      [
        'checkContactability',
        'readAuditLog',
        'readEvents',
        'readForms',
        'readPrivacyRequests',
        'readRevocations',
        'searchData',
        'writePrivacyRequests',
        'writeRevocations',
        'writeVerifications',
      ].sort(),
    );
    expect(grantedTo(keyActor([]))).toEqual([]);
  });
});

/** Stand-in keys: secret → identity. Issue #15 replaces the authenticator with the key table's. */
const keys = new Map<string, ApiKeyIdentity>();
let lookups = 0;
const standInKeys: ApiKeyAuthenticator = {
  authenticate: async (secret) => {
    lookups += 1;
    return keys.get(secret) ?? null;
  },
};
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

let ownerA: Owner;
let ownerB: Owner;
let formA: number;
let formB: number;

beforeAll(async () => {
  ownerA = await newOwner(t.app, 'Keyed A');
  ownerB = await newOwner(t.app, 'Keyed B');
  formA = (await ownerA.c.post('/api/verify-forms', { name: 'Form A', account: ownerA.accountId })).json().id;
  formB = (await ownerB.c.post('/api/verify-forms', { name: 'Form B', account: ownerB.accountId })).json().id;
  await t.db.db.insert(schema.verifications).values({
    accountId: ownerA.accountId,
    verifyFormId: formA,
    cellPhone: '+12015550123',
    verifyFormName: 'Form A',
    verificationMethod: 'sms',
  });
  const key = (keyId: number, scopes: ApiKeyScope[]): ApiKeyIdentity => ({
    keyId,
    accountId: ownerA.accountId,
    prefix: `vf_test_${keyId}`,
    mode: 'test',
    scopes,
  });
  keys.set('vf_test_forms', key(1, ['forms:read']));
  keys.set('vf_test_all', key(2, [...apiKeyScopes]));
  // The app as built has no keys (noApiKeys); the stand-in takes its place for this file.
  t.app.apiKeyAuthenticator = standInKeys;
});

const get = (url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: '10.99.0.1' });

describe('an API key’s request, through the same resolver as a member’s', () => {
  it('another account’s id is 404; its own account’s session routes 403, whatever its scopes (its door is API v1)', async () => {
    // Before issue #33 a key read here what its scopes granted: a `vf_test_` key read the live activity log (ADR 29).
    for (const url of [`/api/verify-forms?account=${ownerA.accountId}`, `/api/verify-forms/${formA}`]) {
      const own = await get(url, bearer('vf_test_forms'));
      expect(own.statusCode, url).toBe(403);
      expect(own.json()).toEqual(permissionDenied);
    }

    for (const url of [`/api/verify-forms?account=${ownerB.accountId}`, `/api/verify-forms/${formB}`]) {
      const other = await get(url, bearer('vf_test_forms'));
      expect(other.statusCode, url).toBe(404);
      expect(other.json()).toEqual(notFound);
    }
    const log = await get(`/api/verifications?account=${ownerA.accountId}`, bearer('vf_test_forms'));
    expect(log.statusCode).toBe(403);
    expect(log.json()).toEqual(permissionDenied);
    const withScope = await get(`/api/verifications?account=${ownerA.accountId}`, bearer('vf_test_all'));
    expect(withScope.statusCode).toBe(403);
    expect(withScope.json()).toEqual(permissionDenied);
  });

  it('never reaches what only people do: reports, and routes that name no capability (company, team, test numbers)', async () => {
    for (const url of [
      `/api/verify-forms/${formA}/stats`,
      `/api/verifications/report?account=${ownerA.accountId}`,
      `/api/accounts/${ownerA.accountId}`,
      `/api/memberships?accountId=${ownerA.accountId}`,
      `/api/test-phone-numbers?account=${ownerA.accountId}`,
    ]) {
      const response = await get(url, bearer('vf_test_all'));
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual(permissionDenied);
    }
    // The caller's own memberships need a person: a key is nobody's login.
    const own = await get('/api/memberships', bearer('vf_test_all'));
    expect(own.statusCode).toBe(401);
  });

  it('looks a key up once per request, though the query’s account is resolved after validation', async () => {
    lookups = 0;
    await get(`/api/verify-forms?account=${ownerA.accountId}`, bearer('vf_test_forms'));
    expect(lookups).toBe(1);
  });

  it('an unknown bearer token is 401, even beside a valid session cookie (one request, one credential)', async () => {
    const cookie = ownerA.c.cookieHeader();
    const url = `/api/verify-forms?account=${ownerA.accountId}`;
    expect((await get(url, { cookie })).statusCode).toBe(200);
    for (const headers of [bearer('vf_live_unknown'), { ...bearer('vf_live_unknown'), cookie }, bearer('')]) {
      const response = await get(url, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(notAuthenticated);
    }
    // Another scheme is no API key: the session decides.
    expect((await get(url, { cookie, authorization: 'Basic dXNlcjpwYXNz' })).statusCode).toBe(200);
  });

  it('a GET’s automatic HEAD twin is resolved the same way', async () => {
    const head = (url: string) =>
      t.app.inject({
        method: 'HEAD',
        url,
        headers: { cookie: ownerA.c.cookieHeader() },
        remoteAddress: '10.99.0.2',
      });
    expect((await head(`/api/verify-forms?account=${ownerA.accountId}`)).statusCode).toBe(200);
    expect((await head(`/api/verify-forms?account=${ownerB.accountId}`)).statusCode).toBe(404);
    expect((await head(`/api/verify-forms/${formB}`)).statusCode).toBe(404);
  });
});

describe('the resolver’s contract with handlers (a small app of its own)', () => {
  async function probeApp() {
    const app = Fastify();
    registerErrorHandler(app);
    registerTenancy(app, { apiKeys: standInKeys });
    // A key's own kind of route (API v1's): on any other a key is refused before the handler (issue #33).
    app.get('/person', { config: { account: { from: 'apiKey', can: 'readForms' } } }, (request) => ({
      userId: memberOf(accountContext(request)).user.id,
    }));
    app.get('/undeclared', (request) => ({ accountId: accountContext(request).accountId }));
    await app.ready();
    return app;
  }

  it('memberOf: what needs a person answers 403 to a key', async () => {
    const app = await probeApp();
    const response = await app.inject({
      url: `/person?account=${ownerA.accountId}`,
      headers: bearer('vf_test_forms'),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(permissionDenied);
    await app.close();
  });

  it('a handler asking for the context of a route that declared none is a programming error (500)', async () => {
    const app = await probeApp();
    const response = await app.inject({ url: '/undeclared', headers: bearer('vf_test_forms') });
    expect(response.statusCode).toBe(500);
    await app.close();
  });
});

/** API routes with an id in the path or an account in the query or body that are not an account's, and why. */
const notAccountScoped: [RegExp, string][] = [
  [/^\/api\/users\/:id(\/|$)/, 'the caller’s own profile: any other id is 404 (users.test.ts)'],
  [/^\/api\/memberships\/:id\/select$/, 'chooses among the caller’s own memberships: any other id is 404'],
  [
    /^\/api\/auth\/passkeys\/:id$/,
    'the caller’s own passkeys: another person’s id is 404 (passkeys.test.ts)',
  ],
  [
    /^\/api\/auth\/sessions\/:id$/,
    'the caller’s own sessions: another person’s id is 404 (auth-sessions.test.ts)',
  ],
  [/^\/api\/public\//, 'the public page: unguessable public and attempt ids, no login'],
];

const shapeOf = (value: z.ZodType | undefined) => (value instanceof z.ZodObject ? value.shape : {});
const takesAccount = (value: z.ZodType | undefined) =>
  Object.keys(shapeOf(value)).some((key) => /^account(Id)?$/.test(key));

describe('every account route declares where its account comes from', () => {
  it('each /api/ route with an id in its path or an account in its query or body declares one, or is listed', () => {
    const api = routeInventory(t.app).filter((r) => r.url.startsWith('/api/'));
    const touching = api.filter(
      (r) => r.paramNames.length > 0 || takesAccount(r.querystring) || takesAccount(r.body),
    );
    expect(touching.length).toBeGreaterThan(25);
    const undeclared = touching
      .filter((r) => !r.account && !notAccountScoped.some(([pattern]) => pattern.test(r.url)))
      .map((r) => r.key);
    expect(undeclared).toEqual([]);
    const listedYetDeclared = api
      .filter((r) => r.account && notAccountScoped.some(([pattern]) => pattern.test(r.url)))
      .map((r) => r.key);
    expect(listedYetDeclared).toEqual([]);
  });

  it('each declaration names a field its route takes (required unless declared optional)', () => {
    const problems: string[] = [];
    for (const route of routeInventory(t.app)) {
      const declaration = route.account;
      if (!declaration) continue;
      const { from } = declaration;
      // API v1: the key names its account; the request names none.
      if (from === 'apiKey') continue;
      if (typeof from !== 'string' || from === 'path.account') {
        if (!route.paramNames.includes('id')) problems.push(`${route.key}: no :id in the path`);
        continue;
      }
      const [where, key] = from.split('.');
      const field = shapeOf(where === 'query' ? route.querystring : route.body)[key ?? ''];
      if (!(field instanceof z.ZodType)) problems.push(`${route.key}: no ${from} in its schema`);
      else if (!declaration.optional && field.safeParse(undefined).success)
        problems.push(`${route.key}: ${from} is optional in its schema`);
      if (declaration.alsoNamedBy && !('account' in shapeOf(route.querystring)))
        problems.push(`${route.key}: no query.account`);
    }
    expect(problems).toEqual([]);
  });
});
