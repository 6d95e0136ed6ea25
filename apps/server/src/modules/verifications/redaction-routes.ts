import { verificationDetailQuerySchema, verificationDetailSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** As the detail's: the tenancy hook already answered 404 for anything but a positive id that fits. */
const params = z.object({ id: z.string() });

/**
 * POST /api/verifications/{id}/redact?account=N (issue #19, ADR 25): an owner (`manageEvidence`) removes a consumer's
 * personal data from one verification, once; the answer is the verification's detail as it now reads. Nothing to send:
 * no body, or `{}`.
 */
export async function verificationRedactionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verificationRedaction } = app.services;

  r.post(
    '/api/verifications/:id/redact',
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
        // Absent (null to the validator) or `{}`: there is nothing to choose.
        body: z.object({}).strict().nullish(),
        response: { 200: verificationDetailSchema },
      },
    },
    (request) =>
      verificationRedaction.redact(accountContext(request), parsePathId(request.params.id, 'verifications')),
  );
}
