import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type DatabaseHandle, schema } from '@veriform/db';
import { createProcessDatabase } from '@veriform/db/testing';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installJobs } from '../../jobs/queue.ts';
import { createSealer } from '../../lib/sealed.ts';
import { type ServerProcess, serverEnv, startServer, stopServer } from '../../test-support/server-process.ts';
import { newEventId } from './events.ts';
import { generateWebhookSecret, webhookSecretContext } from './secrets.ts';

/**
 * A crash of the delivering process mid-request loses no event (issue #17, Proof), on the engine of this run. The
 * server (its own process, as production runs it) starts a delivery; the receiver holds the request open, and the
 * server is killed with SIGKILL while it waits. Its attempt was never recorded; the delivery's claim, cut off, lapses
 * and the next process claims it, delivering the same event (same `webhook-id`, valid signature) once the receiver
 * answers. A claim's lease is 30 s (ADR 33); the test moves the cut-off claim's lease an hour back rather than
 * waiting.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'PGlite';

type Received = { headers: Record<string, string>; body: string };

/** The Standard Webhooks headers of a request, as the verifier takes them. */
function webhookHeaders(request: IncomingMessage): Record<string, string> {
  const names = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  return Object.fromEntries(names.map((name) => [name, String(request.headers[name] ?? '')]));
}

describe(`a webhook delivery survives a crash on ${engine}`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-webhook-crash-'));
  const secretKey = randomBytes(32).toString('base64url');
  const signingSecret = generateWebhookSecret();
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let receiver: Server;
  const received: Received[] = [];
  /** The first request is held open (the crash comes while it waits); later ones are answered 200. */
  let onFirst: () => void = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    onFirst = resolve;
  });

  const openDirectly = (): DatabaseHandle =>
    databaseUrl
      ? createDb({ kind: 'postgres', url: databaseUrl, poolSize: 2 })
      : createDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  const start = (): Promise<ServerProcess> =>
    startServer({ ...serverEnv({ databaseUrl, dataDir }, secretKey), WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' });

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: webhookHeaders(request), body: Buffer.concat(chunks).toString() });
        if (received.length === 1) onFirst();
        else response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const created = await createProcessDatabase(inject('testDbTemplate'), join(dataDir, 'pglite'));
    databaseUrl = created.databaseUrl;
    dropDatabase = created.drop;
  }, 60_000);

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An endpoint, an event and its delivery, due now, as a change would have left them. */
  async function seed(): Promise<{ eventId: string; deliveryId: number }> {
    const database = openDirectly();
    try {
      await database.migrate();
      await installJobs(database);
      const [account] = await database.db
        .insert(schema.accounts)
        .values({ displayName: 'Crash Co' })
        .returning();
      if (!account) throw new Error('no account');
      const { port } = receiver.address() as AddressInfo;
      const [endpoint] = await database.db
        .insert(schema.webhookEndpoints)
        .values({
          accountId: account.id,
          url: `http://127.0.0.1:${port}/hooks`,
          eventTypes: ['*'],
          secretSealed: 'sealed below, under its id',
        })
        .returning();
      if (!endpoint) throw new Error('no endpoint');
      await database.db
        .update(schema.webhookEndpoints)
        .set({ secretSealed: createSealer(secretKey).seal(signingSecret, webhookSecretContext(endpoint.id)) })
        .where(eq(schema.webhookEndpoints.id, endpoint.id));
      const eventId = newEventId();
      const createdAt = new Date();
      await database.db.insert(schema.webhookEvents).values({
        id: eventId,
        accountId: account.id,
        type: 'form.created',
        data: { id: 7, name: 'Leads' },
        createdAt,
      });
      const [delivery] = await database.db
        .insert(schema.webhookDeliveries)
        .values({
          accountId: account.id,
          eventId,
          endpointId: endpoint.id,
          eventCreatedAt: createdAt,
          dueAt: createdAt,
        })
        .returning();
      if (!delivery) throw new Error('no delivery');
      return { eventId, deliveryId: delivery.id };
    } finally {
      await database.close();
    }
  }

  /** What time does to a claim whose process died: its lease passes, and the delivery is due again. */
  async function expireCutOffJobs(): Promise<number> {
    const database = openDirectly();
    try {
      const moved = await database.executeSql(
        `UPDATE webhook_deliveries SET due_at = due_at - interval '1 hour'
         WHERE claims > 0 AND due_at > now() RETURNING id`,
      );
      return moved.rows.length;
    } finally {
      await database.close();
    }
  }

  it('SIGKILL while the receiver holds the request: another process delivers the same event', async () => {
    const { eventId, deliveryId } = await seed();

    const first = await start();
    await firstArrived;
    expect(await stopServer(first, 'SIGKILL')).toBeNull();
    expect(await expireCutOffJobs()).toBe(1);

    const second = await start();
    try {
      const deadline = Date.now() + 60_000;
      while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(received.length, second.output.join('')).toBe(2);
    } finally {
      expect(await stopServer(second)).toBe(0);
    }

    const verifier = new Webhook(signingSecret);
    for (const { headers, body } of received) {
      expect(headers['webhook-id']).toBe(eventId);
      expect(verifier.verify(body, headers)).toMatchObject({
        type: 'form.created',
      });
    }
    expect(received[1]?.body).toBe(received[0]?.body);

    const database = openDirectly();
    try {
      const [delivery] = await database.db
        .select()
        .from(schema.webhookDeliveries)
        .where(eq(schema.webhookDeliveries.id, deliveryId));
      expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 1 });
      const attempts = await database.db
        .select({ statusCode: schema.webhookDeliveryAttempts.statusCode })
        .from(schema.webhookDeliveryAttempts)
        .where(eq(schema.webhookDeliveryAttempts.deliveryId, deliveryId));
      // The cut-off attempt left no record: it never finished.
      expect(attempts).toEqual([{ statusCode: 200 }]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
