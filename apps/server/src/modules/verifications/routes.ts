import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { verificationExportRoutes } from './export-routes.ts';
import { verificationTimelineRoutes } from './timeline-routes.ts';

/** Verifications (SPEC §2 /activity-log/, §7): owners, or members with canSearchData (docs/roles.md). */
export async function verificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifications } = app.services;

  r.route({
    ...declared(verificationEndpoints.list),
    handler: (request) => verifications.list(accountContext(request), request.query),
  });

  // The CSV download lives in export-routes.ts.
  await verificationExportRoutes(app);
  // The timeline (issue #18) lives in timeline-routes.ts.
  await verificationTimelineRoutes(app);
}
