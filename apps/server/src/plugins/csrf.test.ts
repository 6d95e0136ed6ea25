import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../test-support/app.ts';
import { newSignup, TestClient } from '../test-support/client.ts';

const t = useTestApp();

const csrfFailed = { detail: 'CSRF Failed: CSRF token missing or incorrect.', MainCode_: 'csrf_failed' };

describe('CSRF', () => {
  it('POST /api/auth/csrf needs no token and sets the secret cookie', async () => {
    const c = new TestClient(t.app);
    const response = await c.post('/api/auth/csrf', {}, { csrf: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ csrfToken: expect.stringMatching(/^[\w-]{43}$/) });
    expect(c.cookies.get('vf_csrf')).toMatch(/^[\w-]{43}$/);
    // The token is not the secret itself.
    expect(response.json().csrfToken).not.toBe(c.cookies.get('vf_csrf'));
  });

  it('keeps answering the same token while the cookie is the same', async () => {
    const c = new TestClient(t.app);
    const first = await c.fetchCsrf();
    expect(await c.fetchCsrf()).toBe(first);
  });

  it('refuses an unsafe call without the header', async () => {
    const c = new TestClient(t.app);
    await c.fetchCsrf();
    const response = await c.post('/api/auth/signup', newSignup(), { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(csrfFailed);
    expect(response.json().detail).toContain('CSRF');
  });

  it('refuses a wrong token', async () => {
    const c = new TestClient(t.app);
    const token = await c.fetchCsrf();
    const response = await c.post(
      '/api/auth/refresh-me',
      {},
      {
        headers: { 'x-csrftoken': `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}` },
      },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(csrfFailed);
  });

  it('refuses a token without its cookie (another site cannot replay a stolen token alone)', async () => {
    const c = new TestClient(t.app);
    const token = await c.fetchCsrf();
    c.cookies.delete('vf_csrf');
    const response = await c.post('/api/auth/refresh-me', {}, { headers: { 'x-csrftoken': token } });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a planted cookie whose token was not signed with our key', async () => {
    const c = new TestClient(t.app);
    c.cookies.set('vf_csrf', 'a'.repeat(43));
    const response = await c.post('/api/auth/refresh-me', {}, { headers: { 'x-csrftoken': 'a'.repeat(43) } });
    expect(response.statusCode).toBe(403);
  });

  it('accepts the right token', async () => {
    const c = new TestClient(t.app);
    await c.fetchCsrf();
    expect((await c.post('/api/auth/refresh-me')).statusCode).toBe(200);
  });

  it('checks every unsafe method, also on unknown routes, before parsing the body', async () => {
    const c = new TestClient(t.app);
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const response = await c.request({ method, url: '/api/anything', body: {} });
      expect(response.statusCode).toBe(403);
    }
    const malformed = await c.request({ method: 'POST', url: '/api/auth/login', rawBody: '{' });
    expect(malformed.statusCode).toBe(403);
  });

  it('works across app instances sharing SECRET_KEY and the database', async () => {
    const other = await buildTestApp(t.db);
    try {
      const first = new TestClient(t.app);
      const user = newSignup();
      await first.signup(user);
      const second = new TestClient(other.app);
      for (const [k, v] of first.cookies) second.cookies.set(k, v);
      second.csrfToken = first.csrfToken;
      const me = await second.post('/api/auth/refresh-me');
      expect(me.statusCode).toBe(200);
      expect(me.json().user.email).toBe(user.email);
    } finally {
      await other.app.close();
    }
  });
});
