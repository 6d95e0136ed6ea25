import { uploadTexts } from '@veriform/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

/**
 * The one file of a multipart request, read into memory (bounded by plugins/multipart.ts). Refusals are 400s on
 * `field` with the spec's messages: no file (or an empty one) → required; a second file → too many; over
 * IMAGE_UPLOAD_MAX_BYTES → too large. Files under another field name count towards the one-file limit and are
 * otherwise ignored; text fields are ignored.
 */
export async function readSingleUpload(request: FastifyRequest, field: string): Promise<Buffer> {
  if (!request.isMultipart()) throw AppError.field('validation_error', field, uploadTexts.required);
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== field) {
        part.file.resume();
        continue;
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    if (codeOf(error) === 'FST_FILES_LIMIT')
      throw AppError.field('validation_error', field, uploadTexts.tooMany);
    if (codeOf(error) === 'FST_REQ_FILE_TOO_LARGE') {
      throw AppError.field('validation_error', field, uploadTexts.tooLarge);
    }
    throw error;
  }
  if (!bytes || bytes.length === 0) throw AppError.field('validation_error', field, uploadTexts.required);
  return bytes;
}
