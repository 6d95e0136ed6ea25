import { z } from 'zod';
import { consentEvidenceSchema } from './consent.ts';
import { verificationMethodSchema } from './public-verify.ts';
import { timelineEventSchema } from './verification-attempts.ts';
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
    account: z.object({ id: z.number().int(), name: z.string() }).meta({ description: 'The company.' }),
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
