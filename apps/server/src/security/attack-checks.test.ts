import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schema } from '@veriform/db';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.ts';
import { buildTestApp, type TestApp, testConfig, useTestApp } from '../test-support/app.ts';
import { newSignup, TestClient } from '../test-support/client.ts';
import { HOUR, MINUTE } from '../test-support/clock.ts';
import { latestLink, latestVerifyLink } from '../test-support/outbox.ts';
import { nextIp } from '../test-support/teams.ts';
import { errorContractViolation } from './response-checks.ts';
import { fillPath, routeInventory } from './route-inventory.ts';
import { buildWorld, type World, worldParam } from './world.ts';

/**
 * Issue #7 item 5: attack checks the module suites do not already make (docs/security-tests.md maps each item to the
 * tests that prove it): CSRF on every unsafe route of the app, session fixation, production cookies, headers and CSP,
 * account enumeration by answer and by timing, token confusion and tampering, and which suite proves cross-account
 * access for every id-taking route.
 */

// Passwords at the production cost: the timing checks compare argon2 against argon2 (lib/passwords.ts).
const t = useTestApp({ env: { FAST_PASSWORD_HASHING: 'false' } });
let world: World;

beforeAll(async () => {
  world = await buildWorld(t);
}, 60_000);

const csrfFailed = { detail: 'CSRF Failed: CSRF token missing or incorrect.', MainCode_: 'csrf_failed' };
/**
 * Unsafe routes without a token: the first is how a client gets one; Twilio's status callback comes from no browser
 * and proves itself by its signature (modules/code-delivery tests refuse unsigned and wrongly signed ones).
 */
const CSRF_EXEMPT = new Set([
  'POST /api/auth/csrf',
  'POST /api/webhooks/twilio/status',
  'POST /api/webhooks/twilio/inbound',
]);
/** API v1 takes no cookie at all (its caller is the bearer key): proved below instead. */
const isApiV1 = (url: string) => url.startsWith('/api/v1/');

describe('CSRF on every unsafe route (from the app’s own route list)', () => {
  const unsafeRoutes = () =>
    routeInventory(t.app).filter((r) => r.unsafe && !CSRF_EXEMPT.has(r.key) && !isApiV1(r.url));

  it('the list is not empty and the exemption still exists', () => {
    expect(unsafeRoutes().length).toBeGreaterThan(25);
    expect(routeInventory(t.app).some((r) => CSRF_EXEMPT.has(r.key))).toBe(true);
  });

  it('a logged-in owner’s request without the token, with a wrong one, or with another session’s is refused (403) and changes nothing', async () => {
    const other = new TestClient(t.app, nextIp());
    await other.signupNew();
    const otherToken = other.csrfToken ?? '';
    const before = (await world.owner.c.get(`/api/accounts/${world.accountId}`)).json();
    for (const route of unsafeRoutes()) {
      const url = fillPath(
        route.url,
        Object.fromEntries(route.paramNames.map((n) => [n, worldParam(world, route, n) ?? '1'])),
      );
      for (const token of [undefined, 'A'.repeat(43), otherToken]) {
        const headers: Record<string, string> = { cookie: world.owner.c.cookieHeader() };
        if (token !== undefined) headers['x-csrftoken'] = token;
        const response = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ displayName: 'Forged', name: 'Forged', role: 'owner' }),
          remoteAddress: nextIp(),
        });
        expect(
          response.statusCode,
          `${route.key} with ${token === undefined ? 'no token' : 'a bad token'}`,
        ).toBe(403);
        expect(response.json()).toEqual(csrfFailed);
      }
    }
    // Nothing above reached a handler: the owner is still logged in and the account unchanged.
    expect((await world.owner.c.get(`/api/accounts/${world.accountId}`)).json()).toEqual(before);
    expect((await world.owner.c.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(true);
  });

  it('a logged-out request without the token is refused before anything else (403, not 401 or 404)', async () => {
    for (const route of unsafeRoutes()) {
      const response = await t.app.inject({
        method: route.method as 'POST',
        url: fillPath(route.url, Object.fromEntries(route.paramNames.map((n) => [n, '1']))),
        remoteAddress: nextIp(),
      });
      expect(response.statusCode, route.key).toBe(403);
    }
  });
});

describe('API v1 takes no cookie (so it needs no CSRF token)', () => {
  it('every unsafe API v1 route answers a logged-in owner’s cookie, with or without the token, 401 and changes nothing', async () => {
    const v1Unsafe = routeInventory(t.app).filter((r) => r.unsafe && isApiV1(r.url));
    expect(v1Unsafe.length).toBeGreaterThan(1);
    const before = await t.db.db.select().from(schema.verificationAttempts);
    for (const route of v1Unsafe) {
      const url = fillPath(
        route.url,
        Object.fromEntries(route.paramNames.map((n) => [n, worldParam(world, route, n) ?? '1'])),
      );
      for (const token of [undefined, world.owner.c.csrfToken ?? '']) {
        const headers: Record<string, string> = { cookie: world.owner.c.cookieHeader() };
        if (token !== undefined) headers['x-csrftoken'] = token;
        const response = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ formId: world.formId, to: '+12015550123', code: '123456' }),
          remoteAddress: nextIp(),
        });
        expect(response.statusCode, route.key).toBe(401);
        expect(response.json()).toMatchObject({ code: 'unauthenticated' });
      }
    }
    expect(await t.db.db.select().from(schema.verificationAttempts)).toEqual(before);
  });
});

describe('session fixation', () => {
  it('a session id planted before login is never the one after it, and never authenticates', async () => {
    const signup = newSignup();
    await new TestClient(t.app, nextIp()).signup(signup);
    const victim = new TestClient(t.app, nextIp());
    const planted = 'P'.repeat(43);
    victim.cookies.set('vf_session', planted);
    const login = await victim.login(signup.email, signup.password);
    expect(login.statusCode).toBe(200);
    expect(victim.cookies.get('vf_session')).toMatch(/^[\w-]{43}$/);
    expect(victim.cookies.get('vf_session')).not.toBe(planted);

    const attacker = new TestClient(t.app, nextIp());
    attacker.cookies.set('vf_session', planted);
    await attacker.fetchCsrf();
    expect((await attacker.post('/api/auth/refresh-me')).json().user.isAuthenticated).toBe(false);
  });

  it('an attacker’s own session planted in the victim’s browser is ended by the victim’s login, never shared', async () => {
    const attacker = new TestClient(t.app, nextIp());
    const { payload: attackerUser } = await attacker.signupNew();
    const victimUser = newSignup();
    await new TestClient(t.app, nextIp()).signup(victimUser);

    const victim = new TestClient(t.app, nextIp());
    victim.cookies.set('vf_session', attacker.cookies.get('vf_session') ?? '');
    victim.cookies.set('vf_csrf', attacker.cookies.get('vf_csrf') ?? '');
    victim.csrfToken = attacker.csrfToken;
    expect((await victim.login(victimUser.email, victimUser.password)).statusCode).toBe(200);
    expect(victim.cookies.get('vf_session')).not.toBe(attacker.cookies.get('vf_session'));
    // The CSRF secret the attacker knew was rotated by the login.
    expect(victim.cookies.get('vf_csrf')).not.toBe(attacker.cookies.get('vf_csrf'));

    // Logging in over a session ends that session: the attacker's id is now worth nothing to anyone.
    const me = (await attacker.post('/api/auth/refresh-me')).json();
    expect(me.user.isAuthenticated).toBe(false);
    expect(me.user.email).not.toBe(attackerUser.email);
    const victimMe = (await victim.post('/api/auth/refresh-me')).json();
    expect(victimMe.user.email).toBe(victimUser.email);
  });
});

/** A throwaway web build (both entries), which production requires. */
async function fakeWebBuild(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'vf-web-'));
  await mkdir(join(root, 'dist', 'assets'), { recursive: true });
  const html = '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>';
  await writeFile(join(root, 'dist', 'index.html'), html);
  await writeFile(join(root, 'dist', 'verify.html'), html);
  return root;
}

function cspDirectives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name ?? '', values]),
  );
}

describe('production mode: cookies, security headers, strict CSP', () => {
  let prod: TestApp;
  let publicId: string;

  beforeAll(async () => {
    prod = await buildTestApp(t.db, {
      env: { NODE_ENV: 'production' },
      config: { webRoot: await fakeWebBuild() },
    });
    publicId = world.publicId;
  });
  afterAll(async () => {
    await prod.app.close();
  });

  it('every cookie set on page load, sign-up, login and logout is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain', async () => {
    const c = new TestClient(prod.app, nextIp());
    const user = newSignup();
    const answers = [await c.get('/'), await c.post('/api/auth/csrf', {}, { csrf: false })];
    answers.push(await c.post('/api/auth/signup', user));
    answers.push(await c.post('/api/auth/logout'));
    answers.push(await c.login(user.email, user.password));
    const cookies = answers.flatMap((a) => a.cookies);
    expect(cookies.map((x) => x.name)).toEqual(
      expect.arrayContaining(['__Host-vf_session', '__Host-vf_csrf']),
    );
    for (const cookie of cookies) {
      expect(cookie.name).toMatch(/^__Host-/);
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.domain).toBeUndefined();
    }
  });

  it('the app page, the public page, an API answer and API errors carry the headers and a strict CSP', async () => {
    const c = new TestClient(prod.app, nextIp());
    const answers: [string, LightMyRequestResponse][] = [
      ['app page', await c.get('/')],
      ['public page', await c.get(`/f/${publicId}?ref=private-ref`)],
      ['API answer', await c.post('/api/auth/csrf', {}, { csrf: false })],
      ['API 404', await c.get('/api/nope')],
      ['API 401', await c.get('/api/auth/change-email/retrieve')],
    ];
    for (const [what, response] of answers) {
      const csp = cspDirectives(response);
      expect(csp.get('default-src'), what).toEqual(["'self'"]);
      // No inline or eval'd script, no other origin: the initial data is JSON in a non-executed script tag.
      expect(csp.get('script-src'), what).toEqual(["'self'"]);
      expect(csp.get('object-src'), what).toEqual(["'none'"]);
      expect(csp.get('base-uri'), what).toEqual(["'self'"]);
      expect(csp.get('form-action'), what).toEqual(["'self'"]);
      expect(csp.get('connect-src'), what).toEqual(["'self'"]);
      // The public page may be framed by our own origin only (the form page's preview); everything else by none.
      expect(csp.get('frame-ancestors'), what).toEqual([what === 'public page' ? "'self'" : "'none'"]);
      expect(csp.has('upgrade-insecure-requests'), what).toBe(true);
      expect(response.headers['strict-transport-security'], what).toMatch(
        /max-age=(3153[6-9]\d{3}|[4-9]\d{7}|\d{9,}); includeSubDomains/,
      );
      expect(response.headers['x-content-type-options'], what).toBe('nosniff');
      expect(response.headers['x-frame-options'], what).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(response.headers['cross-origin-opener-policy'], what).toBe('same-origin');
      expect(response.headers['x-powered-by'], what).toBeUndefined();
      expect(response.headers['referrer-policy'], what).toBe(
        what === 'public page' ? 'no-referrer' : 'same-origin',
      );
      if (what.startsWith('API')) expect(response.headers['cache-control'], what).toBe('no-store');
    }
    // The router answers a path it cannot decode before any hook (helmet's too): a JSON 404 with the strictest policy.
    const unroutable = await c.get('/api/users/%ZZ');
    expect(unroutable.statusCode).toBe(404);
    expect(unroutable.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(unroutable.headers['x-content-type-options']).toBe('nosniff');
    // Mantine's inline styles are the one relaxation, and only for styles.
    expect(cspDirectives(answers[0]?.[1] as LightMyRequestResponse).get('style-src')).toEqual([
      "'self'",
      "'unsafe-inline'",
    ]);
  });

  it('no CORS: another origin gets no Access-Control-Allow-* header, and its preflight finds nothing', async () => {
    const c = new TestClient(prod.app, nextIp());
    await c.signupNew();
    const origin = { origin: 'https://evil.example' };
    const answers = [
      await c.request({ method: 'POST', url: '/api/auth/refresh-me', headers: origin }),
      await c.request({ method: 'GET', url: '/api/verify-forms?account=1', headers: origin }),
      await prod.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: {
          ...origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-csrftoken',
        },
      }),
    ];
    for (const response of answers) {
      const cors = Object.keys(response.headers).filter((h) => h.startsWith('access-control-'));
      expect(cors).toEqual([]);
    }
    expect(answers[2]?.statusCode).toBe(404);
  });

  it('a 500 in production says nothing about the inside', async () => {
    const app = await buildApp(testConfig({ NODE_ENV: 'production' }, { webRoot: await fakeWebBuild() }), {
      db: t.db,
    });
    app.get('/api/boom', async () => {
      const error = new Error('relation "users" does not exist: SELECT * FROM users WHERE id = $1');
      error.stack = `${error.message}\n    at query (/srv/app/node_modules/pg/lib/client.js:526:17)`;
      throw error;
    });
    await app.ready();
    try {
      const response = await app.inject({ method: 'GET', url: '/api/boom' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        detail:
          'An unexpected server error occurred. Please try again. If the issue continues please contact support.',
        MainCode_: 'server_error',
      });
      expect(response.body).not.toMatch(/relation|SELECT|node_modules|client\.js/);
    } finally {
      await app.close();
    }
  });
});

const median = (times: number[]) => [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)] ?? 0;

/**
 * Medians (ms) of `runs` timed calls of `known` and of `unknown`, taken in turns so that both meet the same load.
 * `prepare` runs before each call, untimed (a fresh client, the clock moved past the limits).
 */
async function pairedMedians<C>(
  runs: number,
  prepare: () => Promise<C>,
  known: (c: C, i: number) => Promise<unknown>,
  unknown: (c: C, i: number) => Promise<unknown>,
): Promise<{ known: number; unknown: number }> {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < runs; i++) {
    for (const [kind, call] of [
      ['known', known],
      ['unknown', unknown],
    ] as const) {
      const c = await prepare();
      const started = performance.now();
      await call(c, i);
      times[kind].push(performance.now() - started);
    }
  }
  return { known: median(times.known), unknown: median(times.unknown) };
}

/**
 * The answers for a known and an unknown address must not differ in time by more than noise. The bound is generous
 * (0.5–2×, or within 25 ms for calls that take a few ms) because the box is shared and loaded: the point is to catch
 * a structural difference (argon2 run for one case only: ×10 and more), not a few percent.
 */
function expectSimilar(known: number, unknown: number, what: string) {
  const ratio = known / unknown;
  const close = Math.abs(known - unknown) < 25;
  expect(
    close || (ratio > 0.5 && ratio < 2),
    `${what}: known ${known.toFixed(1)} ms, unknown ${unknown.toFixed(1)} ms`,
  ).toBe(true);
}

describe('no account enumeration (same answer, similar time)', () => {
  const RUNS = 7;
  let known: { email: string; password: string };
  let unverified: { email: string };

  beforeAll(async () => {
    const verifiedUser = newSignup();
    const c = new TestClient(t.app, nextIp());
    await c.signup(verifiedUser);
    const link = await latestVerifyLink(t.app, verifiedUser.email);
    await c.post('/api/auth/verify-email/confirm', { uidb64: link.uidb64, token: link.token });
    known = verifiedUser;
    unverified = (await new TestClient(t.app, nextIp()).signupNew()).payload;
  });

  /** A client from a fresh address, with its CSRF token; the clock moved past every per-address window. */
  async function fresh(): Promise<TestClient> {
    t.clock.advance(HOUR + MINUTE);
    const c = new TestClient(t.app, nextIp());
    await c.fetchCsrf();
    return c;
  }

  it('login: a wrong password and an unknown address answer alike and take about as long (argon2 either way)', async () => {
    const body = async (email: string) => (await (await fresh()).login(email, 'Wrong-password-1')).json();
    expect(await body(known.email)).toEqual(await body(`nobody-${Date.now()}@example.com`));
    // Warm-up: the dummy hash is made on first use.
    await (await fresh()).login('warm-up@example.com', 'x');
    const ms = await pairedMedians(
      RUNS,
      fresh,
      (c, i) => c.login(known.email, `Wrong-password-${i}`),
      (c, i) => c.login(`ghost${i}-${Date.now()}@example.com`, `Wrong-password-${i}`),
    );
    expectSimilar(ms.known, ms.unknown, 'login');
  });

  it('reset-password and resend-verification: the same answer for known, unverified and unknown addresses, in similar time', async () => {
    for (const url of ['/api/auth/reset-password', '/api/auth/signup/resend-verification-email']) {
      const answers = [];
      for (const email of [known.email, unverified.email, `nobody-${Date.now()}@example.com`]) {
        const response = await (await fresh()).post(url, { email });
        answers.push({ status: response.statusCode, body: response.json() });
      }
      expect(answers[1], url).toEqual(answers[0]);
      expect(answers[2], url).toEqual(answers[0]);
      const ms = await pairedMedians(
        RUNS,
        fresh,
        (c) => c.post(url, { email: unverified.email }),
        (c, i) => c.post(url, { email: `ghost${i}-${Date.now()}@example.com` }),
      );
      expectSimilar(ms.known, ms.unknown, url);
    }
  });
});

describe('sign-up: the spec’s “taken” answer, rate-bounded', () => {
  it('a taken address gets the spec text (SPEC §8), and probing is stopped at 30 sign-ups an hour per IP', async () => {
    const taken = (await new TestClient(t.app, nextIp()).signupNew()).payload.email;
    t.clock.advance(HOUR + MINUTE);
    const prober = new TestClient(t.app, nextIp());
    await prober.fetchCsrf();
    for (let i = 0; i < 30; i++) {
      const response = await prober.post(
        '/api/auth/signup',
        newSignup({ email: i % 2 ? taken : taken.toUpperCase() }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        email: ['A user with that e-mail address already exists.'],
        MainCode_: 'email_taken',
      });
    }
    const stopped = await prober.post('/api/auth/signup', newSignup({ email: taken }));
    expect(stopped.statusCode).toBe(429);
    expect(errorContractViolation(stopped)).toBeNull();
    expect(stopped.headers['retry-after']).toBeDefined();
  });
});

describe('signed links: tampered, confused, replayed', () => {
  it('a token of one purpose is refused by the others (verify-email, reset-password, change-email and its cancel)', async () => {
    const c = new TestClient(t.app, nextIp());
    const { payload } = await c.signupNew();
    const verify = await latestVerifyLink(t.app, payload.email);
    const anon = new TestClient(t.app, nextIp());
    await anon.fetchCsrf();
    await anon.post('/api/auth/reset-password', { email: payload.email });
    const reset = await latestLink(t.app, payload.email, 'reset-password');
    const password = 'Another-password-9';
    const asReset = await anon.post('/api/auth/reset-password/confirm', {
      uidb64: verify.uidb64,
      token: verify.token,
      newPassword: password,
      newPasswordConfirm: password,
    });
    expect(asReset.statusCode).toBe(400);
    expect(asReset.json().MainCode_).toBe('invalid_token');
    for (const url of [
      '/api/auth/verify-email/confirm',
      '/api/auth/change-email/confirm',
      '/api/auth/change-email/cancel',
    ]) {
      const response = await anon.post(url, { uidb64: reset.uidb64, token: reset.token });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().MainCode_, url).toBe('invalid_token');
    }
    // Both still work for their own purpose: refusing the others consumed nothing.
    expect(
      (await anon.post('/api/auth/verify-email/confirm', { uidb64: verify.uidb64, token: verify.token }))
        .statusCode,
    ).toBe(200);
  });

  it('every one-character change, truncation or extension of a reset token is refused in the spec format', async () => {
    const { payload } = await new TestClient(t.app, nextIp()).signupNew();
    const anon = new TestClient(t.app, nextIp());
    await anon.fetchCsrf();
    await anon.post('/api/auth/reset-password', { email: payload.email });
    const { uidb64, token } = await latestLink(t.app, payload.email, 'reset-password');
    const variants = new Set<string>([
      token.slice(0, -1),
      `${token}A`,
      token.toUpperCase(),
      token.replace('-', ''),
    ]);
    for (let i = 0; i < token.length; i++) {
      const ch = token[i] === 'A' ? 'B' : 'A';
      variants.add(`${token.slice(0, i)}${ch}${token.slice(i + 1)}`);
    }
    variants.delete(token);
    const password = 'Another-password-9';
    for (const variant of variants) {
      const response = await anon.post('/api/auth/reset-password/confirm', {
        uidb64,
        token: variant,
        newPassword: password,
        newPasswordConfirm: password,
      });
      expect(response.statusCode, variant).toBe(400);
      expect(errorContractViolation(response)).toBeNull();
    }
    // The genuine token still works after all those tries.
    const genuine = await anon.post('/api/auth/reset-password/confirm', {
      uidb64,
      token,
      newPassword: password,
      newPasswordConfirm: password,
    });
    expect(genuine.statusCode).toBe(200);
  });
});

describe('cross-account access: every id-taking route is proved somewhere', () => {
  /** Where each family of routes with an id (path, query or body) is checked across accounts or users. */
  const provedBy: [RegExp, string][] = [
    [
      /^\/api\/(accounts|memberships|invitations|verify-forms|test-phone-numbers|api-keys|webhook-endpoints|webhook-events|audit-events|verifications|verification-attempts|revocations|contactability|lookups|privacy-requests|legal-holds)(\/|$)/,
      'plugins/tenancy.test.ts (404 for another account’s object and for unknown ids, B unchanged)',
    ],
    [
      /^\/api\/v1\//,
      'modules/api-v1/*.test.ts (a key gets 404 for another account’s forms and verifications)',
    ],
    [/^\/api\/users\/:id/, 'modules/users/users.test.ts (“only one’s own”: 404 for another user’s id)'],
    [
      /^\/api\/auth\/(passkeys|sessions)\/:id$/,
      'modules/passkeys/passkeys.test.ts, modules/auth-sessions/auth-sessions.test.ts (404 for another person’s id)',
    ],
    [/^\/api\/public\//, 'public by design: publicId and attemptId are unguessable; public-verify.test.ts'],
    [/^\/media\/:file$/, 'public by design: content-addressed by SHA-256'],
    [/^\/f\/:publicId(\/revoke)?$/, 'public by design: the consumer page and its revocation page'],
  ];

  it('each route with a path parameter, or an account in its query or body, falls in a family above', () => {
    const takesAccount = (schema: unknown) =>
      schema instanceof z.ZodObject && Object.keys(schema.shape).some((key) => /^account(Id)?$/.test(key));
    const idTaking = routeInventory(t.app).filter(
      (r) => r.paramNames.length > 0 || takesAccount(r.querystring) || takesAccount(r.body),
    );
    expect(idTaking.length).toBeGreaterThan(30);
    const unproved = idTaking
      .filter((r) => !provedBy.some(([pattern]) => pattern.test(r.url)))
      .map((r) => r.key);
    expect(unproved).toEqual([]);
  });
});
