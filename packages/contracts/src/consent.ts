import { z } from 'zod';
import { CONSENT_TEXT_MAX, normalizeConsentText } from './consent-text.ts';
import { anyIdParams, created, endpoint, ok } from './endpoints.ts';
import { languageSchema, onVerifyForm } from './verify-forms.ts';

/**
 * Consent versions of a form (issue #18, ADR 22): POST /api/verify-forms/{id}/consent-versions publishes one (201; or
 * 200 with the current version when it already says exactly this), GET lists them newest first. There is no PATCH or
 * DELETE: a version is evidence of what consumers agreed to.
 */

export const consentTexts = {
  textRequired: 'Write the consent text.',
  textTooLong: `The consent text has at most ${CONSENT_TEXT_MAX.toLocaleString('en-US')} characters.`,
  controlCharacters: 'The consent text may hold line breaks but no other control characters.',
} as const;

// Line breaks and tabs are the text's own; other control characters would be invisible in the page yet hashed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the very characters refused
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

export const consentTextSchema = z
  .string()
  .transform(normalizeConsentText)
  .pipe(
    z
      .string()
      .min(1, consentTexts.textRequired)
      .max(CONSENT_TEXT_MAX, consentTexts.textTooLong)
      .refine((text) => !CONTROL_CHARACTERS.test(text), consentTexts.controlCharacters),
  );

export const publishConsentVersionRequestSchema = z.object({
  language: languageSchema,
  text: consentTextSchema,
  requireCheckbox: z.boolean(),
});
export type PublishConsentVersionRequest = z.input<typeof publishConsentVersionRequestSchema>;

export const consentVersionSchema = z.object({
  /** `cv_…`: the id the public page and the evidence carry. */
  id: z.string(),
  /** 1, 2, … per form and language. */
  version: z.number().int(),
  language: languageSchema,
  text: z.string(),
  /** Hex SHA-256 of the text's UTF-8 bytes. */
  sha256: z.string(),
  requireCheckbox: z.boolean(),
  created: z.string(),
  /** Who published it (their e-mail), null once that user is gone. */
  createdBy: z.string().nullable(),
});
export type ConsentVersion = z.infer<typeof consentVersionSchema>;

export const consentVersionListQuerySchema = z.object({ language: languageSchema.optional() });
export type ConsentVersionListQuery = z.infer<typeof consentVersionListQuerySchema>;
export const consentVersionListSchema = z.object({ results: z.array(consentVersionSchema) });
export type ConsentVersionList = z.infer<typeof consentVersionListSchema>;

/**
 * A form's consent versions (issue #18, ADR 22): members who manage forms publish them and members who read forms read
 * them (the form page), as for the form itself. No PATCH or DELETE route exists: such a request finds nothing (404).
 */
export const consentEndpoints = {
  /** Newest first, both languages unless `language` names one. */
  list: endpoint('GET /api/verify-forms/:id/consent-versions', {
    params: anyIdParams,
    query: consentVersionListQuerySchema,
    response: ok(consentVersionListSchema),
    access: onVerifyForm('readForms'),
  }),
  /** 201 with a new version; 200 with the current one when nothing changed (the server's route describes both). */
  publish: endpoint('POST /api/verify-forms/:id/consent-versions', {
    params: anyIdParams,
    body: publishConsentVersionRequestSchema,
    response: created(consentVersionSchema),
    access: onVerifyForm('manageForms'),
  }),
};

/** On the public page: the current version of the form's language, or null when there is none. */
export const publicConsentSchema = z.object({
  versionId: z.string(),
  text: z.string(),
  requireCheckbox: z.boolean(),
});
export type PublicConsent = z.infer<typeof publicConsentSchema>;

/** On a verification (detail, API v1, CSV): the version it was made under, or null (none was published). */
export const consentEvidenceSchema = z.object({
  versionId: z.string(),
  version: z.number().int(),
  language: languageSchema,
  sha256: z.string(),
});
export type ConsentEvidence = z.infer<typeof consentEvidenceSchema>;
