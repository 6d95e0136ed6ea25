import { membershipEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { requireSession, requireUser, requireVerifiedUser } from '../../plugins/auth-guard.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext, optionalAccountContext } from '../../plugins/tenancy.ts';

const idOf = (params: { id: string }) => parsePathId(params.id);

/**
 * SPEC §7 /api/memberships. Thin: parse, scope, call the service, answer. The routes' paths, schemas and capabilities
 * are their contract's (`membershipEndpoints`).
 */
export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { memberships } = app.services;

  r.route({
    ...declared(membershipEndpoints.list),
    handler: (request) => {
      const ctx = optionalAccountContext(request);
      return ctx ? memberships.listTeam(ctx) : memberships.listOwn(requireUser(request));
    },
  });

  r.route({
    ...declared(membershipEndpoints.get),
    handler: (request) => memberships.get(accountContext(request), idOf(request.params)),
  });

  r.route({
    ...declared(membershipEndpoints.updateRole),
    handler: (request) => {
      const { role, ...keep } = request.body;
      return memberships.updateRole(accountContext(request), idOf(request.params), role, keep);
    },
  });

  r.route({
    ...declared(membershipEndpoints.ownedCredentials),
    handler: (request) => memberships.owned(accountContext(request), idOf(request.params)),
  });

  r.route({
    ...declared(membershipEndpoints.updatePermissions),
    handler: (request) =>
      memberships.updatePermissions(accountContext(request), idOf(request.params), request.body),
  });

  // User-scoped, not team-scoped: no account declaration; the service finds the membership among the caller's own.
  r.route({
    ...declared(membershipEndpoints.select),
    preValidation: async (request) => {
      requireSession(request);
      requireVerifiedUser(request);
      parsePathId((request.params as { id?: unknown }).id);
    },
    handler: async (request) => {
      const { user, session } = requireSession(request);
      const currentMembership = await memberships.select(user, session, idOf(request.params));
      session.currentMembershipId = currentMembership.id;
      return { currentMembership };
    },
  });

  r.route({
    ...declared(membershipEndpoints.remove),
    handler: async (request, reply) => {
      await memberships.remove(accountContext(request), idOf(request.params), request.body ?? {});
      return reply.code(204).send();
    },
  });
}
