import type { FastifyBaseLogger } from 'fastify';
import { reportError } from '../lib/error-reporting.ts';
import type { JobHandler, JobOutput, RetryPolicy, RowJobDefinition } from './define.ts';

/**
 * Row jobs (ADR 33): work whose durable row is one of ours, claimed from that row, never copied into a queue's table.
 * The module that owns the rows writes the SQL (a `RowStore`); this loop is the same for every kind: one per kind and
 * process, claiming a batch (`FOR UPDATE SKIP LOCKED`, so two claimers never take one row), running the handler for
 * each row, then recording what happened. It is woken at once by this process after the commit that made a row due,
 * and otherwise polls (the hand-over from other processes, retries coming due, rows left by a crash once their lease
 * has passed).
 */

/** Marks a row job's own statements (tests that count a request's statements leave them out, as pg-boss's). */
export const ROW_JOB_MARK = '/* row job */';

/** One claimed row: its key, what its handler gets, and the tries taken with this one (counted by the claim). */
export type ClaimedRow = { id: string; data: unknown; tries: number };

/** The SQL of one row job, written by the module that owns the rows. */
export type RowStore = {
  readonly name: string;
  /**
   * Takes up to `limit` due rows (`FOR UPDATE SKIP LOCKED`) and leases each for `leaseSeconds` (it is due again then,
   * should this process die), counting the try, in one statement.
   */
  claim(limit: number, leaseSeconds: number): Promise<ClaimedRow[]>;
  /** The handler ran to its end: nothing more is owed (unless the handler itself made the row due again). */
  done(row: ClaimedRow, output: JobOutput): Promise<void>;
  /** The handler threw: the row is due again in `delayMs`. */
  retry(row: ClaimedRow, delayMs: number): Promise<void>;
  /** Past the retry limit: nothing more is owed; the row says it failed. */
  giveUp(row: ClaimedRow): Promise<void>;
};

export type ClaimLoop = {
  /** Claims at once (or again as soon as the batch in hand is done) instead of at the next poll. */
  wake(): void;
  start(): void;
  /** No new claims; resolves once the rows in hand are recorded, or after `timeoutMs` (their leases then lapse). */
  stop(timeoutMs: number): Promise<void>;
  /** Rows in hand. */
  running(): number;
};

/** pg-boss's exponential backoff with jitter: `delaySeconds × 2^(tries−1)`, times 1 to 2. */
export function retryDelayMs(policy: RetryPolicy, tries: number, random = Math.random): number {
  return Math.round(policy.delaySeconds * 1000 * 2 ** Math.max(0, tries - 1) * (1 + random()));
}

export function createClaimLoop(
  definition: RowJobDefinition,
  store: RowStore,
  handler: JobHandler,
  log: FastifyBaseLogger,
): ClaimLoop {
  const { batchSize, pollingIntervalSeconds } = definition.worker;
  const { limit } = definition.retry;
  let stopped = true;
  let again = false;
  let inHand = 0;
  let timer: NodeJS.Timeout | undefined;
  let cycle: Promise<void> | undefined;

  const report = (error: unknown, jobId?: string) => {
    log.error({ err: error, queue: definition.name, jobId }, 'row job error');
    reportError(error, { queue: definition.name, ...(jobId ? { jobId } : {}) });
  };

  async function runOne(row: ClaimedRow): Promise<void> {
    // Every line this job writes, its handler's included, names the job (the job's own "request id").
    const jobLog = log.child({ jobId: row.id, queue: definition.name });
    // Its leases ran out more often than it may be retried: each try was cut off (a crash, a hung provider).
    if (row.tries > limit + 1) {
      report(new Error(`${definition.name}: cut off ${row.tries - 1} times; given up`), row.id);
      await store.giveUp(row);
      return;
    }
    let output: JobOutput;
    try {
      output = await handler.run(row.data, {
        log: jobLog,
        job: {
          id: row.id,
          name: definition.name,
          retryCount: row.tries - 1,
          retryLimit: limit,
          createdOn: new Date(),
        },
      });
    } catch (error) {
      // A hiccup is retried quietly; the error reporter hears of a row only when it has given up.
      if (row.tries > limit) {
        report(error, row.id);
        await store.giveUp(row);
      } else {
        await store.retry(row, retryDelayMs(definition.retry, row.tries));
      }
      return;
    }
    await store.done(row, output);
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      let rows: ClaimedRow[];
      try {
        rows = await store.claim(batchSize, definition.leaseSeconds);
      } catch (error) {
        report(error);
        return;
      }
      inHand += rows.length;
      await Promise.all(
        rows.map(async (row) => {
          try {
            await runOne(row);
          } catch (error) {
            // Recording failed (the database): the row's lease lapses and it is claimed again.
            report(error, row.id);
          } finally {
            inHand -= 1;
          }
        }),
      );
      // A full batch most likely left more behind: claim again at once rather than after the polling interval.
      if (rows.length >= batchSize) again = true;
    } while (again && !stopped);
  }

  function schedule(): void {
    if (stopped) return;
    if (again) {
      kick();
      return;
    }
    timer = setTimeout(kick, pollingIntervalSeconds * 1000);
    timer.unref();
  }

  function kick(): void {
    if (stopped) return;
    if (cycle) {
      again = true;
      return;
    }
    clearTimeout(timer);
    cycle = drain().finally(() => {
      cycle = undefined;
      schedule();
    });
  }

  return {
    wake: kick,
    start() {
      stopped = false;
      kick();
    },
    async stop(timeoutMs) {
      stopped = true;
      clearTimeout(timer);
      const current = cycle;
      if (!current) return;
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise((resolve) => (bound = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(bound);
    },
    running: () => inHand,
  };
}
