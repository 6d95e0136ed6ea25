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
 * How long finished jobs stay around. A job's data can hold a sealed one-time code: it is worthless once the code
 * has expired (10 minutes), but there is no reason to keep it for pg-boss's default week. Completed and failed
 * jobs move to the archive after 5 minutes and leave it 15 minutes later (each at the next maintenance run).
 */
const RETENTION = {
  archiveCompletedAfterSeconds: 5 * 60,
  archiveFailedAfterSeconds: 5 * 60,
  deleteAfterSeconds: 15 * 60,
  maintenanceIntervalSeconds: 60,
} satisfies PgBoss.ConstructorOptions;

/** pg-boss's lower bound; a code then arrives within about half a second even when another process enqueued it. */
export const POLLING_INTERVAL_SECONDS = 0.5;

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

export function createBoss(database: DatabaseHandle, options: { supervise: boolean }): Boss {
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
    // No cron schedules: their timekeeper would add a queue and a clock-skew query per process for nothing.
    schedule: false,
    supervise: options.supervise,
    pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
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
  const { boss } = createBoss(database, { supervise: false });
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const queue of queues) await boss.createQueue(queue.name, queue);
  } finally {
    await boss.stop({ graceful: false, close: false });
  }
}
