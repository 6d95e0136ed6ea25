import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';

/** A year, immutable: the name is the content's hash, so the bytes behind a URL never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET /media/{sha256}.webp: stored images, served with immutable caching (DESIGN §2). Unknown names are 404. */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { media } = app.services;

  r.get('/media/:file', { schema: { params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const row = await media.find(request.params.file);
    if (!row) throw new AppError('not_found');
    return reply
      .header('Content-Type', row.contentType)
      .header('Cache-Control', IMMUTABLE)
      .header('ETag', `"${row.sha256}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .send(row.bytes);
  });
}
