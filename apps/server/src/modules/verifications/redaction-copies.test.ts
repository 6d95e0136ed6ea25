import type { ApiCheckResult, ApiVerification, WebhookEndpoint } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { waitForSend } from '../../test-support/attempts.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { spellingsOf, whereStored } from '../../test-support/stored.ts';
import { newOwner } from '../../test-support/teams.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test-support/webhook-receiver.ts';

/**
 * Issue #33 item 4 (ADR 25): a redaction reaches every copy of the person. A verification started through API v1,
 * resent twice and approved, delivered to a receiver that echoes what it got and more, asked with Idempotency-Keys:
 * after its redaction no read path answers any spelling of the number, the address in any case, the IP or the user
 * agent it was asked from, and no row of the database holds one.
 */

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });
const { verificationAttempts, webhookDeliveries, webhookDeliveryAttempts, webhookEvents } = schema;

/** Where the consumer's codes were asked from: the caller's server (API v1 keeps it as the evidence). */
const CONSUMER_IP = '203.0.113.77';
const CONSUMER_UA = 'ConsumerPhone/7.1 (Redaction; Test)';

let receiver: WebhookReceiver;
let phone: { typed: string; e164: string };
const email = 'Jane.Roe+loans@Example.COM';

beforeAll(async () => {
  // The receiver answers with what it got, and then some: the number in every spelling, the address in capitals,
  // the IP and user agent (a receiver logging its request, say). The first 1 KB is kept with the delivery.
  receiver = await startWebhookReceiver((_, delivery) => ({
    status: 200,
    body: JSON.stringify({
      seen: spellingsOf(phone.e164),
      email: email.toUpperCase(),
      ip: CONSUMER_IP,
      userAgent: CONSUMER_UA,
      got: delivery.body,
    }),
  }));
});
afterAll(() => receiver.close());

describe('a redacted verification started through API v1', () => {
  it('leaves no spelling of the number or address, nor the IP or user agent, in any read path or any row', async () => {
    phone = newCellPhone();
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Loan application' });
    const created = await owner.c.post('/api/webhook-endpoints', {
      account: owner.accountId,
      url: receiver.url,
      eventTypes: ['*'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = created.json<WebhookEndpoint>();
    const { key } = await newApiKey(
      owner,
      ['verifications:read', 'verifications:write', 'events:read', 'audit:read'],
      'live',
    );

    /** An API v1 call as the customer's server makes it for the consumer (their IP and user agent). */
    const asked = (method: 'GET' | 'POST', url: string, payload?: unknown, idempotencyKey?: string) =>
      t.app.inject({
        method,
        url,
        remoteAddress: CONSUMER_IP,
        headers: {
          authorization: `Bearer ${key}`,
          'user-agent': CONSUMER_UA,
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
    /** A read of API v1 afterwards, from the customer's back office. */
    const read = (method: 'GET' | 'POST', url: string, payload?: unknown, idempotencyKey?: string) =>
      t.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${key}`,
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });

    // Started, resent twice (each resend replaces the code before it), approved; a certificate is issued.
    const startBody = {
      formId: form.id,
      to: phone.typed,
      channel: 'email',
      email,
      externalRefId: 'lead-7781',
    };
    const started = await asked('POST', '/api/v1/verifications', startBody, 'start-1');
    expect(started.statusCode, started.body).toBe(201);
    const ids = [started.json<ApiVerification>().id ?? ''];
    await waitForSend(t.app, ids[0] ?? '');
    for (const n of [1, 2]) {
      t.clock.advance(31_000);
      const last = ids.at(-1) ?? '';
      const resent = await asked('POST', `/api/v1/verifications/${last}/resend`, {}, `resend-${n}`);
      expect(resent.statusCode, resent.body).toBe(201);
      ids.push(resent.json<ApiVerification>().id ?? '');
      await waitForSend(t.app, ids.at(-1) ?? '');
    }
    const approvedId = ids.at(-1) ?? '';
    const code = await latestCodeTo(t.app, email);
    t.clock.advance(20_000);
    const checked = await asked('POST', `/api/v1/verifications/${approvedId}/check`, { code }, 'check-1');
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json<ApiCheckResult>().status).toBe('approved');
    const certificate = await read('GET', `/api/v1/verifications/${approvedId}/certificate`);
    expect(certificate.statusCode, certificate.body).toBe(200);
    const replaced = await t.db.db
      .select({ id: verificationAttempts.id, status: verificationAttempts.status })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.accountId, owner.accountId));
    expect(replaced.filter((a) => a.status === 'replaced').map((a) => a.id)).toEqual(
      expect.arrayContaining(ids.slice(0, 2)),
    );
    const [approved] = await t.db.db
      .select({ verificationId: verificationAttempts.verificationId })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.id, approvedId));
    const verificationId = approved?.verificationId ?? 0;

    // Every event delivered, each receiver's answer kept.
    const events = await t.db.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.accountId, owner.accountId));
    expect(events.length).toBeGreaterThanOrEqual(4);
    for (const deadline = Date.now() + 10_000; ; ) {
      const open = await t.db.db
        .select()
        .from(webhookDeliveries)
        .where(
          and(eq(webhookDeliveries.accountId, owner.accountId), ne(webhookDeliveries.status, 'succeeded')),
        );
      if (open.length === 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `deliveries not done: ${JSON.stringify({ open, events: events.map((e) => e.type) })}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    // The owner finds the person's records as an erasure request names them, exporting what the search finds: the
    // audit log records those exports with their filters, and is never rewritten (issue #33: the search is masked).
    for (const q of [phone.typed, phone.e164.slice(2), email]) {
      const search = `account=${owner.accountId}&q=${encodeURIComponent(q)}`;
      const activity = await owner.c.get(`/api/verifications/export-csv?${search}`);
      expect(activity.statusCode, activity.body).toBe(200);
      // The search by number found it: a header and the verification (the log's search does not read addresses).
      if (q !== email) expect(activity.body.trim().split('\n'), q).toHaveLength(2);
      const attempts = await owner.c.get(`/api/verification-attempts/export-csv?${search}`);
      expect(attempts.statusCode, attempts.body).toBe(200);
    }

    const redacted = await owner.c.post(
      `/api/verifications/${verificationId}/redact?account=${owner.accountId}`,
    );
    expect(redacted.statusCode, redacted.body).toBe(200);

    // An owner replays an event afterwards: what is sent is masked, but the receiver answers from its own records.
    const [approvedEvent] = events.filter((e) => e.type === 'verification.approved');
    const replayed = await owner.c.post(`/api/webhook-events/${approvedEvent?.id}/replay`, {
      endpointId: endpoint.id,
    });
    expect(replayed.statusCode, replayed.body).toBe(202);
    const sentBefore = receiver.received.length;
    await receiver.waitFor(sentBefore + 1);
    for (const deadline = Date.now() + 10_000; ; ) {
      const tries = await t.db.db
        .select({ trigger: webhookDeliveryAttempts.trigger })
        .from(webhookDeliveryAttempts)
        .where(eq(webhookDeliveryAttempts.trigger, 'replay'));
      if (tries.length > 0) break;
      if (Date.now() > deadline) throw new Error('the replay was not recorded');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(receiver.received.at(-1)?.body).not.toContain(phone.e164);

    // Every read path, after.
    const answers: [string, string][] = [];
    const keep = (label: string, response: { statusCode: number; body: string }) => {
      expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
      answers.push([label, response.body]);
    };
    for (const id of ids) keep(`API get ${id}`, await read('GET', `/api/v1/verifications/${id}`));
    keep('API list', await read('GET', '/api/v1/verifications?limit=100'));
    const eventPage = await read('GET', '/api/v1/events?limit=100');
    keep('API events', eventPage);
    for (const event of eventPage.json<{ data: { id: string }[] }>().data)
      keep(`API event ${event.id}`, await read('GET', `/api/v1/events/${event.id}`));
    keep('API certificate', await read('GET', `/api/v1/verifications/${approvedId}/certificate`));
    keep('API audit events', await read('GET', '/api/v1/audit-events?limit=100'));
    keep('replay start', await read('POST', '/api/v1/verifications', startBody, 'start-1'));
    keep('replay resend 1', await read('POST', `/api/v1/verifications/${ids[0]}/resend`, {}, 'resend-1'));
    keep('replay resend 2', await read('POST', `/api/v1/verifications/${ids[1]}/resend`, {}, 'resend-2'));
    keep(
      'replay check',
      await read('POST', `/api/v1/verifications/${approvedId}/check`, { code }, 'check-1'),
    );
    expect(answers.filter(([label]) => label.startsWith('replay')).map(([, body]) => body)).not.toContain('');

    const account = `account=${owner.accountId}`;
    keep('detail', await owner.c.get(`/api/verifications/${verificationId}?${account}`));
    keep('timeline', await owner.c.get(`/api/verifications/${verificationId}/timeline?${account}`));
    keep('list', await owner.c.get(`/api/verifications?${account}`));
    keep('attempts', await owner.c.get(`/api/verification-attempts?${account}`));
    for (const q of [...spellingsOf(phone.e164), email, email.toLowerCase()]) {
      const search = `${account}&q=${encodeURIComponent(q)}`;
      keep(`list q=${q}`, await owner.c.get(`/api/verifications?${search}`));
      keep(`attempts q=${q}`, await owner.c.get(`/api/verification-attempts?${search}`));
    }
    keep('attempts CSV', await owner.c.get(`/api/verification-attempts/export-csv?${account}`));
    keep('activity CSV', await owner.c.get(`/api/verifications/export-csv?${account}`));
    const typed = `${account}&q=${encodeURIComponent(phone.typed)}`;
    keep('activity CSV q', await owner.c.get(`/api/verifications/export-csv?${typed}`));
    keep('attempts CSV q', await owner.c.get(`/api/verification-attempts/export-csv?${typed}`));
    keep(
      'deliveries',
      await owner.c.get(`/api/webhook-endpoints/${endpoint.id}/deliveries?${account}&limit=100`),
    );
    keep('audit log', await owner.c.get(`/api/audit-events?${account}&pageSize=100`));
    keep('audit CSV', await owner.c.get(`/api/audit-events/export?${account}&format=csv`));
    keep('audit JSON Lines', await owner.c.get(`/api/audit-events/export?${account}&format=jsonl`));

    const needles = [...spellingsOf(phone.e164), email.toLowerCase(), CONSUMER_IP, CONSUMER_UA.toLowerCase()];
    const leaks = answers.flatMap(([label, body]) =>
      needles
        .filter((needle) => body.toLowerCase().includes(needle.toLowerCase()))
        .map((n) => `${label}: ${n}`),
    );
    expect(leaks).toEqual([]);
    // The reads did read the redacted records (a read that answers nothing proves nothing).
    const masked = `+1 ••• ••• ${phone.e164.slice(-4)}`;
    for (const label of [
      'API list',
      'API events',
      'list',
      'attempts',
      'detail',
      'replay start',
      'replay check',
    ])
      expect(answers.find(([l]) => l === label)?.[1], label).toContain(masked);
    const deliveries = answers.find(([l]) => l === 'deliveries')?.[1] ?? '';
    expect(deliveries).toContain('"responseSnippet":"[redacted]"');
    expect(deliveries).toContain('"trigger":"replay"');

    // And no row anywhere: every table's rows as text, every bytea column (stored API answers) as text too; the
    // search finds the masked number where the attempts are (a search that finds nothing proves nothing).
    expect(await whereStored(t.db.db, [masked])).toContain('public.verification_attempts: 3');
    expect(await whereStored(t.db.db, needles)).toEqual([]);
  }, 120_000);
});
