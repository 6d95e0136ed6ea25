import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { jobsSettled } from '../../test-support/jobs.ts';

const t = useTestApp();

async function clientWithCsrf() {
  const client = new TestClient(t.app);
  await client.fetchCsrf();
  return client;
}

describe('POST /api/auth/signup', () => {
  it('creates an unverified user, logs them in and answers the auth response', async () => {
    const client = await clientWithCsrf();
    const payload = newSignup({ email: 'Grace.Hopper@Example.COM', firstName: 'Grace', lastName: 'Hopper' });
    const response = await client.post('/api/auth/signup', payload);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      csrfToken: expect.any(String),
      user: {
        id: expect.any(Number),
        name: 'Grace Hopper',
        email: 'grace.hopper@example.com',
        uploadedProfileImage: null,
        isAuthenticated: true,
        emailIsVerified: false,
        emailVerifiedAsOf: null,
      },
      memberships: [],
      currentMembership: null,
    });

    const me = await client.post('/api/auth/refresh-me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('grace.hopper@example.com');
  });

  it('sends the verification e-mail with a link built from PUBLIC_URL', async () => {
    const client = await clientWithCsrf();
    const payload = newSignup();
    await client.signup(payload);
    await jobsSettled(t.app);
    const outbox = await client.get(`/api/dev/outbox?to=${encodeURIComponent(payload.email)}`);
    const [message] = outbox.json().results;
    expect(message.subject).toBe('Verify your e-mail address for Veriform');
    expect(message.text).toMatch(
      /https:\/\/veriform\.example\/auth\/verify-email\/confirm\/[\w-]+\/[\w-]+\//,
    );
  });

  it('refuses a short password with the spec message', async () => {
    const client = await clientWithCsrf();
    const response = await client.post(
      '/api/auth/signup',
      newSignup({ password: 'a1!', passwordConfirm: 'a1!' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      password: ['Passwords must be at least 9 characters long.'],
      MainCode_: 'validation_error',
    });
  });

  it('refuses a long password without a number or special character', async () => {
    const client = await clientWithCsrf();
    for (const password of ['abcdefghij!', 'abcdefghij1']) {
      const response = await client.post(
        '/api/auth/signup',
        newSignup({ password, passwordConfirm: password }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().password).toEqual(['Password does not meet requirements']);
    }
  });

  it('refuses a confirmation that does not match', async () => {
    const client = await clientWithCsrf();
    const response = await client.post(
      '/api/auth/signup',
      newSignup({ passwordConfirm: 'Something-else-1' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      passwordConfirm: ['The two passwords do not match.'],
      MainCode_: 'validation_error',
    });
  });

  it('refuses an address that is taken, whatever its case', async () => {
    const client = await clientWithCsrf();
    const payload = newSignup({ email: 'taken@example.com' });
    await client.signup(payload);
    const other = await clientWithCsrf();
    const response = await other.post('/api/auth/signup', { ...payload, email: 'TAKEN@Example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      email: ['A user with that e-mail address already exists.'],
      MainCode_: 'email_taken',
    });
  });

  it('lets exactly one of two simultaneous sign-ups for one address through', async () => {
    const [a, b] = await Promise.all([clientWithCsrf(), clientWithCsrf()]);
    const payload = newSignup();
    const answers = await Promise.all([
      a.post('/api/auth/signup', payload),
      b.post('/api/auth/signup', { ...payload, email: payload.email.toUpperCase() }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((r) => r.statusCode === 400);
    expect(refused?.json()).toEqual({
      email: ['A user with that e-mail address already exists.'],
      MainCode_: 'email_taken',
    });
  });

  it('answers missing fields and wrong types with the generic spec messages', async () => {
    const client = await clientWithCsrf();
    const response = await client.post('/api/auth/signup', {
      email: 'not-an-address',
      firstName: 42,
      password: 'Correct-horse-9',
      passwordConfirm: 'Correct-horse-9',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      email: ['Invalid email'],
      firstName: ['Expected string, received number'],
      lastName: ['Required'],
      MainCode_: 'validation_error',
    });
  });

  it('answers an empty string as Required', async () => {
    const client = await clientWithCsrf();
    const response = await client.post('/api/auth/signup', newSignup({ firstName: '' }));
    expect(response.json()).toEqual({ firstName: ['Required'], MainCode_: 'validation_error' });
  });

  it('answers malformed JSON with a 400 in the validation format', async () => {
    const client = await clientWithCsrf();
    const response = await client.request({ method: 'POST', url: '/api/auth/signup', rawBody: '{"email": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: ['The request body is not valid JSON.'],
      MainCode_: 'validation_error',
    });
  });

  it('answers a body that is not an object as a non-field error', async () => {
    const client = await clientWithCsrf();
    const response = await client.request({ method: 'POST', url: '/api/auth/signup', rawBody: '[1, 2]' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: ['Expected object, received array'],
      MainCode_: 'validation_error',
    });
  });

  it('answers a JSON request without a body as a missing body', async () => {
    const client = await clientWithCsrf();
    const response = await client.request({ method: 'POST', url: '/api/auth/signup', rawBody: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: ['Expected object, received null'],
      MainCode_: 'validation_error',
    });
  });

  it('accepts bodiless calls that take no body, even with a JSON content type', async () => {
    const client = await clientWithCsrf();
    for (const url of ['/api/auth/refresh-me', '/api/auth/logout']) {
      const response = await client.request({ method: 'POST', url, rawBody: '' });
      expect(response.statusCode).toBe(200);
    }
  });
});
