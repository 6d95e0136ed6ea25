import {
  acceptInvitationRequestSchema,
  acceptInvitationResponseSchema,
  createInvitationRequestSchema,
  invitationListQuerySchema,
  invitationListSchema,
  invitationSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticated, requireSession, verified } from '../../plugins/auth-guard.ts';
import { parsePathId, requireMembership, scopedByPathId, tenantOf } from '../../plugins/tenancy.ts';

const params = z.object({ id: z.string() });

/** Invitations (DESIGN §5 "Team"): owners manage them; the invited person accepts with the e-mailed key. */
export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { invitations } = app.services;

  r.get(
    '/api/invitations',
    {
      preValidation: verified,
      schema: { querystring: invitationListQuerySchema, response: { 200: invitationListSchema } },
    },
    async (request) =>
      invitations.list(await requireMembership(request, request.query.accountId, 'manageTeam')),
  );

  r.post(
    '/api/invitations',
    {
      preValidation: verified,
      schema: { body: createInvitationRequestSchema, response: { 201: invitationSchema } },
    },
    async (request, reply) => {
      const tenant = await requireMembership(request, request.body.accountId, 'manageTeam');
      return reply.code(201).send(await invitations.create(tenant, request.body));
    },
  );

  r.post(
    '/api/invitations/accept',
    {
      preValidation: authenticated,
      schema: { body: acceptInvitationRequestSchema, response: { 200: acceptInvitationResponseSchema } },
    },
    async (request) => {
      const { user, session } = requireSession(request);
      const membership = await invitations.accept(user, session, request.body.key, request.ip);
      session.currentMembershipId = membership.id;
      return { membership };
    },
  );

  r.post(
    '/api/invitations/:id/resend',
    {
      preValidation: scopedByPathId('invitations', 'manageTeam'),
      schema: { params, response: { 200: invitationSchema } },
    },
    (request) => invitations.resend(tenantOf(request), parsePathId(request.params.id)),
  );

  r.delete(
    '/api/invitations/:id',
    { preValidation: scopedByPathId('invitations', 'manageTeam'), schema: { params } },
    async (request, reply) => {
      await invitations.revoke(tenantOf(request), parsePathId(request.params.id));
      return reply.code(204).send();
    },
  );
}
