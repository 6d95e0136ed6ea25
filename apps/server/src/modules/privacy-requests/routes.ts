import { privacyRequestEndpoints } from '@veriform/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** A ZIP download, never cached (it holds a person's data). */
export function sendZip(reply: FastifyReply, file: { fileName: string; bytes: Uint8Array }) {
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(Buffer.from(file.bytes));
}

/**
 * Data-subject requests in the app (issue #37 item 3; Settings → Privacy requests): owners file, read, extend and
 * carry them out and download an access bundle. Paths, schemas and capabilities are the contract's
 * (`privacyRequestEndpoints`); another account's request answers 404 like an unknown one.
 */
export async function privacyRequestRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { privacyRequests } = app.services;

  r.route({
    ...declared(privacyRequestEndpoints.list),
    handler: (request) => privacyRequests.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(privacyRequestEndpoints.file),
    handler: async (request, reply) =>
      reply.code(201).send(await privacyRequests.file(accountContext(request), request.body)),
  });

  r.route({
    ...declared(privacyRequestEndpoints.get),
    handler: (request) => privacyRequests.get(accountContext(request), request.params.id),
  });

  r.route({
    ...declared(privacyRequestEndpoints.carryOut),
    handler: async (request, reply) =>
      reply.code(202).send(await privacyRequests.carryOut(accountContext(request), request.params.id)),
  });

  r.route({
    ...declared(privacyRequestEndpoints.extend),
    handler: (request) =>
      privacyRequests.extend(accountContext(request), request.params.id, request.body.reason),
  });

  r.route({
    ...declared(privacyRequestEndpoints.bundle),
    handler: async (request, reply) =>
      sendZip(reply, await privacyRequests.bundle(accountContext(request), request.params.id)),
  });
}
