import { createHash } from 'node:crypto';
import { MEDIA_PATH_PREFIX, tooManyRequestsText } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, exists, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { ImageRejected, type ProcessedImage, processImage } from './images.ts';
import { readSingleUpload } from './upload.ts';

const { media, users, accounts, verifyForms } = schema;

export type MediaRow = typeof media.$inferSelect;

/** Image uploads per uploader and hour: decoding and re-encoding costs CPU, so it is bounded per user. */
export const IMAGE_UPLOAD_LIMITS = { perUploader: 30, windowMs: 60 * 60 * 1000 };

const MEDIA_FILE = /^([0-9a-f]{64})\.webp$/;

export const mediaUrl = (sha256: string) => `${MEDIA_PATH_PREFIX}${sha256}.webp`;

/**
 * Uploaded images (users' profile pictures, accounts' logos, forms' banners): checked and re-encoded by images.ts,
 * stored in PostgreSQL content-addressed by the SHA-256 of the stored bytes (DESIGN §2), so identical uploads share
 * one row and a URL never changes meaning.
 *
 * An image is served only while a row uses it (issue #13 item 10a): a replaced or deleted picture, or one whose user,
 * account or form is gone, answers 404 at once. The check is made when serving rather than by deleting media rows
 * when a picture changes, because the three columns change in several modules and by cascades (closing a login,
 * deleting an account or a form), and because a content-addressed row may be shared: deleting it safely would need a
 * lock against another row taking the same hash at that moment. Rows nobody uses stay stored, unserved, until a
 * garbage-collection job (later work) removes them with the same test.
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

  /** Whether a user, an account or a form shows the image at `url` now. */
  function inUse(url: string) {
    const one = sql`1`;
    return or(
      exists(db.select({ one }).from(users).where(eq(users.uploadedProfileImage, url))),
      exists(db.select({ one }).from(accounts).where(eq(accounts.uploadedProfileImage, url))),
      exists(db.select({ one }).from(verifyForms).where(eq(verifyForms.bannerImage, url))),
    );
  }

  /**
   * The stored image named by a /media/ file name, if some row uses it; its bytes only when asked (a revalidation
   * that ends in 304 needs none).
   */
  async function findServable(
    file: string,
    options: { withBytes: boolean },
  ): Promise<{ sha256: string; contentType: string; bytes: Buffer | undefined } | undefined> {
    const sha256 = MEDIA_FILE.exec(file)?.[1];
    if (!sha256) return undefined;
    const [row] = await db
      .select({
        sha256: media.sha256,
        contentType: media.contentType,
        bytes: options.withBytes ? media.bytes : sql<null>`null`,
      })
      .from(media)
      .where(and(eq(media.sha256, sha256), inUse(mediaUrl(sha256))))
      .limit(1);
    return row && { ...row, bytes: row.bytes ?? undefined };
  }

  return { store, acceptImageUpload, findServable };
}

export type MediaService = ReturnType<typeof createMediaService>;
