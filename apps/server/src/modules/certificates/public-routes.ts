import {
  certificateUnlockRequestSchema,
  certificateUnlockSchema,
  publicCertificateSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../plugins/tenancy.ts';

/** Any string: the service answers 404 alike for a malformed and an unknown id. */
const params = z.object({ certId: z.string() });

/**
 * The public check page's API (issue #19 item 4, ADR 24): no login, CSRF like every unsafe call (the page's data
 * carries the token, as the public verification page's does). Every answer is `no-store`: a revocation or a
 * redaction must show on the next load, and an unlocked number must not sit in a cache.
 */
export async function publicCertificateRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { publicCertificates } = app.services;

  r.get(
    '/api/public/certificates/:certId',
    { schema: { params, response: { 200: publicCertificateSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicCertificates.publicCertificate(request.params.certId);
    },
  );

  r.post(
    '/api/public/certificates/:certId/unlock',
    { schema: { params, body: certificateUnlockRequestSchema, response: { 200: certificateUnlockSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicCertificates.unlock(request.params.certId, request.body.cellPhone, originOf(request));
    },
  );
}
