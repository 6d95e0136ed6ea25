import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Services } from '../services.ts';

/**
 * A job is one file in `definitions/` exporting one `defineJob({...})`: its payload schema, handler, queue policy and
 * optional schedule. The file's name is the job's (and its pg-boss queue's) name. Callers enqueue with the definition
 * they import, `services.jobs.enqueue(sendInvitationEmail, payload, { tx })`, so the payload's type comes with it.
 */

/** What a handler answers; stored as the job's output (`pgboss.job.output`), so say what happened. */
export type JobOutput = { outcome: string } & Record<string, string | number | boolean | null>;

/** What a handler gets besides its payload. */
export type JobContext = {
  services: Services;
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

export type JobDefinition<Payload extends z.ZodType = z.ZodType> = {
  readonly kind: typeof JOB_DEFINITION;
  readonly name: string;
  /** Describes JSON as stored (no transforms): checked on enqueue, and again when the job runs. */
  readonly payload: Payload;
  readonly queue: QueuePolicy;
  readonly worker: WorkerOptions;
  /** Scheduled jobs are enqueued by pg-boss's cron with the payload `{}`, which their schema must accept. */
  readonly schedule?: JobSchedule | undefined;
  /**
   * Runs one job (at least once: a job cut off by a crash or timeout runs again, so handlers are idempotent). Throw to
   * fail it: pg-boss retries it per the queue policy; the error reporter hears of it once it has given up.
   */
  handler(payload: z.output<Payload>, context: JobContext): Promise<JobOutput>;
};

/** Jobs enqueued on demand are handed over within this; scheduled ones are not waited for by anyone. */
const DEFAULT_WORKER: WorkerOptions = { batchSize: 4, pollingIntervalSeconds: 2 };
const SCHEDULED_WORKER: WorkerOptions = { batchSize: 1, pollingIntervalSeconds: 30 };

export function defineJob<Payload extends z.ZodType>(
  definition: Omit<JobDefinition<Payload>, 'kind' | 'worker'> & { worker?: Partial<WorkerOptions> },
): JobDefinition<Payload> {
  const defaults = definition.schedule ? SCHEDULED_WORKER : DEFAULT_WORKER;
  return { ...definition, kind: JOB_DEFINITION, worker: { ...defaults, ...definition.worker } };
}

export function isJobDefinition(value: unknown): value is JobDefinition {
  return typeof value === 'object' && value !== null && 'kind' in value && value.kind === JOB_DEFINITION;
}
