import {
  verificationAttemptExportQuerySchema,
  verificationAttemptListQuerySchema,
  verificationAttemptListSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * The activity log's attempts view (issue #18 item 6): every code sent, with its delivery. Same right and scoping as
 * the log (owners, or members with canSearchData); an account the caller is not a member of answers 404.
 */
export async function verificationAttemptRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verificationAttempts } = app.services;

  r.get(
    '/api/verification-attempts',
    {
      config: { account: { from: 'query.account', can: 'searchData' } },
      schema: {
        querystring: verificationAttemptListQuerySchema,
        response: { 200: verificationAttemptListSchema },
      },
    },
    (request) => verificationAttempts.list(accountContext(request), request.query),
  );

  r.get(
    '/api/verification-attempts/export-csv',
    {
      config: { account: { from: 'query.account', can: 'searchData' } },
      schema: { querystring: verificationAttemptExportQuerySchema },
    },
    async (request, reply) => {
      // A client that goes away stops the reads: no further batch is queried.
      const aborted = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) aborted.abort();
      });
      const csv = await verificationAttempts.startExport(
        accountContext(request),
        request.query,
        aborted.signal,
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('x-total-count', String(csv.total))
        .header('cache-control', 'no-store')
        .send(csv.body);
    },
  );
}
