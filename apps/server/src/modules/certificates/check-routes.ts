import { certificateEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { readCertificateUpload } from './check.ts';

/**
 * The check of a dropped certificate (issue #19 item 4; `certificateEndpoints.check`): no login, CSRF as every unsafe
 * call; multipart with one `file` (check.ts reads it). `no-store`: the standing in the answer is of this moment.
 */
export async function certificateCheckRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { certificateCheck: checker } = app.services;

  r.route({
    ...declared(certificateEndpoints.check),
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      await checker.admit(request.ip);
      return checker.check(await readCertificateUpload(request));
    },
  });
}
