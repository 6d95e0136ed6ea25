import { describe, expect, it } from 'vitest';
import { Veriform } from './client.ts';
import { VeriformConnectionError, VeriformError } from './errors.ts';
import { retryingFetch } from './transport.ts';
import type { Form } from './types.ts';

/**
 * The SDK against a fake fetch: pagination, error mapping, the retry policy and idempotency keys. Its behaviour
 * against the real server (examples, real deliveries, real certificates) is apps/server's api-v1/sdk.test.ts.
 */

const BASE = 'https://veriform.test';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json',
      ...headers,
    },
  });
const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) => ({
  type: `${BASE}/docs/api#error-${code}`,
  title: code,
  status,
  detail,
  code,
  ...extra,
});

/** A fetch answering from `answer`, recording each request (its body read). */
function fakeFetch(answer: (request: Request, n: number) => Response | Promise<Response>) {
  const requests: { method: string; url: URL; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request) => {
    requests.push({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.clone().text(),
    });
    return answer(request, requests.length);
  };
  return { fetch, requests };
}

const form = (id: number): Form => ({
  id,
  name: `Form ${id}`,
  category: 'Leads',
  language: 'en',
  isLive: true,
  hostedUrl: `${BASE}/v/${id}`,
  created: '2026-01-01T00:00:00.000Z',
});

describe('lists', () => {
  /** Forms 7…1, newest first, in pages of `limit`, after the id in `startingAfter`. */
  const forms = fakeFetch((request) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const after = Number(url.searchParams.get('startingAfter') ?? 8);
    const data = [7, 6, 5, 4, 3, 2, 1].filter((id) => id < after).slice(0, limit);
    const hasMore = (data.at(-1) ?? 1) > 1;
    return json(200, { data: data.map(form), hasMore, nextCursor: hasMore ? String(data.at(-1)) : null });
  });
  const veriform = new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch: forms.fetch });

  it('answers one page when awaited, and every object of every page when iterated', async () => {
    const page = await veriform.forms.list({ limit: 3 });
    expect(page.data.map((f) => f.id)).toEqual([7, 6, 5]);
    expect(page).toMatchObject({ hasMore: true, nextCursor: '5' });
    const next = await page.nextPage();
    expect(next?.data.map((f) => f.id)).toEqual([4, 3, 2]);

    forms.requests.length = 0;
    const ids: number[] = [];
    for await (const f of veriform.forms.list({ limit: 3 })) ids.push(f.id);
    expect(ids).toEqual([7, 6, 5, 4, 3, 2, 1]);
    // The query is kept and the cursor follows: three pages, the last with no next.
    expect(forms.requests.map((r) => r.url.search)).toEqual([
      '?limit=3',
      '?limit=3&startingAfter=5',
      '?limit=3&startingAfter=2',
    ]);
    const last = await (await (await page.nextPage())?.nextPage())?.nextPage();
    expect(last).toBeNull();
  });

  it('stops as soon as the loop does, and toArray refuses more than its limit', async () => {
    forms.requests.length = 0;
    for await (const f of veriform.forms.list({ limit: 2 }).autoPaginate()) if (f.id === 6) break;
    expect(forms.requests).toHaveLength(1);
    expect((await veriform.forms.list({ limit: 2 }).toArray({ limit: 10 })).map((f) => f.id)).toHaveLength(7);
    await expect(veriform.forms.list().toArray({ limit: 5 })).rejects.toThrow(RangeError);
  });
});

describe('errors', () => {
  it('throw VeriformError with the problem, its field errors and the request id', async () => {
    const { fetch } = fakeFetch(() =>
      json(
        400,
        problem(400, 'invalid_request', 'limit: Too big', {
          errors: [{ pointer: '/limit', detail: 'Too big' }],
        }),
        { 'x-request-id': 'req-1' },
      ),
    );
    const veriform = new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch });
    const error = await veriform.forms.list({ limit: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VeriformError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      type: `${BASE}/docs/api#error-invalid_request`,
      detail: 'limit: Too big',
      errors: [{ pointer: '/limit', detail: 'Too big' }],
      requestId: 'req-1',
      message: '400 invalid_request: limit: Too big',
    });
  });

  it('keep the status of an answer that is not a problem, with code null', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const veriform = new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch, maxRetries: 0 });
    await expect(veriform.verifications.get('abc')).rejects.toMatchObject({
      status: 502,
      code: null,
      problem: null,
      detail: '<html>Bad gateway</html>',
    });
  });

  it('refuse a client without a key', () => {
    expect(() => new Veriform({ apiKey: '', baseUrl: BASE })).toThrow(/apiKey/);
  });
});

describe('retries', () => {
  it('a 429 is retried after Retry-After, a POST too (nothing ran), with the same idempotency key', async () => {
    const { fetch, requests } = fakeFetch((_, n) =>
      n === 1
        ? json(429, problem(429, 'rate_limited', 'retry in 0 s'), { 'retry-after': '0' })
        : json(201, { id: 'v1' }),
    );
    const veriform = new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch });
    await veriform.verifications.start({ formId: 1, to: '+12015550123' });
    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers.get('idempotency-key')).toBe(first?.headers.get('idempotency-key'));
    expect(second?.body).toBe('{"formId":1,"to":"+12015550123"}');
    expect(second?.headers.get('authorization')).toBe('Bearer vf_test_x');
  });

  it('a Retry-After over a minute is not waited for: the error says how long', async () => {
    const { fetch, requests } = fakeFetch(() =>
      json(429, problem(429, 'rate_limited', 'retry in 120 s'), { 'retry-after': '120' }),
    );
    const veriform = new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch });
    await expect(veriform.forms.list()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(requests).toHaveLength(1);
  });

  const policy = (fetch: (request: Request) => Promise<Response>, maxRetries = 2) => {
    const waits: number[] = [];
    const send = retryingFetch({
      fetch,
      maxRetries,
      timeoutMs: 1_000,
      random: () => 1,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    return { send, waits };
  };

  it('5xx: a GET and a POST with an idempotency key are retried with backoff, up to maxRetries', async () => {
    const failing = fakeFetch(() => json(503, problem(503, 'server_error', 'down')));
    const { send, waits } = policy(failing.fetch);
    expect((await send(new Request(`${BASE}/api/v1/forms`))).status).toBe(503);
    expect(waits).toEqual([500, 1000]);
    const keyed = new Request(`${BASE}/api/v1/verifications`, {
      method: 'POST',
      body: '{}',
      headers: { 'idempotency-key': 'k' },
    });
    await send(keyed);
    expect(failing.requests).toHaveLength(6);
    expect(failing.requests.at(-1)?.body).toBe('{}');
  });

  it('5xx and lost connections: a POST without a key is never sent twice', async () => {
    const failing = fakeFetch(() => json(500, problem(500, 'server_error', 'oops')));
    const { send } = policy(failing.fetch);
    const post = () => new Request(`${BASE}/api/v1/verifications`, { method: 'POST', body: '{}' });
    expect((await send(post())).status).toBe(500);
    expect(failing.requests).toHaveLength(1);

    let calls = 0;
    const broken = policy(async () => {
      calls += 1;
      throw new TypeError('fetch failed');
    });
    await expect(broken.send(post())).rejects.toBeInstanceOf(VeriformConnectionError);
    expect(calls).toBe(1);
    await expect(broken.send(new Request(`${BASE}/api/v1/forms`))).rejects.toMatchObject({ timedOut: false });
    expect(calls).toBe(4);
  });

  it('409 idempotency_key_in_use is asked again; another 409 is not', async () => {
    const inUse = fakeFetch((_, n) =>
      n === 1 ? json(409, problem(409, 'idempotency_key_in_use', 'running')) : json(200, { ok: true }),
    );
    const keyed = () =>
      new Request(`${BASE}/api/v1/verifications/a/check`, {
        method: 'POST',
        body: '{"code":"1"}',
        headers: { 'idempotency-key': 'k' },
      });
    expect((await policy(inUse.fetch).send(keyed())).status).toBe(200);
    const notLive = fakeFetch(() => json(409, problem(409, 'form_not_live', 'inactive')));
    expect((await policy(notLive.fetch).send(keyed())).status).toBe(409);
    expect(notLive.requests).toHaveLength(1);
  });

  it('a timeout is a VeriformConnectionError that says so', async () => {
    const hanging = async (request: Request) =>
      new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason)),
      );
    const veriform = new Veriform({
      apiKey: 'vf_test_x',
      baseUrl: BASE,
      fetch: hanging,
      timeoutMs: 20,
      maxRetries: 0,
    });
    await expect(veriform.forms.list()).rejects.toMatchObject({
      name: 'VeriformConnectionError',
      timedOut: true,
    });
  });

  it('idempotency keys: the one given is sent; with retries off none is made', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, { id: 'v1', status: 'canceled' }));
    await new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch }).verifications.cancel('v1', {
      idempotencyKey: 'mine',
    });
    await new Veriform({ apiKey: 'vf_test_x', baseUrl: BASE, fetch, maxRetries: 0 }).verifications.cancel(
      'v1',
    );
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['mine', null]);
    expect(() => new Veriform({ apiKey: 'k', baseUrl: BASE, maxRetries: -1 })).toThrow(/maxRetries/);
  });
});
