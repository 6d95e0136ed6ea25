import {
  certificateRevokeRequestSchema,
  verificationCertificateStandingSchema,
  verificationDetailQuerySchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** As the detail's: the tenancy hook already answered 404 for anything but an id that fits. */
const params = z.object({ id: z.string() });

/**
 * Where a verification's certificate stands (members with canSearchData: the detail page's menu) and revoking it
 * (owners: `manageEvidence`), issue #19 and ADR 24.
 */
export async function certificateStandingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { certificateRevocation: revocation } = app.services;

  r.get(
    '/api/verifications/:id/certificate/standing',
    {
      config: {
        account: { from: { pathObject: 'verifications' }, can: 'searchData', alsoNamedBy: 'query.account' },
      },
      schema: {
        params,
        querystring: verificationDetailQuerySchema,
        response: { 200: verificationCertificateStandingSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return revocation.standing(accountContext(request), parsePathId(request.params.id, 'verifications'));
    },
  );

  r.post(
    '/api/verifications/:id/certificate/revoke',
    {
      config: {
        account: {
          from: { pathObject: 'verifications' },
          can: 'manageEvidence',
          alsoNamedBy: 'query.account',
        },
      },
      schema: {
        params,
        querystring: verificationDetailQuerySchema,
        body: certificateRevokeRequestSchema,
        response: { 200: verificationCertificateStandingSchema },
      },
    },
    async (request) =>
      revocation.revoke(
        accountContext(request),
        parsePathId(request.params.id, 'verifications'),
        request.body.reason,
      ),
  );
}
