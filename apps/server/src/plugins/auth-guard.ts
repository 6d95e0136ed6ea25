import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { SessionRow } from '../modules/auth/session-store.ts';
import type { UserRow } from '../modules/users/repository.ts';

/**
 * The logged-in user of the request, or 401 `{detail: "Authentication credentials were not provided."}` (SPEC §6, §8:
 * the client treats that text as "not logged in").
 */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('not_authenticated');
  return request.user;
}

export function requireSession(request: FastifyRequest): { user: UserRow; session: SessionRow } {
  const user = requireUser(request);
  if (!request.session) throw new AppError('not_authenticated');
  return { user, session: request.session };
}

/** As a route's `preValidation` hook: 401 before the body is even validated. */
export async function authenticated(request: FastifyRequest): Promise<void> {
  requireSession(request);
}
