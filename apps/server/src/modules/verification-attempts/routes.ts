import { verificationAttemptEndpoints as attempts } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** The activity log's attempts view (issue #18 item 6), as `verificationAttemptEndpoints` declares it. */
export async function verificationAttemptRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verificationAttempts } = app.services;

  r.route({
    ...declared(attempts.list),
    handler: (request) => verificationAttempts.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(attempts.exportCsv),
    handler: async (request, reply) => {
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
  });
}
