import type { DatabaseHandle } from '@veriform/db';
import type { FastifyBaseLogger } from 'fastify';
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

/** Concurrent sends per process: sending waits on the provider's network round trip, not on this process. */
const WORKERS_PER_QUEUE = 4;
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
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  const workers: string[] = [];
  let nextWorker = 0;

  return {
    async start(deps) {
      await boss.start();
      for (const queue of QUEUES) {
        // createQueue keeps an existing queue as it is; updateQueue brings its settings up to this version's.
        await boss.createQueue(queue.name, queue);
        await boss.updateQueue(queue.name, queue);
      }
      const handler = sendVerificationCodeHandler(deps);
      for (let i = 0; i < WORKERS_PER_QUEUE; i += 1) {
        workers.push(
          await boss.work(sendVerificationCodeQueue.name, { batchSize: 1 }, (jobs) =>
            track(() => handler(jobs)),
          ),
        );
      }
    },
    async sendVerificationCode(data) {
      const id = await boss.send(sendVerificationCodeQueue.name, data);
      if (!id) throw new Error('send-verification-code: the job was not stored');
      // This process's own workers need not wait for their next poll.
      const worker = workers[nextWorker++ % Math.max(workers.length, 1)];
      if (worker) boss.notifyWorker(worker);
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
