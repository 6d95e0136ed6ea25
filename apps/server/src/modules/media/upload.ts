import { imageUploadRefusalTexts, uploadTexts } from '@veriform/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

const statusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;

/** Limits of plugins/multipart.ts that only a hand-made request reaches. */
const MALFORMED_CODES = new Set([
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_INVALID_JSON_FIELD_ERROR',
  'FST_PROTO_VIOLATION',
]);

/**
 * The one file of a multipart request, read into memory (bounded by plugins/multipart.ts). Refusals are 400s on
 * `field` with the spec's messages: no file (or an empty one) → required; a second file → too many; over
 * IMAGE_UPLOAD_MAX_BYTES → too large; a broken multipart body → malformed. Files under another field name count towards the one-file limit and are
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
    const status = statusOf(error);
    // busboy's own parse errors (no boundary, cut short, bad part headers) carry no status: the body is broken.
    if (status === undefined || MALFORMED_CODES.has(String(codeOf(error)))) {
      throw AppError.field('validation_error', field, imageUploadRefusalTexts.malformed);
    }
    throw error;
  }
  if (!bytes || bytes.length === 0) throw AppError.field('validation_error', field, uploadTexts.required);
  return bytes;
}
