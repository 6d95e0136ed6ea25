import { WEBHOOK_RETRY_DELAYS_SECONDS, type WebhookEndpoint } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../lib/webhook-url.ts';
import { type TestContext, useTestApp } from '../../test-support/app.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test-support/webhook-receiver.ts';
import { newEventId } from './events.ts';
import { deliveryBody, nextDelayMs } from './sender.ts';

/**
 * The sender (issue #17 items 3 and 4; ADR 21): what a receiver gets, signed with every valid secret; the address
 * check again at send time; one recorded attempt however many times a job runs.
 */

async function createEndpoint(owner: Owner, url: string): Promise<WebhookEndpoint> {
  const response = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    url,
    eventTypes: ['*'],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookEndpoint>();
}

async function secretOf(owner: Owner, id: number): Promise<string> {
  const response = await owner.c.get(`/api/webhook-endpoints/${id}/secret`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ secret: string }>().secret;
}

const emit = (t: TestContext, accountId: number, data: Record<string, unknown>) =>
  transaction(t.db.db, (tx) =>
    t.app.services.webhookEvents.emit(tx, accountId, { type: 'form.created', data }),
  );

async function deliveriesOf(t: TestContext, endpointId: number) {
  return t.db.db
    .select()
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.endpointId, endpointId));
}

async function attemptsOf(t: TestContext, deliveryId: number) {
  return t.db.db
    .select()
    .from(schema.webhookDeliveryAttempts)
    .where(eq(schema.webhookDeliveryAttempts.deliveryId, deliveryId));
}

describe('the retry schedule', () => {
  it('waits each listed delay ±10 %, then gives up', () => {
    WEBHOOK_RETRY_DELAYS_SECONDS.forEach((seconds, i) => {
      expect(nextDelayMs(WEBHOOK_RETRY_DELAYS_SECONDS, i + 1, () => 0)).toBe(seconds * 900);
      expect(nextDelayMs(WEBHOOK_RETRY_DELAYS_SECONDS, i + 1, () => 1)).toBe(seconds * 1100);
    });
    expect(nextDelayMs(WEBHOOK_RETRY_DELAYS_SECONDS, WEBHOOK_RETRY_DELAYS_SECONDS.length + 1)).toBeNull();
    // 12 attempts over about 2.8 days.
    const total = WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, s) => sum + s, 0);
    expect(total / 86_400).toBeCloseTo(2.8, 1);
  });
});

describe('deliveries to a loopback receiver', () => {
  const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('POSTs {type, timestamp, data} as JSON, signed with every secret valid at the time', async () => {
    const owner = await newOwner(t.app, 'Signed Co');
    const endpoint = await createEndpoint(owner, receiver.url);
    const first = await secretOf(owner, endpoint.id);
    const start = receiver.received.length;

    const { eventId } = await emit(t, owner.accountId, { id: 1, name: 'Leads' });
    const [delivered] = (await receiver.waitFor(start + 1)).slice(start);
    if (!delivered || !eventId) throw new Error('nothing delivered');
    expect(delivered.contentType).toBe('application/json');
    expect(delivered.headers['webhook-id']).toBe(eventId);
    const payload = new Webhook(first).verify(delivered.body, delivered.headers);
    const [event] = await t.db.db
      .select()
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.id, eventId));
    if (!event) throw new Error('no event');
    expect(payload).toEqual({
      type: 'form.created',
      timestamp: event.createdAt.toISOString(),
      data: { id: 1, name: 'Leads' },
    });
    expect(delivered.body).toBe(deliveryBody(event));

    // Rotated with a day's overlap: both secrets sign, so a receiver holding either accepts.
    const rotated = await owner.c.post(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      overlapHours: 24,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const second = await secretOf(owner, endpoint.id);
    await emit(t, owner.accountId, { id: 2 });
    const [during] = (await receiver.waitFor(start + 2)).slice(start + 1);
    if (!during) throw new Error('nothing delivered');
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(first).verify(during.body, during.headers)).toMatchObject({ data: { id: 2 } });
    expect(new Webhook(second).verify(during.body, during.headers)).toMatchObject({ data: { id: 2 } });

    // Once the overlap is over, only the new secret signs.
    await t.db.db
      .update(schema.webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(schema.webhookEndpoints.id, endpoint.id));
    await emit(t, owner.accountId, { id: 3 });
    const [after] = (await receiver.waitFor(start + 3)).slice(start + 2);
    if (!after) throw new Error('nothing delivered');
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(new Webhook(second).verify(after.body, after.headers)).toMatchObject({ data: { id: 3 } });
    expect(() => new Webhook(first).verify(after.body, after.headers)).toThrow();

    // The receiver answers before the attempt is recorded: wait for the record.
    const deadline = Date.now() + 10_000;
    let deliveries = await deliveriesOf(t, endpoint.id);
    while (deliveries.some((d) => d.status !== 'succeeded') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      deliveries = await deliveriesOf(t, endpoint.id);
    }
    expect(deliveries.map((d) => [d.status, d.attemptCount])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
  });

  it('a job run five times at once records one attempt (the receiver may hear it more than once)', async () => {
    const owner = await newOwner(t.app, 'Twice Co');
    const endpoint = await createEndpoint(owner, receiver.url);
    // The event and its delivery without a job: the test runs the job's handler itself, five times at once.
    const eventId = newEventId();
    const createdAt = t.clock.now();
    await t.db.db.insert(schema.webhookEvents).values({
      id: eventId,
      accountId: owner.accountId,
      type: 'form.created',
      data: { id: 9 },
      createdAt,
    });
    const [delivery] = await t.db.db
      .insert(schema.webhookDeliveries)
      .values({ accountId: owner.accountId, eventId, endpointId: endpoint.id, eventCreatedAt: createdAt })
      .returning();
    if (!delivery) throw new Error('no delivery');

    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.services.webhookSender.attempt(
          { deliveryId: delivery.id, attempt: 0, trigger: 'scheduled' },
          t.app.log,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'succeeded')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'succeeded').every((o) => o === 'stale')).toBe(true);
    expect(await attemptsOf(t, delivery.id)).toHaveLength(1);
    expect(await deliveriesOf(t, endpoint.id)).toMatchObject([{ status: 'succeeded', attemptCount: 1 }]);
    expect(
      receiver.received.filter((r) => r.headers['webhook-id'] === eventId).length,
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('the address is checked again when sending', () => {
  /** Public when the URL is saved; the test then points the name at this machine (DNS rebinding). */
  const answers = new Map<string, string[]>();
  const resolveHost: HostResolver = async (hostname) => {
    const addresses = answers.get(hostname);
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return addresses;
  };
  const t = useTestApp({ resolveHost });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it.each([
    ['loopback', '127.0.0.1'],
    ['cloud metadata', '169.254.169.254'],
  ])('a name that resolves to %s at send time is not connected to', async (_what, address) => {
    const host = `rebind-${address.replaceAll('.', '-')}.example.com`;
    answers.set(host, ['93.184.215.14']);
    const owner = await newOwner(t.app, 'Rebind Co');
    const endpoint = await createEndpoint(owner, `http://${host}:${receiver.port}/hooks`);
    answers.set(host, [address]);

    await emit(t, owner.accountId, { id: 4 });
    const deadline = Date.now() + 20_000;
    let attempts: Awaited<ReturnType<typeof attemptsOf>> = [];
    while (attempts.length === 0 && Date.now() < deadline) {
      const [delivery] = await deliveriesOf(t, endpoint.id);
      attempts = delivery ? await attemptsOf(t, delivery.id) : [];
      if (attempts.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(attempts).toMatchObject([{ statusCode: null, error: 'blocked_address', trigger: 'scheduled' }]);
    expect(await deliveriesOf(t, endpoint.id)).toMatchObject([{ status: 'retrying', attemptCount: 1 }]);
    expect(receiver.received).toEqual([]);
  });
});
