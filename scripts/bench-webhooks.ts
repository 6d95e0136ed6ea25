/**
 * Webhook delivery throughput (issue #17): events a second delivered by N server processes (default 2) to a fast
 * local receiver, against the physical limit, the same signed POSTs sent by a bare client with the same concurrency.
 *
 *     node scripts/bench-webhooks.ts --database-url postgres://postgres@127.0.0.1:5432/postgres [--events 5000]
 *       [--processes 2]
 *
 * Makes a fresh database on that server (dropped at the end) and starts the servers as production runs them
 * (`server.ts`, each its own process; WEBHOOKS_ALLOW_PRIVATE_URLS so they may deliver to loopback). Then it stores
 * the events, their deliveries and their first jobs at once, as changes would have, and times the drain until every
 * delivery has succeeded. Each delivery is one job: load, sign, POST (a new connection, as the sender never pools),
 * then the attempt's record (one statement when it succeeded) and pg-boss's completion.
 *
 * Before that, what an event costs the change that emits it: `emit()` in a transaction of its own, sequentially, for an
 * account without endpoints (the event row only) and with one subscribed endpoint (plus its delivery and job),
 * against the bare INSERT of the same event row.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, schema, transaction } from '@veriform/db';
import { eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { deliverWebhook } from '../apps/server/src/jobs/definitions/deliver-webhook.ts';
import { createJobs } from '../apps/server/src/jobs/queue.ts';
import { loadJobDefinitions } from '../apps/server/src/jobs/registry.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createSealer } from '../apps/server/src/lib/sealed.ts';
import { signDelivery } from '../apps/server/src/lib/webhook-signing.ts';
import { createWebhookEvents, newEventId } from '../apps/server/src/modules/webhooks/events.ts';
import { generateWebhookSecret, webhookSecretContext } from '../apps/server/src/modules/webhooks/secrets.ts';
import { deliveryBody } from '../apps/server/src/modules/webhooks/sender.ts';
import {
  createEmptyPostgresDatabase,
  serverEnv,
  startServer,
  stopServer,
} from '../apps/server/src/test-support/server-process.ts';
import { ms, quantile } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    events: { type: 'string', default: '5000' },
    processes: { type: 'string', default: '2' },
  },
});
const serverUrl = args['database-url'] ?? process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('--database-url (a PostgreSQL server) is required');
  process.exit(1);
}
const events = Math.max(1, Number(args.events));
const processes = Math.max(1, Number(args.processes));
/** The deliver-webhook worker's batch size: jobs each process runs at once. */
const concurrency = processes * deliverWebhook.worker.batchSize;

let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.statusCode = 204;
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { port } = receiver.address() as AddressInfo;
const url = `http://127.0.0.1:${port}/hooks`;

const secret = generateWebhookSecret();
const sample = {
  type: 'verification.approved',
  createdAt: new Date(),
  data: { id: 'x'.repeat(22), status: 'approved' },
};

/** The physical limit: the same signed POSTs, a new connection each, `concurrency` at once. */
async function bareClient(n: number): Promise<number> {
  let next = 0;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const body = deliveryBody(sample);
      const headers = signDelivery({ id: newEventId(), timestamp: new Date(), body, secrets: [secret] });
      const req = request(
        url,
        { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next += 1;
        await post();
      }
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

const created = await createEmptyPostgresDatabase(serverUrl);
const dataDir = mkdtempSync(join(tmpdir(), 'vf-bench-webhooks-'));
const secretKey = randomBytes(32).toString('base64url');
const servers = [];
try {
  const bare = await bareClient(events);

  // The first server migrates and installs the queues; the others start on that.
  const env = {
    ...serverEnv({ databaseUrl: created.url, dataDir }, secretKey),
    WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    NODE_ENV: 'development',
  };
  servers.push(await startServer(env));
  for (let i = 1; i < processes; i += 1) servers.push(await startServer(env));

  const database = createDb({ kind: 'postgres', url: created.url, poolSize: 4 });
  try {
    const { db } = database;
    const [account] = await db.insert(schema.accounts).values({ displayName: 'Bench Co' }).returning();
    if (!account) throw new Error('no account');
    const [endpoint] = await db
      .insert(schema.webhookEndpoints)
      .values({ accountId: account.id, url, eventTypes: ['*'], secretSealed: '-' })
      .returning();
    if (!endpoint) throw new Error('no endpoint');
    await db
      .update(schema.webhookEndpoints)
      .set({ secretSealed: createSealer(secretKey).seal(secret, webhookSecretContext(endpoint.id)) })
      .where(eq(schema.webhookEndpoints.id, endpoint.id));

    const ids: number[] = [];
    for (let offset = 0; offset < events; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, events - offset) }, () => ({
        id: newEventId(),
        accountId: account.id,
        type: sample.type,
        data: sample.data,
        createdAt: sample.createdAt,
      }));
      await db.insert(schema.webhookEvents).values(batch);
      const deliveries = await db
        .insert(schema.webhookDeliveries)
        .values(
          batch.map((e) => ({
            accountId: account.id,
            eventId: e.id,
            endpointId: endpoint.id,
            eventCreatedAt: e.createdAt,
          })),
        )
        .returning({ id: schema.webhookDeliveries.id });
      ids.push(...deliveries.map((d) => d.id));
    }
    // What an event costs its change (no worker runs in this process: the servers' workers deliver these too).
    const emitRounds = 500;
    const [quiet] = await db.insert(schema.accounts).values({ displayName: 'No endpoints' }).returning();
    if (!quiet) throw new Error('no account');
    const queue = createJobs(database, pino({ level: 'silent' }), await loadJobDefinitions());
    const { emit } = createWebhookEvents({ clock: systemClock, jobs: queue });
    const timed = async (work: () => Promise<unknown>): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < emitRounds; i += 1) {
        const t0 = performance.now();
        await work();
        times.push(performance.now() - t0);
      }
      return times;
    };
    const bareInsert = await timed(() =>
      transaction(db, (tx) =>
        tx
          .insert(schema.webhookEvents)
          .values({ id: newEventId(), accountId: quiet.id, type: sample.type, data: sample.data }),
      ),
    );
    const emitNone = await timed(() =>
      transaction(db, (tx) => emit(tx, quiet.id, { type: 'verification.approved', data: sample.data })),
    );
    const emitOne = await timed(() =>
      transaction(db, (tx) => emit(tx, account.id, { type: 'verification.approved', data: sample.data })),
    );
    const line = (name: string, xs: number[]) =>
      `${name.padEnd(40)} p50 ${ms(quantile(xs, 0.5))} ms  p95 ${ms(quantile(xs, 0.95))} ms  (×${(quantile(xs, 0.5) / quantile(bareInsert, 0.5)).toFixed(2)} the bare insert)`;
    console.log(`emit() in its own transaction, ${emitRounds} sequential:`);
    console.log(line('bare INSERT of the event row', bareInsert));
    console.log(line('emit, account without endpoints', emitNone));
    console.log(line('emit, one subscribed endpoint (+delivery)', emitOne));
    // Let the servers deliver what emitOne queued before the drain is timed.
    const succeeded = async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(schema.webhookDeliveries)
        .where(eq(schema.webhookDeliveries.status, 'succeeded'));
      return row?.n ?? 0;
    };
    const settle = Date.now() + 60_000;
    while ((await succeeded()) < emitRounds && Date.now() < settle)
      await new Promise((r) => setTimeout(r, 100));
    const already = await succeeded();
    received = 0;
    const started = performance.now();
    // The deliveries come due (their rows are the queue, ADR 33): the servers' workers claim them.
    for (let offset = 0; offset < ids.length; offset += 1000) {
      await db
        .update(schema.webhookDeliveries)
        .set({ dueAt: sql`now()` })
        .where(inArray(schema.webhookDeliveries.id, ids.slice(offset, offset + 1000)));
    }
    const deadline = Date.now() + 30 * 60_000;
    let done = 0;
    while (done < events && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      done = (await succeeded()) - already;
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = done / seconds;
    console.log(`events: ${events}, processes: ${processes} (${concurrency} deliveries at once)`);
    console.log(`bare client, same signed POSTs:  ${bare.toFixed(0)} events/s`);
    console.log(
      `delivered by the servers:        ${rate.toFixed(0)} events/s (${done} in ${seconds.toFixed(1)} s)`,
    );
    console.log(`ratio to the bare client:        ${(bare / rate).toFixed(1)}×; receiver heard ${received}`);
  } finally {
    await database.close();
  }
} finally {
  for (const server of servers) await stopServer(server);
  receiver.close();
  await created.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
