import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { JOB_SCHEMA } from '../jobs/boss.ts';
import { sendVerificationCodeQueue } from '../jobs/send-verification-code.ts';

/** Reading pg-boss's job table in tests: jobs run in the app's workers, so tests wait on what the database says. */

export type JobRow = { id: string; state: string; retryCount: number; data: unknown; output: unknown };

const QUEUE = sendVerificationCodeQueue.name;

/** The code-sending jobs for one attempt (any state), oldest first. */
export async function codeJobsFor(app: FastifyInstance, attemptId: string): Promise<JobRow[]> {
  const result = await app.services.db.execute(
    sql`SELECT id, state::text AS state, retry_count AS "retryCount", data, output
        FROM ${sql.identifier(JOB_SCHEMA)}.job
        WHERE name = ${QUEUE} AND data->>'attemptId' = ${attemptId}
        ORDER BY created_on`,
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
