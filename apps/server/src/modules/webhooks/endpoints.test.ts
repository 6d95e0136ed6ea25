import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import {
  errorTexts,
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookEndpoint,
  webhookEventTypes,
  webhookTexts,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSealer } from '../../lib/sealed.ts';
import type { HostResolver } from '../../lib/webhook-url.ts';
import { buildTestApp, type TestApp, useTestApp } from '../../test-support/app.ts';
import { HOUR, MINUTE } from '../../test-support/clock.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { signingSecrets, webhookSecretContext } from './secrets.ts';

/** Names the tests make up and what they resolve to; any other name does not resolve. */
const names: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'hooks.example.com': ['93.184.215.14'],
  'crm.example.org': ['93.184.215.15', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.20.30.40'],
  'rebind.example.com': ['93.184.215.14', '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
};
const resolveHost: HostResolver = async (hostname) => {
  const addresses = names[hostname];
  if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return addresses;
};

const t = useTestApp({ resolveHost });

const notFound = { detail: errorTexts.notFound, MainCode_: 'not_found' };
const permissionDenied = { detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' };

type Body = {
  account?: unknown;
  url?: unknown;
  description?: unknown;
  eventTypes?: unknown;
  enabled?: unknown;
};

const create = (owner: Pick<Owner, 'c'>, accountId: number, body: Body = {}) =>
  owner.c.post('/api/webhook-endpoints', {
    account: accountId,
    url: 'https://hooks.example.com/veriform',
    description: 'CRM',
    eventTypes: ['verification.approved'],
    enabled: true,
    ...body,
  });

async function createEndpoint(owner: Owner, body: Body = {}): Promise<WebhookEndpoint> {
  const response = await create(owner, owner.accountId, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookEndpoint>();
}

const listOf = async (person: Pick<Owner, 'c'>, accountId: number): Promise<WebhookEndpoint[]> => {
  const response = await person.c.get(`/api/webhook-endpoints?account=${accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: WebhookEndpoint[] }>().results;
};

const remove = (person: Pick<Owner, 'c'>, id: number) =>
  person.c.request({ method: 'DELETE', url: `/api/webhook-endpoints/${id}` });

async function secretOf(owner: Pick<Owner, 'c'>, id: number): Promise<string> {
  const response = await owner.c.get(`/api/webhook-endpoints/${id}/secret`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ secret: string }>().secret;
}

const rowOf = async (id: number) => {
  const [row] = await t.db.db
    .select()
    .from(schema.webhookEndpoints)
    .where(eq(schema.webhookEndpoints.id, id));
  if (!row) throw new Error(`no webhook endpoint ${id}`);
  return row;
};

async function fakeWebBuild(): Promise<string> {
  const root = await mkdtemp(joinPath(tmpdir(), 'vf-web-'));
  await mkdir(joinPath(root, 'dist', 'assets'), { recursive: true });
  await writeFile(
    joinPath(root, 'dist', 'index.html'),
    '<!doctype html><html><head></head><body></body></html>',
  );
  return root;
}

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

describe('/api/webhook-endpoints (owners)', () => {
  it('creates, reads, lists, updates and deletes an endpoint', async () => {
    const owner = await newOwner(t.app);
    const created = await createEndpoint(owner, {
      url: 'https://hooks.example.com:8443/veriform?source=vf',
      description: '  Salesforce lead release ',
      eventTypes: ['verification.approved', 'verification.failed'],
    });
    expect(created).toEqual({
      id: expect.any(Number),
      account: owner.accountId,
      url: 'https://hooks.example.com:8443/veriform?source=vf',
      description: 'Salesforce lead release',
      eventTypes: ['verification.approved', 'verification.failed'],
      enabled: true,
      created: t.clock.now().toISOString(),
      secretPreview: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{4}…$/),
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      createdBy: { id: owner.userId, name: 'Ada Lovelace', email: owner.email },
    });
    const read = await owner.c.get(`/api/webhook-endpoints/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);

    t.clock.advance(MINUTE);
    const all = await createEndpoint(owner, {
      eventTypes: ['*'],
      description: undefined,
      enabled: undefined,
    });
    expect(all).toMatchObject({ eventTypes: ['*'], description: '', enabled: true });
    expect((await listOf(owner, owner.accountId)).map((e) => e.id)).toEqual([all.id, created.id]);

    t.clock.advance(MINUTE);
    const patched = await owner.c.patch(`/api/webhook-endpoints/${created.id}`, {
      url: 'https://crm.example.org/in',
      description: 'Renamed',
      eventTypes: ['form.created', 'membership.removed'],
      enabled: false,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({
      ...created,
      url: 'https://crm.example.org/in',
      description: 'Renamed',
      eventTypes: ['form.created', 'membership.removed'],
      enabled: false,
      disabledAt: t.clock.now().toISOString(),
      disabledReason: 'manual',
    });
    // Disabling again keeps the first time; enabling clears it; a PATCH of one field leaves the rest.
    t.clock.advance(MINUTE);
    const again = await owner.c.patch(`/api/webhook-endpoints/${created.id}`, { enabled: false });
    expect(again.json<WebhookEndpoint>().disabledAt).toBe(patched.json<WebhookEndpoint>().disabledAt);
    const enabled = await owner.c.patch(`/api/webhook-endpoints/${created.id}`, { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledAt: null, description: 'Renamed' });

    const deleted = await remove(owner, created.id);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await remove(owner, created.id)).statusCode).toBe(404);
    expect((await owner.c.get(`/api/webhook-endpoints/${created.id}`)).statusCode).toBe(404);
    expect((await listOf(owner, owner.accountId)).map((e) => e.id)).toEqual([all.id]);
  });

  it('an endpoint created disabled says since when', async () => {
    const owner = await newOwner(t.app);
    const created = await createEndpoint(owner, { enabled: false });
    expect(created).toMatchObject({ enabled: false, disabledAt: t.clock.now().toISOString() });
  });

  it('shows the secret only through /secret, and keeps it sealed in the table', async () => {
    const owner = await newOwner(t.app);
    const created = await createEndpoint(owner);
    const secret = await secretOf(owner, created.id);
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(created.secretPreview).toBe(`${secret.slice(0, 10)}…`);
    expect(await secretOf(owner, created.id)).toBe(secret);

    const randomPart = secret.slice('whsec_'.length);
    for (const response of [
      await owner.c.get(`/api/webhook-endpoints?account=${owner.accountId}`),
      await owner.c.get(`/api/webhook-endpoints/${created.id}`),
      await owner.c.patch(`/api/webhook-endpoints/${created.id}`, { description: 'x' }),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(randomPart);
      expect(response.body).not.toContain(randomPart.slice(4));
    }
    const secretAnswer = await owner.c.get(`/api/webhook-endpoints/${created.id}/secret`);
    expect(secretAnswer.headers['cache-control']).toBe('no-store');

    const row = await rowOf(created.id);
    expect(JSON.stringify(row)).not.toContain(randomPart);
    expect(row.secretSealed).toMatch(/^v1\./);
    const sealer = createSealer(t.config.secretKey);
    expect(sealer.open(row.secretSealed, webhookSecretContext(created.id))).toBe(secret);
    // Sealed under the endpoint's id: it does not open as another endpoint's secret.
    expect(() => sealer.open(row.secretSealed, webhookSecretContext(created.id + 1))).toThrow();
    // Each endpoint has its own.
    const other = await createEndpoint(owner);
    expect(await secretOf(owner, other.id)).not.toBe(secret);
  });

  it('rotation: a new secret, the previous one kept with its expiry for the overlap, then dropped', async () => {
    const owner = await newOwner(t.app);
    const created = await createEndpoint(owner);
    const first = await secretOf(owner, created.id);

    const rotated = await owner.c.post(`/api/webhook-endpoints/${created.id}/rotate-secret`, {
      overlapHours: 24,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const second = await secretOf(owner, created.id);
    expect(second).toMatch(SECRET);
    expect(second).not.toBe(first);
    expect(rotated.json()).toEqual({ ...created, secretPreview: `${second.slice(0, 10)}…` });

    const sealer = createSealer(t.config.secretKey);
    const row = await rowOf(created.id);
    expect(row.previousSecretExpiresAt?.toISOString()).toBe(
      new Date(t.clock.now().getTime() + 24 * HOUR).toISOString(),
    );
    expect(
      row.previousSecretSealed && sealer.open(row.previousSecretSealed, webhookSecretContext(created.id)),
    ).toBe(first);
    // What the sender signs with: both during the overlap, the new one alone after it.
    expect(signingSecrets(sealer, row, t.clock.now())).toEqual([second, first]);
    expect(signingSecrets(sealer, row, new Date(t.clock.now().getTime() + 24 * HOUR))).toEqual([second]);

    // A rotation with no overlap stops the previous secret at once.
    const third = await owner.c.post(`/api/webhook-endpoints/${created.id}/rotate-secret`, {
      overlapHours: 0,
    });
    expect(third.statusCode).toBe(200);
    const after = await rowOf(created.id);
    expect(after.previousSecretSealed).toBeNull();
    expect(after.previousSecretExpiresAt).toBeNull();
    expect(signingSecrets(sealer, after, t.clock.now())).toEqual([await secretOf(owner, created.id)]);

    for (const overlapHours of [-1, 169, 1.5, '24', null]) {
      const refused = await owner.c.post(`/api/webhook-endpoints/${created.id}/rotate-secret`, {
        overlapHours,
      });
      expect(refused.statusCode, String(overlapHours)).toBe(400);
      expect(refused.json().overlapHours?.length, String(overlapHours)).toBeGreaterThan(0);
    }
    const max = await owner.c.post(`/api/webhook-endpoints/${created.id}/rotate-secret`, {
      overlapHours: 168,
    });
    expect(max.statusCode).toBe(200);
  });

  it('a member may not list, create, read, change, delete, see the secret of or rotate endpoints (403)', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const endpoint = await createEndpoint(owner, { enabled: false });
    const url = `/api/webhook-endpoints/${endpoint.id}`;
    for (const response of [
      await member.c.get(`/api/webhook-endpoints?account=${owner.accountId}`),
      await create(member, owner.accountId),
      await member.c.get(url),
      await member.c.patch(url, { description: 'Taken over' }),
      await remove(member, endpoint.id),
      await member.c.get(`${url}/secret`),
      await member.c.post(`${url}/rotate-secret`, { overlapHours: 1 }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(permissionDenied);
    }
    expect(await listOf(owner, owner.accountId)).toEqual([endpoint]);
  });

  it('another account’s endpoint or account: 404, like an unknown one', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app, 'Stranger Ltd.');
    const endpoint = await createEndpoint(owner);
    const secret = await secretOf(owner, endpoint.id);
    const url = `/api/webhook-endpoints/${endpoint.id}`;
    for (const response of [
      await stranger.c.get(`/api/webhook-endpoints?account=${owner.accountId}`),
      await create(stranger, owner.accountId),
      await stranger.c.get(url),
      await stranger.c.patch(url, { url: 'https://crm.example.org/stolen' }),
      await remove(stranger, endpoint.id),
      await stranger.c.get(`${url}/secret`),
      await stranger.c.post(`${url}/rotate-secret`, { overlapHours: 0 }),
      await stranger.c.get('/api/webhook-endpoints/2147483647'),
      await stranger.c.get('/api/webhook-endpoints/0'),
      await stranger.c.get('/api/webhook-endpoints/abc'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect(await listOf(stranger, stranger.accountId)).toEqual([]);
    expect(await listOf(owner, owner.accountId)).toEqual([endpoint]);
    expect(await secretOf(owner, endpoint.id)).toBe(secret);
  });

  it('wrong types, missing fields, bad URLs and event types: 400 on the field', async () => {
    const owner = await newOwner(t.app);
    const cases: [Body, string][] = [
      [{ url: undefined }, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'hooks.example.com/in' }, 'url'],
      [{ url: 'ftp://hooks.example.com/in' }, 'url'],
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: `https://hooks.example.com/${'x'.repeat(2048)}` }, 'url'],
      [{ url: 42 }, 'url'],
      [{ description: 'two\nlines' }, 'description'],
      [{ description: 'x'.repeat(501) }, 'description'],
      [{ eventTypes: [] }, 'eventTypes'],
      [{ eventTypes: 'verification.approved' }, 'eventTypes'],
      [{ eventTypes: undefined }, 'eventTypes'],
      [{ eventTypes: ['verification.approved', 'verification.approved'] }, 'eventTypes'],
      [{ eventTypes: ['*', 'form.created'] }, 'eventTypes'],
      [{ eventTypes: ['verification.started'] }, 'eventTypes.0'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ account: 'abc' }, 'account'],
    ];
    for (const [body, field] of cases) {
      const response = await create(owner, owner.accountId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const answer = response.json();
      expect(answer.MainCode_, JSON.stringify(body)).toBe('validation_error');
      expect(answer[field]?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(
      (await create(owner, owner.accountId, { eventTypes: ['*', 'form.created'] })).json(),
    ).toMatchObject({
      eventTypes: [webhookTexts.allOrSome],
    });
    expect((await create(owner, owner.accountId, { url: 'ftp://hooks.example.com/' })).json()).toMatchObject({
      url: [webhookTexts.badUrl],
    });
    const endpoint = await createEndpoint(owner, { eventTypes: [...webhookEventTypes] });
    expect(endpoint.eventTypes).toEqual([...webhookEventTypes]);
    const patch = (body: Record<string, unknown>) =>
      owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, body);
    for (const [body, field] of [
      [{ url: 'not a url' }, 'url'],
      [{ eventTypes: [] }, 'eventTypes'],
      [{ secretSealed: 'v1.x' }, 'nonFieldErrors'],
      [{ account: 999 }, 'nonFieldErrors'],
    ] as const) {
      const response = await patch(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(body)).toContain(field);
    }
    expect(await listOf(owner, owner.accountId)).toEqual([endpoint]);
  });

  it('refuses private, loopback, link-local/metadata and mapped-IPv6 URLs, and names resolving to them', async () => {
    const owner = await newOwner(t.app);
    const existing = await createEndpoint(owner);
    const privateUrls = [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://10.0.0.5/hook',
      'http://192.168.1.10/hook',
      'http://100.100.100.200/latest/meta-data/',
      'http://0.0.0.0:3000/',
      'http://2130706433/',
      'https://internal.example.com/hook',
      'https://rebind.example.com/hook',
      'https://metadata.example.com/hook',
      'https://mapped.example.com/hook',
    ];
    for (const url of privateUrls) {
      for (const response of [
        await create(owner, owner.accountId, { url }),
        await owner.c.patch(`/api/webhook-endpoints/${existing.id}`, { url }),
      ]) {
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toEqual({
          url: [webhookTexts.privateAddress],
          MainCode_: 'validation_error',
        });
      }
    }
    const unknown = await create(owner, owner.accountId, { url: 'https://nowhere.example.net/' });
    expect(unknown.json()).toEqual({ url: [webhookTexts.unresolvable], MainCode_: 'validation_error' });
    const credentials = await create(owner, owner.accountId, { url: 'https://me:pw@hooks.example.com/' });
    expect(credentials.json()).toEqual({
      url: [webhookTexts.credentialsInUrl],
      MainCode_: 'validation_error',
    });
    // A public address in any spelling is fine, an odd port too.
    for (const url of ['https://93.184.215.14:8443/in', 'http://crm.example.org:81/in']) {
      expect((await create(owner, owner.accountId, { url })).statusCode, url).toBe(201);
    }
    expect(await rowOf(existing.id)).toMatchObject({ url: existing.url });
  });

  it(`at most ${MAX_WEBHOOK_ENDPOINTS} endpoints, even when many are created at once`, async () => {
    const owner = await newOwner(t.app);
    const start = MAX_WEBHOOK_ENDPOINTS - 4;
    for (let i = 0; i < start; i++)
      await createEndpoint(owner, { description: `Seeded ${i}`, enabled: false });
    const burst = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        create(owner, owner.accountId, { description: `Burst ${i}`, enabled: false }),
      ),
    );
    expect(burst.filter((r) => r.statusCode >= 500).map((r) => r.body)).toEqual([]);
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(4);
    const refused = burst.filter((r) => r.statusCode === 400);
    expect(refused).toHaveLength(12);
    expect(refused[0]?.json()).toEqual({
      nonFieldErrors: [webhookTexts.tooMany],
      MainCode_: 'validation_error',
    });
    const list = await listOf(owner, owner.accountId);
    expect(list).toHaveLength(MAX_WEBHOOK_ENDPOINTS);

    const oldest = list.at(-1);
    if (!oldest) throw new Error('no endpoint listed');
    expect((await remove(owner, oldest.id)).statusCode).toBe(204);
    const after = await Promise.all(
      Array.from({ length: 5 }, () => create(owner, owner.accountId, { enabled: false })),
    );
    expect(after.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400]);
    // Another account has its own allowance.
    const other = await newOwner(t.app, 'Other Ltd.');
    expect((await create(other, other.accountId, { enabled: false })).statusCode).toBe(201);
  });
});

describe('URL rules by configuration', () => {
  // Further apps on this file's database: one configured as in production, one as local development.
  let production: TestApp;
  let local: TestApp;
  beforeAll(async () => {
    production = await buildTestApp(t.db, {
      env: { NODE_ENV: 'production' },
      // Production needs a build of the web app; a throwaway one will do.
      config: { webRoot: await fakeWebBuild() },
      resolveHost,
    });
    local = await buildTestApp(t.db, { env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }, resolveHost });
  });
  afterAll(async () => {
    await production.app.close();
    await local.app.close();
  });

  it('in production only https URLs are saved', async () => {
    const owner = await newOwner(production.app);
    const http = await create(owner, owner.accountId, { url: 'http://hooks.example.com/in' });
    expect(http.statusCode).toBe(400);
    expect(http.json()).toEqual({ url: [webhookTexts.httpsOnly], MainCode_: 'validation_error' });
    expect((await create(owner, owner.accountId, { url: 'https://hooks.example.com/in' })).statusCode).toBe(
      201,
    );
  });

  it('with WEBHOOKS_ALLOW_PRIVATE_URLS (tests, development) loopback is saved, nothing else private', async () => {
    const owner = await newOwner(local.app);
    for (const url of ['http://127.0.0.1:4010/hook', 'http://localhost:4010/hook']) {
      const response = await create(owner, owner.accountId, { url, enabled: false });
      expect(response.statusCode, url).toBe(201);
    }
    for (const url of [
      'http://internal.example.com/',
      'http://metadata.example.com/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
    ]) {
      const response = await create(owner, owner.accountId, { url, enabled: false });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        url: [webhookTexts.privateAddress],
        MainCode_: 'validation_error',
      });
    }
  });
});

describe('the audit log of webhook endpoints', () => {
  it('records creation, edits, each reading of the secret, rotation and deletion; refusals record nothing', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const endpoint = await createEndpoint(owner);
    const url = `/api/webhook-endpoints/${endpoint.id}`;
    expect((await owner.c.patch(url, { description: 'CRM sync', enabled: false })).statusCode).toBe(200);
    // Saving the same values again changes nothing and records nothing.
    expect((await owner.c.patch(url, { description: 'CRM sync' })).statusCode).toBe(200);
    expect((await owner.c.get(`${url}/secret`)).statusCode).toBe(200);
    expect((await owner.c.post(`${url}/rotate-secret`, { overlapHours: 24 })).statusCode).toBe(200);
    expect((await member.c.get(`${url}/secret`)).statusCode).toBe(403);
    expect((await member.c.request({ method: 'DELETE', url })).statusCode).toBe(403);
    expect((await owner.c.request({ method: 'DELETE', url })).statusCode).toBe(204);

    const response = await owner.c.get(
      `/api/audit-events?account=${owner.accountId}&targetType=webhook_endpoint`,
    );
    const events = response.json<{
      results: { action: string; actor: unknown; targets: unknown; changes: unknown }[];
    }>().results;
    const target = [
      { type: 'webhook_endpoint', id: String(endpoint.id), name: 'https://hooks.example.com/veriform' },
    ];
    const actor = { type: 'user', id: String(owner.userId), name: owner.email };
    expect(events.reverse()).toEqual([
      {
        ...eventShape,
        action: 'webhook_endpoint.created',
        actor,
        targets: target,
        changes: {
          url: [null, 'https://hooks.example.com/veriform'],
          description: [null, 'CRM'],
          eventTypes: [null, ['verification.approved']],
          enabled: [null, true],
        },
      },
      {
        ...eventShape,
        action: 'webhook_endpoint.updated',
        actor,
        targets: target,
        changes: { description: ['CRM', 'CRM sync'], enabled: [true, false] },
      },
      { ...eventShape, action: 'webhook_endpoint.secret_viewed', actor, targets: target, changes: null },
      {
        ...eventShape,
        action: 'webhook_endpoint.secret_rotated',
        actor,
        targets: target,
        changes: { overlapHours: [null, 24] },
      },
      { ...eventShape, action: 'webhook_endpoint.deleted', actor, targets: target, changes: null },
    ]);
    // Never the secret itself.
    expect(response.body).not.toContain('whsec_');
  });
});

const eventShape = {
  id: expect.any(Number),
  sequence: expect.any(Number),
  occurredAt: expect.any(String),
  ip: expect.any(String),
  // light-my-request's own agent: the test client sends none of its own.
  userAgent: 'lightMyRequest',
  requestId: expect.any(String),
  prevHash: expect.any(String),
  hash: expect.any(String),
  // The screen's list names the acting person as they are now (the test client signs up as Ada Lovelace).
  actorUserName: 'Ada Lovelace',
};
