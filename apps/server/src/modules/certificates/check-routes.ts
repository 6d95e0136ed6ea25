import { certificateCheckSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readCertificateUpload } from './check.ts';

/**
 * POST /api/public/certificates/verify (issue #19 item 4): a visitor drops a certificate's PDF or JSON on the public
 * check page, no login, CSRF as every unsafe call; multipart with one `file` (check.ts reads it). `no-store`: the
 * standing in the answer is of this moment.
 */
export async function certificateCheckRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { certificateCheck: checker } = app.services;

  r.post(
    '/api/public/certificates/verify',
    { schema: { response: { 200: certificateCheckSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      await checker.admit(request.ip);
      return checker.check(await readCertificateUpload(request));
    },
  );
}
