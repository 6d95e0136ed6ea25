import type { DatabaseHandle } from '@veriform/db';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { reportError } from '../lib/error-reporting.ts';
import { createBoss, installJobSchema, type QueueDefinition } from './boss.ts';
import {
  type SendVerificationCodeData,
  type SendVerificationCodeDeps,
  sendVerificationCodeHandler,
  sendVerificationCodeQueue,
} from './send-verification-code.ts';

/**
 * The app's background jobs (pg-boss): every server process enqueues and works. `start` runs when the app is ready,
 * `stop` when it closes: no new jobs are fetched, jobs in progress finish (up to STOP_TIMEOUT_MS), then the database
 * may close. A job cut off by a crash is retried by any process once it expires (see the queue's expireInSeconds).
 */

export const QUEUES: QueueDefinition[] = [sendVerificationCodeQueue];

/**
 * One worker per process fetches up to this many jobs at a time and runs them concurrently (sending waits on the
 * provider's round trip, not on this process). One poller rather than several keeps the idle cost at two short
 * queries a second, which matters on PGlite, where every query runs on the main thread.
 */
const BATCH_SIZE = 4;
/** Inside close-with-grace's 10 s in server.ts; a job still running then is failed and retried by any process. */
const STOP_TIMEOUT_MS = 8_000;
const IDLE_TIMEOUT_MS = 1_500;

export type Jobs = {
  start(deps: SendVerificationCodeDeps): Promise<void>;
  /** Resolves once the job is stored (committed): from then on it survives a crash of this process. */
  sendVerificationCode(data: SendVerificationCodeData): Promise<void>;
  stop(): Promise<void>;
};

export function createJobs(database: DatabaseHandle, log: FastifyBaseLogger): Jobs {
  const { boss, idle, track } = createBoss(database, { supervise: true });
  // pg-boss reports failed polls and maintenance here; without a listener an EventEmitter 'error' would throw.
  boss.on('error', (error) => {
    log.error({ err: error }, 'job queue error');
    reportError(error, { queue: 'pg-boss' });
  });
  const workers: string[] = [];

  return {
    async start(deps) {
      // Processes starting together on an empty database would race on pg-boss's CREATE SCHEMA (found by
      // multi-process.test.ts): they take turns, as with the migrations.
      await database.exclusively(async () => {
        await boss.start();
        for (const queue of QUEUES) {
          // createQueue keeps an existing queue as it is; updateQueue brings its settings up to this version's.
          await boss.createQueue(queue.name, queue);
          await boss.updateQueue(queue.name, queue);
        }
      });
      const handler = sendVerificationCodeHandler(deps);
      const name = sendVerificationCodeQueue.name;
      // Each job of a batch is completed or failed on its own, so one failure does not fail (and resend) the others;
      // pg-boss's own completion of the batch afterwards touches only jobs still active, that is none.
      const runBatch = (jobs: PgBoss.JobWithMetadata<unknown>[]) =>
        Promise.all(
          jobs.map(async (job) => {
            try {
              await boss.complete(name, job.id, await handler(job));
            } catch (error) {
              // A provider hiccup is retried quietly; the error reporter hears of a job only when it has given up.
              if (job.retryCount >= job.retryLimit) reportError(error, { queue: name, jobId: job.id });
              await boss.fail(name, job.id, error instanceof Error ? error : new Error(String(error)));
            }
          }),
        );
      workers.push(
        await boss.work(name, { batchSize: BATCH_SIZE, includeMetadata: true }, (jobs) =>
          track(() => runBatch(jobs)),
        ),
      );
    },
    async sendVerificationCode(data) {
      const id = await boss.send(sendVerificationCodeQueue.name, data);
      if (!id) throw new Error('send-verification-code: the job was not stored');
      // This process's worker need not wait for its next poll.
      for (const worker of workers) boss.notifyWorker(worker);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, close: false, timeout: STOP_TIMEOUT_MS });
      // Normally immediate; bounded, so a hung provider call cannot hold the shutdown forever.
      await idle(IDLE_TIMEOUT_MS);
    },
  };
}

/** pg-boss's schema and this app's queues, installed into a database ahead of time (the test template). */
export function installJobs(database: DatabaseHandle): Promise<void> {
  return installJobSchema(database, QUEUES);
}
