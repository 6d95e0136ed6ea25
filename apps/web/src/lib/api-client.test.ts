import { errorTexts } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiClient,
  ApiError,
  ApiValidationError,
  buildQueryString,
  CSRF_HEADER,
  type FetchLike,
  NotAuthenticatedError,
  NotFoundError,
  noContent,
  PermissionDeniedError,
  RateLimitedError,
  ServerError,
  STEP_UP_CANCELED_TEXT,
  StepUpCanceledError,
} from './api-client';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
  credentials: RequestCredentials | undefined;
}

/** A fake server: answers are taken in order; every request is recorded. */
function fakeFetch(...answers: Array<[number, unknown]>) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
      credentials: init.credentials,
    });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${init.method} ${url}`);
    const [status, body] = answer;
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fetch, calls };
}

const okSchema = z.object({ ok: z.boolean() });

describe('ApiClient: CSRF', () => {
  it('sends the cached token on unsafe methods, JSON and same-origin credentials', async () => {
    const { fetch, calls } = fakeFetch([200, { ok: true }]);
    const api = new ApiClient({ fetch, csrfToken: 'initial' });
    await expect(api.request('POST', '/api/x', { schema: okSchema, body: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers[CSRF_HEADER]).toBe('initial');
    expect(calls[0]?.headers['Content-Type']).toBe('application/json');
    expect(calls[0]?.body).toBe('{"a":1}');
    expect(calls[0]?.credentials).toBe('same-origin');
  });

  it('does not send the token on GET', async () => {
    const { fetch, calls } = fakeFetch([200, { ok: true }]);
    await new ApiClient({ fetch, csrfToken: 'initial' }).request('GET', '/api/x', { schema: okSchema });
    expect(calls[0]?.headers[CSRF_HEADER]).toBeUndefined();
  });

  it('fetches a token first when none is cached', async () => {
    const { fetch, calls } = fakeFetch([200, { csrfToken: 'fetched' }], [200, { ok: true }]);
    await new ApiClient({ fetch, csrfToken: '' }).request('POST', '/api/x', { schema: okSchema });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/auth/csrf', 'POST /api/x']);
    expect(calls[0]?.headers[CSRF_HEADER]).toBeUndefined();
    expect(calls[1]?.headers[CSRF_HEADER]).toBe('fetched');
  });

  it('retries a CSRF failure exactly once, with a fresh token', async () => {
    const { fetch, calls } = fakeFetch(
      [403, { detail: errorTexts.csrfFailed }],
      [200, { csrfToken: 'fresh' }],
      [200, { ok: true }],
    );
    const api = new ApiClient({ fetch, csrfToken: 'stale' });
    await expect(api.request('POST', '/api/x', { schema: okSchema })).resolves.toEqual({ ok: true });
    expect(calls.map((c) => [c.url, c.headers[CSRF_HEADER]])).toEqual([
      ['/api/x', 'stale'],
      ['/api/auth/csrf', undefined],
      ['/api/x', 'fresh'],
    ]);
  });

  it('gives up after one retry', async () => {
    const { fetch, calls } = fakeFetch(
      [403, { detail: errorTexts.csrfFailed }],
      [200, { csrfToken: 'fresh' }],
      [403, { detail: errorTexts.csrfFailed }],
    );
    const api = new ApiClient({ fetch, csrfToken: 'stale' });
    await expect(api.request('POST', '/api/x', { schema: okSchema })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    expect(calls).toHaveLength(3);
  });

  it('keeps the token of every auth response', async () => {
    const { fetch, calls } = fakeFetch([200, { csrfToken: 'rotated', ok: true }], [200, { ok: true }]);
    const api = new ApiClient({ fetch, csrfToken: 'old' });
    await api.request('POST', '/api/auth/login', { schema: okSchema });
    await api.request('POST', '/api/x', { schema: okSchema });
    expect(api.getCsrfToken()).toBe('rotated');
    expect(calls[1]?.headers[CSRF_HEADER]).toBe('rotated');
  });
});

describe('ApiClient: errors', () => {
  async function failWith(status: number, body: unknown): Promise<unknown> {
    const { fetch } = fakeFetch([status, body]);
    return new ApiClient({ fetch, csrfToken: 't' }).request('POST', '/api/x', { schema: noContent }).then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  it('maps 400 to field errors (first message each), non-field errors and the main code', async () => {
    const error = await failWith(400, {
      email: ['A user with that e-mail address already exists.', 'Second.'],
      password: ['Password does not meet requirements'],
      nonFieldErrors: ['Something else.'],
      MainCode_: 'email_taken',
    });
    expect(error).toBeInstanceOf(ApiValidationError);
    const validation = error as ApiValidationError;
    expect(validation.fieldErrors).toEqual({
      email: 'A user with that e-mail address already exists.',
      password: 'Password does not meet requirements',
    });
    expect(validation.fieldErrors).not.toHaveProperty('MainCode_');
    expect(validation.nonFieldErrors).toEqual(['Something else.']);
    expect(validation.mainCode).toBe('email_taken');
    expect(validation.message).toBe('Something else.');
  });

  it('maps 404, 429, 5xx and other statuses to the spec texts', async () => {
    const notFound = await failWith(404, { detail: 'No such thing' });
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect((notFound as Error).message).toBe('Not found.');

    const limited = await failWith(429, { detail: 'Too many attempts. Try again in 60 seconds.' });
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as Error).message).toBe('Too many attempts. Try again in 60 seconds.');

    for (const status of [500, 502, 503]) {
      const server = await failWith(status, { detail: 'boom' });
      expect(server).toBeInstanceOf(ServerError);
      expect((server as Error).message).toBe(
        'An unexpected server error occurred. Please try again. If the issue continues please contact support.',
      );
    }

    // A conflict says why (issue #37: held evidence's redaction names the hold); without a detail, the generic text.
    const held = await failWith(409, {
      detail: 'This verification is under legal hold lh_1.',
      MainCode_: 'conflict',
    });
    expect((held as Error).message).toBe('This verification is under legal hold lh_1.');
    expect((await failWith(409, undefined)) as Error).toHaveProperty(
      'message',
      'Unexpected 409 response from server.',
    );

    const teapot = await failWith(418, undefined);
    expect(teapot).toBeInstanceOf(ApiError);
    expect((teapot as Error).message).toBe('Unexpected 418 response from server.');
  });

  it('shows the permission text for other 403s', async () => {
    const error = await failWith(403, { detail: 'Nope.' });
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toBe('You are not permitted to perform that action.');
  });

  it.each([401, 403])('treats %i with the not-authenticated text as logged out', async (status) => {
    const { fetch } = fakeFetch([status, { detail: 'Authentication credentials were not provided.' }]);
    const onNotAuthenticated = vi.fn();
    const api = new ApiClient({ fetch, csrfToken: 't', onNotAuthenticated });
    const error = await api.request('GET', '/api/x', { schema: noContent }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAuthenticatedError);
    expect(onNotAuthenticated).toHaveBeenCalledTimes(1);
  });

  it('rejects a success body that breaks the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch } = fakeFetch([200, { ok: 'yes' }]);
    const error = await new ApiClient({ fetch })
      .request('GET', '/api/x', { schema: okSchema })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Unexpected 200 response from server.');
  });
});

describe('ApiClient: bodies', () => {
  it('sends multipart without a content type', async () => {
    const { fetch, calls } = fakeFetch([200, { ok: true }]);
    const formData = new FormData();
    formData.append('file', new Blob(['x']), 'x.png');
    await new ApiClient({ fetch, csrfToken: 't' }).request('PATCH', '/api/u', { schema: okSchema }, formData);
    expect(calls[0]?.body).toBe(formData);
    expect(calls[0]?.headers['Content-Type']).toBeUndefined();
    expect(calls[0]?.headers[CSRF_HEADER]).toBe('t');
  });

  it('treats 204 as empty', async () => {
    const { fetch } = fakeFetch([204, undefined]);
    await expect(
      new ApiClient({ fetch, csrfToken: 't' }).request('DELETE', '/api/x', { schema: noContent }),
    ).resolves.toBe(undefined);
  });
});

describe('buildQueryString', () => {
  it('skips undefined, encodes the rest', () => {
    expect(buildQueryString({ q: 'a b&c', page: 2, live: true, missing: undefined, empty: null })).toBe(
      '?q=a%20b%26c&page=2&live=true',
    );
    expect(buildQueryString({ category__in: ['x y', 'z'] })).toBe('?category__in=x%20y%2Cz');
    expect(buildQueryString({ a: undefined })).toBe('');
    expect(buildQueryString(undefined)).toBe('');
  });
});

describe('ApiClient: step-up and the required second factor (issue #38)', () => {
  const stepUp = [403, { detail: 'Confirm it is you.', MainCode_: 'step_up_required' }] as [number, unknown];

  it('asks the step-up handler, then makes the same call once more', async () => {
    const { fetch, calls } = fakeFetch(stepUp, [200, { ok: true }]);
    const api = new ApiClient({ fetch, csrfToken: 't' });
    const handler = vi.fn(async () => true);
    api.setStepUpHandler(handler);
    await expect(api.request('POST', '/api/x', { schema: okSchema, body: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/x', '{"a":1}'],
      ['POST', '/api/x', '{"a":1}'],
    ]);
  });

  it('a canceled step-up fails the call with its own message and does not retry', async () => {
    const { fetch, calls } = fakeFetch(stepUp);
    const api = new ApiClient({ fetch, csrfToken: 't' });
    api.setStepUpHandler(async () => false);
    const failure = api.request('DELETE', '/api/x', { schema: noContent });
    await expect(failure).rejects.toBeInstanceOf(StepUpCanceledError);
    await expect(failure).rejects.toThrow(STEP_UP_CANCELED_TEXT);
    expect(calls).toHaveLength(1);
  });

  it('retries once only: a second step_up_required is a plain 403', async () => {
    const { fetch, calls } = fakeFetch(stepUp, stepUp);
    const api = new ApiClient({ fetch, csrfToken: 't' });
    const handler = vi.fn(async () => true);
    api.setStepUpHandler(handler);
    const failure = api.request('POST', '/api/x', { schema: okSchema });
    await expect(failure).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failure).rejects.toMatchObject({ mainCode: 'step_up_required' });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(2);
  });

  it('without a handler the 403 is the caller’s, with its main code', async () => {
    const { fetch } = fakeFetch(stepUp);
    const api = new ApiClient({ fetch, csrfToken: 't' });
    await expect(api.request('GET', '/api/x', { schema: okSchema })).rejects.toMatchObject({
      status: 403,
      mainCode: 'step_up_required',
    });
  });

  it('mfa_setup_required tells its handler and fails the call', async () => {
    const { fetch } = fakeFetch([
      403,
      { detail: 'Set up a second factor.', MainCode_: 'mfa_setup_required' },
    ]);
    const api = new ApiClient({ fetch, csrfToken: 't' });
    const handler = vi.fn();
    api.setMfaSetupRequiredHandler(handler);
    await expect(api.request('GET', '/api/x', { schema: okSchema })).rejects.toMatchObject({
      mainCode: 'mfa_setup_required',
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
