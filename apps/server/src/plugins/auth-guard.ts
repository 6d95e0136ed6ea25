import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { SessionRow, UserRow } from '../lib/rows.ts';

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

/**
 * The logged-in user, who must have a verified address to act on any account (create one, or anything through
 * the tenancy hook, plugins/tenancy.ts): 401 when logged out, else 403 `{detail: "Verify your e-mail address first."}`.
 * SPEC §4's gate looks at `emailIsVerified` only: a user verified once whose address is unverified again (a
 * verified-as-of date, no current verification) is sent to /auth/verify-email, so the date opens nothing here either.
 * The auth routes (verify, resend, refresh-me, logout, change e-mail or password) and the user's own profile stay
 * open, and so does accepting an invitation (the e-mailed key proves the mailbox and verifies the address).
 */
export function requireVerifiedUser(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.emailIsVerified) throw new AppError('email_not_verified');
  return user;
}

/** As a route's `preValidation` hook: 401, then 403 for an unverified address, before the body is validated. */
export async function verified(request: FastifyRequest): Promise<void> {
  requireSession(request);
  requireVerifiedUser(request);
}
