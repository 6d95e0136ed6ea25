import { z } from 'zod';
import { apiCarrierSchema, apiReassignmentSchema, apiSimSwapSchema } from './api-v1.ts';
import { consentEvidenceSchema } from './consent.ts';
import { anyIdParams, endpoint, ok } from './endpoints.ts';
import { verificationMethodSchema } from './public-verify.ts';
import { onVerification, timelineEventSchema, verificationDetailQuerySchema } from './verifications.ts';
import { languageSchema } from './verify-forms.ts';

/**
 * A verification's signed certificate (issue #19, docs/decisions/0024-verification-certificates.md). The server answers
 * the canonical JSON (RFC 8785) of `{certificate, signature}`, byte for byte as it was signed; these schemas describe
 * it (the API document, the web app) and are never used to rewrite it. Field names are a published format: add, never
 * rename; a change of meaning is a new `version`.
 */

export const CERTIFICATE_VERSION = 1;
export const CERTIFICATE_ALG = 'Ed25519';
/** Where the public keys are published (every key that ever signed, retired ones included). */
export const CERTIFICATE_KEYS_PATH = '/.well-known/veriform-certificate-keys.json';

export const certificateSchema = z
  .object({
    id: z.string().meta({ description: 'The certificate id: `cert_` and 128 random bits.' }),
    version: z.literal(CERTIFICATE_VERSION),
    issued: z.string().meta({ description: 'When the certificate was issued (ISO 8601, UTC).' }),
    account: z
      .object({
        id: z.number().int(),
        name: z.string(),
        verifiedDomains: z.array(z.string()).optional().meta({
          description:
            'The domains the company had proven it controls when the certificate was issued (DNS TXT record or HTTPS file; ASCII form), oldest proof first; empty: its name was not verified. Absent from certificates issued before domains could be verified (read as empty).',
        }),
      })
      .meta({ description: 'The company.' }),
    form: z.object({ id: z.number().int(), name: z.string(), publicId: z.string() }),
    verification: z.object({
      id: z.number().int(),
      created: z.string(),
      codeSent: z.string().nullable(),
      verified: z.string().nullable(),
      channel: verificationMethodSchema,
      cellPhone: z.string().meta({ description: 'Masked: `+1 ••• ••• 0006`.' }),
      cellPhoneSha256: z.string().meta({
        description:
          'Hex SHA-256 of `<salt>:<E.164 number>`; the salt is revealed, with the number, to someone who unlocks the certificate with the right number.',
      }),
      email: z.string().nullable().meta({ description: 'Masked: `j•••@example.com`.' }),
      emailSha256: z.string().nullable().meta({ description: 'Hex SHA-256 of `<salt>:<address>`.' }),
      externalRefId: z.string(),
      isTest: z.boolean(),
      source: z.enum(['hosted', 'api']),
    }),
    carrier: apiCarrierSchema.nullable().optional().meta({
      description:
        'What the carrier said of the number when the code was requested (line type and name; issue #36), as API v1’s verification says it; null when it was not asked. Absent from certificates issued before carrier lookups.',
    }),
    simSwap: apiSimSwapSchema.nullable().optional().meta({
      description:
        'The number’s last SIM swap as the carrier told it when the code was requested, judged against the account’s window then (issue #36); null when it was not asked. Absent from certificates issued before carrier lookups.',
    }),
    refreshes: z
      .object({
        verificationId: z.number().int().nullable().meta({
          description:
            'The earlier verification’s id (as `verification.id`); null when it is no longer kept.',
        }),
        apiVerificationId: z.string().meta({ description: 'Its id in API v1.' }),
        certificateId: z
          .string()
          .nullable()
          .meta({ description: 'Its certificate, when one was issued before this one.' }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          'The earlier verification whose consent this one refreshes: made through a fresh verification link of it (issue #36 item 4). Null otherwise; absent from certificates issued before refresh links.',
      }),
    consent: consentEvidenceSchema.extend({ language: languageSchema, text: z.string() }).nullable().meta({
      description: 'The consent text the consumer was shown, in full; null when the form had none.',
    }),
    page: z
      .object({ url: z.string(), reference: z.string().nullable() })
      .nullable()
      .meta({ description: 'The hosted page the code was asked from; null through API v1.' }),
    timeline: z.array(timelineEventSchema),
    attempts: z.object({
      count: z
        .number()
        .int()
        .meta({ description: 'Codes tried for the code that verified, the right one included.' }),
      codesEntered: z.number().int(),
      wrongCodes: z.number().int(),
    }),
    evidence: z.object({ ip: z.string().nullable(), userAgent: z.string().nullable() }),
    record: z.object({
      sha256: z.string().meta({
        description:
          "Hex SHA-256 of the canonical JSON of the verification's stored fields (its number and address as their salted hashes).",
      }),
    }),
    chain: z.object({
      seq: z.number().int().meta({ description: "This certificate's place among the account's: 1, 2, 3…" }),
      prevHash: z.string().nullable().meta({
        description: "SHA-256 of the account's previous certificate (canonical JSON); null for the first.",
      }),
    }),
  })
  .meta({ id: 'Certificate' });
export type Certificate = z.infer<typeof certificateSchema>;

export const certificateSignatureSchema = z.object({
  alg: z.literal(CERTIFICATE_ALG),
  keyId: z.string().meta({ description: 'The signing key: `vfk_` and 16 hex characters of its SHA-256.' }),
  value: z
    .string()
    .meta({ description: 'Base64 Ed25519 signature of the canonical JSON (RFC 8785) of `certificate`.' }),
});

/** GET /api/verifications/{id}/certificate, GET /api/v1/verifications/{id}/certificate. */
export const signedCertificateSchema = z
  .object({ certificate: certificateSchema, signature: certificateSignatureSchema })
  .meta({ id: 'SignedCertificate' });
export type SignedCertificate = z.infer<typeof signedCertificateSchema>;

/** GET /.well-known/veriform-certificate-keys.json */
export const certificateKeysSchema = z.object({
  keys: z.array(
    z.object({
      keyId: z.string(),
      alg: z.literal(CERTIFICATE_ALG),
      /** Base64 of the raw 32-byte Ed25519 public key. */
      publicKey: z.string(),
      created: z.string(),
      retired: z.string().nullable(),
    }),
  ),
});
export type CertificateKeys = z.infer<typeof certificateKeysSchema>;

// ---- Standing, public check, unlock, revocation (issue #19) ---------------------------------------------------------

/**
 * Where a certificate stands now. Its signed facts never change; three things may happen to it later, each once: the
 * account revokes it (with a reason), the consumer's personal data is redacted from its verification (the content is
 * removed; the hash, signature and place in the chain stay), or the account's retention policy purges its verification
 * (issue #37: the same tombstone, `purgedAt`). A revoked, redacted or purged certificate still verifies — it was
 * signed — and every check of it says so, with the date.
 */
export const certificateStatuses = ['valid', 'revoked', 'redacted', 'purged'] as const;
export const certificateStatusSchema = z.enum(certificateStatuses);
export type CertificateStatus = z.infer<typeof certificateStatusSchema>;

export const certificateStandingSchema = z
  .object({
    status: certificateStatusSchema.meta({
      description:
        "`purged` wins over `redacted`, and `redacted` over `revoked`, when more than one happened. `purged`: the account's retention policy removed the verification (issue #37); the certificate is still authentic.",
    }),
    revokedAt: z.string().nullable(),
    revocationReason: z.string().nullable(),
    redactedAt: z.string().nullable(),
    purgedAt: z.string().nullable().meta({
      description:
        "When the account's retention policy removed the verification and the certificate's content (issue #37): its hash, signature and place in the chain are kept, so it still checks as authentic. Null otherwise.",
    }),
    consentRevokedAt: z.string().nullable().meta({
      description:
        'When the consumer revoked consent for the verified number or address, after the verification (issue #35): the certificate stays valid evidence of its moment, and this says "consent revoked on …" beside it. Not part of the signed content. Null when consent was not revoked since (or once redacted).',
    }),
    reassignment: apiReassignmentSchema.nullable().meta({
      description:
        'The latest reassigned-number check of the verified number since this consent (issue #36): `yes` means the number changed hands since, so the consent no longer covers whoever holds it now; `no_data` is no data, never a no. Not part of the signed content (checks come later and change). Null when none was made.',
    }),
  })
  .meta({ id: 'CertificateStanding' });
export type CertificateStanding = z.infer<typeof certificateStandingSchema>;

/** The certificate as signed but for `evidence`: what the public check page gets before an unlock. */
export const lockedCertificateSchema = certificateSchema
  .omit({ evidence: true })
  .meta({ id: 'LockedCertificate', description: 'The certificate as signed, without `evidence`.' });

/**
 * GET /api/public/certificates/{certId}, no login: the public check page's certificate. Knowing the unguessable id is
 * what holding the certificate means (it is printed on the PDF), so the content is answered as signed (number and
 * address masked) without the consumer's IP address and user agent, which the unlock answers; `certificate` is null
 * once redacted.
 */
export const publicCertificateSchema = certificateStandingSchema
  .extend({
    id: z.string(),
    issuedAt: z.string(),
    company: z.string(),
    /**
     * The company's verified domains as signed (`account.verifiedDomains`; empty: "name not verified"); once redacted,
     * the account's verified domains now, as `company` is its name now.
     */
    companyDomains: z.array(z.string()),
    /**
     * As signed but for `evidence` (the consumer's IP address and browser), which only an unlock reveals: the page is
     * public to whoever holds the id.
     */
    certificate: lockedCertificateSchema.nullable(),
    signature: certificateSignatureSchema,
  })
  .meta({ id: 'PublicCertificate' });
export type PublicCertificate = z.infer<typeof publicCertificateSchema>;

export const certificateVerdicts = ['authentic', 'altered', 'unknown'] as const;
export const certificateVerdictSchema = z.enum(certificateVerdicts);
export type CertificateVerdict = z.infer<typeof certificateVerdictSchema>;

/** The largest file the check accepts (a certificate's PDF is tens of kilobytes). */
export const CERTIFICATE_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

/** POST /api/public/certificates/verify, multipart with one `file` (the PDF or the JSON), no login. */
export const certificateCheckSchema = z
  .object({
    verdict: certificateVerdictSchema.meta({
      description:
        '`authentic`: signed by a Veriform key and not a byte changed. `altered`: a certificate, or what is left of one, that does not verify. `unknown`: not a Veriform certificate, or signed by a key we never published.',
    }),
    certificateId: z.string().nullable(),
    issuedAt: z.string().nullable(),
    company: z.string().nullable(),
    format: z.enum(['json', 'pdf']).nullable(),
    /** Why it is not authentic, in words; null when it is. */
    reason: z.string().nullable(),
    /** Where an authentic certificate stands now; null otherwise. */
    standing: certificateStandingSchema.nullable(),
  })
  .meta({ id: 'CertificateCheck' });
export type CertificateCheck = z.infer<typeof certificateCheckSchema>;

/** POST /api/public/certificates/{certId}/unlock, no login, limited per IP: the number in any common format. */
export const certificateUnlockRequestSchema = z.object({ cellPhone: z.string().trim().min(1).max(40) });
export type CertificateUnlockRequest = z.infer<typeof certificateUnlockRequestSchema>;
/**
 * The unmasked number and address, the salt that lets anyone recompute `cellPhoneSha256` / `emailSha256`, and the
 * signed evidence (IP address, user agent) the locked page does not show.
 */
export const certificateUnlockSchema = z
  .object({
    cellPhone: z.string(),
    email: z.string().nullable(),
    salt: z.string(),
    /** The signed evidence the locked page leaves out: the consumer's IP address and user agent. */
    evidence: z.object({ ip: z.string().nullable(), userAgent: z.string().nullable() }),
  })
  .meta({ id: 'CertificateUnlock' });
export type CertificateUnlock = z.infer<typeof certificateUnlockSchema>;

/**
 * GET /api/verifications/{id}/certificate/standing?account=N (canSearchData): the verification's certificate, if one
 * was issued, and where it stands, without issuing one (the detail page's menu).
 */
export const verificationCertificateStandingSchema = certificateStandingSchema.extend({
  certificateId: z.string().nullable(),
  issuedAt: z.string().nullable(),
});
export type VerificationCertificateStanding = z.infer<typeof verificationCertificateStandingSchema>;

/** POST /api/verifications/{id}/certificate/revoke?account=N (manageEvidence: owners): once; the answer is the standing. */
export const certificateRevokeRequestSchema = z.object({
  reason: z.string().trim().min(1, 'Say why the certificate is revoked.').max(500),
});
export type CertificateRevokeRequest = z.infer<typeof certificateRevokeRequestSchema>;

/** The public check page's path: any string, the service answers 404 alike for a malformed and an unknown id. */
export const certIdParams = z.object({ certId: z.string() });

/**
 * Verification certificates (issue #19, ADR 24): one verification's certificate, signed JSON or sealed PDF, and where
 * it stands (members with canSearchData), its revocation (owners), and the public check page's API (no login, CSRF
 * like every unsafe call; every answer `no-store`).
 */
export const certificateEndpoints = {
  /** The signed certificate as a download, the bytes as signed (never re-serialised); the first download issues it. */
  json: endpoint('GET /api/verifications/:id/certificate', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    response: ok(),
    access: onVerification('searchData'),
  }),
  /** The certificate as a sealed PDF download; the first download issues it. */
  pdf: endpoint('GET /api/verifications/:id/certificate.pdf', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    response: ok(),
    access: onVerification('searchData'),
  }),
  /** The verification's certificate, if one was issued, and where it stands, without issuing one. */
  standing: endpoint('GET /api/verifications/:id/certificate/standing', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    response: ok(verificationCertificateStandingSchema),
    access: onVerification('searchData'),
  }),
  /** `{reason}`, owners only, once; the answer is the standing. */
  revoke: endpoint('POST /api/verifications/:id/certificate/revoke', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    body: certificateRevokeRequestSchema,
    response: ok(verificationCertificateStandingSchema),
    access: onVerification('manageEvidence'),
    stepUp: true,
  }),
  /** The public check page's certificate, no login. */
  publicCertificate: endpoint('GET /api/public/certificates/:certId', {
    params: certIdParams,
    response: ok(publicCertificateSchema),
    access: 'public',
  }),
  /** `{cellPhone}`, no login, limited per IP: 400 on `cellPhone` when it is not the certificate's number. */
  unlock: endpoint('POST /api/public/certificates/:certId/unlock', {
    params: certIdParams,
    body: certificateUnlockRequestSchema,
    response: ok(certificateUnlockSchema),
    access: 'public',
  }),
  /** A dropped certificate's PDF or JSON (multipart, one `file`) checked, no login; its standing is of this moment. */
  check: endpoint('POST /api/public/certificates/verify', {
    body: 'multipart',
    response: ok(certificateCheckSchema),
    access: 'public',
  }),
};
