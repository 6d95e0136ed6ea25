import {
  verificationDetailQuerySchema,
  verificationDetailSchema,
  verificationReportQuerySchema,
  verificationReportSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { authenticated } from '../../plugins/auth-guard.ts';
import { parsePathId, requireMembership, scopedByPathId, tenantOf } from '../../plugins/tenancy.ts';

/** The path id stays a string here: scopedByPathId already answered 404 for anything but a positive id that fits. */
const params = z.object({ id: z.string() });

/**
 * The dashboard report and one verification (SPEC §7 GET /api/verifications/report, /api/verifications/{id}). The
 * list is in routes.ts, the CSV export in export-routes.ts. Static `report` wins over `:id` in Fastify's router.
 */
export async function verificationDetailReportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifications } = app.services;

  r.get(
    '/api/verifications/report',
    {
      preValidation: authenticated,
      schema: { querystring: verificationReportQuerySchema, response: { 200: verificationReportSchema } },
    },
    async (request) =>
      verifications.report(
        await requireMembership(request, request.query.account, 'viewReports'),
        request.query,
      ),
  );

  r.get(
    '/api/verifications/:id',
    {
      // 401, then 404 for a malformed, unknown or other account's id, then 403 without canSearchData.
      preValidation: scopedByPathId('verifications', 'searchData'),
      schema: {
        params,
        querystring: verificationDetailQuerySchema,
        response: { 200: verificationDetailSchema },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      // The page's `account` is the account being looked at: a verification of another of the caller's accounts is
      // not found under it (the link would show one company's data inside another's pages).
      if (request.query.account !== undefined && request.query.account !== tenant.accountId)
        throw new AppError('not_found');
      return verifications.get(tenant, parsePathId(request.params.id, 'verifications'));
    },
  );
}
