import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { buildTestApp, openTestDb, type TestApp } from '../../test-support/app.ts';
import { newOwner } from '../../test-support/teams.ts';

/** The per-key request limit, small here (5 a minute) so that a burst crosses it. */
describe('API v1 rate limit per key', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const db = await openTestDb();
    t = await buildTestApp(db, { config: { apiKeyRateLimit: { requests: 5, windowSeconds: 60 } } });
    close = async () => {
      await t.app.close();
      await db.close();
    };
  });
  afterAll(() => close());

  it('a burst at once gets exactly the limit through; the rest are 429 with Retry-After, other keys unaffected', async () => {
    const owner = await newOwner(t.app);
    const { key } = await newApiKey(owner, ['forms:read']);
    const { key: other } = await newApiKey(owner, ['forms:read']);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => apiV1(t.app, key).GET('/api/v1/forms')),
    );
    const statuses = answers.map((a) => a.response.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const refused = answers.find((a) => a.response.status === 429);
    expect(refused?.response.headers.get('retry-after')).toBe('60');
    expect(refused?.response.headers.get('ratelimit')).toBe('"api-key";r=0;t=60');
    expect(refused?.response.headers.get('ratelimit-policy')).toBe('"api-key";q=5;w=60');
    expect(refused?.response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(refused?.error).toMatchObject({ code: 'rate_limited', status: 429 });
    const remaining = answers
      .filter((a) => a.response.status === 200)
      .map((a) => a.response.headers.get('ratelimit'))
      .sort();
    expect(remaining).toEqual([0, 1, 2, 3, 4].map((r) => `"api-key";r=${r};t=60`));

    expect((await apiV1(t.app, other).GET('/api/v1/forms')).response.status).toBe(200);
    // A new window, a new allowance.
    t.clock.advance(60_000);
    expect((await apiV1(t.app, key).GET('/api/v1/forms')).response.status).toBe(200);
  });
});
