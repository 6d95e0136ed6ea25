import { afterCommit, type Db, type ExecuteSql, type Tx } from '@veriform/db';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { claimedRowReader, sqlCount } from '../../jobs/claimed-row.ts';
import { type ClaimedRow, ROW_JOB_MARK, type RowStore } from '../../jobs/claims.ts';
import type { JobOutput } from '../../jobs/define.ts';
import { sendVerificationCode } from '../../jobs/definitions/send-verification-code.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Sealer } from '../../lib/sealed.ts';

/**
 * Sending verification codes (issue #5 item 6): the public-verify service hands over an attempt and its plain code
 * with storing the attempt; delivery is a row job (jobs/definitions/send-verification-code.ts, ADR 33) that claims the
 * attempt itself while its send is owed, composes the message in the form's language and sends it by SMS (Twilio, or
 * the dev outbox) or e-mail (the mailer). The plain code never rests in the database unencrypted: it waits on the
 * attempt sealed with SECRET_KEY (`sealed_code`), and is cleared once the send is done.
 */
export type CodeMessage = { attemptId: string; code: string };

export type CodeDelivery = {
  /**
   * Makes the attempt's send owed (its sealed code stored on it, due now); resolves once that is stored (not when the
   * message has left). With `tx`, in the attempt's own transaction: committed with it, or not at all.
   */
  enqueue(message: CodeMessage, options?: { tx?: Tx | undefined }): Promise<void>;
  /**
   * The job's name and data (the code sealed), for SQL that stores the attempt itself (issue_verification_code
   * stores `data.sealedCode` on the attempt and makes its send owed).
   */
  job(message: CodeMessage): { name: string; data: z.output<typeof sendVerificationCode.payload> };
};

/** The code is sealed under the attempt id, so a sealed code cannot be replayed for another attempt. */
export function createCodeDelivery(deps: { db: Db; jobs: JobQueue; sealer: Sealer }): CodeDelivery {
  const job: CodeDelivery['job'] = ({ attemptId, code }) => {
    const data = sendVerificationCode.payload.parse({
      attemptId,
      sealedCode: deps.sealer.seal(code, attemptId),
    });
    return { name: sendVerificationCode.name, data };
  };
  return {
    job,
    async enqueue(message, options = {}) {
      const { data } = job(message);
      const { tx } = options;
      await (tx ?? deps.db).execute(
        sql`UPDATE verification_attempts
            SET sealed_code = ${data.sealedCode}, send_state = 'queued', send_after = now(), send_tries = 0
            WHERE id = ${data.attemptId}`,
      );
      // This process's claimer need not wait for its next poll, but is woken only once the attempt can be seen.
      if (tx) afterCommit(tx, () => deps.jobs.wake(sendVerificationCode));
      else deps.jobs.wake(sendVerificationCode);
    },
  };
}

/**
 * The code sends' rows (ADR 33): an attempt whose send is owed has `send_after` set (its start, an active try's
 * lease, or a retry's back-off); the claim takes due ones, oldest first, and counts the try. The outcome stays in
 * `send_state`; the sealed code goes once the send is done or given up. Through the driver (`executeSql`), as pg-boss
 * works, not through the app's Drizzle instance.
 */
export function createCodeSendStore(executeSql: ExecuteSql): RowStore {
  const run = (text: string, values: unknown[]) => executeSql(`${ROW_JOB_MARK} ${text}`, values);
  return {
    name: sendVerificationCode.name,
    async claim(limit, leaseSeconds) {
      const { rows } = await run(
        `UPDATE verification_attempts a
         SET send_state = 'active', send_tries = a.send_tries + 1,
           send_after = now() + $2::integer * interval '1 second'
         FROM (
           SELECT id FROM verification_attempts
           WHERE send_after <= now() AND sealed_code IS NOT NULL
           ORDER BY send_after
           LIMIT $1::integer
           FOR UPDATE SKIP LOCKED
         ) due
         WHERE a.id = due.id
         RETURNING a.id, a.sealed_code, a.send_tries`,
        [limit, leaseSeconds],
      );
      return rows.map(readClaimed);
    },
    async done(row: ClaimedRow, output: JobOutput) {
      await run(
        `UPDATE verification_attempts SET send_state = $2::text, send_after = NULL, sealed_code = NULL
         WHERE id = $1::text`,
        [row.id, output.outcome],
      );
    },
    async retry(row, delayMs) {
      await run(
        `UPDATE verification_attempts
         SET send_state = 'retry', send_after = now() + $2::integer * interval '1 millisecond'
         WHERE id = $1::text`,
        [row.id, delayMs],
      );
    },
    async giveUp(row) {
      await run(
        `UPDATE verification_attempts SET send_state = 'failed', send_after = NULL, sealed_code = NULL
         WHERE id = $1::text`,
        [row.id],
      );
    },
  };
}

const readClaimed = claimedRowReader(
  'code send claim',
  { id: z.string(), sealed_code: z.unknown(), send_tries: sqlCount },
  (row) => ({
    id: row.id,
    data: { attemptId: row.id, sealedCode: row.sealed_code },
    tries: row.send_tries,
  }),
);
