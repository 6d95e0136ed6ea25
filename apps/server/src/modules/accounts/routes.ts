import { accountEndpoints, PROFILE_IMAGE_FIELD } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/account-context.ts';
import { requireSession, verified } from '../../plugins/auth-guard.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Accounts (companies; DESIGN §5): create, and the company info of an account the caller belongs to. The routes'
 * paths, schemas and capabilities are their contract's (`accountEndpoints`).
 */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, media, sessions } = app.services;

  // Creating an account is the first account action: only with a verified address (auth-guard's `verified`).
  r.route({
    ...declared(accountEndpoints.create),
    preValidation: verified,
    handler: async (request, reply) => {
      const { user, session } = requireSession(request);
      const created = await accounts.create(user, request.body.displayName);
      await sessions.setCurrentMembership(session.idHash, created.membership.id);
      session.currentMembershipId = created.membership.id;
      return reply.code(201).send(created);
    },
  });

  r.route({
    ...declared(accountEndpoints.get),
    handler: (request) => accounts.get(accountContext(request)),
  });

  r.route({
    ...declared(accountEndpoints.update),
    handler: (request) => accounts.change(accountContext(request), request.body),
  });

  r.route({
    ...declared(accountEndpoints.uploadImage),
    handler: async (request) => {
      const ctx = accountContext(request);
      // Charged to the uploading user, together with their profile pictures.
      const url = await media.acceptImageUpload(
        request,
        PROFILE_IMAGE_FIELD,
        `user:${memberOf(ctx).user.id}`,
      );
      return accounts.setLogo(ctx, url);
    },
  });

  r.route({
    ...declared(accountEndpoints.deleteImage),
    handler: (request) => accounts.deleteLogo(accountContext(request)),
  });
}
