import { certificateEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { originOf } from '../../plugins/tenancy.ts';

/**
 * The public check page's API (issue #19 item 4, ADR 24): no login, CSRF like every unsafe call (the page's data
 * carries the token, as the public verification page's does). Every answer is `no-store`: a revocation or a
 * redaction must show on the next load, and an unlocked number must not sit in a cache.
 */
export async function publicCertificateRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { publicCertificates } = app.services;

  r.route({
    ...declared(certificateEndpoints.publicCertificate),
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicCertificates.publicCertificate(request.params.certId);
    },
  });

  r.route({
    ...declared(certificateEndpoints.unlock),
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicCertificates.unlock(request.params.certId, request.body.cellPhone, originOf(request));
    },
  });
}
