import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { JOB_SCHEMA } from '../jobs/boss.ts';

/**
 * Reading the jobs in tests: jobs run in the app's workers, so tests wait on what the database says. pg-boss's job
 * table for its jobs; for a code's send (a row job, ADR 33) the attempt's own row, read as the job it stands for.
 */

export type JobRow = { id: string; state: string; retryCount: number; data: unknown; output: unknown };

/** A code send's outcomes (`send_state` once done), which pg-boss would show as a completed job's output. */
const OUTCOMES = ['sent', 'skipped', 'rejected', 'unreadable', 'malformed'];

/** The code-sending job of one attempt (none until its send is owed), as pg-boss would show it. */
export async function codeJobsFor(app: FastifyInstance, attemptId: string): Promise<JobRow[]> {
  const result = await app.services.db.execute(
    sql`SELECT id,
          CASE WHEN send_state = 'queued' THEN 'created'
               WHEN send_state IN ('active', 'retry', 'failed') THEN send_state
               ELSE 'completed' END AS state,
          greatest(send_tries - 1, 0) AS "retryCount",
          jsonb_build_object('attemptId', id, 'sealedCode', sealed_code) AS data,
          CASE WHEN send_state IN (${sql.join(
            OUTCOMES.map((outcome) => sql`${outcome}`),
            sql`, `,
          )}) THEN jsonb_build_object('outcome', send_state) END AS output
        FROM verification_attempts
        WHERE id = ${attemptId} AND send_state IS NOT NULL`,
  );
  // Both drivers answer `{ rows }`; the Db type leaves the result untyped.
  return (result as { rows: JobRow[] }).rows;
}

const finished = (jobs: JobRow[]) =>
  jobs.length > 0 && jobs.every((job) => ['completed', 'failed', 'cancelled'].includes(job.state));

/**
 * Waits until every code-sending job of the attempt has finished (completed, failed for good, or cancelled), or
 * until `until` holds.
 */
export async function waitForCodeJobs(
  app: FastifyInstance,
  attemptId: string,
  options: { timeoutMs?: number; until?: (jobs: JobRow[]) => boolean } = {},
): Promise<JobRow[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const until = options.until ?? finished;
  for (;;) {
    const jobs = await codeJobsFor(app, attemptId);
    if (until(jobs)) return jobs;
    if (Date.now() > deadline)
      throw new Error(`jobs of attempt ${attemptId}: not there in time: ${JSON.stringify(jobs)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Jobs enqueued on demand that are due or running (retries waiting for a later time are not). Scheduled jobs and
 * pg-boss's cron queue are left out: their workers poll every half minute, and no request waits for them. Row jobs
 * (ADR 33): code sends queued or active or whose retry is due, and webhook deliveries due; those in this app's hands
 * are counted by `jobs.running()`.
 */
async function unfinishedJobs(app: FastifyInstance): Promise<unknown[]> {
  const schema = sql.identifier(JOB_SCHEMA);
  const result = await app.services.db.execute(
    sql`SELECT id::text, name, state::text AS state FROM ${schema}.job
        WHERE (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))
          AND NOT starts_with(name, '__pgboss__') AND name NOT IN (SELECT name FROM ${schema}.schedule)
        UNION ALL
        SELECT id, 'send-verification-code', send_state FROM verification_attempts
        WHERE send_state IN ('queued', 'active') OR (send_state = 'retry' AND send_after <= now())
        UNION ALL
        SELECT id::text, 'deliver-webhook', status FROM webhook_deliveries WHERE due_at <= now()`,
  );
  const running = app.services.jobs.running();
  return [...(result as { rows: unknown[] }).rows, ...(running > 0 ? [{ running }] : [])];
}

/**
 * Waits until no job of the app's database is due or running: what a request enqueued (an e-mail) has been done, or
 * has failed and waits for its retry.
 */
export async function jobsSettled(app: FastifyInstance, options: { timeoutMs?: number } = {}): Promise<void> {
  // Generous: a test that signs up fifty people queues fifty e-mails, and a busy machine sends them slowly.
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const jobs = await unfinishedJobs(app);
    if (jobs.length === 0) return;
    if (Date.now() > deadline) throw new Error(`jobs still unfinished: ${JSON.stringify(jobs)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The jobs of one kind (any state), oldest first. */
export async function jobsOf(app: FastifyInstance, name: string): Promise<JobRow[]> {
  const result = await app.services.db.execute(
    sql`SELECT id, state::text AS state, retry_count AS "retryCount", data, output
        FROM ${sql.identifier(JOB_SCHEMA)}.job
        WHERE name = ${name}
        ORDER BY created_on`,
  );
  return (result as { rows: JobRow[] }).rows;
}
