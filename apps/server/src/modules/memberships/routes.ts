import {
  membershipListQuerySchema,
  selectMembershipResponseSchema,
  teamMembershipListSchema,
  teamMembershipSchema,
  updatePermissionsRequestSchema,
  updateRoleRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticated, requireSession, requireUser, requireVerifiedUser } from '../../plugins/auth-guard.ts';
import { parsePathId, requireMembership, scopedByPathId, tenantOf } from '../../plugins/tenancy.ts';

const params = z.object({ id: z.string() });
const idOf = (params: { id: string }) => parsePathId(params.id);

/** SPEC §7 /api/memberships. Thin: parse, scope, call the service, answer. */
export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { memberships } = app.services;
  const one = { 200: teamMembershipSchema };

  r.get(
    '/api/memberships',
    {
      preValidation: authenticated,
      schema: { querystring: membershipListQuerySchema, response: { 200: teamMembershipListSchema } },
    },
    async (request) => {
      const { accountId } = request.query;
      if (accountId === undefined) return memberships.listOwn(requireUser(request));
      return memberships.listTeam(await requireMembership(request, accountId));
    },
  );

  r.get(
    '/api/memberships/:id',
    { preValidation: scopedByPathId('memberships'), schema: { params, response: one } },
    (request) => memberships.get(tenantOf(request), idOf(request.params)),
  );

  r.post(
    '/api/memberships/:id/update-role',
    {
      preValidation: scopedByPathId('memberships', 'manageTeam'),
      schema: { params, body: updateRoleRequestSchema, response: one },
    },
    (request) => memberships.updateRole(tenantOf(request), idOf(request.params), request.body.role),
  );

  r.post(
    '/api/memberships/:id/update-permissions',
    {
      preValidation: scopedByPathId('memberships', 'manageTeam'),
      schema: { params, body: updatePermissionsRequestSchema, response: one },
    },
    (request) => memberships.updatePermissions(tenantOf(request), idOf(request.params), request.body),
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

  r.delete(
    '/api/memberships/:id',
    { preValidation: scopedByPathId('memberships'), schema: { params } },
    async (request, reply) => {
      await memberships.remove(tenantOf(request), idOf(request.params));
      return reply.code(204).send();
    },
  );
}
