import multipart from '@fastify/multipart';
import { IMAGE_UPLOAD_MAX_BYTES } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * multipart/form-data for uploads (SPEC §5, §9): one file of at most IMAGE_UPLOAD_MAX_BYTES, and only a few small
 * text fields. The plugin reads the stream itself, so Fastify's 1 MiB `bodyLimit` (which applies to JSON bodies)
 * does not cap uploads; these limits do. Nothing is written to disk: routes read the one file into memory
 * (modules/media/upload.ts), which these limits bound.
 */
export const MULTIPART_LIMITS = {
  fileSize: IMAGE_UPLOAD_MAX_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 12,
  headerPairs: 100,
} as const;

export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: MULTIPART_LIMITS });
}
