import { type AuthResponse, anonymousUser } from '@veriform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ensureCsrfToken, rotateCsrfToken } from '../../plugins/csrf.ts';
import { listMembershipsOfUser, pickCurrentMembership } from '../memberships/repository.ts';
import { toUserDto } from '../users/repository.ts';

/**
 * Who is asking, as auth answers and the initial page data carry it (SPEC §3, §7): the user (or the anonymous
 * user), their memberships, the current one, and a CSRF token. `rotateCsrf` after login, sign-up and logout.
 */
export async function viewerState(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { rotateCsrf?: boolean } = {},
): Promise<AuthResponse> {
  const csrfToken = options.rotateCsrf ? rotateCsrfToken(request, reply) : ensureCsrfToken(request, reply);
  const { user, session } = request;
  if (!user) return { csrfToken, user: anonymousUser, memberships: [], currentMembership: null };
  const memberships = await listMembershipsOfUser(request.server.services.db, user.id);
  return {
    csrfToken,
    user: toUserDto(user),
    memberships,
    currentMembership: pickCurrentMembership(memberships, session?.currentMembershipId ?? null),
  };
}
