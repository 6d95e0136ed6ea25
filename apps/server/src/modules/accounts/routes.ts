import {
  companyInfoSchema,
  createAccountRequestSchema,
  createAccountResponseSchema,
  PROFILE_IMAGE_FIELD,
  updateAccountRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession, verified } from '../../plugins/auth-guard.ts';
import { scopedByAccountPath, tenantOf } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not an account of the caller. */
const params = z.object({ id: z.string() });

/** Accounts (companies; DESIGN §5): create, and the company info of an account the caller belongs to. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, media, sessions } = app.services;
  const response = { 200: companyInfoSchema };

  // Creating an account is the first account action: only with a verified address (auth-guard's `verified`).
  r.post(
    '/api/accounts',
    {
      preValidation: verified,
      schema: { body: createAccountRequestSchema, response: { 201: createAccountResponseSchema } },
    },
    async (request, reply) => {
      const { user, session } = requireSession(request);
      const created = await accounts.create(user, request.body.displayName);
      await sessions.setCurrentMembership(session.idHash, created.membership.id);
      session.currentMembershipId = created.membership.id;
      return reply.code(201).send(created);
    },
  );

  r.get(
    '/api/accounts/:id',
    { preValidation: scopedByAccountPath(), schema: { params, response } },
    (request) => accounts.get(tenantOf(request)),
  );

  r.patch(
    '/api/accounts/:id',
    {
      preValidation: scopedByAccountPath('manageCompany'),
      schema: { params, body: updateAccountRequestSchema, response },
    },
    (request) => accounts.change(tenantOf(request), request.body),
  );

  r.post(
    '/api/accounts/:id/update-uploaded-profile-image',
    { preValidation: scopedByAccountPath('manageCompany'), schema: { params, response } },
    async (request) => {
      const tenant = tenantOf(request);
      // Charged to the uploading user, together with their profile pictures.
      const url = await media.acceptImageUpload(request, PROFILE_IMAGE_FIELD, `user:${tenant.user.id}`);
      return accounts.setLogo(tenant, url);
    },
  );

  r.patch(
    '/api/accounts/:id/delete-uploaded-profile-image',
    { preValidation: scopedByAccountPath('manageCompany'), schema: { params, response } },
    (request) => accounts.deleteLogo(tenantOf(request)),
  );
}
