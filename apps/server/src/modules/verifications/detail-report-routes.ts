import {
  verificationDetailQuerySchema,
  verificationDetailSchema,
  verificationReportQuerySchema,
  verificationReportSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** The path id stays a string here: the tenancy hook already answered 404 for anything but a positive id that fits. */
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
      config: { account: { from: 'query.account', can: 'viewReports' } },
      schema: { querystring: verificationReportQuerySchema, response: { 200: verificationReportSchema } },
    },
    (request) => verifications.report(accountContext(request), request.query),
  );

  r.get(
    '/api/verifications/:id',
    {
      // 401, then 404 for a malformed, unknown or other account's id, then 403 without canSearchData. The page's
      // `account` is the account being looked at: a verification of another of the caller's accounts is not found
      // under it (the link would show one company's data inside another's pages).
      config: {
        account: { from: { pathObject: 'verifications' }, can: 'searchData', alsoNamedBy: 'query.account' },
      },
      schema: {
        params,
        querystring: verificationDetailQuerySchema,
        response: { 200: verificationDetailSchema },
      },
    },
    (request) => verifications.get(accountContext(request), parsePathId(request.params.id, 'verifications')),
  );
}
