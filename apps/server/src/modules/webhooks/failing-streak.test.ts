import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_WARN_AFTER_DAYS,
  WEBHOOKS_SETTINGS_PATH,
  type WebhookEndpoint,
} from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { DAY, HOUR, MINUTE } from '../../test-support/clock.ts';
import { jobsSettled } from '../../test-support/jobs.ts';
import { outboxFor } from '../../test-support/outbox.ts';
import { type Joined, join, newOwner, type Owner } from '../../test-support/teams.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test-support/webhook-receiver.ts';

/**
 * A failing endpoint (issue #17 item 5): its owners are warned after WEBHOOK_WARN_AFTER_DAYS of nothing but failed
 * deliveries, once, and the endpoint is disabled after WEBHOOK_DISABLE_AFTER_DAYS, with an e-mail and an audit event
 * by Veriform; enabled again, the events it missed are replayable. The clock moves by days here, so this file has its
 * own app; every delivery is tried once (no retries), at once.
 */

const t = useTestApp({
  env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
  config: { webhookRetryDelaysSeconds: [] },
});

let healthy = false;
let hooks: WebhookReceiver;
let owner: Owner;
let coOwner: Joined;
let member: Joined;
let endpoint: WebhookEndpoint;

beforeAll(async () => {
  hooks = await startWebhookReceiver(() => (healthy ? { status: 200 } : { status: 500, body: 'broken' }));
  owner = await newOwner(t.app);
  coOwner = await join(t.app, owner, { role: 'owner' });
  member = await join(t.app, owner);
  const response = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    // The query is the receiver's token: no e-mail may show it.
    url: `${hooks.url}?token=s3cret-token`,
    eventTypes: ['form.updated'],
  });
  expect(response.statusCode, response.body).toBe(201);
  endpoint = response.json<WebhookEndpoint>();
});

afterAll(async () => {
  await hooks.close();
});

/** `count` events at once, each delivered (and failed) before this returns. */
async function failingEvents(count = 1): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, () =>
      transaction(t.db.db, (tx) =>
        t.app.services.webhookEvents.emit(tx, owner.accountId, { type: 'form.updated', data: {} }),
      ),
    ),
  );
  await jobsSettled(t.app);
}

async function webhookMailTo(email: string) {
  const messages = await outboxFor(t.app, email);
  return messages.filter((message) => message.subject?.toLowerCase().includes('webhook'));
}

const endpointNow = async () =>
  (await owner.c.get(`/api/webhook-endpoints/${endpoint.id}`)).json<WebhookEndpoint>();

describe('a failing endpoint', () => {
  it(`warns every owner after ${WEBHOOK_WARN_AFTER_DAYS} day of failures, once however many fail at once`, async () => {
    await failingEvents();
    const streak = await endpointNow();
    expect(streak.failingSince).toBe(t.clock.now().toISOString());
    expect(await webhookMailTo(owner.email)).toEqual([]);

    t.clock.advance(WEBHOOK_WARN_AFTER_DAYS * DAY - MINUTE);
    await failingEvents();
    expect(await webhookMailTo(owner.email)).toEqual([]);

    t.clock.advance(2 * MINUTE);
    await failingEvents(5);
    await failingEvents();
    const host = `127.0.0.1:${hooks.port}/hooks`;
    for (const to of [owner.email, coOwner.email]) {
      const mail = await webhookMailTo(to);
      expect(mail.map((m) => m.subject)).toEqual([`Webhook deliveries to ${host} are failing`]);
      expect(mail[0]?.text).toContain(`${TEST_PUBLIC_URL}${WEBHOOKS_SETTINGS_PATH}`);
      expect(mail[0]?.text).not.toContain('s3cret-token');
    }
    expect(await webhookMailTo(member.email)).toEqual([]);
    expect((await endpointNow()).enabled).toBe(true);
  });

  it(`is disabled after ${WEBHOOK_DISABLE_AFTER_DAYS} days, once, by Veriform in the audit log; every owner is told how to recover`, async () => {
    t.clock.advance((WEBHOOK_DISABLE_AFTER_DAYS - WEBHOOK_WARN_AFTER_DAYS) * DAY);
    await failingEvents(5);
    await failingEvents();

    const disabled = await endpointNow();
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'failing' });
    expect(disabled.disabledAt).toBe(t.clock.now().toISOString());
    const host = `127.0.0.1:${hooks.port}/hooks`;
    for (const to of [owner.email, coOwner.email]) {
      const [latest, ...earlier] = await webhookMailTo(to);
      expect(earlier).toHaveLength(1);
      expect(latest?.subject).toBe(`We disabled the webhook endpoint ${host}`);
      expect(latest?.text).toContain('enable the endpoint again');
      expect(latest?.text).toContain('Replay failed events');
      expect(latest?.text).toContain(`${TEST_PUBLIC_URL}${WEBHOOKS_SETTINGS_PATH}`);
      expect(latest?.text).not.toContain('s3cret-token');
    }
    expect(await webhookMailTo(member.email)).toEqual([]);

    const audited = await t.db.db
      .select({ actorType: schema.auditEvents.actorType, targetId: schema.auditEvents.targetId })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.action, 'webhook_endpoint.disabled'));
    expect(audited).toEqual([{ actorType: 'system', targetId: String(endpoint.id) }]);
  });

  it('enabled again, it starts a new streak, and the events it missed while disabled are replayable', async () => {
    const before = hooks.received.length;
    // Missed: the endpoint is disabled.
    await failingEvents(2);
    expect(hooks.received).toHaveLength(before);

    healthy = true;
    const enabled = await owner.c.patch(`/api/webhook-endpoints/${endpoint.id}`, { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    const range = {
      since: new Date(t.clock.now().getTime() - HOUR).toISOString(),
      until: new Date(t.clock.now().getTime() + MINUTE).toISOString(),
    };
    const replayed = await owner.c.post(`/api/webhook-endpoints/${endpoint.id}/replay-failed`, range);
    expect(replayed.statusCode, replayed.body).toBe(202);
    // The last hour: the five that failed as it was disabled, and the three it missed while disabled.
    expect(replayed.json()).toEqual({ queued: 8 });
    await hooks.waitFor(before + 8);
    await jobsSettled(t.app);
    expect(hooks.received).toHaveLength(before + 8);
    expect((await endpointNow()).failingSince).toBeNull();
  });
});
