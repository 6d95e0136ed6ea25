import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * Redaction (issue #19, ADR 25), as `verificationEndpoints.redact` declares it: an owner (`manageEvidence`) removes a
 * consumer's personal data from one verification. As for the detail, the tenancy hook already answered 404 for
 * anything but a positive id that fits.
 */
export async function verificationRedactionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verificationRedaction } = app.services;

  r.route({
    ...declared(verificationEndpoints.redact),
    handler: (request) =>
      verificationRedaction.redact(accountContext(request), parsePathId(request.params.id, 'verifications')),
  });
}
