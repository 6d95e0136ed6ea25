import {
  errorTexts,
  WEBHOOK_EVENT_REPLAYS_PER_MINUTE,
  WEBHOOK_TEST_EVENT_TYPE,
  WEBHOOK_TEST_EVENTS_PER_MINUTE,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookReplayTexts,
} from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';
import { jobsSettled } from '../../test-support/jobs.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import {
  type Answer,
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test-support/webhook-receiver.ts';
import { newEventId } from './events.ts';

/**
 * Operating endpoints (issue #17 item 5): the deliveries list with attempts, retries a receiver sees, "Send test
 * event", replays of one event and of every failed one, and who may do it. Real loopback receivers; retries 0.2 s
 * apart and a 1 s timeout so that nothing waits long.
 */

const t = useTestApp({
  env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
  config: { webhookRetryDelaysSeconds: [0.2, 0.2], webhookTimeoutMs: 1_000 },
});

const notFound = { detail: errorTexts.notFound, MainCode_: 'not_found' };
const permissionDenied = { detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' };

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(
  answer?: (n: number, delivery: ReceivedDelivery) => Answer,
): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(answer);
  receivers.push(started);
  return started;
}

async function createEndpoint(
  owner: Owner,
  url: string,
  eventTypes: string[] = ['*'],
): Promise<WebhookEndpoint> {
  const response = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    url,
    eventTypes,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookEndpoint>();
}

async function emit(accountId: number, type: WebhookEventType = 'form.updated'): Promise<string> {
  const { eventId } = await transaction(t.db.db, (tx) =>
    t.app.services.webhookEvents.emit(tx, accountId, { type, data: { id: 1 } }),
  );
  if (!eventId) throw new Error('no event stored');
  return eventId;
}

async function deliveriesOf(owner: Owner, endpointId: number, query = ''): Promise<WebhookDeliveryList> {
  const response = await owner.c.get(`/api/webhook-endpoints/${endpointId}/deliveries${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<WebhookDeliveryList>();
}

/** The delivery of `eventId`, once `done` holds (the jobs run in the app's workers). */
async function deliveryWhen(
  owner: Owner,
  endpointId: number,
  eventId: string,
  done: (delivery: WebhookDelivery) => boolean,
): Promise<WebhookDelivery> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = (await deliveriesOf(owner, endpointId, '?limit=100')).results.find(
      (d) => d.eventId === eventId,
    );
    if (found && done(found)) return found;
    if (Date.now() > deadline) throw new Error(`delivery of ${eventId}: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function auditActionsOf(owner: Owner): Promise<string[]> {
  const rows = await t.db.db
    .select({ action: schema.auditEvents.action })
    .from(schema.auditEvents)
    .where(eq(schema.auditEvents.accountId, owner.accountId));
  return rows.map((row) => row.action);
}

const settled = (status: WebhookDelivery['status']) => (d: WebhookDelivery) => d.status === status;
const idsOf = (received: ReceivedDelivery[]) => received.map((r) => r.headers['webhook-id']);

const replay = (owner: Owner, eventId: string, endpointId: number) =>
  owner.c.post(`/api/webhook-events/${eventId}/replay`, { endpointId });

const replayFailed = (owner: Owner, endpointId: number, range: { since: string; until: string }) =>
  owner.c.post(`/api/webhook-endpoints/${endpointId}/replay-failed`, range);

/** The last hour, and a minute ahead: every event of these tests (the clock stands still). */
const recentRange = () => ({
  since: new Date(t.clock.now().getTime() - HOUR).toISOString(),
  until: new Date(t.clock.now().getTime() + 60_000).toISOString(),
});

describe('deliveries and their attempts', () => {
  it('a receiver that answers 500 and then 200 gets the retry; the delivery lists both attempts, oldest first', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver((n) =>
      n === 1 ? { status: 500, body: 'down' } : { status: 200, body: 'ok' },
    );
    const endpoint = await createEndpoint(owner, hooks.url);
    const eventId = await emit(owner.accountId);

    const received = await hooks.waitFor(2);
    expect(idsOf(received)).toEqual([eventId, eventId]);
    const delivery = await deliveryWhen(owner, endpoint.id, eventId, settled('succeeded'));
    expect(delivery).toMatchObject({
      eventId,
      eventType: 'form.updated',
      status: 'succeeded',
      nextAttemptAt: null,
    });
    expect(delivery.attempts).toMatchObject([
      { statusCode: 500, error: null, responseSnippet: 'down', trigger: 'scheduled' },
      { statusCode: 200, error: null, responseSnippet: 'ok', trigger: 'scheduled' },
    ]);
  });

  it('a receiver that does not answer in time is retried: the first attempt shows the timeout', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver((n) => (n === 1 ? 'hang' : { status: 204 }));
    const endpoint = await createEndpoint(owner, hooks.url);
    const eventId = await emit(owner.accountId);

    const delivery = await deliveryWhen(owner, endpoint.id, eventId, settled('succeeded'));
    expect(delivery.attempts).toMatchObject([
      { statusCode: null, error: 'timeout' },
      { statusCode: 204, error: null },
    ]);
    expect(idsOf(hooks.received)).toEqual([eventId, eventId]);
  });

  it('lists newest first in pages (startingAfter), filtered by status', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    const events: string[] = [];
    for (let i = 0; i < 3; i++) {
      events.push(await emit(owner.accountId));
      t.clock.advance(1);
    }
    await hooks.waitFor(3);
    await jobsSettled(t.app);
    const newestFirst = [...events].reverse();

    const first = await deliveriesOf(owner, endpoint.id, '?limit=2');
    expect(first.results.map((d) => d.eventId)).toEqual(newestFirst.slice(0, 2));
    expect(first.hasMore).toBe(true);
    const second = await deliveriesOf(owner, endpoint.id, `?limit=2&startingAfter=${newestFirst[1]}`);
    expect(second.results.map((d) => d.eventId)).toEqual(newestFirst.slice(2));
    expect(second.hasMore).toBe(false);

    expect((await deliveriesOf(owner, endpoint.id, '?status=succeeded')).results).toHaveLength(3);
    expect((await deliveriesOf(owner, endpoint.id, '?status=failed')).results).toEqual([]);

    for (const query of ['?startingAfter=evt_nope', '?startingAfter=%00', '?limit=0', '?status=lost']) {
      const response = await owner.c.get(`/api/webhook-endpoints/${endpoint.id}/deliveries${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ MainCode_: 'validation_error' });
    }
  });
});

describe('send test event', () => {
  it('answers 202 with the pending delivery; the receiver gets a signed webhook.test, even while the endpoint is disabled', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url, ['verification.approved']);
    await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: false });

    const response = await owner.c.post(`/api/webhook-endpoints/${endpoint.id}/send-test`);
    expect(response.statusCode, response.body).toBe(202);
    const sent = response.json<WebhookDelivery>();
    expect(sent).toMatchObject({ eventType: WEBHOOK_TEST_EVENT_TYPE, status: 'pending', attempts: [] });

    const [arrived] = await hooks.waitFor(1);
    if (!arrived) throw new Error('nothing arrived');
    const secret = (await owner.c.get(`/api/webhook-endpoints/${endpoint.id}/secret`)).json<{
      secret: string;
    }>().secret;
    const verified = new Webhook(secret).verify(arrived.body, arrived.headers);
    expect(verified).toMatchObject({
      type: WEBHOOK_TEST_EVENT_TYPE,
      data: { endpointId: endpoint.id, message: expect.stringContaining('test event from Veriform') },
    });
    expect(arrived.headers['webhook-id']).toBe(sent.eventId);
    const delivery = await deliveryWhen(owner, endpoint.id, sent.eventId, settled('succeeded'));
    expect(delivery.attempts).toMatchObject([{ statusCode: 200, trigger: 'test' }]);
  });

  it(`at most ${WEBHOOK_TEST_EVENTS_PER_MINUTE} a minute per endpoint, however many are asked at once`, async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    const burst = WEBHOOK_TEST_EVENTS_PER_MINUTE + 5;
    const responses = await Promise.all(
      Array.from({ length: burst }, () => owner.c.post(`/api/webhook-endpoints/${endpoint.id}/send-test`)),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((code) => code === 202)).toHaveLength(WEBHOOK_TEST_EVENTS_PER_MINUTE);
    expect(codes.filter((code) => code === 429)).toHaveLength(5);
    expect(responses.find((r) => r.statusCode === 429)?.json()).toMatchObject({ MainCode_: 'rate_limited' });
    await hooks.waitFor(WEBHOOK_TEST_EVENTS_PER_MINUTE);
    await jobsSettled(t.app);
    expect(hooks.received).toHaveLength(WEBHOOK_TEST_EVENTS_PER_MINUTE);

    // Another endpoint has its own allowance.
    const other = await createEndpoint(owner, hooks.url);
    expect((await owner.c.post(`/api/webhook-endpoints/${other.id}/send-test`)).statusCode).toBe(202);
  });
});

describe('replay of one event', () => {
  it('sends the event again with the same webhook-id; in a burst of replays at once, each one queued is one arrival', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    const eventId = await emit(owner.accountId);
    await deliveryWhen(owner, endpoint.id, eventId, settled('succeeded'));

    const once = await replay(owner, eventId, endpoint.id);
    expect(once.statusCode, once.body).toBe(202);
    expect(once.json()).toEqual({ queued: 1 });
    await hooks.waitFor(2);
    const first = hooks.received[0];
    const again = hooks.received[1];
    expect(again?.headers['webhook-id']).toBe(eventId);
    expect(again?.body).toBe(first?.body);
    await jobsSettled(t.app);

    // A replay asked while one is still queued adds nothing; one asked after it was sent sends again. However the
    // burst interleaves with the sending, each replay queued is exactly one more arrival. (Four: with the replay before
    // them, the per-event limit's five a minute.)
    const burst = await Promise.all(Array.from({ length: 4 }, () => replay(owner, eventId, endpoint.id)));
    expect(burst.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
    const queued = burst.reduce((sum, r) => sum + r.json<{ queued: number }>().queued, 0);
    expect(queued).toBeGreaterThanOrEqual(1);
    await hooks.waitFor(2 + queued);
    await jobsSettled(t.app);
    expect(idsOf(hooks.received)).toEqual(Array.from({ length: 2 + queued }, () => eventId));
    const delivery = await deliveryWhen(owner, endpoint.id, eventId, settled('succeeded'));
    expect(delivery.attempts.map((a) => a.trigger)).toEqual([
      'scheduled',
      ...Array.from({ length: 1 + queued }, () => 'replay'),
    ]);
  });

  it(`at most ${WEBHOOK_EVENT_REPLAYS_PER_MINUTE.perEvent} replays of one event a minute, however many are asked at once`, async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    const eventId = await emit(owner.accountId);
    await deliveryWhen(owner, endpoint.id, eventId, settled('succeeded'));
    await jobsSettled(t.app);

    const limit = WEBHOOK_EVENT_REPLAYS_PER_MINUTE.perEvent;
    const burst = await Promise.all(Array.from({ length: 25 }, () => replay(owner, eventId, endpoint.id)));
    const codes = burst.map((r) => r.statusCode);
    expect(codes.filter((code) => code === 202)).toHaveLength(limit);
    expect(codes.filter((code) => code === 429)).toHaveLength(25 - limit);
    const refused = burst.find((r) => r.statusCode === 429);
    expect(refused?.json()).toMatchObject({ MainCode_: 'rate_limited' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60);
    const queued = burst.reduce(
      (sum, r) => sum + (r.statusCode === 202 ? r.json<{ queued: number }>().queued : 0),
      0,
    );
    expect(queued).toBeLessThanOrEqual(limit);
    await hooks.waitFor(1 + queued);
    await jobsSettled(t.app);
    // The first delivery and at most the limit's replays: nothing more reached the receiver.
    expect(hooks.received.length).toBe(1 + queued);
    expect(hooks.received.length).toBeLessThanOrEqual(1 + limit);

    // Another event of the same endpoint has its own allowance. (The clock is not moved on: retries are queued by
    // the database's time, which a clock ahead of it would delay for later tests.)
    const other = await emit(owner.accountId);
    await deliveryWhen(owner, endpoint.id, other, settled('succeeded'));
    expect((await replay(owner, other, endpoint.id)).statusCode).toBe(202);
  });

  it('sends an event the endpoint missed while disabled; refuses while it is disabled', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: false });
    const missed = await emit(owner.accountId);

    const refused = await replay(owner, missed, endpoint.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      nonFieldErrors: [webhookReplayTexts.endpointDisabled],
      MainCode_: 'validation_error',
    });
    expect((await deliveriesOf(owner, endpoint.id)).results).toEqual([]);

    await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: true });
    expect((await replay(owner, missed, endpoint.id)).statusCode).toBe(202);
    const [arrived] = await hooks.waitFor(1);
    expect(arrived?.headers['webhook-id']).toBe(missed);
    const delivery = await deliveryWhen(owner, endpoint.id, missed, settled('succeeded'));
    expect(delivery.attempts).toMatchObject([{ statusCode: 200, trigger: 'replay' }]);
  });

  it('404 for an unknown, malformed, expired or other account’s event, and for another account’s endpoint', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    const strangers = await createEndpoint(stranger, hooks.url);
    const theirEvent = await emit(stranger.accountId);
    const ownEvent = await emit(owner.accountId);
    const expired = newEventId();
    await t.db.db.insert(schema.webhookEvents).values({
      id: expired,
      accountId: owner.accountId,
      type: 'form.updated',
      data: {},
      createdAt: new Date(t.clock.now().getTime() - 31 * DAY),
    });

    for (const [eventId, endpointId] of [
      [theirEvent, endpoint.id],
      [ownEvent, strangers.id],
      [expired, endpoint.id],
      [newEventId(), endpoint.id],
      ['evt_%00', endpoint.id],
      ['x'.repeat(200), endpoint.id],
    ] as const) {
      const response = await replay(owner, eventId, endpointId);
      expect(response.statusCode, eventId).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    // A test event is its own endpoint's only.
    const test = await owner.c.post(`/api/webhook-endpoints/${endpoint.id}/send-test`);
    const other = await createEndpoint(owner, hooks.url);
    expect((await replay(owner, test.json<WebhookDelivery>().eventId, other.id)).statusCode).toBe(404);
  });
});

describe('replay of failed events', () => {
  it('queues every event of the range that failed or was missed while disabled, each once however many calls come at once', async () => {
    const owner = await newOwner(t.app);
    let healthy = false;
    const hooks = await receiver(() => (healthy ? { status: 200 } : { status: 503 }));
    const endpoint = await createEndpoint(owner, hooks.url, ['form.updated']);

    const failed = await emit(owner.accountId);
    await deliveryWhen(owner, endpoint.id, failed, settled('failed'));
    await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: false });
    const missed = await emit(owner.accountId);
    const unwanted = await emit(owner.accountId, 'membership.created');
    await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: true });
    healthy = true;
    const delivered = await emit(owner.accountId);
    await deliveryWhen(owner, endpoint.id, delivered, settled('succeeded'));
    const before = hooks.received.length;

    const calls = await Promise.all(
      Array.from({ length: 4 }, () => replayFailed(owner, endpoint.id, recentRange())),
    );
    expect(calls.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
    expect(calls.reduce((sum, r) => sum + r.json<{ queued: number }>().queued, 0)).toBe(2);
    await hooks.waitFor(before + 2);
    await jobsSettled(t.app);
    expect(idsOf(hooks.received.slice(before)).sort()).toEqual([failed, missed].sort());
    expect(idsOf(hooks.received)).not.toContain(unwanted);
    expect(
      (await deliveryWhen(owner, endpoint.id, failed, settled('succeeded'))).attempts.at(-1),
    ).toMatchObject({
      statusCode: 200,
      trigger: 'replay',
    });
    await deliveryWhen(owner, endpoint.id, missed, settled('succeeded'));

    // Nothing is left to replay.
    expect((await replayFailed(owner, endpoint.id, recentRange())).json()).toEqual({ queued: 0 });
  });

  it('only within the events’ 30 days, a range in order, and an enabled endpoint', async () => {
    const owner = await newOwner(t.app);
    const endpoint = await createEndpoint(owner, 'http://127.0.0.1:9/hooks');
    const now = t.clock.now().getTime();
    const tooOld = await replayFailed(owner, endpoint.id, {
      since: new Date(now - 31 * DAY).toISOString(),
      until: new Date(now).toISOString(),
    });
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json()).toEqual({ since: [webhookReplayTexts.rangeTooOld], MainCode_: 'validation_error' });

    const backwards = await replayFailed(owner, endpoint.id, {
      since: new Date(now).toISOString(),
      until: new Date(now - HOUR).toISOString(),
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({
      until: [webhookReplayTexts.rangeOrder],
      MainCode_: 'validation_error',
    });

    await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: false });
    const disabled = await replayFailed(owner, endpoint.id, recentRange());
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json()).toEqual({
      nonFieldErrors: [webhookReplayTexts.endpointDisabled],
      MainCode_: 'validation_error',
    });
  });
});

describe('who may', () => {
  it('a member gets 403, another account’s owner 404, a request without the CSRF token 403; nothing is queued', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const endpoint = await createEndpoint(owner, 'http://127.0.0.1:9/hooks');
    const eventId = await emit(owner.accountId);
    const calls: ((o: Pick<Owner, 'c'>, csrf?: boolean) => Promise<LightMyRequestResponse>)[] = [
      (o) => o.c.get(`/api/webhook-endpoints/${endpoint.id}/deliveries`),
      (o: Pick<Owner, 'c'>, csrf = true) =>
        o.c.post(`/api/webhook-endpoints/${endpoint.id}/send-test`, {}, { csrf }),
      (o: Pick<Owner, 'c'>, csrf = true) =>
        o.c.post(`/api/webhook-endpoints/${endpoint.id}/replay-failed`, recentRange(), { csrf }),
      (o: Pick<Owner, 'c'>, csrf = true) =>
        o.c.post(`/api/webhook-events/${eventId}/replay`, { endpointId: endpoint.id }, { csrf }),
    ];
    for (const call of calls) {
      const asMember = await call(member);
      expect(asMember.statusCode, asMember.body).toBe(403);
      expect(asMember.json()).toEqual(permissionDenied);
      const asStranger = await call(stranger);
      expect(asStranger.statusCode).toBe(404);
      expect(asStranger.json()).toEqual(notFound);
    }
    for (const call of calls.slice(1)) {
      const withoutToken = await call(owner, false);
      expect(withoutToken.statusCode).toBe(403);
      expect(withoutToken.json()).toMatchObject({ MainCode_: 'csrf_failed' });
    }
    // Only the event emitted above: no test event, no replay.
    const deliveries = await t.db.db
      .select({ eventId: schema.webhookDeliveries.eventId })
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.endpointId, endpoint.id));
    expect(deliveries).toEqual([{ eventId }]);
    expect(await auditActionsOf(owner)).not.toContain('webhook_endpoint.test_sent');
  });

  it('bad bodies answer 400 in the app’s format', async () => {
    const owner = await newOwner(t.app);
    const endpoint = await createEndpoint(owner, 'http://127.0.0.1:9/hooks');
    const eventId = await emit(owner.accountId);
    const badReplay = await owner.c.post(`/api/webhook-events/${eventId}/replay`, { endpointId: 'one' });
    expect(badReplay.statusCode).toBe(400);
    expect(badReplay.json()).toMatchObject({
      endpointId: [expect.any(String)],
      MainCode_: 'validation_error',
    });
    const extra = await owner.c.post(`/api/webhook-events/${eventId}/replay`, {
      endpointId: endpoint.id,
      x: 1,
    });
    expect(extra.statusCode).toBe(400);
    const badRange = await owner.c.post(`/api/webhook-endpoints/${endpoint.id}/replay-failed`, {
      since: 'yesterday',
    });
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json()).toMatchObject({
      since: [expect.any(String)],
      until: [expect.any(String)],
      MainCode_: 'validation_error',
    });
  });

  it('each action is in the audit log, by the owner who did it', async () => {
    const owner = await newOwner(t.app);
    const hooks = await receiver();
    const endpoint = await createEndpoint(owner, hooks.url);
    const eventId = await emit(owner.accountId);
    await owner.c.post(`/api/webhook-endpoints/${endpoint.id}/send-test`);
    await replay(owner, eventId, endpoint.id);
    await replayFailed(owner, endpoint.id, recentRange());
    const rows = await t.db.db
      .select({ action: schema.auditEvents.action, actorName: schema.auditEvents.actorName })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.accountId, owner.accountId))
      .orderBy(schema.auditEvents.sequence);
    expect(rows.slice(-3)).toEqual([
      { action: 'webhook_endpoint.test_sent', actorName: owner.email },
      { action: 'webhook_event.replayed', actorName: owner.email },
      { action: 'webhook_endpoint.replayed_failed', actorName: owner.email },
    ]);
  });
});
