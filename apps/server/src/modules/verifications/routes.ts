import { verificationListQuerySchema, verificationListSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { verificationExportRoutes } from './export-routes.ts';
import { verificationTimelineRoutes } from './timeline-routes.ts';

/** Verifications (SPEC §2 /activity-log/, §7): owners, or members with canSearchData (docs/roles.md). */
export async function verificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifications } = app.services;

  r.get(
    '/api/verifications',
    {
      config: { account: { from: 'query.account', can: 'searchData' } },
      schema: { querystring: verificationListQuerySchema, response: { 200: verificationListSchema } },
    },
    (request) => verifications.list(accountContext(request), request.query),
  );

  // GET /api/verifications/export-csv (the CSV download) lives in export-routes.ts.
  await verificationExportRoutes(app);
  // GET /api/verifications/{id}/timeline (issue #18) lives in timeline-routes.ts.
  await verificationTimelineRoutes(app);
}
