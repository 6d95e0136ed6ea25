import type { TeamMembership, WebhookEndpoint, WebhookEventType } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobWork, handlerOf } from '../../job-handlers.ts';
import { emitExpiredVerifications } from '../../jobs/definitions/emit-expired-verifications.ts';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { HOUR, MINUTE } from '../../test-support/clock.ts';
import { createPublicForm, newCellPhone, newConsumer } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test-support/webhook-receiver.ts';
import { EXPIRED_SWEEP } from '../verifications/expired-events.ts';

/**
 * The events of issue #17 item 2, as a receiver gets them: every change emits its event in its own transaction, so
 * each arrives once, signed, with `data` as API v1 shows the object; an endpoint gets only the types it wants, a
 * disabled one none; a change that rolls back leaves no event; the expiry sweep stores each expiry once.
 */

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

let pathCounter = 0;

async function createEndpoint(
  owner: Owner,
  eventTypes: string[] = ['*'],
  enabled = true,
): Promise<WebhookEndpoint & { path: string; secret: string }> {
  pathCounter += 1;
  const path = `/hooks/${pathCounter}`;
  const response = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    url: `${receiver.url}/${pathCounter}`,
    eventTypes,
    enabled,
  });
  expect(response.statusCode, response.body).toBe(201);
  const endpoint = response.json<WebhookEndpoint>();
  const secret = await owner.c.get(`/api/webhook-endpoints/${endpoint.id}/secret`);
  expect(secret.statusCode, secret.body).toBe(200);
  return { ...endpoint, path, secret: secret.json<{ secret: string }>().secret };
}

async function addTestNumber(owner: Owner, code = '123456'): Promise<string> {
  const phone = newCellPhone();
  const response = await owner.c.post('/api/test-phone-numbers', {
    account: owner.accountId,
    cellPhone: phone.e164,
    code,
  });
  expect(response.statusCode, response.body).toBe(201);
  return phone.e164;
}

type StoredEvent = typeof schema.webhookEvents.$inferSelect;

const eventsOf = (accountId: number, type?: WebhookEventType): Promise<StoredEvent[]> =>
  t.db.db
    .select()
    .from(schema.webhookEvents)
    .where(
      and(
        eq(schema.webhookEvents.accountId, accountId),
        type === undefined ? undefined : eq(schema.webhookEvents.type, type),
      ),
    );

/** The id of the object an event is about. */
const idIn = (event: StoredEvent): unknown =>
  typeof event.data === 'object' && event.data !== null && 'id' in event.data ? event.data.id : undefined;

/** The one event of `type` whose data is the object with this id. */
async function eventFor(accountId: number, type: WebhookEventType, id: unknown): Promise<StoredEvent> {
  const found = (await eventsOf(accountId, type)).filter((event) => idIn(event) === id);
  expect(found, `${type} of ${String(id)}`).toHaveLength(1);
  const [event] = found;
  if (!event) throw new Error('no event');
  return event;
}

const deliveriesTo = (endpointId: number) =>
  t.db.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, endpointId));

/** What reached `path` once every delivery stored for the endpoint has succeeded. */
async function receivedBy(endpoint: { id: number; path: string }): Promise<ReceivedDelivery[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const deliveries = await deliveriesTo(endpoint.id);
    if (deliveries.every((delivery) => delivery.status === 'succeeded')) {
      return receiver.received.filter((delivery) => delivery.path === endpoint.path);
    }
    if (Date.now() > deadline) throw new Error(`deliveries to ${endpoint.path} still open`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('every change emits its event', () => {
  it('each type arrives once at an endpoint for "*", signed, with data as API v1 shows the object', async () => {
    const owner = await newOwner(t.app, 'Events Co');
    const endpoint = await createEndpoint(owner);
    const { key } = await newApiKey(owner, [
      'verifications:write',
      'verifications:read',
      'forms:read',
      'events:read',
    ]);
    const api = apiV1(t.app, key);
    const liveApi = apiV1(t.app, (await newApiKey(owner, ['events:read'], 'live')).key);
    const formAsApiShows = async (id: number) => {
      const { data } = await api.GET('/api/v1/forms', { params: { query: { limit: 100 } } });
      return data?.data.find((form) => form.id === id);
    };
    const verificationAsApiShows = async (id: string) =>
      (await api.GET('/api/v1/verifications/{id}', { params: { path: { id } } })).data;

    // Forms: created, edited, taken live (an edit and the live switch in one request make both events).
    const created = await owner.c.post('/api/verify-forms', { account: owner.accountId, name: 'Leads' });
    expect(created.statusCode, created.body).toBe(201);
    const formId = created.json<{ id: number }>().id;
    expect((await eventFor(owner.accountId, 'form.created', formId)).data).toEqual(
      await formAsApiShows(formId),
    );
    const renamed = await owner.c.patch(`/api/verify-forms/${formId}`, { name: 'Hot leads' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await eventFor(owner.accountId, 'form.updated', formId)).data).toEqual(
      await formAsApiShows(formId),
    );
    const live = await owner.c.patch(`/api/verify-forms/${formId}`, { isLive: true });
    expect(live.statusCode, live.body).toBe(200);
    expect((await eventFor(owner.accountId, 'form.live_changed', formId)).data).toEqual(
      await formAsApiShows(formId),
    );
    expect(await eventsOf(owner.accountId, 'form.updated')).toHaveLength(1);

    // Verifications to test numbers (nothing is sent, so `sentAt` stays null and the data stays what GET shows).
    const start = async () => {
      const started = await api.POST('/api/v1/verifications', {
        body: { formId, to: await addTestNumber(owner), externalRefId: 'lead-7' },
      });
      expect(started.response.status).toBe(201);
      const id = started.data?.id;
      if (!id) throw new Error('no verification');
      return id;
    };
    const check = (id: string, code: string) =>
      api.POST('/api/v1/verifications/{id}/check', { params: { path: { id } }, body: { code } });

    const approvedId = await start();
    const sent = await eventFor(owner.accountId, 'verification.code_sent', approvedId);
    expect(sent.data).toEqual(await verificationAsApiShows(approvedId));
    expect(sent.data).toMatchObject({ status: 'pending', to: expect.stringMatching(/^\+1415\d{7}$/) });
    expect((await check(approvedId, '123456')).data?.status).toBe('approved');
    const approved = await eventFor(owner.accountId, 'verification.approved', approvedId);
    expect(approved.data).toEqual(await verificationAsApiShows(approvedId));
    expect(approved.data).toMatchObject({ status: 'approved', evidence: { ip: expect.any(String) } });

    const lockedId = await start();
    for (let i = 0; i < 4; i++) expect((await check(lockedId, '000000')).data?.status).toBe('incorrect');
    expect(await eventsOf(owner.accountId, 'verification.failed')).toEqual([]);
    expect((await check(lockedId, '000000')).data?.status).toBe('max_attempts');
    const failed = await eventFor(owner.accountId, 'verification.failed', lockedId);
    expect(failed.data).toEqual(await verificationAsApiShows(lockedId));
    expect(failed.data).toMatchObject({ status: 'max_attempts', attemptsLeft: 0 });

    const canceledId = await start();
    const canceledResponse = await api.POST('/api/v1/verifications/{id}/cancel', {
      params: { path: { id: canceledId } },
    });
    expect(canceledResponse.response.status).toBe(200);
    const canceled = await eventFor(owner.accountId, 'verification.canceled', canceledId);
    expect(canceled.data).toEqual(await verificationAsApiShows(canceledId));
    expect(canceled.data).toMatchObject({ status: 'canceled' });

    // Its time runs out: nothing changes, the sweep finds it.
    const expiredId = await start();
    await expireNow(expiredId);
    await sweep();
    const expired = await eventFor(owner.accountId, 'verification.expired', expiredId);
    expect(expired.data).toEqual(await verificationAsApiShows(expiredId));
    expect(expired.data).toMatchObject({ status: 'expired' });

    // Memberships: a person joins by invitation, then is removed.
    const member = await join(t.app, owner, { canViewReports: true });
    const membershipAsAppShows = async (id: number) => {
      const response = await owner.c.get(`/api/memberships/${id}?accountId=${owner.accountId}`);
      expect(response.statusCode, response.body).toBe(200);
      const m = response.json<TeamMembership>();
      return {
        id: m.id,
        account: m.account.id,
        user: { id: m.user.id, email: m.user.email, name: m.user.name },
        role: m.role,
        canSearchData: m.canSearchData,
        canViewReports: m.canViewReports,
        created: m.created,
      };
    };
    const shown = await membershipAsAppShows(member.membership.id);
    expect(shown).toMatchObject({ role: 'member', canViewReports: true, user: { email: member.email } });
    expect((await eventFor(owner.accountId, 'membership.created', member.membership.id)).data).toEqual(shown);
    const removed = await owner.c.request({
      method: 'DELETE',
      url: `/api/memberships/${member.membership.id}?accountId=${owner.accountId}`,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await eventFor(owner.accountId, 'membership.removed', member.membership.id)).data).toEqual(shown);

    // Each stored event reached the endpoint exactly once, signed with its secret, as `{type, timestamp, data}`.
    const stored = await eventsOf(owner.accountId);
    expect(new Set(stored.map((event) => event.type))).toEqual(
      new Set([
        'form.created',
        'form.updated',
        'form.live_changed',
        'verification.code_sent',
        'verification.approved',
        'verification.failed',
        'verification.canceled',
        'verification.expired',
        // A test number's simulated message (issue #18).
        'verification.delivered',
        'membership.created',
        'membership.removed',
      ]),
    );
    const received = await receivedBy(endpoint);
    expect(received.map((delivery) => delivery.headers['webhook-id']).sort()).toEqual(
      stored.map((event) => event.id).sort(),
    );
    const webhook = new Webhook(endpoint.secret);
    for (const event of stored) {
      const delivery = received.find((one) => one.headers['webhook-id'] === event.id);
      if (!delivery) throw new Error(`${event.type} not received`);
      // The verifications here are test objects (test numbers), read with the test key; the rest is live (ADR 29).
      const reader = event.type.startsWith('verification.') ? api : liveApi;
      const listed = await reader.GET('/api/v1/events/{id}', { params: { path: { id: event.id } } });
      expect(listed.response.status).toBe(200);
      expect(webhook.verify(delivery.body, delivery.headers)).toEqual({
        type: listed.data?.type,
        timestamp: listed.data?.created,
        data: listed.data?.data,
      });
      expect(listed.data?.data).toEqual(event.data);
    }
  });

  it('the hosted page sends and approves a code with the same events, its data as API v1 shows it', async () => {
    const owner = await newOwner(t.app, 'Hosted Co');
    const endpoint = await createEndpoint(owner, ['verification.code_sent', 'verification.approved']);
    const form = await createPublicForm(owner);
    const { key } = await newApiKey(owner, ['verifications:read']);
    const api = apiV1(t.app, key);
    const consumer = await newConsumer(t.app, form.publicId);
    const sent = await consumer.sendCode(form.publicId, {
      cellPhone: await addTestNumber(owner),
      method: 'sms',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const attemptId = sent.json<{ attemptId: string }>().attemptId;
    const shown = async () =>
      (await api.GET('/api/v1/verifications/{id}', { params: { path: { id: attemptId } } })).data;
    const codeSent = await eventFor(owner.accountId, 'verification.code_sent', attemptId);
    expect(codeSent.data).toEqual(await shown());
    expect(codeSent.data).toMatchObject({ source: 'hosted', evidence: { ip: consumer.ip } });
    expect((await consumer.check(attemptId, '123456')).statusCode).toBe(200);
    expect((await eventFor(owner.accountId, 'verification.approved', attemptId)).data).toEqual(await shown());
    const received = await receivedBy(endpoint);
    expect(received.map((delivery) => JSON.parse(delivery.body).type).sort()).toEqual([
      'verification.approved',
      'verification.code_sent',
    ]);
  });

  it('an endpoint for one type gets only that type; a disabled one gets nothing, and the events are stored', async () => {
    const owner = await newOwner(t.app, 'Picky Co');
    const picky = await createEndpoint(owner, ['form.live_changed']);
    const disabled = await createEndpoint(owner, ['*'], false);
    const form = await createPublicForm(owner);
    const offline = await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: false, name: 'Paused' });
    expect(offline.statusCode, offline.body).toBe(200);

    const stored = await eventsOf(owner.accountId);
    expect(stored.map((event) => event.type).sort()).toEqual([
      'form.created',
      'form.live_changed',
      'form.live_changed',
      'form.updated',
    ]);
    const received = await receivedBy(picky);
    expect(received.map((delivery) => JSON.parse(delivery.body).type)).toEqual([
      'form.live_changed',
      'form.live_changed',
    ]);
    expect(await deliveriesTo(disabled.id)).toEqual([]);
    expect(receiver.received.filter((delivery) => delivery.path === disabled.path)).toEqual([]);
  });
});

describe('an event exists only if its change committed', () => {
  afterEach(async () => {
    await t.db.db.execute(sql`drop trigger if exists refuse_form_name on verify_forms`);
  });

  it('a form update that rolls back at commit stores no event and sends nothing', async () => {
    const owner = await newOwner(t.app, 'Rollback Co');
    const endpoint = await createEndpoint(owner);
    const form = await createPublicForm(owner, { isLive: false });
    // Refused at commit, after the change and its event were written in the transaction.
    await t.db.db.execute(sql`
      create or replace function refuse_form_name() returns trigger language plpgsql as $$
      begin
        if new.name = 'Refused' then raise exception 'refused by the test'; end if;
        return new;
      end $$`);
    await t.db.db.execute(sql`
      create constraint trigger refuse_form_name after update on verify_forms
      deferrable initially deferred for each row execute function refuse_form_name()`);
    const refused = await owner.c.patch(`/api/verify-forms/${form.id}`, { name: 'Refused', isLive: true });
    expect(refused.statusCode).toBe(500);
    expect((await owner.c.get(`/api/verify-forms/${form.id}`)).json()).toMatchObject({
      name: form.name,
      isLive: false,
    });
    expect((await eventsOf(owner.accountId)).map((event) => event.type)).toEqual(['form.created']);
    const received = await receivedBy(endpoint);
    expect(received.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['form.created']);
  });

  it('of right codes checked at once, one approves and one event is stored; of wrong ones, one locks and fails', async () => {
    const owner = await newOwner(t.app, 'Burst Co');
    const form = await createPublicForm(owner);
    const { key } = await newApiKey(owner, ['verifications:write']);
    const api = apiV1(t.app, key);
    const start = async () => {
      const started = await api.POST('/api/v1/verifications', {
        body: { formId: form.id, to: await addTestNumber(owner) },
      });
      const id = started.data?.id;
      if (!id) throw new Error('no verification');
      return id;
    };
    const checkAll = (id: string, code: string, times: number) =>
      Promise.all(
        Array.from({ length: times }, () =>
          api.POST('/api/v1/verifications/{id}/check', { params: { path: { id } }, body: { code } }),
        ),
      );

    const rightId = await start();
    const rights = await checkAll(rightId, '123456', 8);
    expect(rights.filter((r) => r.data?.status === 'approved')).toHaveLength(1);
    expect((await eventsOf(owner.accountId, 'verification.approved')).map(idIn)).toEqual([rightId]);

    const wrongId = await start();
    const wrongs = await checkAll(wrongId, '000000', 8);
    expect(wrongs.filter((r) => r.data?.status === 'max_attempts').length).toBeGreaterThan(0);
    expect((await eventsOf(owner.accountId, 'verification.failed')).map(idIn)).toEqual([wrongId]);
  });
});

/** As if the code's time had run out a second ago (a moved clock would put the events' timestamps in the future). */
async function expireNow(attemptId: string, agoMs = 1000): Promise<void> {
  await t.db.db
    .update(schema.verificationAttempts)
    .set({ expiresAt: new Date(t.clock.now().getTime() - agoMs) })
    .where(eq(schema.verificationAttempts.id, attemptId));
}

const sweep = () =>
  handlerOf(createJobWork(t.app.services, t.db.executeSql), emitExpiredVerifications.name).run(
    {},
    {
      log: t.app.log,
      job: {
        id: 'test',
        name: emitExpiredVerifications.name,
        retryCount: 0,
        retryLimit: 0,
        createdOn: new Date(),
      },
    },
  );

describe('the expiry sweep (emit-expired-verifications)', () => {
  it('stores each expiry of the last hour once, however many runs overlap, in bounded batches', async () => {
    const owner = await newOwner(t.app, 'Sweep Co');
    const endpoint = await createEndpoint(owner, ['verification.expired']);
    const form = await createPublicForm(owner);
    const { key } = await newApiKey(owner, ['verifications:write']);
    const api = apiV1(t.app, key);
    const start = async () => {
      const started = await api.POST('/api/v1/verifications', {
        body: { formId: form.id, to: await addTestNumber(owner) },
      });
      const id = started.data?.id;
      if (!id) throw new Error('no verification');
      return id;
    };
    const expiredIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await start();
      await expireNow(id, (i + 1) * MINUTE);
      expiredIds.push(id);
    }
    const longAgo = await start();
    await expireNow(longAgo, 2 * HOUR);
    const stillPending = await start();

    const batchSize = EXPIRED_SWEEP.batchSize;
    EXPIRED_SWEEP.batchSize = 2;
    try {
      const runs = await Promise.all([sweep(), sweep(), sweep()]);
      expect(runs.every((run) => run.outcome === 'emitted')).toBe(true);
      await sweep();
    } finally {
      EXPIRED_SWEEP.batchSize = batchSize;
    }

    const stored = await eventsOf(owner.accountId, 'verification.expired');
    expect(stored.map(idIn).sort()).toEqual([...expiredIds].sort());
    expect(stored.map((event) => event.dedupeKey).sort()).toEqual(
      expiredIds.map((id) => `verification.expired:${id}`).sort(),
    );
    expect(stored.some((event) => idIn(event) === longAgo || idIn(event) === stillPending)).toBe(false);
    const received = await receivedBy(endpoint);
    expect(received.map((delivery) => delivery.headers['webhook-id']).sort()).toEqual(
      stored.map((event) => event.id).sort(),
    );
  });
});
