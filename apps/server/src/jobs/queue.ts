import { afterCommit, type DatabaseHandle, executeSqlIn, type Tx } from '@veriform/db';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { z } from 'zod';
import { reportError } from '../lib/error-reporting.ts';
import { type BossOptions, createBoss, installJobSchema } from './boss.ts';
import { type ClaimLoop, createClaimLoop, type RowStore } from './claims.ts';
import {
  type AnyJobDefinition,
  isJobDefinition,
  isRowJobDefinition,
  type JobDefinition,
  type JobHandler,
  type JobOutput,
  type WorkerOptions,
} from './define.ts';
import { loadJobDefinitions } from './registry.ts';

/**
 * The app's background jobs: every server process enqueues and works. pg-boss jobs (e-mails, maintenance) through
 * pg-boss's public API; row jobs (code sends, webhook deliveries) claimed from rows of ours (jobs/claims.ts, ADR 33).
 * `start` runs when the app is ready, with the handlers the app registers; `stop` when it closes: no new jobs are
 * fetched, jobs in progress finish (up to STOP_TIMEOUT_MS), then the database may close. A job cut off by a crash is
 * retried by any process once it expires (a queue's expireInSeconds, a row job's lease).
 */

/** Inside close-with-grace's 10 s in server.ts; a job still running then is failed and retried by any process. */
const STOP_TIMEOUT_MS = 8_000;
const IDLE_TIMEOUT_MS = 1_500;
/** Jobs per pg-boss `insert` statement in `enqueueMany`. */
const INSERT_BATCH = 1_000;

export type EnqueueOptions = {
  /**
   * The transaction of the write that calls for the job: the job is stored by it, so both commit or neither does.
   * Without it, the job is committed on its own before `enqueue` resolves.
   */
  tx?: Tx | undefined;
  /** Not before this time (a retry's own schedule, e.g. webhook deliveries); at once when omitted. */
  startAfter?: Date | undefined;
};

export type JobQueue = {
  /**
   * Stores a job for `definition` (its payload checked against the definition's schema: a mismatch is a programming
   * error and throws) and answers its id. This process's worker is woken once the job is committed.
   */
  enqueue<Payload extends z.ZodType>(
    definition: JobDefinition<Payload>,
    payload: z.input<Payload>,
    options?: EnqueueOptions,
  ): Promise<string>;
  /**
   * Stores one job per payload, a thousand per statement (pg-boss `insert`): for work that fans out, such as
   * replaying a range of webhook events. Same checks and transaction rule as `enqueue`; `startAfter` applies to all.
   */
  enqueueMany<Payload extends z.ZodType>(
    definition: JobDefinition<Payload>,
    payloads: z.input<Payload>[],
    options?: EnqueueOptions,
  ): Promise<void>;
  /**
   * Wakes this process's worker of `definition` (a row job's claimer, or a pg-boss worker): call it once the rows
   * (or jobs) it should find are committed, e.g. through `afterCommit`.
   */
  wake(definition: AnyJobDefinition): void;
  /** Row jobs in hand in this process (tests wait for them as for pg-boss's active jobs). */
  running(): number;
};

/** What the app registers at start: one handler per job, and the rows of each row job. */
export type JobWork = { handlers: JobHandler[]; rowStores: RowStore[] };

export type Jobs = JobQueue & {
  start(work: JobWork): Promise<void>;
  stop(): Promise<void>;
};

export type JobsOptions = Pick<BossOptions, 'cronIntervalSeconds'> & {
  /** The shortest polling interval of an idle worker (config `jobPollingMinSeconds`); a job's own longer one stays. */
  pollingMinSeconds?: number | undefined;
};

export function createJobs(
  database: DatabaseHandle,
  log: FastifyBaseLogger,
  allDefinitions: AnyJobDefinition[],
  options: JobsOptions = {},
): Jobs {
  const { pollingMinSeconds = 0, cronIntervalSeconds } = options;
  /** A job's worker options, polling no more often than `pollingMinSeconds`. */
  const workerOf = ({ worker }: AnyJobDefinition): WorkerOptions => ({
    ...worker,
    pollingIntervalSeconds: Math.max(worker.pollingIntervalSeconds, pollingMinSeconds),
  });
  const definitions = allDefinitions.filter(isJobDefinition);
  const rowDefinitions = allDefinitions.filter(isRowJobDefinition);
  const loops = new Map<string, ClaimLoop>();
  const { boss, idle, track } = createBoss(database, {
    supervise: true,
    schedule: true,
    cronIntervalSeconds,
  });
  // pg-boss reports failed polls and maintenance here; without a listener an EventEmitter 'error' would throw.
  boss.on('error', (error) => {
    log.error({ err: error }, 'job queue error');
    reportError(error, { queue: 'pg-boss' });
  });
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  /** Worker ids by job name. */
  const workers = new Map<string, string>();
  /** This process's worker of `name` fetches at once instead of at its next poll. */
  const wake = (name: string) => {
    const worker = workers.get(name);
    if (worker) boss.notifyWorker(worker);
    loops.get(name)?.wake();
  };

  /** Schedules follow the definitions: a job that lost its `schedule` (or its file) is unscheduled. */
  async function syncSchedules(): Promise<void> {
    for (const { name, schedule } of definitions) {
      if (schedule) await boss.schedule(name, schedule.cron, {}, { tz: schedule.timezone ?? 'UTC' });
    }
    for (const { name } of await boss.getSchedules()) {
      if (!byName.get(name)?.schedule) await boss.unschedule(name);
    }
  }

  function runner(definition: JobDefinition, handler: JobHandler) {
    const run = async (job: PgBoss.JobWithMetadata<unknown>): Promise<JobOutput> => {
      // Every line this job writes, its handler's included, names the job (the job's own "request id").
      const jobLog = log.child({ jobId: job.id, queue: definition.name });
      const { id, name, retryCount, retryLimit, createdOn } = job;
      return handler.run(job.data, { log: jobLog, job: { id, name, retryCount, retryLimit, createdOn } });
    };
    // Each job of a batch is completed or failed on its own, so one failure does not fail (and rerun) the others;
    // pg-boss's own completion of the batch afterwards touches only jobs still active, that is none.
    return (jobs: PgBoss.JobWithMetadata<unknown>[]) => {
      // A full batch most likely left more behind: fetch again once it is done rather than after the polling
      // interval (pg-boss waits that out unless woken), so a burst drains at the handlers' pace.
      if (jobs.length >= definition.worker.batchSize) wake(definition.name);
      return track(() =>
        Promise.all(
          jobs.map(async (job) => {
            try {
              await boss.complete(definition.name, job.id, await run(job));
            } catch (error) {
              // A hiccup is retried quietly; the error reporter hears of a job only when it has given up.
              if (job.retryCount >= job.retryLimit) {
                reportError(error, { queue: definition.name, jobId: job.id });
              }
              await boss.fail(
                definition.name,
                job.id,
                error instanceof Error ? error : new Error(String(error)),
              );
            }
          }),
        ),
      );
    };
  }

  return {
    async start({ handlers, rowStores }) {
      const handlerOf = one(handlers, allDefinitions, 'handler');
      const storeOf = one(rowStores, rowDefinitions, 'row store');
      // Processes starting together on an empty database would race on pg-boss's CREATE SCHEMA (found by
      // multi-process.test.ts): they take turns, as with the migrations.
      await database.exclusively(async () => {
        await boss.start();
        for (const { name, queue } of definitions) {
          // createQueue keeps an existing queue as it is; updateQueue brings its settings up to this version's.
          await boss.createQueue(name, { name, ...queue });
          await boss.updateQueue(name, { name, ...queue });
        }
        await syncSchedules();
      });
      for (const definition of definitions) {
        const { batchSize, pollingIntervalSeconds } = workerOf(definition);
        const worker = await boss.work(
          definition.name,
          { batchSize, pollingIntervalSeconds, includeMetadata: true },
          runner(definition, handlerOf(definition.name)),
        );
        workers.set(definition.name, worker);
      }
      for (const definition of rowDefinitions) {
        const loop = createClaimLoop(
          { ...definition, worker: workerOf(definition) },
          storeOf(definition.name),
          handlerOf(definition.name),
          log,
        );
        loops.set(definition.name, loop);
        loop.start();
      }
    },
    async enqueue(definition, payload, options = {}) {
      if (byName.get(definition.name) !== definition) {
        throw new Error(`job '${definition.name}' is not one of jobs/definitions/`);
      }
      const data: unknown = definition.payload.parse(payload);
      if (typeof data !== 'object' || data === null)
        throw new Error(`${definition.name}: a payload is an object`);
      const { tx, startAfter } = options;
      const id = await boss.send(definition.name, data, {
        ...(tx ? { db: { executeSql: executeSqlIn(tx) } } : {}),
        ...(startAfter ? { startAfter } : {}),
      });
      if (!id) throw new Error(`${definition.name}: the job was not stored`);
      // This process's worker need not wait for its next poll, but is woken only once the job can be seen (a job
      // for later is found by a poll when it is due).
      if (startAfter) return id;
      if (tx) afterCommit(tx, () => wake(definition.name));
      else wake(definition.name);
      return id;
    },
    async enqueueMany(definition, payloads, options = {}) {
      if (byName.get(definition.name) !== definition) {
        throw new Error(`job '${definition.name}' is not one of jobs/definitions/`);
      }
      const { tx, startAfter } = options;
      const jobs = payloads.map((payload) => {
        const data: unknown = definition.payload.parse(payload);
        if (typeof data !== 'object' || data === null)
          throw new Error(`${definition.name}: a payload is an object`);
        return { name: definition.name, data, ...(startAfter ? { startAfter } : {}) };
      });
      for (let offset = 0; offset < jobs.length; offset += INSERT_BATCH) {
        await boss.insert(
          jobs.slice(offset, offset + INSERT_BATCH),
          tx ? { db: { executeSql: executeSqlIn(tx) } } : {},
        );
      }
      if (jobs.length === 0 || startAfter) return;
      if (tx) afterCommit(tx, () => wake(definition.name));
      else wake(definition.name);
    },
    wake(definition) {
      wake(definition.name);
    },
    running() {
      let inHand = 0;
      for (const loop of loops.values()) inHand += loop.running();
      return inHand;
    },
    async stop() {
      await Promise.all([
        boss.stop({ graceful: true, wait: true, close: false, timeout: STOP_TIMEOUT_MS }),
        ...[...loops.values()].map((loop) => loop.stop(STOP_TIMEOUT_MS)),
      ]);
      // Normally immediate; bounded, so a hung provider call cannot hold the shutdown forever.
      await idle(IDLE_TIMEOUT_MS);
    },
  };
}

/** pg-boss's schema and this app's queues, installed into a database ahead of time (the test template). */
export async function installJobs(database: DatabaseHandle): Promise<void> {
  const definitions = (await loadJobDefinitions()).filter(isJobDefinition);
  await installJobSchema(
    database,
    definitions.map(({ name, queue }) => ({ name, ...queue })),
  );
}

/** Each job's one registered item (handler or row store), refusing a job without one, or with two, or an unknown name. */
function one<T extends { name: string }>(
  items: T[],
  definitions: AnyJobDefinition[],
  what: string,
): (name: string) => T {
  const byName = new Map<string, T>();
  const known = new Set(definitions.map(({ name }) => name));
  for (const item of items) {
    if (!known.has(item.name))
      throw new Error(`${what} for '${item.name}', which is not one of jobs/definitions/`);
    if (byName.has(item.name)) throw new Error(`two of the ${what}s of job '${item.name}'`);
    byName.set(item.name, item);
  }
  for (const name of known) if (!byName.has(name)) throw new Error(`job '${name}' has no ${what}`);
  return (name) => {
    const item = byName.get(name);
    if (!item) throw new Error(`job '${name}' has no ${what}`);
    return item;
  };
}
