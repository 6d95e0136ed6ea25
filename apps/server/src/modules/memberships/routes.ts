import {
  membershipListQuerySchema,
  ownedCredentialsSchema,
  removeMembershipRequestSchema,
  selectMembershipResponseSchema,
  teamMembershipListSchema,
  teamMembershipSchema,
  updatePermissionsRequestSchema,
  updateRoleRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { requireSession, requireUser, requireVerifiedUser } from '../../plugins/auth-guard.ts';
import { type AccountDeclaration, accountContext, optionalAccountContext } from '../../plugins/tenancy.ts';

const params = z.object({ id: z.string() });
const idOf = (params: { id: string }) => parsePathId(params.id);
const membership: AccountDeclaration = { from: { pathObject: 'memberships' } };
const team: AccountDeclaration = { from: { pathObject: 'memberships' }, can: 'manageTeam' };

/** SPEC §7 /api/memberships. Thin: parse, scope, call the service, answer. */
export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { memberships } = app.services;
  const one = { 200: teamMembershipSchema };

  r.get(
    '/api/memberships',
    {
      // Without accountId: the caller's own memberships (open to an unverified address).
      config: { account: { from: 'query.accountId', optional: true } },
      schema: { querystring: membershipListQuerySchema, response: { 200: teamMembershipListSchema } },
    },
    (request) => {
      const ctx = optionalAccountContext(request);
      return ctx ? memberships.listTeam(ctx) : memberships.listOwn(requireUser(request));
    },
  );

  r.get(
    '/api/memberships/:id',
    { config: { account: membership }, schema: { params, response: one } },
    (request) => memberships.get(accountContext(request), idOf(request.params)),
  );

  r.post(
    '/api/memberships/:id/update-role',
    { config: { account: team }, schema: { params, body: updateRoleRequestSchema, response: one } },
    (request) => {
      const { role, ...keep } = request.body;
      return memberships.updateRole(accountContext(request), idOf(request.params), role, keep);
    },
  );

  /** What removing or demoting them would revoke and disable (owners; ADR 30). */
  r.get(
    '/api/memberships/:id/owned-credentials',
    { config: { account: team }, schema: { params, response: { 200: ownedCredentialsSchema } } },
    (request) => memberships.owned(accountContext(request), idOf(request.params)),
  );

  r.post(
    '/api/memberships/:id/update-permissions',
    { config: { account: team }, schema: { params, body: updatePermissionsRequestSchema, response: one } },
    (request) => memberships.updatePermissions(accountContext(request), idOf(request.params), request.body),
  );

  /** Own memberships only (user-scoped, not team-scoped): anyone else's id is 404. Working in an account: verified only. */
  r.post(
    '/api/memberships/:id/select',
    {
      preValidation: async (request) => {
        requireSession(request);
        requireVerifiedUser(request);
        parsePathId((request.params as { id?: unknown }).id);
      },
      schema: { params, response: { 200: selectMembershipResponseSchema } },
    },
    async (request) => {
      const { user, session } = requireSession(request);
      const currentMembership = await memberships.select(user, session, idOf(request.params));
      session.currentMembershipId = currentMembership.id;
      return { currentMembership };
    },
  );

  /** The body is optional: the ids of the person's keys and endpoints to keep (ADR 30); without it nothing is kept. */
  r.delete(
    '/api/memberships/:id',
    { config: { account: membership }, schema: { params, body: removeMembershipRequestSchema.nullish() } },
    async (request, reply) => {
      await memberships.remove(accountContext(request), idOf(request.params), request.body ?? {});
      return reply.code(204).send();
    },
  );
}
