import { createDb, type DatabaseHandle, schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RATE_LIMIT_RETENTION_MS } from '../lib/rate-limit.ts';
import { newApiKey } from '../test-support/api-v1/client.ts';
import { openTestDb, useTestApp } from '../test-support/app.ts';
import { DAY, HOUR } from '../test-support/clock.ts';
import { jobsOf } from '../test-support/jobs.ts';
import { newOwner } from '../test-support/teams.ts';
import { defineJob, handleJob, type JobDefinition } from './define.ts';
import { pruneIdempotencyKeys } from './definitions/prune-idempotency-keys.ts';
import { pruneOutbox } from './definitions/prune-outbox.ts';
import { pruneRateLimitEvents } from './definitions/prune-rate-limit-events.ts';
import { pruneSessions } from './definitions/prune-sessions.ts';
import { createJobs, type Jobs } from './queue.ts';

/**
 * Maintenance is scheduled jobs (issue #14 item 2), on the engine of this run: each does its clean-up when it runs
 * (enqueued here directly rather than waiting for its hour), and one tick of a schedule runs one job however many
 * processes keep the time.
 */

const t = useTestApp();

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(definition: JobDefinition): Promise<unknown> {
  const id = await t.app.services.jobs.enqueue(definition, {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    const job = (await jobsOf(t.app, definition.name)).find((row) => row.id === id);
    if (job?.state === 'completed') return job.output;
    if (Date.now() > deadline) throw new Error(`${definition.name} did not complete: ${JSON.stringify(job)}`);
    await delay(20);
  }
}

async function newUser(email: string): Promise<number> {
  const [user] = await t.db.db.insert(schema.users).values({ email, passwordHash: 'x' }).returning();
  if (!user) throw new Error('no user');
  return user.id;
}

describe('maintenance jobs', () => {
  it('prune-sessions deletes the sessions past their expiry and keeps the others', async () => {
    const userId = await newUser('sessions@example.com');
    const now = t.clock.now().getTime();
    await t.db.db.insert(schema.sessions).values([
      { idHash: 'expired', userId, expiresAt: new Date(now - 1000) },
      { idHash: 'live', userId, expiresAt: new Date(now + HOUR) },
    ]);
    expect(await run(pruneSessions)).toEqual({ outcome: 'pruned' });
    const left = await t.db.db
      .select({ idHash: schema.sessions.idHash })
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, userId));
    expect(left).toEqual([{ idHash: 'live' }]);
  });

  it('prune-sessions also deletes sign-in ceremonies past their expiry (auth_challenges) and keeps the others', async () => {
    const now = t.clock.now().getTime();
    await t.db.db.insert(schema.authChallenges).values([
      { idHash: 'challenge-expired', kind: 'passkey_authentication', expiresAt: new Date(now - 1000) },
      { idHash: 'challenge-live', kind: 'passkey_authentication', expiresAt: new Date(now + HOUR) },
    ]);
    expect(await run(pruneSessions)).toEqual({ outcome: 'pruned' });
    const left = await t.db.db.select({ idHash: schema.authChallenges.idHash }).from(schema.authChallenges);
    expect(left.map((row) => row.idHash)).toContain('challenge-live');
    expect(left.map((row) => row.idHash)).not.toContain('challenge-expired');
  });

  it('prune-rate-limit-events deletes events older than any window and keeps the rest', async () => {
    const now = t.clock.now().getTime();
    await t.db.db.insert(schema.rateLimitEvents).values([
      { bucket: 'maintenance-test', createdAt: new Date(now - RATE_LIMIT_RETENTION_MS - 1000) },
      { bucket: 'maintenance-test', createdAt: new Date(now - DAY) },
    ]);
    expect(await run(pruneRateLimitEvents)).toEqual({ outcome: 'pruned' });
    const left = await t.db.db
      .select({ createdAt: schema.rateLimitEvents.createdAt })
      .from(schema.rateLimitEvents)
      .where(eq(schema.rateLimitEvents.bucket, 'maintenance-test'));
    expect(left).toEqual([{ createdAt: new Date(now - DAY) }]);
  });

  it('prune-outbox deletes development outbox messages older than a day', async () => {
    const [dbNow] = (await t.db.executeSql('SELECT now() AS now')).rows as { now: string | Date }[];
    const now = new Date(dbNow?.now ?? '').getTime();
    const message = (to: string, createdAt: number) => ({
      channel: 'email' as const,
      to,
      subject: 's',
      text: 't',
      html: null,
      createdAt: new Date(createdAt),
    });
    await t.db.db
      .insert(schema.outboxMessages)
      .values([
        message('old@example.com', now - DAY - 60_000),
        message('recent@example.com', now - 23 * HOUR),
      ]);
    expect(await run(pruneOutbox)).toEqual({ outcome: 'pruned', deleted: 1 });
    const left = await t.db.db.select({ to: schema.outboxMessages.to }).from(schema.outboxMessages);
    expect(left.map((m) => m.to)).toContain('recent@example.com');
    expect(left.map((m) => m.to)).not.toContain('old@example.com');
  });

  it('prune-idempotency-keys deletes API v1 Idempotency-Keys older than 24 hours', async () => {
    const owner = await newOwner(t.app);
    const { id: apiKeyId } = await newApiKey(owner, ['forms:read']);
    const now = t.clock.now().getTime();
    const row = (key: string, createdAt: number) => ({
      apiKeyId,
      key,
      requestHash: Buffer.alloc(32),
      state: 'done' as const,
      statusCode: 201,
      contentType: 'application/json; charset=utf-8',
      body: Buffer.from('{}'),
      createdAt: new Date(createdAt),
    });
    await t.db.db
      .insert(schema.apiIdempotencyKeys)
      .values([row('old', now - DAY - 1000), row('recent', now - 23 * HOUR)]);
    expect(await run(pruneIdempotencyKeys)).toEqual({ outcome: 'pruned', deleted: 1 });
    const left = await t.db.db
      .select({ key: schema.apiIdempotencyKeys.key })
      .from(schema.apiIdempotencyKeys)
      .where(eq(schema.apiIdempotencyKeys.apiKeyId, apiKeyId));
    expect(left).toEqual([{ key: 'recent' }]);
  });

  it('are scheduled hourly, at different minutes', async () => {
    const crons = [pruneSessions, pruneRateLimitEvents, pruneOutbox, pruneIdempotencyKeys].map(
      (d) => d.schedule?.cron ?? '',
    );
    for (const cron of crons) expect(cron).toMatch(/^\d{1,2} \* \* \* \*$/);
    expect(new Set(crons.map((cron) => cron.split(' ')[0])).size).toBe(crons.length);
  });
});

describe('a schedule’s tick', () => {
  const opened: DatabaseHandle[] = [];
  const started: Jobs[] = [];

  afterAll(async () => {
    for (const jobs of started) await jobs.stop();
    for (const database of opened.reverse()) await database.close();
  });

  it('runs one job although two processes keep the time', async () => {
    // A database of its own: a job system with other definitions than the app's would unschedule the app's jobs.
    const database = await openTestDb();
    opened.push(database);
    // Two processes: on PostgreSQL a second pool of connections; PGlite is one process's database, so its two
    // job systems share the one connection (pg-boss's guarantees are in SQL either way).
    let second = database;
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) {
      const [current] = (await database.executeSql('SELECT current_database() AS name')).rows as {
        name: string;
      }[];
      const url = new URL(serverUrl);
      url.pathname = `/${current?.name ?? ''}`;
      second = createDb({ kind: 'postgres', url: url.toString(), poolSize: 2 });
      opened.push(second);
    }

    // One tick only: the current minute of each hour, due now and not again during the test. Close to a minute's
    // end, the next minute is taken instead.
    if (Date.now() % 60_000 > 45_000) await delay(60_000 - (Date.now() % 60_000) + 200);
    const minute = new Date().getUTCMinutes();
    const runs: string[] = [];
    const ticking = defineJob({
      name: 'ticking',
      payload: z.object({}),
      schedule: { cron: `${minute} * * * *` },
      queue: { retryLimit: 0 },
      worker: { pollingIntervalSeconds: 1 },
    });
    const handler = handleJob(ticking, async (_payload, { job }) => {
      runs.push(job.id);
      return { outcome: 'ran' };
    });
    const log: FastifyBaseLogger = t.app.log;
    for (const handle of [database, second]) {
      // The cron checked every second by each (pg-boss's lower bound; 30 s in the app).
      const jobs = createJobs(handle, log, [ticking], { cronIntervalSeconds: 1 });
      started.push(jobs);
      await jobs.start({ handlers: [handler], rowStores: [] });
    }

    const deadline = Date.now() + 15_000;
    while (runs.length === 0 && Date.now() < deadline) await delay(50);
    expect(runs).toHaveLength(1);
    // Several more checks of the cron by both, within the same minute: no second job.
    await delay(4_000);
    expect(runs).toHaveLength(1);
    const stored = await database.executeSql("SELECT id FROM pgboss.job WHERE name = 'ticking'");
    expect(stored.rows).toEqual([{ id: runs[0] }]);
  }, 90_000);
});
