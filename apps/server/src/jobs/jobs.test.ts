import { readdir } from 'node:fs/promises';
import { type DatabaseHandle, schema, transaction } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDb, useTestApp } from '../test-support/app.ts';
import { jobsOf } from '../test-support/jobs.ts';
import { createBoss } from './boss.ts';
import type { RowStore } from './claims.ts';
import { defineJob, defineRowJob, handleJob, isJobDefinition, type JobContext } from './define.ts';
import { sendInvitationEmail } from './definitions/send-invitation-email.ts';
import { createJobs, type Jobs } from './queue.ts';
import { loadJobDefinitions } from './registry.ts';

/**
 * The job system (issue #14 item 2) on the engine of this run: jobs are the files of definitions/, payloads are
 * checked, a job enqueued in a transaction lives and dies with it and wakes the worker only once committed, and
 * finished jobs leave the database.
 */

const t = useTestApp();

const rows = async <T>(database: DatabaseHandle, text: string, values: unknown[] = []) =>
  (await database.executeSql(text, values)).rows as T[];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not in time: ${JSON.stringify(value)}`);
    await delay(10);
  }
}

/** Waits until job `id` has completed; answers its stored output. */
async function completed(database: DatabaseHandle, id: string): Promise<unknown> {
  const [job] = await until(
    () =>
      rows<{ state: string; output: unknown }>(
        database,
        'SELECT state, output FROM pgboss.job WHERE id = $1',
        [id],
      ),
    ([row]) => row?.state === 'completed',
  );
  return job?.output;
}

describe('job definitions', () => {
  it('are the files of jobs/definitions/, each named after its job; the template and the app have their queues', async () => {
    const files = (await readdir(new URL('./definitions/', import.meta.url))).sort();
    const definitions = await loadJobDefinitions();
    expect(definitions.map((d) => `${d.name}.ts`)).toEqual(files);

    const queues = await rows<{ name: string; retry_limit: number; expire_seconds: number }>(
      t.db,
      'SELECT name, retry_limit, expire_seconds FROM pgboss.queue',
    );
    for (const { name, queue } of definitions.filter(isJobDefinition)) {
      expect(queues).toContainEqual({
        name,
        retry_limit: queue.retryLimit,
        expire_seconds: queue.expireInSeconds,
      });
    }
    const schedules = await rows<{ name: string; cron: string }>(
      t.db,
      'SELECT name, cron FROM pgboss.schedule',
    );
    expect(schedules.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      definitions
        .filter(isJobDefinition)
        .flatMap(({ name, schedule }) => (schedule ? [{ name, cron: schedule.cron }] : [])),
    );
  });

  it('enqueue refuses a payload its schema refuses, and a definition that is not a file of definitions/', async () => {
    const before = await jobsOf(t.app, sendInvitationEmail.name);
    await expect(
      t.app.services.jobs.enqueue(sendInvitationEmail, { invitationId: -1, sealedKey: '' }),
    ).rejects.toThrow(z.ZodError);
    const stray = defineJob({
      name: 'stray',
      payload: z.object({}),
      queue: { retryLimit: 0 },
    });
    await expect(t.app.services.jobs.enqueue(stray, {})).rejects.toThrow("job 'stray' is not one of");
    expect(await jobsOf(t.app, sendInvitationEmail.name)).toEqual(before);
  });
});

describe('enqueue in the caller’s transaction', () => {
  it('a rolled-back transaction leaves neither its write nor its job', async () => {
    const invitationId = 900_000_001;
    const marker = 'rolled-back@example.com';
    await expect(
      transaction(t.db.db, async (tx) => {
        await tx.insert(schema.outboxMessages).values({
          channel: 'email',
          to: marker,
          subject: null,
          text: 'never',
          html: null,
          createdAt: t.clock.now(),
        });
        await t.app.services.jobs.enqueue(sendInvitationEmail, { invitationId, sealedKey: 'v1.x' }, { tx });
        throw new Error('something after the write failed');
      }),
    ).rejects.toThrow('something after the write failed');

    const jobs = await rows(t.db, "SELECT id FROM pgboss.job WHERE (data->>'invitationId')::int = $1", [
      invitationId,
    ]);
    expect(jobs).toEqual([]);
    const outbox = await t.db.db
      .select()
      .from(schema.outboxMessages)
      .where(eq(schema.outboxMessages.to, marker));
    expect(outbox).toEqual([]);
  });

  it('enqueueMany stores every job with the transaction (2,500: three statements), and none when it rolls back', async () => {
    const payloads = (base: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ invitationId: base + i, sealedKey: 'v1.x' }));
    const count = async (base: number) =>
      rows<{ n: number }>(
        t.db,
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND (data->>'invitationId')::int BETWEEN $2 AND $3",
        [sendInvitationEmail.name, base, base + 9_999],
      );
    await expect(
      transaction(t.db.db, async (tx) => {
        await t.app.services.jobs.enqueueMany(sendInvitationEmail, payloads(910_000_000, 10), { tx });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await count(910_000_000)).toEqual([{ n: 0 }]);

    // Far in the future, so that no worker runs them during the test.
    const startAfter = new Date(Date.now() + 3_600_000);
    await transaction(t.db.db, (tx) =>
      t.app.services.jobs.enqueueMany(sendInvitationEmail, payloads(920_000_000, 2_500), { tx, startAfter }),
    );
    expect(await count(920_000_000)).toEqual([{ n: 2_500 }]);
    await expect(
      t.app.services.jobs.enqueueMany(sendInvitationEmail, [{ invitationId: -1, sealedKey: '' }]),
    ).rejects.toThrow(z.ZodError);
  });

  describe('with a worker that polls only every 30 s', () => {
    let other: DatabaseHandle;
    let jobs: Jobs;
    const ran: { payload: { n: number }; context: JobContext; at: number }[] = [];
    const logLines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
    const probe = defineJob({
      name: 'probe',
      payload: z.object({ n: z.number().int() }),
      queue: { retryLimit: 0, expireInSeconds: 30 },
      // Only a wake-up after the commit can run a job before the next poll.
      worker: { batchSize: 2, pollingIntervalSeconds: 30 },
    });
    const handler = handleJob(probe, async (payload, context) => {
      ran.push({ payload, context, at: Date.now() });
      context.log.info('probe ran');
      return { outcome: 'ran', n: payload.n };
    });

    beforeAll(async () => {
      // A database of its own: a job system with other definitions than the app's would unschedule the app's jobs.
      other = await openTestDb();
      jobs = createJobs(other, log, [probe]);
      await jobs.start({ handlers: [handler], rowStores: [] });
    });

    afterAll(async () => {
      await jobs?.stop();
      await other?.close();
    });

    it('the job is stored by the transaction, and the worker is woken once it has committed, not before', async () => {
      // The worker's first poll is at its start; from then on it sleeps 30 s unless woken.
      await delay(200);
      let id = '';
      await transaction(other.db, async (tx) => {
        await tx.execute(sql`select 1`);
        id = await jobs.enqueue(probe, { n: 1 }, { tx });
        if (other.kind === 'postgres') {
          // Other connections do not see it yet (PGlite has one connection, held by this transaction).
          expect(await rows(other, 'SELECT id FROM pgboss.job WHERE id = $1', [id])).toEqual([]);
        }
        // A wake-up now would find nothing and leave the worker asleep for 30 s.
        await delay(300);
      });
      const committedAt = Date.now();
      const [first] = await until(
        () => ran,
        (r) => r.length === 1,
      );
      expect(first?.at).toBeLessThan(committedAt + 5_000);
      expect(first?.payload).toEqual({ n: 1 });
      // The handler's context: the job's metadata, and a logger that names the job.
      expect(first?.context.job).toMatchObject({ id, name: 'probe', retryCount: 0, retryLimit: 0 });
      expect(logLines).toContainEqual(
        expect.objectContaining({ msg: 'probe ran', jobId: id, queue: 'probe' }),
      );
      const output = await completed(other, id);
      expect(output).toEqual({ outcome: 'ran', n: 1 });
    });

    it('a burst drains batch after batch, not a batch per poll', async () => {
      const before = ran.length;
      // Stored behind `enqueue`'s back: only the last one wakes the worker, which then finds six.
      await other.executeSql(
        `INSERT INTO pgboss.job (name, data) SELECT 'probe', jsonb_build_object('n', n) FROM generate_series(10, 14) n`,
      );
      const started = Date.now();
      await jobs.enqueue(probe, { n: 15 });
      await until(
        () => ran.length,
        (n) => n === before + 6,
      );
      // Three batches of two; waiting for a poll between them would take a minute.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(
        ran
          .slice(before)
          .map((r) => r.payload.n)
          .sort(),
      ).toEqual([10, 11, 12, 13, 14, 15]);
    });

    it('a job whose data its schema refuses is dropped with an error in the log, its handler never called', async () => {
      const before = ran.length;
      const [stored] = await rows<{ id: string }>(
        other,
        `INSERT INTO pgboss.job (name, data) VALUES ('probe', '{"n":"one"}') RETURNING id`,
      );
      const id = stored?.id ?? '';
      // Stored behind `enqueue`'s back, so nothing wakes the worker: the next job does, and both are fetched.
      await jobs.enqueue(probe, { n: 2 });
      const output = await completed(other, id);
      expect(output).toEqual({ outcome: 'malformed' });
      expect(logLines).toContainEqual(
        expect.objectContaining({ level: 50, msg: 'probe: malformed job data; dropped', jobId: id }),
      );
      await until(
        () => ran.length,
        (n) => n === before + 1,
      );
      expect(ran.slice(before).map((r) => r.payload)).toEqual([{ n: 2 }]);
    });
  });
});

describe('with a shortest polling interval (config jobPollingMinSeconds)', () => {
  let other: DatabaseHandle;
  let jobs: Jobs;
  let startedAt = 0;
  const log = pino({ level: 'silent' });
  // Both would poll every half second on their own.
  const probe = defineJob({
    name: 'probe',
    payload: z.object({ n: z.number().int() }),
    queue: { retryLimit: 0, expireInSeconds: 30 },
    worker: { batchSize: 1, pollingIntervalSeconds: 0.5 },
  });
  const rowProbe = defineRowJob({
    name: 'row-probe',
    payload: z.object({}),
    retry: { limit: 0, delaySeconds: 1 },
    leaseSeconds: 30,
    worker: { batchSize: 1, pollingIntervalSeconds: 0.5 },
  });
  const ranAt: number[] = [];
  const claimedAt: number[] = [];
  const rowStore: RowStore = {
    name: rowProbe.name,
    async claim() {
      claimedAt.push(Date.now());
      return [];
    },
    async done() {},
    async retry() {},
    async giveUp() {},
  };

  beforeAll(async () => {
    other = await openTestDb();
    jobs = createJobs(other, log, [probe, rowProbe], { pollingMinSeconds: 5 });
    await jobs.start({
      handlers: [
        handleJob(probe, async () => {
          ranAt.push(Date.now());
          return { outcome: 'ran' };
        }),
        handleJob(rowProbe, async () => ({ outcome: 'ran' })),
      ],
      rowStores: [rowStore],
    });
    startedAt = Date.now();
  });

  afterAll(async () => {
    await jobs?.stop();
    await other?.close();
  });

  it('an idle worker polls no more often than that: a job stored behind its back waits for the next poll', async () => {
    // After the worker's first poll (at its start), a job stored without a wake-up: only the next poll finds it,
    // 5 s after the first rather than 0.5 s.
    await delay(1_000);
    const storedAt = Date.now();
    await other.executeSql(`INSERT INTO pgboss.job (name, data) VALUES ('probe', '{"n":1}')`);
    await until(
      () => ranAt.length,
      (n) => n === 1,
    );
    expect((ranAt[0] ?? 0) - storedAt).toBeGreaterThanOrEqual(2_500);
    // The row job's claimer likewise: its first claim at start, the next one 5 s later, none between.
    expect(claimedAt.filter((at) => at < startedAt + 4_000)).toHaveLength(1);
  });

  it('a job enqueued by this process still wakes its worker at once', async () => {
    const enqueuedAt = Date.now();
    await jobs.enqueue(probe, { n: 2 });
    await until(
      () => ranAt.length,
      (n) => n === 2,
    );
    expect((ranAt[1] ?? 0) - enqueuedAt).toBeLessThan(4_000);
  });
});

describe('finished jobs', () => {
  it('are archived 5 minutes after they finished and deleted 15 minutes later (pg-boss maintenance)', async () => {
    const { boss } = createBoss(t.db, { supervise: false, schedule: false });
    boss.on('error', () => {});
    await boss.start();
    try {
      const id = await t.app.services.jobs.enqueue(sendInvitationEmail, {
        invitationId: 900_000_002,
        sealedKey: 'x',
      });
      await completed(t.db, id);
      const archived = () => rows(t.db, 'SELECT id FROM pgboss.archive WHERE id = $1', [id]);
      const live = () => rows(t.db, 'SELECT id FROM pgboss.job WHERE id = $1', [id]);

      await t.db.executeSql(
        "UPDATE pgboss.job SET completed_on = now() - interval '4 minutes' WHERE id = $1",
        [id],
      );
      await boss.maintain();
      expect([await live(), await archived()]).toEqual([[{ id }], []]);

      await t.db.executeSql(
        "UPDATE pgboss.job SET completed_on = now() - interval '6 minutes' WHERE id = $1",
        [id],
      );
      await boss.maintain();
      expect([await live(), await archived()]).toEqual([[], [{ id }]]);

      await t.db.executeSql(
        "UPDATE pgboss.archive SET archived_on = now() - interval '16 minutes' WHERE id = $1",
        [id],
      );
      await boss.maintain();
      expect([await live(), await archived()]).toEqual([[], []]);
    } finally {
      await boss.stop({ graceful: false, close: false });
    }
  });
});
