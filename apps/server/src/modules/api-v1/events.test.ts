import type { WebhookDeliveryStatus, WebhookEvent } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import type { paths } from '@veriform/sdk';
import { eq, inArray, lt } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pruneWebhookEvents } from '../../jobs/definitions/prune-webhook-events.ts';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';
import { jobsOf } from '../../test-support/jobs.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import type { WebhookEventInput } from '../webhooks/events.ts';
import { pruneWebhookEvents as prune } from './events.ts';

const t = useTestApp();

const { webhookEvents, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } = schema;

/** Emits in one transaction, as a change does; events of one transaction share its instant. */
async function emit(owner: Owner, ...events: WebhookEventInput[]): Promise<string[]> {
  return transaction(t.app.services.db, async (tx) => {
    const ids: string[] = [];
    for (const event of events) {
      const { eventId } = await t.app.services.webhookEvents.emit(tx, owner.accountId, event);
      if (eventId) ids.push(eventId);
    }
    return ids;
  });
}

const approved = (id: string): WebhookEventInput => ({
  type: 'verification.approved',
  data: { id, status: 'approved', to: '+12015550123' },
});
const formCreated = (id: number): WebhookEventInput => ({
  type: 'form.created',
  data: { id, name: 'Sign-up' },
});

/** The account's events, newest first, as stored. */
async function eventsOf(owner: Owner): Promise<string[]> {
  const rows = await t.db.db
    .select({ id: webhookEvents.id, createdAt: webhookEvents.createdAt })
    .from(webhookEvents)
    .where(eq(webhookEvents.accountId, owner.accountId));
  return rows
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((row) => row.id);
}

/** `existing`: the events that making the account and its key emitted (if those emit any), before a test's own. */
async function setUp() {
  const owner = await newOwner(t.app);
  const { key } = await newApiKey(owner, ['events:read'], 'live');
  return { owner, api: apiV1(t.app, key), existing: await eventsOf(owner) };
}

type Api = Awaited<ReturnType<typeof setUp>>['api'];
type Query = NonNullable<paths['/api/v1/events']['get']['parameters']['query']>;

/** Every page from the first, following `nextCursor`; `between` runs after each page. */
async function allPages(api: Api, query: Query, between?: () => Promise<void>) {
  const pages: WebhookEvent[][] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const { data, response } = await api.GET('/api/v1/events', {
      params: { query: { ...query, ...(startingAfter ? { startingAfter } : {}) } },
    });
    expect(response.status).toBe(200);
    if (!data) throw new Error('no page');
    pages.push(data.data);
    if (!data.hasMore) {
      expect(data.nextCursor).toBeNull();
      return pages;
    }
    startingAfter = data.nextCursor ?? undefined;
    await between?.();
  }
}

const problemOf = (response: Response, body: unknown) => ({ status: response.status, body });

describe('GET /api/v1/events', () => {
  it('pages newest first, every event once, while new ones arrive; each as its deliveries send it', async () => {
    const { owner, api, existing } = await setUp();
    const emitted: string[] = [];
    // Three events of one transaction share their instant: the id orders them.
    emitted.push(...(await emit(owner, approved('a1'), approved('a2'), formCreated(1))));
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      emitted.push(...(await emit(owner, approved(`b${i}`))));
    }
    const newestFirst = await eventsOf(owner);
    expect(newestFirst).toHaveLength(existing.length + emitted.length);

    const arriving: string[] = [];
    const pages = await allPages(api, { limit: 3 }, async () => {
      t.clock.advance(1000);
      arriving.push(...(await emit(owner, approved('late'))));
    });
    expect(pages.slice(0, -1).every((page) => page.length === 3)).toBe(true);
    // Events emitted while paging land before the first page, never inside the walk.
    expect(pages.flat().map((event) => event.id)).toEqual(newestFirst);
    expect(arriving).toHaveLength(2);

    const first = pages.flat().find((event) => event.id === emitted[0]);
    expect(first).toEqual({
      id: expect.stringMatching(/^evt_[A-Za-z0-9_-]{22}$/),
      type: 'verification.approved',
      created: expect.any(String),
      // Its data says no `livemode: false`: a live event (issue #33).
      livemode: true,
      data: { id: 'a1', status: 'approved', to: '+12015550123' },
    });
    const one = await api.GET('/api/v1/events/{id}', { params: { path: { id: emitted[0] ?? '' } } });
    expect(one.data).toEqual(first);
  });

  it('filters by type, by failed deliveries and by creation time', async () => {
    const { owner, api, existing } = await setUp();
    const [endpoint] = await t.db.db
      .insert(webhookEndpoints)
      .values({
        accountId: owner.accountId,
        url: 'https://example.com/hooks',
        eventTypes: ['*'],
        enabled: false,
        secretSealed: 'not used: nothing is sent',
      })
      .returning({ id: webhookEndpoints.id });
    const endpointId = endpoint?.id ?? 0;
    const start = t.clock.now();
    const ids = await emit(
      owner,
      approved('pending'),
      approved('retrying'),
      approved('failed'),
      approved('succeeded'),
      formCreated(7),
      { type: 'webhook.test', data: { message: 'test' } },
    );
    const [pending, retrying, failed, succeeded, form, test] = ids;
    const deliver = async (eventId: string | undefined, status: WebhookDeliveryStatus) =>
      t.db.db.insert(webhookDeliveries).values({
        accountId: owner.accountId,
        eventId: eventId ?? '',
        endpointId,
        status,
        eventCreatedAt: start,
      });
    await deliver(pending, 'pending');
    await deliver(retrying, 'retrying');
    await deliver(failed, 'failed');
    await deliver(succeeded, 'succeeded');
    t.clock.advance(HOUR);
    const [later] = await emit(owner, formCreated(8));

    const list = async (query: Query) => (await allPages(api, query)).flat().map((event) => event.id);
    expect(await list({ type: 'form.created' })).toEqual([later, form]);
    expect(await list({ type: 'webhook.test' })).toEqual([test]);
    expect(new Set(await list({ deliveryFailed: 'true' }))).toEqual(new Set([retrying, failed]));
    expect(new Set(await list({ deliveryFailed: 'false' }))).toEqual(
      new Set([...existing, pending, succeeded, form, test, later]),
    );
    expect(await list({ type: 'verification.approved', deliveryFailed: 'true', limit: 1 })).toHaveLength(2);
    expect(await list({ 'created[gte]': new Date(start.getTime() + 1000).toISOString() })).toEqual([later]);
    expect(new Set(await list({ 'created[lt]': new Date(start.getTime() + 1000).toISOString() }))).toEqual(
      new Set([...existing, ...ids]),
    );
  });

  it(`lists and answers only the last 30 days`, async () => {
    const { owner, api } = await setUp();
    const [old] = await emit(owner, approved('old'));
    t.clock.advance(29 * DAY);
    const [recent] = await emit(owner, approved('recent'));
    t.clock.advance(DAY + 1000);
    const listed = (await allPages(api, {})).flat().map((event) => event.id);
    expect(listed).toEqual([recent]);
    // Asking for older times does not reach past the 30 days either.
    const since = new Date(t.clock.now().getTime() - 60 * DAY).toISOString();
    expect((await allPages(api, { 'created[gte]': since })).flat().map((event) => event.id)).toEqual([
      recent,
    ]);
    const gone = await api.GET('/api/v1/events/{id}', { params: { path: { id: old ?? '' } } });
    expect(problemOf(gone.response, gone.error)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const kept = await api.GET('/api/v1/events/{id}', { params: { path: { id: recent ?? '' } } });
    expect(kept.response.status).toBe(200);
  });

  it('shows an account its own events only: another account’s event is a 404, its id no cursor', async () => {
    const mine = await setUp();
    const theirs = await setUp();
    const [own] = await emit(mine.owner, approved('mine'));
    const [other] = await emit(theirs.owner, approved('theirs'));
    expect((await allPages(mine.api, {})).flat().map((event) => event.id)).toEqual([own, ...mine.existing]);
    const get = await mine.api.GET('/api/v1/events/{id}', { params: { path: { id: other ?? '' } } });
    expect(problemOf(get.response, get.error)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const cursor = await mine.api.GET('/api/v1/events', { params: { query: { startingAfter: other } } });
    expect(problemOf(cursor.response, cursor.error)).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', errors: [{ pointer: '/startingAfter' }] },
    });
  });

  it('answers problems: a key without events:read 403, a bad query 400, a malformed id 404', async () => {
    const { owner, api } = await setUp();
    const [id] = await emit(owner, approved('x'));
    const { key: auditOnly } = await newApiKey(owner, ['audit:read', 'verifications:read']);
    const refused = await apiV1(t.app, auditOnly).GET('/api/v1/events/{id}', {
      params: { path: { id: id ?? '' } },
    });
    expect(problemOf(refused.response, refused.error)).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope' },
    });
    const listRefused = await apiV1(t.app, auditOnly).GET('/api/v1/events');
    expect(listRefused.response.status).toBe(403);

    const bad = async (query: Record<string, string>) => {
      const response = await t.app.inject({
        url: `/api/v1/events?${new URLSearchParams(query)}`,
        headers: { authorization: `Bearer ${(await newApiKey(owner, ['events:read'], 'live')).key}` },
      });
      return { status: response.statusCode, type: response.headers['content-type'], body: response.json() };
    };
    for (const [query, pointer] of [
      [{ type: 'verification.unknown' }, '/type'],
      [{ deliveryFailed: 'yes' }, '/deliveryFailed'],
      [{ limit: '0' }, '/limit'],
      [{ 'created[gte]': 'yesterday' }, '/created[gte]'],
      [{ startingAfter: 'evt_nope' }, '/startingAfter'],
    ] as const) {
      expect(await bad(query), JSON.stringify(query)).toMatchObject({
        status: 400,
        type: expect.stringMatching(/^application\/problem\+json/),
        body: { code: 'invalid_request', errors: [{ pointer }] },
      });
    }
    const malformed = await api.GET('/api/v1/events/{id}', { params: { path: { id: 'evt_short' } } });
    expect(problemOf(malformed.response, malformed.error)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
  });
});

describe('the prune-webhook-events job', () => {
  async function run(): Promise<unknown> {
    const id = await t.app.services.jobs.enqueue(pruneWebhookEvents, {});
    const deadline = Date.now() + 10_000;
    for (;;) {
      const job = (await jobsOf(t.app, pruneWebhookEvents.name)).find((row) => row.id === id);
      if (job?.state === 'completed') return job.output;
      if (Date.now() > deadline) throw new Error(`not completed: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** An owner with `count` events emitted now, each with a delivery and an attempt. */
  async function withDeliveredEvents(owner: Owner, count: number, endpointId: number): Promise<string[]> {
    const ids = await emit(owner, ...Array.from({ length: count }, (_, i) => approved(`p${i}`)));
    const deliveries = await t.db.db
      .insert(webhookDeliveries)
      .values(
        ids.map((eventId) => ({
          accountId: owner.accountId,
          eventId,
          endpointId,
          status: 'failed' as const,
          eventCreatedAt: t.clock.now(),
        })),
      )
      .returning({ id: webhookDeliveries.id });
    await t.db.db.insert(webhookDeliveryAttempts).values(
      deliveries.map(({ id }) => ({
        deliveryId: id,
        attemptedAt: t.clock.now(),
        latencyMs: 5,
        statusCode: 500,
      })),
    );
    return ids;
  }

  async function newEndpoint(owner: Owner): Promise<number> {
    const [endpoint] = await t.db.db
      .insert(webhookEndpoints)
      .values({
        accountId: owner.accountId,
        url: 'https://example.com/hooks',
        eventTypes: ['*'],
        enabled: false,
        secretSealed: 'not used: nothing is sent',
      })
      .returning({ id: webhookEndpoints.id });
    return endpoint?.id ?? 0;
  }

  /** Every account's events past the 30 days now: other tests' events age too as the clock moves. */
  const due = async () =>
    (
      await t.db.db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(lt(webhookEvents.createdAt, new Date(t.clock.now().getTime() - 30 * DAY)))
    ).length;

  const left = async (ids: string[]) =>
    (
      await t.db.db.select({ id: webhookEvents.id }).from(webhookEvents).where(inArray(webhookEvents.id, ids))
    ).map((row) => row.id);

  it('deletes events older than 30 days with their deliveries and attempts, and keeps the rest', async () => {
    const { owner } = await setUp();
    const endpointId = await newEndpoint(owner);
    const old = await withDeliveredEvents(owner, 3, endpointId);
    t.clock.advance(30 * DAY - HOUR);
    const recent = await withDeliveredEvents(owner, 2, endpointId);
    t.clock.advance(HOUR + 1000);

    const expected = await due();
    expect(expected).toBeGreaterThanOrEqual(old.length);
    expect(await run()).toEqual({ outcome: 'pruned', deleted: expected });
    expect(await due()).toBe(0);
    expect(await left([...old, ...recent])).toEqual(expect.arrayContaining(recent));
    expect(await left(old)).toEqual([]);
    const deliveries = await t.db.db
      .select({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries.map((delivery) => delivery.eventId).sort()).toEqual([...recent].sort());
    const attempts = await t.db.db
      .select({ id: webhookDeliveryAttempts.id })
      .from(webhookDeliveryAttempts)
      .where(
        inArray(
          webhookDeliveryAttempts.deliveryId,
          deliveries.map((delivery) => delivery.id),
        ),
      );
    expect(attempts).toHaveLength(2);
    expect(pruneWebhookEvents.schedule?.cron).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
  });

  it('two runs at once, in small batches, delete each old event once and every one of them', async () => {
    const { owner } = await setUp();
    const endpointId = await newEndpoint(owner);
    const old = await withDeliveredEvents(owner, 7, endpointId);
    t.clock.advance(31 * DAY);
    const recent = await withDeliveredEvents(owner, 1, endpointId);
    const expected = await due();
    expect(expected).toBeGreaterThanOrEqual(old.length);
    const { db, clock } = t.app.services;
    const deleted = await Promise.all([prune(db, clock, 2), prune(db, clock, 2), prune(db, clock, 3)]);
    expect(deleted.reduce((sum, n) => sum + n, 0)).toBe(expected);
    expect(await due()).toBe(0);
    expect(await left([...old, ...recent])).toEqual(recent);
  });
});
