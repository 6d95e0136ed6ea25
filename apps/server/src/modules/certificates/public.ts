import { timingSafeEqual } from 'node:crypto';
import {
  CERTIFICATE_ALG,
  type Certificate,
  type CertificateUnlock,
  certificateSchema,
  type PublicCertificate,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { e164Of } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import { type RateLimiter, type RateLimitRule, tooMany } from '../../lib/rate-limit.ts';
import type { RequestOrigin } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { verifiedDomainsOf } from '../domains/index.ts';
import { saltedSha256 } from './content.ts';
import { isCertificateId, standingFactsOf, standingOf } from './standing.ts';

const { verificationCertificates, verifications, accounts } = schema;

const MINUTE_MS = 60_000;

/**
 * Guessing the number of a certificate (ADR 24): the masked number leaves about six digits unknown, so the wrong ones
 * are counted per network (5 a quarter of an hour: a visitor who mistypes a few times is not held up) and per
 * certificate from anywhere (20 a day: many networks together still get nowhere near the ~240,000 candidates of a US
 * number). A guess is counted before it is compared and given back when it was right, in one locked step, so a burst
 * gets exactly the limit compared, and a limited caller is refused even the right number.
 */
export const UNLOCK_LIMITS = {
  perIp: { limit: 5, windowMs: 15 * MINUTE_MS },
  perCertificate: { limit: 20, windowMs: 24 * 60 * MINUTE_MS },
} as const;

export const unlockTexts = {
  notAPhoneNumber:
    'Enter the full phone number the code was sent to, with its country code if it is not a US number.',
  wrongNumber: 'That is not the number this certificate was issued for.',
  tooManyFromIp: (seconds: number) =>
    `Too many wrong numbers from your connection. Try again in ${Math.ceil(seconds / 60)} minutes.`,
  tooManyForCertificate: (seconds: number) =>
    `Too many wrong numbers were tried for this certificate. Try again in ${Math.ceil(seconds / 3600)} hours.`,
  redacted: (at: Date) =>
    `The consumer's personal data in this verification was redacted on ${at.toISOString()}: there is nothing left to unlock.`,
  purged: (at: Date) =>
    `The verification's content was removed under the account's retention policy on ${at.toISOString()}: there is nothing left to unlock.`,
};

/**
 * What the unlock reads of the content: the signed salted hash of the number, the number masked (for the log), and the
 * evidence it reveals.
 */
const unlockFieldsSchema = z.object({
  verification: z.object({ cellPhone: z.string(), cellPhoneSha256: z.string() }),
  evidence: z.object({ ip: z.string().nullable(), userAgent: z.string().nullable() }),
});

/** The certificate as signed minus `evidence` (IP address and user agent): what a locked page may show. */
function withoutEvidence(certificate: Certificate): PublicCertificate['certificate'] {
  const { evidence: _evidence, ...rest } = certificate;
  return rest;
}

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * The public side of certificates (issue #19 item 4): anyone holding a certificate's id sees it as signed (masked,
 * and without the consumer's IP address and user agent) with where it stands and the company's verified domains, and
 * unlocks the number, with that evidence, by typing it.
 */
export function createPublicCertificates(deps: {
  db: Db;
  clock: Clock;
  rateLimit: RateLimiter;
  audit: AuditLog;
}) {
  const { db, rateLimit, audit } = deps;

  async function find(certId: string) {
    if (!isCertificateId(certId)) return undefined;
    const [found] = await db
      .select({ row: verificationCertificates, company: accounts.displayName })
      .from(verificationCertificates)
      .innerJoin(accounts, eq(accounts.id, verificationCertificates.accountId))
      .where(eq(verificationCertificates.id, certId))
      .limit(1);
    return found;
  }

  /** GET /api/public/certificates/{certId}: unknown and malformed ids alike are 404. */
  async function publicCertificate(certId: string): Promise<PublicCertificate> {
    const found = await find(certId);
    if (!found) throw new AppError('not_found');
    const { row } = found;
    const signed = row.content === null ? null : certificateSchema.parse(JSON.parse(row.content));
    // The consumer's IP address and browser are left out until someone who knows the number unlocks them.
    const certificate = signed === null ? null : withoutEvidence(signed);
    return {
      ...standingOf({ ...row, ...(await standingFactsOf(db, row.verificationId)) }),
      id: row.id,
      issuedAt: row.createdAt.toISOString(),
      // As signed while there is content (a certificate issued before domains could be verified names none); the
      // account's name and verified domains now once it was redacted.
      company: signed?.account.name ?? found.company,
      companyDomains: signed
        ? (signed.account.verifiedDomains ?? [])
        : await verifiedDomainsOf(db, row.accountId),
      certificate,
      signature: { alg: CERTIFICATE_ALG, keyId: row.keyId, value: row.signature },
    };
  }

  /**
   * POST /api/public/certificates/{certId}/unlock: the number in full, the address when the code went by e-mail, and
   * the salt (with it anyone recomputes the signed hashes). Recorded in the account's audit log: an anonymous visitor
   * has just been shown a consumer's number.
   */
  async function unlock(certId: string, typed: string, origin: RequestOrigin): Promise<CertificateUnlock> {
    const found = await find(certId);
    if (!found) throw new AppError('not_found');
    const { row } = found;
    if (row.purgedAt !== null) throw new AppError('not_found', { detail: unlockTexts.purged(row.purgedAt) });
    if (row.content === null || row.unlockSalt === null)
      throw new AppError('not_found', { detail: unlockTexts.redacted(row.redactedAt ?? row.createdAt) });
    const e164 = e164Of(typed);
    // Not a number at all tells nothing about the right one: refused without using up a guess.
    if (!e164) throw AppError.field('validation_error', 'cellPhone', unlockTexts.notAPhoneNumber);

    const perIp: RateLimitRule = {
      bucket: `certificate-unlock:ip:${ipKey(origin.ip ?? 'unknown')}`,
      ...UNLOCK_LIMITS.perIp,
    };
    const perCertificate: RateLimitRule = {
      bucket: `certificate-unlock:certificate:${row.id}`,
      ...UNLOCK_LIMITS.perCertificate,
    };
    const guess = await rateLimit.locked([perIp.bucket, perCertificate.bucket], async (scope) => {
      const byIp = await scope.check(perIp);
      if (!byIp.allowed) throw tooMany(byIp, unlockTexts.tooManyFromIp);
      const byCertificate = await scope.check(perCertificate);
      if (!byCertificate.allowed) throw tooMany(byCertificate, unlockTexts.tooManyForCertificate);
      return scope.record([perIp.bucket, perCertificate.bucket]);
    });

    const fields = unlockFieldsSchema.parse(JSON.parse(row.content));
    const signed = fields.verification;
    if (!sameHex(saltedSha256(row.unlockSalt, e164), signed.cellPhoneSha256))
      throw AppError.field('validation_error', 'cellPhone', unlockTexts.wrongNumber);
    await rateLimit.release(guess);

    const [verification] = await db
      .select({ email: verifications.email, method: verifications.verificationMethod })
      .from(verifications)
      .where(eq(verifications.id, row.verificationId))
      .limit(1);
    const email = verification?.method === 'email' ? verification.email : null;
    const salt = row.unlockSalt;
    await transaction(db, (tx) =>
      audit.recordForVisitor(tx, row.accountId, origin, {
        action: 'verification.certificate_unlocked',
        targets: [{ type: 'verification', id: String(row.verificationId), name: signed.cellPhone }],
        changes: { certificateId: row.id },
      }),
    );
    return { cellPhone: e164, email, salt, evidence: fields.evidence };
  }

  return { publicCertificate, unlock };
}

export type PublicCertificates = ReturnType<typeof createPublicCertificates>;
