import { STEP_UP_MAX_AGE_MS } from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import type { SessionRow, UserRow } from '../lib/rows.ts';
import { bearerToken } from './caller.ts';

/**
 * Step-up (issue #38 item 2, ADR 48): a route whose contract says `stepUp: true` (a key created, a webhook secret
 * revealed, a redaction, a bulk export…) asks a person who has a second factor to prove it again when this session's
 * last proof is missing, older than STEP_UP_MAX_AGE_MS, or older than their latest enrolment: 403 `step_up_required`,
 * and `POST /api/auth/step-up` renews it. A person without a second factor is never asked (they have nothing to prove
 * with; an account that requires one stops them earlier, in the tenancy hook). An API key is never asked either: it
 * proves nothing interactively, and its own scopes guard it.
 *
 * The check runs last among the route's preHandler hooks, so after the tenancy hook resolved the account: another
 * account's id stays a 404, a missing capability a 403 of its own. It reads only the request's user and session, as
 * the session plugin loaded them, and the clock: no feature module.
 */

/** Whether a session's proof is fresh enough for a sensitive call (exported for the step-up tests' edge cases). */
export function proofIsFresh(
  user: Pick<UserRow, 'mfaEnrolledAt'>,
  session: Pick<SessionRow, 'lastProofAt'>,
  now: Date,
): boolean {
  if (!user.mfaEnrolledAt) return true;
  const proof = session.lastProofAt;
  if (!proof) return false;
  if (now.getTime() - proof.getTime() > STEP_UP_MAX_AGE_MS) return false;
  return proof.getTime() >= user.mfaEnrolledAt.getTime();
}

export function registerStepUp(app: FastifyInstance, clock: Clock): void {
  async function checkStepUp(request: FastifyRequest): Promise<void> {
    // A bearer token makes the request the key's (plugins/caller.ts), whatever cookie rides along.
    if (bearerToken(request) !== null) return;
    const { user, session } = request;
    if (!user || !session) return;
    if (!proofIsFresh(user, session, clock.now())) throw new AppError('step_up_required');
  }

  // Registered after the tenancy plugin: its onRoute hook has already put the account's resolution into the route's
  // preValidation/preHandler, and this check goes after all of them (new arrays, as tenancy does, for HEAD twins).
  app.addHook('onRoute', (route) => {
    if (!route.config?.stepUp) return;
    const existing = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [...existing, checkStepUp];
  });
}
