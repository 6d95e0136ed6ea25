import type { RevocationStatus } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq, type SQL, sql } from 'drizzle-orm';
import { DEFAULT_DEADLINE_ZONE, dateIn } from './deadline.ts';

const { revocations } = schema;

/**
 * What a revocation is now (issue #35): the ONE home of "overdue". An open revocation is overdue once its deadline day
 * has ended in New York, where it was counted (deadline.ts); the row stays `open` (the clock moves, the row does not),
 * so the same rule is read in TypeScript for one row (`statusOf`) and in SQL for lists, counts and the sweep
 * (`statusIs`), both from `deadlineToday`.
 */

/** The day deadlines are compared with at `now`: a deadline before it has passed. */
export const deadlineToday = (now: Date): string => dateIn(now, DEFAULT_DEADLINE_ZONE);

/** A row's status as the app and API v1 show it. */
export function statusOf(row: { status: RevocationStatus; deadline: string }, now: Date): RevocationStatus {
  return row.status === 'open' && row.deadline < deadlineToday(now) ? 'overdue' : row.status;
}

/** The rows whose status (as `statusOf` reads it) is `status` at `now`, as a condition on `revocations`. */
export function statusIs(status: RevocationStatus, now: Date): SQL {
  const today = deadlineToday(now);
  if (status === 'open') return sql`(${revocations.status} = 'open' and ${revocations.deadline} >= ${today})`;
  if (status === 'overdue')
    return sql`(${revocations.status} = 'open' and ${revocations.deadline} < ${today})`;
  return eq(revocations.status, status);
}
