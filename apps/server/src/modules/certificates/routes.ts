import {
  CERTIFICATE_KEYS_PATH,
  certificateEndpoints,
  certificateKeysSchema,
  signedCertificateSchema,
} from '@veriform/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { certificateCheckRoutes } from './check-routes.ts';
import { certificateFileName } from './file-name.ts';
import { publicCertificateRoutes } from './public-routes.ts';
import type { CertificateDownload } from './service.ts';
import { certificateStandingRoutes } from './standing-routes.ts';

/**
 * The answer is the stored text as signed, never re-serialised (a changed byte is a broken signature): the schema
 * documents it (per content type: the API document shows it as `application/json`); Fastify sends a string as is.
 */
export const signedCertificateResponse = {
  description: 'The signed certificate: canonical JSON (RFC 8785), exactly the bytes that were signed.',
  content: { 'application/json': { schema: signedCertificateSchema } },
};

export const certificatePdfResponse = {
  description:
    'The certificate as a PDF: the same content in words, the signature, a QR code to the public check page, the signed JSON attached, and a seal over every byte after `%%EOF`.',
  content: { 'application/pdf': { schema: z.file() } },
};

/** A download, named for its certificate, so that a plain link saves it as a file. */
export function sendCertificate(
  reply: FastifyReply,
  download: CertificateDownload<string | Buffer>,
  format: 'json' | 'pdf',
) {
  return reply
    .type(format === 'json' ? 'application/json; charset=utf-8' : 'application/pdf')
    .header(
      'content-disposition',
      `attachment; filename="${certificateFileName(download.certificateId, format)}"`,
    )
    .send(download.body);
}

/**
 * Verification certificates (issue #19, ADR 24): the signed JSON and the sealed PDF of one verification (members with
 * canSearchData), and the public keys anyone checks them with; then the module's other route files (where a
 * certificate stands and its revocation, the public check page's API, the check of a dropped file), so that app.ts
 * registers this one plugin (ADR 0036). API v1's route is in api-v1/verifications-routes.ts.
 */
export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { certificates } = app.services;

  // One verification's certificate in either format: the same access, only the answer's shape differs. The answer is
  // the stored bytes, sent as they are (API v1's routes describe them: signedCertificateResponse and the PDF's).
  const downloads = [
    { endpoint: certificateEndpoints.json, format: 'json', download: certificates.forVerification },
    { endpoint: certificateEndpoints.pdf, format: 'pdf', download: certificates.pdfForVerification },
  ] as const;
  for (const { endpoint, format, download } of downloads) {
    r.route({
      ...declared(endpoint),
      handler: async (request, reply) =>
        sendCertificate(
          reply,
          await download(accountContext(request), parsePathId(request.params.id, 'verifications')),
          format,
        ),
    });
  }

  r.get(
    CERTIFICATE_KEYS_PATH,
    { schema: { response: { 200: certificateKeysSchema } } },
    async (_request, reply) => {
      // Public and the same for everyone; a rotation shows within five minutes.
      reply.header('cache-control', 'public, max-age=300');
      reply.header('access-control-allow-origin', '*');
      return certificates.keys();
    },
  );

  await app.register(certificateStandingRoutes);
  await app.register(publicCertificateRoutes);
  await app.register(certificateCheckRoutes);
}
