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
import { memberOf } from '../../plugins/account-context.ts';
import { requireSession, verified } from '../../plugins/auth-guard.ts';
import { type AccountDeclaration, accountContext } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not an account of the caller. */
const params = z.object({ id: z.string() });
const anyMember: AccountDeclaration = { from: 'path.account' };
const owners: AccountDeclaration = { from: 'path.account', can: 'manageCompany' };

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

  r.get('/api/accounts/:id', { config: { account: anyMember }, schema: { params, response } }, (request) =>
    accounts.get(accountContext(request)),
  );

  r.patch(
    '/api/accounts/:id',
    { config: { account: owners }, schema: { params, body: updateAccountRequestSchema, response } },
    (request) => accounts.change(accountContext(request), request.body),
  );

  r.post(
    '/api/accounts/:id/update-uploaded-profile-image',
    { config: { account: owners }, schema: { params, response } },
    async (request) => {
      const ctx = accountContext(request);
      // Charged to the uploading user, together with their profile pictures.
      const url = await media.acceptImageUpload(
        request,
        PROFILE_IMAGE_FIELD,
        `user:${memberOf(ctx).user.id}`,
      );
      return accounts.setLogo(ctx, url);
    },
  );

  r.patch(
    '/api/accounts/:id/delete-uploaded-profile-image',
    { config: { account: owners }, schema: { params, response } },
    (request) => accounts.deleteLogo(accountContext(request)),
  );
}
