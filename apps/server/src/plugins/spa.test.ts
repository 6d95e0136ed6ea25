import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { buildTestApp, testConfig, useTestApp } from '../test-support/app.ts';
import { newSignup, TestClient } from '../test-support/client.ts';
import { initialDataOf } from '../test-support/outbox.ts';
import { injectInitialData, serializeForScript } from './initial-data.ts';

const t = useTestApp();

async function fakeWebBuild(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'vf-web-'));
  await mkdir(join(root, 'dist', 'assets'), { recursive: true });
  await writeFile(
    join(root, 'dist', 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  await writeFile(join(root, 'dist', 'assets', 'app-abc123.js'), 'console.log("app");');
  await writeFile(join(root, 'dist', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

describe('pages with initial data', () => {
  it.each(['/', '/auth/login/', '/no/such/page', '/dev/outbox', '/index.html'])(
    'GET %s answers the page with the anonymous initial data and sets the CSRF cookie',
    async (path) => {
      const c = new TestClient(t.app);
      const page = await c.get(path);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('private, no-cache');
      const data = initialDataOf(page.body);
      expect(data).toEqual({
        user: expect.objectContaining({ id: null, isAuthenticated: false }),
        memberships: [],
        currentMembership: null,
        csrfToken: expect.stringMatching(/^[\w-]{43}$/),
        extra: { signaling: { immediatelyRedirectTo: null } },
      });
      expect(c.cookies.get('vf_csrf')).toMatch(/^[\w-]{43}$/);
      // The embedded token works for the next call.
      c.csrfToken = (data as { csrfToken: string }).csrfToken;
      expect((await c.post('/api/auth/refresh-me')).statusCode).toBe(200);
    },
  );

  it('keeps an existing CSRF cookie', async () => {
    const c = new TestClient(t.app);
    const token = await c.fetchCsrf();
    const page = await c.get('/');
    expect(page.cookies.find((x) => x.name === 'vf_csrf')).toBeUndefined();
    expect(initialDataOf(page.body)).toMatchObject({ csrfToken: token });
  });

  it('embeds the logged-in user, escaping </script> and line separators in their name', async () => {
    const c = new TestClient(t.app);
    const auth = await c.signup(
      newSignup({ firstName: '</script><script>alert(1)</script>', lastName: 'X' }),
    );
    // Names with line separators are refused now; a row stored before that rule may still hold one.
    await t.db.db
      .update(schema.users)
      .set({ name: '</script><script>alert(1)</script> X\u2028Y' })
      .where(eq(schema.users.id, auth.user.id ?? 0));
    const page = await c.get('/settings/my-account');
    expect(page.body).not.toContain('</script><script>alert(1)');
    expect(page.body).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(page.body).not.toContain('\u2028');
    const data = initialDataOf(page.body) as { user: { name: string; isAuthenticated: boolean } };
    expect(data.user).toMatchObject({
      isAuthenticated: true,
      name: '</script><script>alert(1)</script> X\u2028Y',
    });
  });

  it('answers HEAD for a page', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/auth/login/' });
    expect(response.statusCode).toBe(200);
  });

  it('sends security headers: strict CSP, same-origin referrer policy', async () => {
    const page = await new TestClient(t.app).get('/');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('what is not a page', () => {
  it('an unknown /api route is a JSON 404', async () => {
    for (const url of ['/api/nope', '/api', '/api/auth/nope?x=1']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    }
  });

  it('a missing asset is a 404, not the page', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
  });

  it('a wrong method on a known route is a 404 in the same format', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/login' });
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe('Not found.');
  });
});

describe('errors', () => {
  it('5xx answers never say what went wrong inside', async () => {
    const app = await buildApp(testConfig(), { db: t.db });
    app.get('/api/boom', async () => {
      throw new Error('secret internals: connection string postgres://user:pw@db');
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
    } finally {
      await app.close();
    }
  });
});

describe('production build', () => {
  it('serves built assets with immutable caching and the page with initial data', async () => {
    const webRoot = await fakeWebBuild();
    const prod = await buildTestApp(t.db, { env: { NODE_ENV: 'production' }, config: { webRoot } });
    try {
      const asset = await prod.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const favicon = await prod.app.inject({ method: 'GET', url: '/favicon.svg' });
      expect(favicon.headers['cache-control']).toBe('no-cache');

      for (const url of ['/', '/index.html', '/auth/login/']) {
        const page = await prod.app.inject({ method: 'GET', url });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('<script type="module" src="/assets/app-abc123.js"></script>');
        expect(page.body).toMatch(
          /<script id="initial-data" type="application\/json">\{.*<\/script><\/head>/,
        );
        expect(page.headers['cache-control']).toBe('private, no-cache');
        expect(page.headers['content-security-policy']).toContain("script-src 'self'");
        expect(page.headers['strict-transport-security']).toContain('max-age=31536000');
        expect(page.cookies.find((x) => x.name === '__Host-vf_csrf')).toMatchObject({ secure: true });
      }
    } finally {
      await prod.app.close();
    }
  });

  it('refuses to start in production without a build', async () => {
    await expect(
      buildApp(testConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' }), { db: t.db }),
    ).rejects.toThrow(/not built/);
  });

  it('does not offer the development outbox in production', async () => {
    const prod = await buildTestApp(t.db, {
      env: { NODE_ENV: 'production' },
      config: { webRoot: await fakeWebBuild() },
    });
    try {
      const response = await prod.app.inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(404);
    } finally {
      await prod.app.close();
    }
  });
});

describe('injection', () => {
  it('escapes <, U+2028 and U+2029 and inserts before </head>', () => {
    expect(serializeForScript({ a: '</script><!--', b: '\u2028\u2029' })).toBe(
      '{"a":"\\u003c/script>\\u003c!--","b":"\\u2028\\u2029"}',
    );
    const html = injectInitialData('<html><HEAD><title>x</title></HEAD><body></body></html>', {
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
      csrfToken: 't',
      extra: {},
    });
    expect(html).toMatch(
      /<title>x<\/title><script id="initial-data" type="application\/json">.*<\/script><\/HEAD>/,
    );
  });
});
