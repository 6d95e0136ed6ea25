import { createHash } from 'node:crypto';
import { MEDIA_PATH_PREFIX, tooManyRequestsText } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { ImageRejected, type ProcessedImage, processImage } from './images.ts';
import { readSingleUpload } from './upload.ts';

const { media } = schema;

export type MediaRow = typeof media.$inferSelect;

/** Image uploads per uploader and hour: decoding and re-encoding costs CPU, so it is bounded per user. */
export const IMAGE_UPLOAD_LIMITS = { perUploader: 30, windowMs: 60 * 60 * 1000 };

const MEDIA_FILE = /^([0-9a-f]{64})\.webp$/;

export const mediaUrl = (sha256: string) => `${MEDIA_PATH_PREFIX}${sha256}.webp`;

/**
 * Uploaded images (profile pictures now; account logos and form banners later): checked and re-encoded by
 * images.ts, stored in PostgreSQL content-addressed by the SHA-256 of the stored bytes (DESIGN §2), so identical
 * uploads share one row and a URL never changes meaning. Rows are never deleted here: an image no longer used by
 * anyone stays until a garbage-collection job (later work) removes unreferenced rows.
 */
export function createMediaService(db: Db, rateLimit: RateLimiter) {
  async function store(image: ProcessedImage): Promise<string> {
    const sha256 = createHash('sha256').update(image.bytes).digest('hex');
    await db
      .insert(media)
      .values({
        sha256,
        contentType: image.contentType,
        bytes: image.bytes,
        width: image.width,
        height: image.height,
      })
      .onConflictDoNothing();
    return mediaUrl(sha256);
  }

  /**
   * Reads the request's one file from `field`, makes it a safe WebP and stores it; answers its URL (/media/…).
   * `uploader` names who is charged in the upload limit (e.g. `user:12`).
   */
  async function acceptImageUpload(
    request: FastifyRequest,
    field: string,
    uploader: string,
  ): Promise<string> {
    await rateLimit.consume(
      [
        {
          bucket: `image-upload:${uploader}`,
          limit: IMAGE_UPLOAD_LIMITS.perUploader,
          windowMs: IMAGE_UPLOAD_LIMITS.windowMs,
        },
      ],
      tooManyRequestsText,
    );
    const bytes = await readSingleUpload(request, field);
    try {
      return await store(await processImage(bytes));
    } catch (error) {
      if (error instanceof ImageRejected) throw AppError.field('validation_error', field, error.message);
      throw error;
    }
  }

  /** The stored image named by a /media/ file name, if any. */
  async function find(file: string): Promise<MediaRow | undefined> {
    const sha256 = MEDIA_FILE.exec(file)?.[1];
    if (!sha256) return undefined;
    const [row] = await db.select().from(media).where(eq(media.sha256, sha256)).limit(1);
    return row;
  }

  return { store, acceptImageUpload, find };
}

export type MediaService = ReturnType<typeof createMediaService>;
