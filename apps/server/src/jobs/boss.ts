import type { DatabaseHandle } from '@veriform/db';
import PgBoss from 'pg-boss';

/**
 * pg-boss on whichever engine the app runs (DESIGN §2, §7): it talks to the database through the app's own handle
 * (`executeSql`: the node-postgres pool, or PGlite — parameterless scripts to `exec()`, the rest to `query()`), so
 * jobs live in the same database as everything else, and every server process both enqueues and works. pg-boss
 * fetches with `FOR UPDATE SKIP LOCKED`, so a job is worked by one process at a time.
 */

export const JOB_SCHEMA = 'pgboss';

/** A queue with the settings it is created (and kept up to date) with at every start. */
export type QueueDefinition = PgBoss.Queue;

/**
 * How long finished jobs stay around (pg-boss's own maintenance, run by one process a minute: it takes turns through
 * `version.maintained_on`). A job's data can hold a sealed secret (a one-time code, an invitation key): worthless to
 * anyone without SECRET_KEY, but there is no reason to keep it for pg-boss's default week. Completed and failed jobs
 * move to the archive after 5 minutes and leave it 15 minutes later; a job never started is archived once its queue's
 * retention has passed. So neither table grows with time, only with the last 20 minutes' traffic.
 */
const RETENTION = {
  archiveCompletedAfterSeconds: 5 * 60,
  archiveFailedAfterSeconds: 5 * 60,
  deleteAfterSeconds: 15 * 60,
  maintenanceIntervalSeconds: 60,
} satisfies PgBoss.ConstructorOptions;

/**
 * pg-boss's cron (`schedule: true`): every CRON_MONITOR_SECONDS one process (whichever first updates
 * `version.cron_on`) checks the schedules and, for each tick due, enqueues a job into pg-boss's `__pgboss__send-it`
 * queue under a singleton key per schedule and minute, so a tick gives one job however many processes saw it; each
 * process's worker of that queue (every CRON_WORKER_SECONDS) moves such jobs into their own queue. Checked every 30 s
 * (pg-boss's default), each minute's tick is seen twice; with the polls after it, a scheduled job starts up to a
 * minute and a half after its tick, which maintenance does not mind.
 */
const CRON_QUEUE = '__pgboss__send-it';
const CRON_MONITOR_SECONDS = 30;
const CRON_WORKER_SECONDS = 30;

export type Boss = {
  boss: PgBoss;
  /**
   * Resolves once no handler and no SQL of pg-boss is running (it fires completions without awaiting them), or
   * after `timeoutMs` at the latest.
   */
  idle(timeoutMs: number): Promise<void>;
  /** Counts a handler as running until its promise settles (see `idle`). */
  track<T>(work: () => Promise<T>): Promise<T>;
};

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export type BossOptions = {
  /** Workers and pg-boss's maintenance (archiving and deleting finished jobs). */
  supervise: boolean;
  /** pg-boss's cron, which enqueues scheduled jobs. */
  schedule: boolean;
  /** Tests only: how often the cron is checked and its jobs moved into their queues (seconds, 1–45). */
  cronIntervalSeconds?: number;
};

export function createBoss(database: DatabaseHandle, options: BossOptions): Boss {
  let running = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
    }
  };
  const boss = new PgBoss({
    db: {
      executeSql: (text: string, values?: unknown[]) => counted(() => database.executeSql(text, values)),
    },
    schema: JOB_SCHEMA,
    // Installs pg-boss's schema when missing and upgrades it after a pg-boss upgrade (under its advisory lock, so
    // processes starting together take turns).
    migrate: true,
    supervise: options.supervise,
    schedule: options.schedule,
    cronMonitorIntervalSeconds: options.cronIntervalSeconds ?? CRON_MONITOR_SECONDS,
    cronWorkerIntervalSeconds: options.cronIntervalSeconds ?? CRON_WORKER_SECONDS,
    ...RETENTION,
  });
  return {
    boss,
    track: counted,
    async idle(timeoutMs) {
      // A job's completion is issued a few microtasks after its handler returns; checking across a timer tick
      // twice in a row sees it either running or done.
      const deadline = Date.now() + timeoutMs;
      for (let quiet = 0; quiet < 2 && Date.now() < deadline; ) {
        await delay(running > 0 ? 10 : 1);
        quiet = running > 0 ? 0 : quiet + 1;
      }
    },
  };
}

/**
 * Installs pg-boss's schema and the queues into a database (used on the test template, once per run, so that test
 * files do not each pay for it; production installs on first start).
 */
export async function installJobSchema(database: DatabaseHandle, queues: QueueDefinition[]): Promise<void> {
  const { boss } = createBoss(database, { supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  try {
    // The queue pg-boss's cron creates at every start: creating a queue is DDL (a partition), so the template has it.
    for (const queue of [...queues, { name: CRON_QUEUE }]) await boss.createQueue(queue.name, queue);
  } finally {
    await boss.stop({ graceful: false, close: false });
  }
}
