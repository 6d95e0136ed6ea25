import { type AuthResponse, anonymousUser, type Membership } from '@veriform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ensureCsrfToken, rotateCsrfToken } from '../../plugins/csrf.ts';
import { listMembershipsOfUser, pickCurrentMembership, toMembershipDto } from '../memberships/index.ts';
import { toUserDto } from '../users/index.ts';

/**
 * The memberships the session lookup brought with their accounts (plugins/session.ts), newest first as
 * listMembershipsOfUser orders them; undefined when they were not loaded (anonymous, or logged in during this request).
 */
function loadedMemberships(request: FastifyRequest): Membership[] | undefined {
  const { memberships, membershipAccounts } = request;
  if (!memberships || !membershipAccounts) return undefined;
  const newestFirst = [...memberships].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  const list: Membership[] = [];
  for (const membership of newestFirst) {
    const account = membershipAccounts.get(membership.accountId);
    if (!account) return undefined;
    list.push(toMembershipDto(membership, account));
  }
  return list;
}

/**
 * Who is asking, as auth answers and the initial page data carry it (SPEC §3, §7): the user (or the anonymous
 * user), their memberships, the current one, and a CSRF token. `rotateCsrf` after login, sign-up and logout.
 * `loadedMemberships`: a page, which changes nothing, shows the memberships its session lookup brought (one round
 * trip fewer; issue #20 item 3); an auth call may have changed them, so it reads them again.
 */
export async function viewerState(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { rotateCsrf?: boolean; loadedMemberships?: boolean } = {},
): Promise<AuthResponse> {
  const csrfToken = options.rotateCsrf ? rotateCsrfToken(request, reply) : ensureCsrfToken(request, reply);
  const { user, session } = request;
  if (!user) return { csrfToken, user: anonymousUser, memberships: [], currentMembership: null };
  const memberships =
    (options.loadedMemberships ? loadedMemberships(request) : undefined) ??
    (await listMembershipsOfUser(request.server.services.db, user.id));
  return {
    csrfToken,
    user: toUserDto(user),
    memberships,
    currentMembership: pickCurrentMembership(memberships, session?.currentMembershipId ?? null),
  };
}
