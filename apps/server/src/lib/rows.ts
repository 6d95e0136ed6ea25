import type { schema } from '@veriform/db';

/**
 * The rows every layer passes around: the request's user, session and memberships (plugins/session.ts decorates the
 * request with them) and the modules that read or write them. Kept here, below plugins/ and modules/, so that the
 * plugins need no module to name them (ADR 0036).
 */
export type UserRow = typeof schema.users.$inferSelect;
export type AccountRow = typeof schema.accounts.$inferSelect;
export type MembershipRow = typeof schema.memberships.$inferSelect;
export type SessionRow = typeof schema.sessions.$inferSelect;

/** A driver's answer to `db.execute` as rows (both drivers answer `{ rows }`). */
export function rowsOf(answer: unknown): Record<string, unknown>[] {
  if (typeof answer !== 'object' || answer === null || !('rows' in answer) || !Array.isArray(answer.rows))
    throw new Error('the driver answered without rows');
  return answer.rows;
}
