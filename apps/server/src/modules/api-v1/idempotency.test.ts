import { createHash } from 'node:crypto';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY, MINUTE } from '../../test-support/clock.ts';
import { addTestNumber, createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { statementsOf as statementsOfDb } from '../../test-support/statements.ts';
import { newOwner } from '../../test-support/teams.ts';
import { OPENAPI_PATH } from './openapi.ts';

// A small per-key limit, so that the 429 test reaches it in a few requests; the test clock never moves a window on
// by itself, so every key here has 20 requests in all unless a test advances the clock.
const RATE_LIMIT = 20;
const t = useTestApp({ config: { apiKeyRateLimit: { requests: RATE_LIMIT, windowSeconds: 1 } } });

/** An owner with a live form, a test number and a test key allowed to write verifications. */
async function setUp() {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  const phone = newCellPhone();
  await addTestNumber(owner, phone.e164);
  const { key, id: apiKeyId } = await newApiKey(owner, ['verifications:write']);
  return { owner, form, phone, key, apiKeyId };
}

type Sent = { key: string; url: string; body?: string; idempotencyKey?: string };

/** A POST exactly as bytes on the wire: the body is sent as given, so tests choose its bytes. */
function post({ key, url, body, idempotencyKey }: Sent): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    ...(body === undefined ? {} : { payload: body }),
  });
}

const startBody = (formId: number, to: string) => JSON.stringify({ formId, to });

async function attemptsOf(accountId: number) {
  return t.db.db
    .select({ id: schema.verificationAttempts.id, failed: schema.verificationAttempts.wrongTries })
    .from(schema.verificationAttempts)
    .where(eq(schema.verificationAttempts.accountId, accountId));
}

async function storedRows(apiKeyId: number) {
  return t.db.db
    .select({ key: schema.apiIdempotencyKeys.key, state: schema.apiIdempotencyKeys.state })
    .from(schema.apiIdempotencyKeys)
    .where(eq(schema.apiIdempotencyKeys.apiKeyId, apiKeyId));
}

const replayed = (response: LightMyRequestResponse) => response.headers['idempotent-replayed'];

const statementsOf = (call: () => Promise<unknown>) => statementsOfDb(t.db.db, call);

describe('Idempotency-Key on API v1 POSTs', () => {
  it('replays the first answer byte for byte, with Idempotent-Replayed, without running the handler again', async () => {
    const { owner, form, phone, key } = await setUp();
    const request = { key, url: '/api/v1/verifications', body: startBody(form.id, phone.e164) };
    const first = await post({ ...request, idempotencyKey: 'order-1' });
    expect(first.statusCode, first.body).toBe(201);
    expect(replayed(first)).toBeUndefined();

    const again = await post({ ...request, idempotencyKey: 'order-1' });
    expect(again.statusCode).toBe(201);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(replayed(again)).toBe('true');
    // One attempt, one code: a second run would have been refused (30 s between codes) or made a second one.
    expect(await attemptsOf(owner.accountId)).toHaveLength(1);

    // A check replays as well: the wrong code counts once.
    const id = first.json<{ id: string }>().id;
    const check = { key, url: `/api/v1/verifications/${id}/check`, body: '{"code":"000000"}' };
    const wrong = await post({ ...check, idempotencyKey: 'check-1' });
    expect(wrong.json()).toMatchObject({ status: 'incorrect', attemptsLeft: 4 });
    const wrongAgain = await post({ ...check, idempotencyKey: 'check-1' });
    expect(wrongAgain.body).toBe(wrong.body);
    expect(replayed(wrongAgain)).toBe('true');
    expect(await attemptsOf(owner.accountId)).toEqual([{ id, failed: 1 }]);
  });

  it('answers 422 for the same key with another body or path, and runs other keys independently', async () => {
    const { owner, form, phone, key } = await setUp();
    const first = await post({
      key,
      url: '/api/v1/verifications',
      body: startBody(form.id, phone.e164),
      idempotencyKey: 'k1',
    });
    expect(first.statusCode).toBe(201);
    const id = first.json<{ id: string }>().id;

    // The raw bytes are compared: the same JSON written with other spacing is another request.
    for (const other of [
      { url: '/api/v1/verifications', body: JSON.stringify({ formId: form.id, to: '+12015550199' }) },
      { url: '/api/v1/verifications', body: JSON.stringify({ formId: form.id, to: phone.e164 }, null, 1) },
      { url: `/api/v1/verifications/${id}/check`, body: '{"code":"000000"}' },
    ]) {
      const reused = await post({ key, ...other, idempotencyKey: 'k1' });
      expect(reused.statusCode, other.body).toBe(422);
      expect(reused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(reused.json()).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    }
    expect(await attemptsOf(owner.accountId)).toEqual([{ id, failed: 0 }]);

    // Different keys are different requests: each wrong code counts.
    const check = { key, url: `/api/v1/verifications/${id}/check`, body: '{"code":"000000"}' };
    expect((await post({ ...check, idempotencyKey: 'k2' })).json()).toMatchObject({ attemptsLeft: 4 });
    expect((await post({ ...check, idempotencyKey: 'k3' })).json()).toMatchObject({ attemptsLeft: 3 });
    expect((await post(check)).json()).toMatchObject({ attemptsLeft: 2 });
  });

  it('keys are per API key: two keys use the same value independently', async () => {
    const { owner, form, phone, key } = await setUp();
    const { key: otherKey } = await newApiKey(owner, ['verifications:write']);
    const other = await setUp();
    const mine = await post({
      key,
      url: '/api/v1/verifications',
      body: startBody(form.id, phone.e164),
      idempotencyKey: 'shared',
    });
    expect(mine.statusCode).toBe(201);
    // The same account's second key, with another body: no 422, it runs (the code was sent seconds ago: 429).
    const sibling = await post({
      key: otherKey,
      url: '/api/v1/verifications',
      body: JSON.stringify({ formId: form.id, to: phone.e164, externalRefId: 'x' }),
      idempotencyKey: 'shared',
    });
    expect(sibling.json()).toMatchObject({ code: 'rate_limited' });
    expect(replayed(sibling)).toBeUndefined();
    // Another account's key with the same value: its own verification.
    const theirs = await post({
      key: other.key,
      url: '/api/v1/verifications',
      body: startBody(other.form.id, other.phone.e164),
      idempotencyKey: 'shared',
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json<{ id: string }>().id).not.toBe(mine.json<{ id: string }>().id);
    expect(await attemptsOf(other.owner.accountId)).toHaveLength(1);
  });

  it('a burst of 10 identical requests with one key runs one; the others get 409 or the replay', async () => {
    const { owner, form, phone, key, apiKeyId } = await setUp();
    const request = {
      key,
      url: '/api/v1/verifications',
      body: startBody(form.id, phone.e164),
      idempotencyKey: 'burst',
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(request)));
    const ran = answers.filter((a) => a.statusCode === 201 && replayed(a) === undefined);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer.statusCode === 409) {
        expect(answer.json()).toMatchObject({ code: 'idempotency_key_in_use' });
      } else {
        expect(answer.statusCode).toBe(201);
        expect(answer.body).toBe(ran[0]?.body);
      }
    }
    expect(await attemptsOf(owner.accountId)).toHaveLength(1);
    expect(await storedRows(apiKeyId)).toEqual([{ key: 'burst', state: 'done' }]);
    // Once it has answered, the same request is a replay.
    expect(replayed(await post(request))).toBe('true');
  });

  it('does not keep a 5xx: the same request runs again', async () => {
    const { owner, form, phone, key, apiKeyId } = await setUp();
    const request = {
      key,
      url: '/api/v1/verifications',
      body: startBody(form.id, phone.e164),
      idempotencyKey: 'after-a-crash',
    };
    const start = vi
      .spyOn(t.app.services.apiVerifications, 'start')
      .mockRejectedValueOnce(new Error('the database went away'));
    try {
      const failed = await post(request);
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toMatchObject({ code: 'server_error' });
      expect(await storedRows(apiKeyId)).toEqual([]);
      const retried = await post(request);
      expect(retried.statusCode).toBe(201);
      expect(replayed(retried)).toBeUndefined();
      expect(start).toHaveBeenCalledTimes(2);
      expect(await storedRows(apiKeyId)).toEqual([{ key: 'after-a-crash', state: 'done' }]);
    } finally {
      start.mockRestore();
    }
    expect(await attemptsOf(owner.accountId)).toHaveLength(1);
  });

  it('keeps nothing for what stops a request before its handler: 429, schema validation', async () => {
    const { owner, form, phone, key, apiKeyId } = await setUp();
    const body = startBody(form.id, phone.e164);
    // Schema validation (a 400 before the handler): nothing ran, so a corrected request may use the key.
    const invalid = await post({
      key,
      url: '/api/v1/verifications',
      body: '{"formId":"x"}',
      idempotencyKey: 'fixed-later',
    });
    expect(invalid.json()).toMatchObject({ code: 'invalid_request', errors: [{ pointer: '/formId' }] });
    const corrected = await post({ key, url: '/api/v1/verifications', body, idempotencyKey: 'fixed-later' });
    expect(corrected.statusCode).toBe(201);

    // The key's request limit (this file allows 20 per window).
    for (let used = 2; used < RATE_LIMIT; used += 1) {
      await t.app.inject({ url: '/api/v1/verifications/x', headers: { authorization: `Bearer ${key}` } });
    }
    const id = corrected.json<{ id: string }>().id;
    const check = { key, url: `/api/v1/verifications/${id}/check`, body: '{"code":"123456"}' };
    const limited = await post({ ...check, idempotencyKey: 'limited' });
    expect(limited.statusCode).toBe(429);
    expect(await storedRows(apiKeyId)).toEqual([{ key: 'fixed-later', state: 'done' }]);
    t.clock.advance(1000);
    const approved = await post({ ...check, idempotencyKey: 'limited' });
    expect(approved.json()).toMatchObject({ status: 'approved' });
    expect(replayed(approved)).toBeUndefined();
    expect(await attemptsOf(owner.accountId)).toHaveLength(1);
  });

  it('keeps a 4xx the handler produced and replays it', async () => {
    const { form, key } = await setUp();
    const request = {
      key,
      url: '/api/v1/verifications',
      body: startBody(form.id, '+1 212 555 0100'),
      idempotencyKey: 'landline',
    };
    const refused = await post(request);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'test_mode_number_required' });
    const again = await post(request);
    expect(again.statusCode).toBe(403);
    expect(again.body).toBe(refused.body);
    expect(again.headers['content-type']).toBe(refused.headers['content-type']);
    expect(replayed(again)).toBe('true');
  });

  it('refuses a malformed key with a 400 on the header', async () => {
    const { form, phone, key, apiKeyId } = await setUp();
    const request = { key, url: '/api/v1/verifications', body: startBody(form.id, phone.e164) };
    for (const idempotencyKey of ['', 'x'.repeat(256), 'clé', 'tab\there']) {
      const answer = await post({ ...request, idempotencyKey });
      expect(answer.statusCode, idempotencyKey).toBe(400);
      expect(answer.json(), idempotencyKey).toMatchObject({
        code: 'invalid_request',
        errors: [{ pointer: '/headers/idempotency-key' }],
      });
    }
    expect(await storedRows(apiKeyId)).toEqual([]);
    const longest = await post({ ...request, idempotencyKey: `${'~'.repeat(254)} ` });
    expect(longest.statusCode, longest.body).toBe(201);
  });

  it('forgets a key after 24 hours', async () => {
    const { form, phone, key } = await setUp();
    const request = {
      key,
      url: '/api/v1/verifications',
      body: startBody(form.id, phone.e164),
      idempotencyKey: 'daily',
    };
    const first = await post(request);
    t.clock.advance(DAY - MINUTE);
    expect(replayed(await post(request))).toBe('true');
    t.clock.advance(MINUTE);
    const later = await post(request);
    expect(later.statusCode).toBe(201);
    expect(replayed(later)).toBeUndefined();
    expect(later.json<{ id: string }>().id).not.toBe(first.json<{ id: string }>().id);
  });

  it('lets the same request take over a key left running by a dead process after 5 minutes', async () => {
    const { owner, form, phone, key, apiKeyId } = await setUp();
    const url = '/api/v1/verifications';
    const body = startBody(form.id, phone.e164);
    // What the process that died had claimed: the SHA-256 of method, path and raw body.
    const requestHash = createHash('sha256').update(`POST ${url}\n${body}`).digest();
    await t.db.db.insert(schema.apiIdempotencyKeys).values({
      apiKeyId,
      key: 'orphan',
      requestHash,
      state: 'running',
      createdAt: t.clock.now(),
    });
    expect((await post({ key, url, body, idempotencyKey: 'orphan' })).statusCode).toBe(409);
    t.clock.advance(5 * MINUTE);
    // Not another request, though.
    const other = await post({
      key,
      url,
      body: startBody(form.id, '+12015550199'),
      idempotencyKey: 'orphan',
    });
    expect(other.statusCode).toBe(422);
    const taken = await post({ key, url, body, idempotencyKey: 'orphan' });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await attemptsOf(owner.accountId)).toHaveLength(1);
    const [row] = await t.db.db
      .select({ state: schema.apiIdempotencyKeys.state })
      .from(schema.apiIdempotencyKeys)
      .where(
        and(eq(schema.apiIdempotencyKeys.apiKeyId, apiKeyId), eq(schema.apiIdempotencyKeys.key, 'orphan')),
      );
    expect(row).toEqual({ state: 'done' });
  });

  it('costs two statements on a first request and three in all on a replay', async () => {
    const { owner, form, phone, key } = await setUp();
    const other = newCellPhone();
    await addTestNumber(owner, other.e164);
    const url = '/api/v1/verifications';
    // The key's "last used" is written on its first request; after it, every request is read-only for the key.
    await t.app.inject({ url: '/api/v1/forms', headers: { authorization: `Bearer ${key}` } });
    const plain = await statementsOf(() => post({ key, url, body: startBody(form.id, phone.e164) }));
    const body = startBody(form.id, other.e164);
    const first = await statementsOf(() => post({ key, url, body, idempotencyKey: 'counted' }));
    const idempotency = (statements: string[]) =>
      statements.filter((s) => s.includes('api_idempotency_keys'));
    expect(first.length - plain.length).toBe(2);
    expect(idempotency(first).map((s) => s.split(' ')[0]?.toLowerCase())).toEqual(['insert', 'update']);
    const replay = await statementsOf(() => post({ key, url, body, idempotencyKey: 'counted' }));
    expect(replay).toHaveLength(3);
    expect(replay.filter((s) => s.includes('verification'))).toEqual([]);
  });

  it('is documented on every POST of the OpenAPI document, with its 409 and 422', async () => {
    type Operation = {
      parameters?: { name: string; in: string; required?: boolean }[];
      responses: Record<string, { description: string }>;
    };
    const document = (await t.app.inject({ url: OPENAPI_PATH })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
    const posts = operations.filter((o) => o.method === 'post');
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const { path, operation } of posts) {
      const header = operation.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
      expect(header, path).toMatchObject({ required: false });
      expect(operation.responses['409']?.description, path).toContain('idempotency_key_in_use');
      expect(operation.responses['422']?.description, path).toContain('idempotency_key_reused');
    }
    for (const { path, operation } of operations.filter((o) => o.method !== 'post')) {
      expect(operation.parameters?.some((p) => p.name === 'idempotency-key') ?? false, path).toBe(false);
    }
    // The typed client knows the header.
    const { form, phone, key } = await setUp();
    const api = apiV1(t.app, key);
    const started = await api.POST('/api/v1/verifications', {
      params: { header: { 'idempotency-key': 'typed' } },
      body: { formId: form.id, to: phone.e164 },
    });
    expect(started.response.status).toBe(201);
  });
});
