import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { z } from 'zod';
import { SealedValueError, type Sealer } from '../lib/sealed.ts';

/**
 * A job is one file in `definitions/` exporting one declaration: its name, payload schema, queue policy and optional
 * schedule, and nothing else (ADR 33). The file's name is the job's (and its queue's) name. Callers enqueue with the
 * definition they import, `jobs.enqueue(sendInvitationEmail, payload, { tx })`, so the payload's type comes with it.
 * The work itself is a handler the app registers (`handleJob`, assembled in job-handlers.ts) with the dependencies it
 * needs, so nothing under jobs/ knows a module or the app's services.
 *
 * Two kinds:
 * - `defineJob`: a pg-boss queue (e-mails, maintenance), used only through pg-boss's public API;
 * - `defineRowJob`: work whose durable row is one of ours (a queued code send, a due webhook delivery), claimed from
 *   that row by a worker loop of this process (jobs/claims.ts): nothing of ours writes pg-boss's tables.
 */

/** What a handler answers; stored as the job's output (pg-boss's, or the row's state), so say what happened. */
export type JobOutput = { outcome: string } & Record<string, string | number | boolean | null>;

/** What a handler gets besides its payload. */
export type JobContext = {
  /** The app's logger, every line naming the job (`jobId`, `queue`): a job's "request id". */
  log: FastifyBaseLogger;
  job: { id: string; name: string; retryCount: number; retryLimit: number; createdOn: Date };
};

/** pg-boss's queue settings (retries, expiry, retention), kept up to date at every start. */
export type QueuePolicy = Omit<PgBoss.Queue, 'name'>;

export type JobSchedule = {
  /** Five-field cron, evaluated in `timezone` (default UTC). A tick enqueues the job once across all processes. */
  cron: string;
  timezone?: string;
};

export type WorkerOptions = {
  /** Jobs fetched at once and run concurrently by this process's worker (pg-boss's batchSize). */
  batchSize: number;
  /**
   * How often an idle worker looks for jobs enqueued by other processes. Jobs enqueued by this process wake its
   * worker at once (after their commit), so this is the hand-over delay, not the usual one.
   */
  pollingIntervalSeconds: number;
};

export const JOB_DEFINITION = 'job-definition';
export const ROW_JOB_DEFINITION = 'row-job-definition';

export type JobDefinition<Payload extends z.ZodType = z.ZodType> = {
  readonly kind: typeof JOB_DEFINITION;
  readonly name: string;
  /** Describes JSON as stored (no transforms): checked on enqueue, and again when the job runs. */
  readonly payload: Payload;
  readonly queue: QueuePolicy;
  readonly worker: WorkerOptions;
  /** Scheduled jobs are enqueued by pg-boss's cron with the payload `{}`, which their schema must accept. */
  readonly schedule?: JobSchedule | undefined;
};

/** How a row job's failed try is retried: `delaySeconds × 2^(tries−1)`, times 1 to 2 (pg-boss's backoff). */
export type RetryPolicy = {
  /** Tries after the first; past them the row is given up (its owner records that). */
  limit: number;
  delaySeconds: number;
};

export type RowJobDefinition<Payload extends z.ZodType = z.ZodType> = {
  readonly kind: typeof ROW_JOB_DEFINITION;
  readonly name: string;
  /** What one claimed row hands its handler. */
  readonly payload: Payload;
  readonly retry: RetryPolicy;
  /** A claimed row is the claimer's this long; past it (its process died) any process claims it again. */
  readonly leaseSeconds: number;
  readonly worker: WorkerOptions;
};

export type AnyJobDefinition = JobDefinition | RowJobDefinition;

/** Jobs enqueued on demand are handed over within this; scheduled ones are not waited for by anyone. */
const DEFAULT_WORKER: WorkerOptions = { batchSize: 4, pollingIntervalSeconds: 2 };
const SCHEDULED_WORKER: WorkerOptions = { batchSize: 1, pollingIntervalSeconds: 30 };

export function defineJob<Payload extends z.ZodType>(
  definition: Omit<JobDefinition<Payload>, 'kind' | 'worker'> & { worker?: Partial<WorkerOptions> },
): JobDefinition<Payload> {
  const defaults = definition.schedule ? SCHEDULED_WORKER : DEFAULT_WORKER;
  return { ...definition, kind: JOB_DEFINITION, worker: { ...defaults, ...definition.worker } };
}

export function defineRowJob<Payload extends z.ZodType>(
  definition: Omit<RowJobDefinition<Payload>, 'kind'>,
): RowJobDefinition<Payload> {
  return { ...definition, kind: ROW_JOB_DEFINITION };
}

export function isJobDefinition(value: unknown): value is JobDefinition {
  return typeof value === 'object' && value !== null && 'kind' in value && value.kind === JOB_DEFINITION;
}

export function isRowJobDefinition(value: unknown): value is RowJobDefinition {
  return typeof value === 'object' && value !== null && 'kind' in value && value.kind === ROW_JOB_DEFINITION;
}

/** A registered handler: the job's name, and a run that checks the data against the payload schema first. */
export type JobHandler = {
  readonly name: string;
  run(data: unknown, context: JobContext): Promise<JobOutput>;
};

/**
 * Registers the work of a job (at least once: a job cut off by a crash or timeout runs again, so handlers are
 * idempotent). Throw to fail it: it is retried per its policy; the error reporter hears of it once it has given up.
 */
export function handleJob<Payload extends z.ZodType>(
  definition: JobDefinition<Payload> | RowJobDefinition<Payload>,
  handler: (payload: z.output<Payload>, context: JobContext) => Promise<JobOutput>,
): JobHandler {
  return {
    name: definition.name,
    async run(data, context) {
      const payload = definition.payload.safeParse(data);
      if (!payload.success) {
        context.log.error(`${definition.name}: malformed job data; dropped`);
        return { outcome: 'malformed' };
      }
      return handler(payload.data, context);
    },
  };
}

/**
 * How long after its first try started a job of this queue can still be tried, by its policy's own numbers: every try
 * (`retryLimit` + 1) running until it expires (`expireInSeconds`), and the longest wait before each retry (pg-boss's:
 * `retryDelay`, or under `retryBackoff` `retryDelay × 2^(tries−1)` times 1 to 2, so at most `retryDelay × 2^tries`,
 * the exponent capped at 16). Time spent waiting for a free worker is not in it. Work that a dead job would leave
 * half done (a data-subject request left `running`) is given up past it. A policy leaving expiry or retries to
 * pg-boss's defaults has no bound here: it throws.
 */
export function longestRunSeconds(queue: QueuePolicy): number {
  const { retryLimit, expireInSeconds, retryDelay = 0, retryBackoff = false } = queue;
  if (retryLimit === undefined || expireInSeconds === undefined)
    throw new Error('longestRunSeconds: the queue policy names no retryLimit or expireInSeconds');
  let waits = 0;
  for (let tries = 1; tries <= retryLimit; tries += 1)
    waits += retryBackoff ? retryDelay * 2 ** Math.min(16, tries) : retryDelay;
  return (retryLimit + 1) * expireInSeconds + waits;
}

/**
 * The e-mails' queue: an SMTP hiccup is retried after 10–20, 20–40 … s (exponential backoff with jitter),
 * `retryLimit` times; a job not started within `retentionMinutes` is dropped (the person can ask again).
 */
export function emailQueue(limits: { retryLimit: number; retentionMinutes: number }): QueuePolicy {
  return { policy: 'standard', retryDelay: 10, retryBackoff: true, expireInSeconds: 60, ...limits };
}

/**
 * A sealed payload value, or undefined when it cannot be opened: SECRET_KEY changed since the job was queued, so no
 * retry can open it either (logged; the person can ask again).
 */
export function openSealed(
  sealer: Sealer,
  context: JobContext,
  sealed: string,
  sealedTo: string,
): string | undefined {
  try {
    return sealer.open(sealed, sealedTo);
  } catch (error) {
    if (!(error instanceof SealedValueError)) throw error;
    context.log.error(`${context.job.name}: cannot open the sealed payload; dropped`);
    return undefined;
  }
}
