import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * The app's "Fresh verification link" (issue #36 item 4, ADR 44): `POST /api/verifications/{id}/refresh`, for those who
 * read the verification (canSearchData: the link carries its reference), CSRF-checked as every unsafe session call.
 */
export async function refreshLinkRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { refreshLinks } = app.services;

  r.route({
    ...declared(verificationEndpoints.refresh),
    handler: async (request, reply) => {
      const link = await refreshLinks.forVerification(
        accountContext(request),
        parsePathId(request.params.id, 'verifications'),
      );
      return reply.code(201).send(link);
    },
  });
}
