import { verificationListQuerySchema, verificationListSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticated } from '../../plugins/auth-guard.ts';
import { requireMembership } from '../../plugins/tenancy.ts';
import { verificationExportRoutes } from './export-routes.ts';

/** Verifications (SPEC §2 /activity-log/, §7): owners, or members with canSearchData (docs/roles.md). */
export async function verificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifications } = app.services;

  r.get(
    '/api/verifications',
    {
      preValidation: authenticated,
      schema: { querystring: verificationListQuerySchema, response: { 200: verificationListSchema } },
    },
    async (request) =>
      verifications.list(
        await requireMembership(request, request.query.account, 'searchData'),
        request.query,
      ),
  );

  // GET /api/verifications/export-csv (the CSV download) lives in export-routes.ts.
  await verificationExportRoutes(app);
}
