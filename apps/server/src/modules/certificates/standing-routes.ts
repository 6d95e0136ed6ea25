import { certificateEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Where a verification's certificate stands (members with canSearchData: the detail page's menu) and revoking it
 * (owners: `manageEvidence`), issue #19 and ADR 24. As for the detail, the tenancy hook already answered 404 for
 * anything but an id that fits.
 */
export async function certificateStandingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { certificateRevocation: revocation } = app.services;

  r.route({
    ...declared(certificateEndpoints.standing),
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return revocation.standing(accountContext(request), parsePathId(request.params.id, 'verifications'));
    },
  });

  r.route({
    ...declared(certificateEndpoints.revoke),
    handler: async (request) =>
      revocation.revoke(
        accountContext(request),
        parsePathId(request.params.id, 'verifications'),
        request.body.reason,
      ),
  });
}
