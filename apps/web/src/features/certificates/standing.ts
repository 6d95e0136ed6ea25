import type { CertificateStanding, CertificateStatus } from '@veriform/contracts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A day in the reader's locale and zone: revocations and redactions are told by their date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

export const statusLabels: Record<CertificateStatus, string> = {
  valid: 'Valid',
  revoked: 'Revoked',
  redacted: 'Redacted',
};

export const REDACTED_EXPLANATION =
  'the personal data was removed at the company’s request; its seal and place in the chain remain.';

/**
 * Where a certificate stands, in one sentence with its date; null while it is valid. A redaction wins over a
 * revocation (the contract's order); a redacted certificate that had been revoked says both.
 */
export function standingSentence(standing: CertificateStanding): string | null {
  const revoked = standing.revokedAt
    ? `Revoked on ${formatDate(standing.revokedAt)} — ${standing.revocationReason ?? 'no reason was given'}`
    : null;
  if (standing.status === 'redacted' && standing.redactedAt) {
    const redacted = `Redacted on ${formatDate(standing.redactedAt)} — ${REDACTED_EXPLANATION}`;
    return revoked ? `${redacted} ${revoked}.` : redacted;
  }
  return revoked;
}

/**
 * The consumer revoked consent for the verified number or address after the verification (issue #35): the
 * certificate still stands as evidence of its moment, and says so with the date. Null when consent was not revoked.
 */
export function consentRevokedSentence(
  standing: Pick<CertificateStanding, 'consentRevokedAt'>,
): string | null {
  return standing.consentRevokedAt
    ? `Consent revoked on ${formatDate(standing.consentRevokedAt)} — the consumer revoked consent after this verification; the certificate remains evidence of consent at its moment.`
    : null;
}
