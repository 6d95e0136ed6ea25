import { Readable } from 'node:stream';
import { auditEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { readEntry } from './log.ts';
import { csvHeader, csvLine, jsonLine } from './service.ts';

/**
 * The audit log for owners (capability readAuditLog; members 403, another account 404): the screen's pages and the
 * export, streamed oldest first as CSV or JSON Lines (the latter is what `npm run audit:verify -- --file` checks). The
 * routes' paths, schemas and capability are their contract's (`auditEndpoints`).
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auditReader, audit, db, clock } = app.services;

  r.route({
    ...declared(auditEndpoints.list),
    handler: (request) => auditReader.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(auditEndpoints.export),
    handler: async (request, reply) => {
      const ctx = accountContext(request);
      const { format, account: _account, ...filters } = request.query;
      // The export is a read of the whole log (issue #33 item 8): recorded, with its count, before a line is sent.
      const { count, upTo } = await auditReader.exportSnapshot(ctx, request.query);
      await audit.record(db, ctx, readEntry('audit_log.exported', count, { ...filters, format }));
      const events = auditReader.exportEvents(ctx, request.query, upTo);
      async function* lines() {
        if (format === 'csv') yield csvHeader();
        for await (const event of events)
          yield format === 'csv' ? csvLine(event) : jsonLine(event, ctx.accountId);
      }
      const body = Readable.from(lines());
      // A client that goes away stops the reads: the generator is returned, no further batch is queried.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) body.destroy();
      });
      const day = clock.now().toISOString().slice(0, 10);
      return reply
        .header(
          'content-type',
          format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
        )
        .header('content-disposition', `attachment; filename="audit-log-${ctx.accountId}-${day}.${format}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  });
}
