import { verificationExportQuerySchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * GET /api/verifications/export-csv?account=…&…the log's filters and `o` (SPEC §7; issue #6): every matching row, in
 * the chosen sort, as a CSV download. Same right and scoping as the list: owners, or members with canSearchData; an
 * account the caller is not a member of answers 404 before anything is read.
 */
export async function verificationExportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const exporter = app.services.verificationExport;

  r.get(
    '/api/verifications/export-csv',
    {
      config: { account: { from: 'query.account', can: 'searchData' } },
      schema: { querystring: verificationExportQuerySchema },
    },
    async (request, reply) => {
      // A client that goes away (closed tab, cancelled download) stops the reads: no further batch is queried.
      const aborted = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) aborted.abort();
      });
      const csv = await exporter.start(accountContext(request), request.query, aborted.signal);
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${csv.filename}"`)
          // Lets the browser show progress; the body is streamed, so there is no Content-Length.
          .header('x-total-count', String(csv.total))
          .header('cache-control', 'no-store')
          .send(csv.body)
      );
    },
  );
}
