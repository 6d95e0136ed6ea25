import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';

/**
 * The bytes behind a URL never change (the name is their hash), but the image may stop being used (issue #13 item
 * 10a): caches keep it 5 minutes, then must ask again. A CDN or browser revalidates with If-None-Match and gets a
 * 304 without the bytes while the image is in use, or the 404 that drops it: a deleted picture outlives its deletion
 * by 5 minutes at most, in any cache. `must-revalidate` forbids serving it stale when we cannot be asked.
 */
export const MEDIA_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/** If-None-Match names this entity tag (`*`, a list, weak or strong). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/**
 * GET /media/{sha256}.webp: stored images that a user, account or form uses now (DESIGN §2). Unknown and unused names
 * are 404, never cached (the same image uploaded again must be served at once).
 */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { media } = app.services;

  r.get('/media/:file', { schema: { params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const ifNoneMatch = request.headers['if-none-match'];
    let image = await media.findServable(request.params.file, { withBytes: !ifNoneMatch });
    if (image && matches(ifNoneMatch, `"${image.sha256}"`)) {
      return reply
        .code(304)
        .header('Cache-Control', MEDIA_CACHE_CONTROL)
        .header('ETag', `"${image.sha256}"`)
        .send();
    }
    // A revalidation naming another tag (rare: the tag is the name) needs the bytes after all.
    if (image && !image.bytes) image = await media.findServable(request.params.file, { withBytes: true });
    if (!image?.bytes) {
      reply.header('Cache-Control', 'no-store');
      throw new AppError('not_found');
    }
    return reply
      .header('Cache-Control', MEDIA_CACHE_CONTROL)
      .header('ETag', `"${image.sha256}"`)
      .header('Content-Type', image.contentType)
      .header('X-Content-Type-Options', 'nosniff')
      .send(image.bytes);
  });
}
