import { CERTIFICATE_UPLOAD_MAX_BYTES, type CertificateCheck } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { parseKeys, verifyCertificateFile } from '@veriform/verify-certificate';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { CertificateService } from './service.ts';
import { standingFactsOf, standingOf } from './standing.ts';

const { verificationCertificates } = schema;

/**
 * Checks per network: each one reads up to 2 MB and, for a PDF, inflates its streams and verifies two signatures,
 * which the generic 600 requests a minute would let one address do at tens of megabytes a second. Someone checking
 * the certificates they hold needs a handful.
 */
export const CHECK_LIMIT = { limit: 30, windowMs: 10 * 60_000 } as const;

export const checkTexts = {
  required: 'Choose the certificate to check: its PDF or its JSON file.',
  tooMany: 'Check one file at a time.',
  tooLarge: `The file is larger than ${CERTIFICATE_UPLOAD_MAX_BYTES / 1024 / 1024} MB: a certificate is far smaller, so this is not one.`,
  malformed: 'The upload could not be read. Please try again.',
  tooManyChecks: (seconds: number) =>
    `Too many files were checked from your connection. Try again in ${Math.ceil(seconds / 60)} minutes.`,
};

const FIELD = 'file';

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/**
 * The one file of the check's multipart request, in memory, at most CERTIFICATE_UPLOAD_MAX_BYTES (the per-request
 * limit overrides plugins/multipart.ts's image limit). Refusals are 400s on `file`, like media/upload.ts's, with the
 * check's own words: a file under another name or a second file is a request the page never sends.
 */
export async function readCertificateUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw AppError.field('validation_error', FIELD, checkTexts.required);
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts({
      limits: { fileSize: CERTIFICATE_UPLOAD_MAX_BYTES, files: 1 },
    })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== FIELD) {
        part.file.resume();
        throw AppError.field('validation_error', FIELD, checkTexts.required);
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = codeOf(error);
    if (code === 'FST_FILES_LIMIT') throw AppError.field('validation_error', FIELD, checkTexts.tooMany);
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw AppError.field('validation_error', FIELD, checkTexts.tooLarge);
    throw AppError.field('validation_error', FIELD, checkTexts.malformed);
  }
  if (!bytes || bytes.length === 0) throw AppError.field('validation_error', FIELD, checkTexts.required);
  return bytes;
}

/**
 * POST /api/public/certificates/verify: the offline checker's verdict (packages/verify-certificate) against every key
 * we ever published, retired ones included, and, for an authentic certificate of ours, where it stands now — a file
 * stays authentic after it was revoked or redacted, and the visitor must learn that too.
 */
export function createCertificateCheck(deps: {
  db: Db;
  rateLimit: RateLimiter;
  certificates: CertificateService;
}) {
  const { db, rateLimit, certificates } = deps;

  /** Counted before the file is read: what costs is the parsing. */
  async function admit(ip: string): Promise<void> {
    await rateLimit.consume(
      [{ bucket: `certificate-check:ip:${ipKey(ip)}`, ...CHECK_LIMIT }],
      checkTexts.tooManyChecks,
    );
  }

  /**
   * The checker's work on the bytes is synchronous (a few milliseconds at most within its bounds, see
   * MAX_CERTIFICATE_JSON_BYTES in packages/verify-certificate): checks take turns, each in a turn of the event loop
   * of its own, so ten uploads finishing at once delay any other request by one check's work, not ten
   * (issue #33 item 7: `/healthz` answers within 100 ms during ten worst-case checks).
   */
  let turns: Promise<unknown> = Promise.resolve();
  function inTurn<T>(work: () => T): Promise<T> {
    const run = turns.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
    turns = run.catch(() => undefined);
    return run;
  }

  async function check(bytes: Buffer): Promise<CertificateCheck> {
    const keys = parseKeys(await certificates.keys());
    const result = await inTurn(() => verifyCertificateFile(bytes, keys));
    let standing: CertificateCheck['standing'] = null;
    if (result.verdict === 'authentic' && result.certificateId !== null) {
      const [row] = await db
        .select({
          revokedAt: verificationCertificates.revokedAt,
          revocationReason: verificationCertificates.revocationReason,
          redactedAt: verificationCertificates.redactedAt,
          purgedAt: verificationCertificates.purgedAt,
          verificationId: verificationCertificates.verificationId,
        })
        .from(verificationCertificates)
        .where(eq(verificationCertificates.id, result.certificateId))
        .limit(1);
      if (row) standing = standingOf({ ...row, ...(await standingFactsOf(db, row.verificationId)) });
    }
    return {
      verdict: result.verdict,
      certificateId: result.certificateId,
      issuedAt: result.issuedAt,
      company: result.company,
      format: result.format,
      reason: result.reason,
      standing,
    };
  }

  return { admit, check };
}

export type CertificateChecker = ReturnType<typeof createCertificateCheck>;
