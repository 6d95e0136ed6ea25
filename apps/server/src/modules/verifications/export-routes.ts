import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** The activity log's CSV download (SPEC §7; issue #6), as `verificationEndpoints.exportCsv` declares it. */
export async function verificationExportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const exporter = app.services.verificationExport;

  r.route({
    ...declared(verificationEndpoints.exportCsv),
    handler: async (request, reply) => {
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
  });
}
