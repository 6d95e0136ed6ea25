import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type ApiKeyScope,
  apiKeyScopes,
  apiProblems,
  CERTIFICATE_KEYS_PATH,
  type WebhookEndpoint,
} from '@veriform/contracts';
import type { DatabaseHandle } from '@veriform/db';
import {
  checkCertificate,
  operationMethods,
  CERTIFICATE_KEYS_PATH as SDK_CERTIFICATE_KEYS_PATH,
  Veriform,
  VeriformError,
  verifyWebhook,
  WebhookVerificationError,
} from '@veriform/sdk';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TEST_BASE, injectFetch, newApiKey } from '../../test-support/api-v1/client.ts';
import { buildTestApp, openTestDb } from '../../test-support/app.ts';
import type { TestClock } from '../../test-support/clock.ts';
import { addTestNumber, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test-support/webhook-receiver.ts';
import { OPENAPI_PATH } from './openapi.ts';

/**
 * The SDK (packages/sdk, issue #35 item 7) against the real server listening on loopback: its examples run as the
 * README shows them, in a child process on the pinned Node; its lists follow cursors across pages, its errors carry
 * the problems the server answers, its retries wait out a real 429, and webhook and certificate checks pass on what
 * the server really sends (and fail on a changed byte). The SDK's own unit tests (fake fetch) are in packages/sdk.
 */

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL('../../../../../packages/sdk/examples/', import.meta.url));
const TEST_CODE = '123456';
/** Every scope there is: the examples reach every resource. */
const ALL_SCOPES: ApiKeyScope[] = [...apiKeyScopes];
/**
 * Operations being added beside this SDK (issue #35: revocations and contactability) whose methods are still to
 * come; each leaves this list when its resource is written (packages/sdk/src/resources/, ADR 40).
 */
const WITHOUT_SDK_METHOD_YET = new Set<string>([]);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let app: FastifyInstance;
let publicUrl: string;
let owner: Owner;
let formId: number;
let key: string;
let veriform: Veriform;
let receiver: WebhookReceiver;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  const db = await openTestDb();
  cleanups.push(() => db.close());
  ({ app } = await buildTestApp(db, {
    config: { publicUrl },
    env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
  }));
  cleanups.push(() => app.close());
  await app.listen({ port, host: '127.0.0.1' });
  receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());

  owner = await newOwner(app, 'Acme Inc.');
  const form = await owner.c.post('/api/verify-forms', { account: owner.accountId, name: 'Sign-up' });
  formId = form.json<{ id: number }>().id;
  await owner.c.request({ method: 'PATCH', url: `/api/verify-forms/${formId}`, body: { isLive: true } });
  ({ key } = await newApiKey(owner, ALL_SCOPES));
  veriform = new Veriform({ apiKey: key, baseUrl: publicUrl });
});

async function newTestNumber(): Promise<string> {
  const { e164 } = newCellPhone();
  await addTestNumber(owner, e164, TEST_CODE);
  return e164;
}

/** A verification to a new test number, approved through the SDK. */
async function approvedVerification(): Promise<string> {
  const started = await veriform.verifications.start({ formId, to: await newTestNumber() });
  if (!started.id) throw new Error('no verification id');
  expect((await veriform.verifications.check(started.id, { code: TEST_CODE })).status).toBe('approved');
  return started.id;
}

async function newEndpoint(url: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const created = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    url,
    eventTypes: ['verification.approved'],
    enabled: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  const endpoint = created.json<WebhookEndpoint>();
  const secret = await owner.c.get(`/api/webhook-endpoints/${endpoint.id}/secret`);
  return { endpoint, secret: secret.json<{ secret: string }>().secret };
}

async function removeEndpoint(id: number): Promise<void> {
  const removed = await owner.c.request({ method: 'DELETE', url: `/api/webhook-endpoints/${id}` });
  expect(removed.statusCode, removed.body).toBe(204);
}

/** An example as a reader runs it: `node examples/<file>` with the key and the address in its environment. */
async function runExample(file: string, env: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'veriform-sdk-'));
  const { stdout } = await run(process.execPath, [join(EXAMPLES, file)], {
    cwd,
    env: { ...process.env, VERIFORM_API_KEY: key, VERIFORM_BASE_URL: publicUrl, ...env },
  });
  return { stdout, cwd };
}

describe('the README’s examples, run against a listening app', () => {
  it('start-and-check.ts starts a verification to a test number, approves it and reads a 404 as a problem', async () => {
    const { stdout } = await runExample('start-and-check.ts', {
      VERIFORM_TEST_NUMBER: await newTestNumber(),
      VERIFORM_TEST_CODE: TEST_CODE,
    });
    const id = /^started (\S+) \(pending\)$/m.exec(stdout)?.[1] ?? '';
    expect(await veriform.verifications.get(id)).toMatchObject({
      status: 'approved',
      externalRefId: 'lead-42',
      formId,
    });
    expect(stdout).toContain('checked: approved');
    expect(stdout).toMatch(/^404 not_found: .+ \(request [0-9a-f-]{36}\)$/m);
  });

  it('may-i-contact.ts asks for a verdict, records a revocation, sees it refuse, acknowledges it', async () => {
    const phone = await newTestNumber();
    const started = await veriform.verifications.start({ formId, to: phone });
    expect((await veriform.verifications.check(started.id ?? '', { code: TEST_CODE })).status).toBe(
      'approved',
    );
    const { stdout } = await runExample('may-i-contact.ts', { VERIFORM_TEST_NUMBER: phone });
    // Marketing may wait for the window; the consent itself stands, so the only refusals are the quiet hours.
    expect(stdout).toMatch(
      new RegExp(`^\\${phone}: (allowed \\(consent of .+\\)|not now \\((state_)?quiet_hours.*)$`, 'm'),
    );
    expect(stdout).toMatch(/^revocation \S+ open, honour by \d{4}-\d{2}-\d{2}$/m);
    expect(stdout).toContain('after it: revoked');
    expect(stdout).toMatch(/^revocation \S+ acknowledged$/m);
    expect(stdout).toContain(`2 verdicts kept for ${phone}`);
  });

  it('list-verifications.ts prints every approved verification, through the pages', async () => {
    await approvedVerification();
    const approved = await veriform.verifications.list({ status: 'approved', limit: 100 });
    expect(approved.data.length).toBeGreaterThanOrEqual(2);
    const { stdout } = await runExample('list-verifications.ts');
    expect(stdout).toContain(`first page: ${approved.data.length} approved, more: false`);
    for (const verification of approved.data)
      expect(stdout).toContain(`${verification.id} ${verification.to}`);
    expect(stdout).toContain(`${approved.data.length} approved verifications`);
  });

  it('check-certificate.ts saves the JSON and PDF certificates and finds both authentic', async () => {
    const id = await approvedVerification();
    const { stdout, cwd } = await runExample('check-certificate.ts', { VERIFICATION_ID: id });
    expect(stdout).toMatch(/^certificate cert_\S+ signed by vfk_[0-9a-f]{16}$/m);
    expect(stdout).toMatch(/^JSON: authentic, issued \S+ by Acme Inc\.$/m);
    expect(stdout).toContain('PDF: authentic');
    // The files it kept are the server's bytes.
    const saved = await readFile(join(cwd, `certificate-${id}.json`));
    expect(saved.equals(Buffer.from((await veriform.verifications.certificate(id)).bytes))).toBe(true);
    expect((await readFile(join(cwd, `certificate-${id}.pdf`))).subarray(0, 5).toString('latin1')).toBe(
      '%PDF-',
    );
  });

  describe('webhook-receiver.ts', () => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const child of children) child.kill();
    });

    it('accepts the server’s real delivery and refuses a forged one', async () => {
      const port = await freePort();
      const { endpoint, secret } = await newEndpoint(`http://127.0.0.1:${port}/webhooks/veriform`);
      const child = spawn(process.execPath, [join(EXAMPLES, 'webhook-receiver.ts')], {
        env: { ...process.env, VERIFORM_WEBHOOK_SECRET: secret, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      const waitFor = async (pattern: RegExp) => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const match = pattern.exec(output);
          if (match) return match;
          if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${output}`);
          await delay(25);
        }
      };
      await waitFor(new RegExp(`Listening on port ${port}`));

      const id = await approvedVerification();
      const [, eventId] = await waitFor(/^(evt_\S+) verification\.approved$/m);
      const event = await veriform.events.get(eventId ?? '');
      expect(event).toMatchObject({ type: 'verification.approved', data: { id } });

      const forged = await fetch(`http://127.0.0.1:${port}/webhooks/veriform`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl',
        },
        body: JSON.stringify({ type: event.type, timestamp: event.created, data: event.data }),
      });
      expect(forged.status).toBe(400);
      await waitFor(/^refused: bad_signature$/m);
      await removeEndpoint(endpoint.id);
    });
  });
});

describe('lists', () => {
  it('follow nextCursor through startingAfter, one page at a time, to the same objects as one big page', async () => {
    for (const name of ['B', 'C', 'D', 'E'])
      await owner.c.post('/api/verify-forms', { account: owner.accountId, name });
    const pages: string[] = [];
    const counting = new Veriform({
      apiKey: key,
      baseUrl: publicUrl,
      fetch: (request) => {
        pages.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    const all = (await counting.forms.list({ limit: 100 })).data.map((form) => form.id);
    expect(all).toHaveLength(5);
    pages.length = 0;
    const paged: number[] = [];
    for await (const form of counting.forms.list({ limit: 2 })) paged.push(form.id);
    expect(paged).toEqual(all);
    expect(pages).toEqual([
      '?limit=2',
      `?limit=2&startingAfter=${all[1]}`,
      `?limit=2&startingAfter=${all[3]}`,
    ]);

    const first = await counting.verifications.list({ limit: 1 });
    const second = await first.nextPage();
    expect(second?.data[0]?.id).not.toBe(first.data[0]?.id);
    const verifications = await counting.verifications.list({ limit: 1 }).toArray({ limit: 100 });
    expect(verifications.map((v) => v.id)).toEqual(
      (await counting.verifications.list({ limit: 100 })).data.map((v) => v.id),
    );
  });
});

describe('errors', () => {
  const expectProblem = async (call: Promise<unknown>, code: keyof typeof apiProblems) => {
    const error = await call.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof VeriformError)) throw new Error(`expected a VeriformError, got ${String(error)}`);
    const { status, title } = apiProblems[code];
    expect(error).toMatchObject({ status, code, title, type: `${publicUrl}/docs/api#error-${code}` });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.problem).toMatchObject({ status, code, title, detail: error.detail });
    return error;
  };

  it('are VeriformErrors carrying the problem the server answered: 404, 400 with its fields, 403, 401', async () => {
    await expectProblem(veriform.verifications.get('no-such-verification'), 'not_found');
    const invalid = await expectProblem(veriform.forms.list({ limit: 1000 }), 'invalid_request');
    expect(invalid.errors).toEqual([{ pointer: '/limit', detail: expect.any(String) }]);
    const phone = await expectProblem(veriform.verifications.start({ formId, to: '12' }), 'invalid_phone');
    expect(phone.detail).not.toBe('');

    const formsOnly = new Veriform({
      apiKey: (await newApiKey(owner, ['forms:read'])).key,
      baseUrl: publicUrl,
    });
    await expectProblem(formsOnly.verifications.list(), 'insufficient_scope');
    const unknown = new Veriform({ apiKey: 'vf_test_not_a_key', baseUrl: publicUrl });
    await expectProblem(unknown.forms.list(), 'unauthenticated');
  });
});

describe('retries', () => {
  let limited: { app: FastifyInstance; clock: TestClock; db: DatabaseHandle };
  beforeAll(async () => {
    const db = await openTestDb();
    const built = await buildTestApp(db, { config: { apiKeyRateLimit: { requests: 1, windowSeconds: 1 } } });
    limited = { app: built.app, clock: built.clock, db };
    cleanups.push(
      () => db.close(),
      () => built.app.close(),
    );
  });

  it('a 429 is waited out as Retry-After says and sent again; with retries off it is thrown', async () => {
    const limitedOwner = await newOwner(limited.app);
    const { key: limitedKey } = await newApiKey(limitedOwner, ['forms:read']);
    const statuses: number[] = [];
    const inject = injectFetch(limited.app);
    /** The app's answers; its window ends when its clock moves, as a real second passing would move it. */
    const fetch = async (request: Request) => {
      const response = await inject(request);
      statuses.push(response.status);
      if (response.status === 429) limited.clock.advance(1_000);
      return response;
    };
    const client = new Veriform({ apiKey: limitedKey, baseUrl: API_TEST_BASE, fetch });
    await client.forms.list();
    const started = Date.now();
    await client.forms.list();
    expect(statuses).toEqual([200, 429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);

    const once = new Veriform({ apiKey: limitedKey, baseUrl: API_TEST_BASE, fetch, maxRetries: 0 });
    const error = await once.forms.list().catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
  });
});

describe('webhook verification', () => {
  it('accepts a delivery the server sent, and refuses it changed by a byte or replayed after the tolerance', async () => {
    const { endpoint, secret } = await newEndpoint(`${receiver.url}/sdk`);
    const id = await approvedVerification();
    const deadline = Date.now() + 30_000;
    const deliveryOf = () =>
      receiver.received.find(
        (delivery) => delivery.path === '/hooks/sdk' && delivery.body.includes(`"${id}"`),
      );
    while (!deliveryOf() && Date.now() < deadline) await delay(25);
    const delivery = deliveryOf();
    if (!delivery) throw new Error('no delivery');
    await removeEndpoint(endpoint.id);

    const event = verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret });
    expect(event.id).toBe(delivery.headers['webhook-id']);
    const listed = await veriform.events.get(event.id);
    expect(event).toEqual({ id: listed.id, type: listed.type, timestamp: listed.created, data: listed.data });
    expect(event.data).toMatchObject({ id, status: 'approved' });

    const reasonOf = (run: () => unknown) => {
      try {
        run();
        return null;
      } catch (error) {
        if (error instanceof WebhookVerificationError) return error.reason;
        throw error;
      }
    };
    const tampered = delivery.body.replace('"approved"', '"canceled"');
    expect(tampered).not.toBe(delivery.body);
    expect(reasonOf(() => verifyWebhook({ payload: tampered, headers: delivery.headers, secret }))).toBe(
      'bad_signature',
    );
    const sentAt = Number(delivery.headers['webhook-timestamp']) * 1000;
    const replayed = () =>
      verifyWebhook({
        payload: delivery.body,
        headers: delivery.headers,
        secret,
        now: new Date(sentAt + 301_000),
      });
    expect(reasonOf(replayed)).toBe('timestamp_too_old');
  });
});

describe('certificate checking', () => {
  it('finds a real certificate authentic, JSON and PDF, and one changed byte altered', async () => {
    expect(SDK_CERTIFICATE_KEYS_PATH).toBe(CERTIFICATE_KEYS_PATH);
    const id = await approvedVerification();
    const { data, bytes } = await veriform.verifications.certificate(id);
    const pdf = await veriform.verifications.certificatePdf(id);
    const keysUrl = `${publicUrl}${CERTIFICATE_KEYS_PATH}`;
    const keys = await (await fetch(keysUrl)).text();

    expect(await checkCertificate(bytes, { keys })).toMatchObject({
      verdict: 'authentic',
      format: 'json',
      certificateId: data.certificate.id,
      company: 'Acme Inc.',
    });
    expect(await checkCertificate(pdf, { keysUrl })).toMatchObject({ verdict: 'authentic', format: 'pdf' });
    expect(await veriform.certificates.check(pdf)).toMatchObject({ verdict: 'authentic' });

    const changed = (file: Uint8Array, at: number) => {
      const copy = Uint8Array.from(file);
      copy[at] = (copy[at] ?? 0) ^ 0x01;
      return copy;
    };
    const digit = new TextDecoder().decode(bytes).indexOf('"seq":') + 6;
    expect((await checkCertificate(changed(bytes, digit), { keys })).verdict).toBe('altered');
    expect((await checkCertificate(changed(pdf, Math.floor(pdf.length / 2)), { keys })).verdict).toBe(
      'altered',
    );
  });
});

describe('the SDK covers the document', () => {
  it('every operation of GET /api/v1/openapi.json has its method, and every method exists', async () => {
    type Document = { paths: Record<string, Record<string, { operationId?: string }>> };
    const answer = await fetch(`${publicUrl}${OPENAPI_PATH}`);
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as Document;
    const operationIds = Object.values(document.paths)
      .flatMap((item) => Object.values(item).map((operation) => operation.operationId ?? ''))
      .filter((operationId) => !WITHOUT_SDK_METHOD_YET.has(operationId));
    expect(Object.keys(operationMethods).sort()).toEqual(operationIds.sort());
    const client: Record<string, unknown> = { ...veriform };
    for (const [operationId, method] of Object.entries(operationMethods)) {
      const [resource = '', name = ''] = method.split('.');
      const target = client[resource];
      const fn = typeof target === 'object' && target !== null ? Reflect.get(target, name) : undefined;
      expect(typeof fn, `${operationId} → ${method}`).toBe('function');
    }
  });
});
