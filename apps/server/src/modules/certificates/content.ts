import type { Certificate } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { canonicalJson, sha256Hex } from '@veriform/verify-certificate';
import { and, eq, sql } from 'drizzle-orm';
import { carrierColumns, carrierOf, consentEvidenceOf, simSwapOf } from '../../domain/api-verification.ts';
import { maskEmail, maskPhone } from '../../domain/phone.ts';
import { verifiedDomainsOf } from '../domains/index.ts';
import { approvedAttemptOn, verificationTimeline } from '../verifications/index.ts';

const {
  verifications,
  accounts,
  verifyForms,
  consentVersions,
  verificationAttempts,
  verificationCertificates,
} = schema;

/**
 * The verification whose consent this one's approved code refreshes (issue #36 item 4, ADR 44), and that one's
 * certificate if it has one: probes by key from the joined approved attempt's `refreshes`.
 */
const refreshedVerification = sql`(select r.verification_id from ${verificationAttempts} r where r.id = ${verificationAttempts.refreshes})`;
const refreshesColumns = {
  refreshesAttemptId: verificationAttempts.refreshes,
  refreshesVerificationId: sql<number | null>`${refreshedVerification}`.mapWith(verifications.id),
  refreshesCertificateId: sql<
    string | null
  >`(select c.id from ${verificationCertificates} c where c.verification_id = ${refreshedVerification})`,
};

type VerificationRow = typeof verifications.$inferSelect;

/** Everything a certificate says except what issuing adds (its id, the time, its place in the chain). */
export type CertificateFacts = Omit<Certificate, 'id' | 'issued' | 'chain'>;

/** `<salt>:<value>` hashed: the signed stand-in for a number or address that the file shows masked. */
export const saltedSha256 = (salt: string, value: string) => sha256Hex(`${salt}:${value}`);

/**
 * The record's own hash: the verification's stored columns, each as stored (times in ISO 8601), the number and the
 * address as their salted hashes (a plain hash of the row would give the number away as the masked one's would).
 * Anyone holding the row and the salt recomputes it.
 */
export function recordSha256(row: VerificationRow, salt: string): string {
  const { cellPhone, email, ...rest } = row;
  const fields: Record<string, unknown> = {
    ...rest,
    cellPhoneSha256: saltedSha256(salt, cellPhone),
    emailSha256: email === null ? null : saltedSha256(salt, email),
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Date) fields[name] = value.toISOString();
  }
  return sha256Hex(canonicalJson(fields));
}

/**
 * A certificate's content from stored facts only (issue #19 item 6): the verification row with its company, form and
 * consent version (one join), then the timeline of issue #18 (verifications/timeline.ts) and the company's verified
 * domains (issue #33 item 10). Null when the verification
 * is not the account's. `salt` is the certificate's unlock salt.
 */
export async function certificateFacts(
  db: Db,
  accountId: number,
  verificationId: number,
  now: Date,
  salt: string,
  publicUrl: string,
): Promise<CertificateFacts | null> {
  const [found] = await db
    .select({
      row: verifications,
      accountName: accounts.displayName,
      formPublicId: verifyForms.publicId,
      consentText: consentVersions.text,
      // What the carrier said when the code was requested (issue #36): its approved code's linked lookups.
      ...carrierColumns,
      ...refreshesColumns,
    })
    .from(verifications)
    .innerJoin(accounts, eq(accounts.id, verifications.accountId))
    .innerJoin(verifyForms, eq(verifyForms.id, verifications.verifyFormId))
    .leftJoin(consentVersions, eq(consentVersions.id, verifications.consentVersionId))
    .leftJoin(verificationAttempts, approvedAttemptOn)
    .where(and(eq(verifications.accountId, accountId), eq(verifications.id, verificationId)))
    .limit(1);
  if (!found) return null;
  const { row } = found;
  const timeline = (await verificationTimeline(db, accountId, verificationId, now)) ?? [];
  // The domains proven by now (ADR 31): signed, so the certificate names them for good, whatever is removed later.
  const verifiedDomains = await verifiedDomainsOf(db, accountId);
  const entered = timeline.filter((event) => event.kind === 'code_entered');
  const consent = consentEvidenceOf(row);
  const reference = row.externalRefId === '' ? null : row.externalRefId;
  return {
    version: 1,
    account: { id: row.accountId, name: found.accountName, verifiedDomains },
    form: { id: row.verifyFormId, name: row.verifyFormName, publicId: found.formPublicId },
    verification: {
      id: row.id,
      created: row.createdAt.toISOString(),
      codeSent: row.codeSentAt?.toISOString() ?? null,
      verified: row.verifiedAt?.toISOString() ?? null,
      channel: row.verificationMethod,
      cellPhone: maskPhone(row.cellPhone),
      cellPhoneSha256: saltedSha256(salt, row.cellPhone),
      email: row.email === null ? null : maskEmail(row.email),
      emailSha256: row.email === null ? null : saltedSha256(salt, row.email),
      externalRefId: row.externalRefId,
      isTest: row.isTest,
      source: row.source,
    },
    // Signed: facts of the code's moment that never change (issue #36). Certificates issued before carry neither key;
    // the verifier checks bytes and signature only, so adding keys leaves every earlier signature as it was.
    carrier: carrierOf(found),
    simSwap: simSwapOf(found),
    // Signed likewise (issue #36 item 4): the consent this one refreshes, as known when it is issued.
    refreshes:
      found.refreshesAttemptId === null
        ? null
        : {
            verificationId: found.refreshesVerificationId,
            apiVerificationId: found.refreshesAttemptId,
            certificateId: found.refreshesCertificateId,
          },
    // The text is the version's own row; a version is never changed (migration 0017's trigger), and its hash is the
    // one the verification recorded.
    consent: consent && found.consentText !== null ? { ...consent, text: found.consentText } : null,
    page:
      row.source === 'hosted'
        ? {
            url: `${publicUrl}/f/${found.formPublicId}${reference ? `?ref=${encodeURIComponent(reference)}` : ''}`,
            reference,
          }
        : null,
    timeline,
    attempts: {
      count: row.attempts,
      codesEntered: entered.length,
      wrongCodes: entered.filter((event) => event.correct === false).length,
    },
    evidence: { ip: row.ip, userAgent: row.userAgent },
    record: { sha256: recordSha256(row, salt) },
  };
}
