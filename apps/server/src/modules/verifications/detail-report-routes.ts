import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { verificationNumberCheckRoutes } from './number-checks-routes.ts';

/**
 * The dashboard report and one verification (SPEC §7). The list is in routes.ts, the CSV export in export-routes.ts.
 * The path id stays a string here: the tenancy hook already answered 404 for anything but a positive id that fits.
 */
export async function verificationDetailReportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifications } = app.services;

  r.route({
    ...declared(verificationEndpoints.report),
    handler: (request) => verifications.report(accountContext(request), request.query),
  });

  r.route({
    ...declared(verificationEndpoints.get),
    handler: (request) =>
      verifications.get(accountContext(request), parsePathId(request.params.id, 'verifications')),
  });

  // Its reassigned-number checks (issue #36) live in number-checks-routes.ts.
  await verificationNumberCheckRoutes(app);
}
