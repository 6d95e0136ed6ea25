import {
  type CertificateStanding,
  type CertificateStatus,
  reassignmentAnswerLabels,
  retentionTexts,
} from '@veriform/contracts';

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
  purged: 'Purged',
};

export const REDACTED_EXPLANATION =
  'the personal data was removed at the company’s request; its seal and place in the chain remain.';

/**
 * Where a certificate stands, in one sentence with its date; null while it is valid. A purge wins over a redaction,
 * a redaction over a revocation (the contract's order); a redacted certificate that had been revoked says both.
 */
export function standingSentence(standing: CertificateStanding): string | null {
  // The retention policy removed the verification (issue #37): the last word, the certificate still authentic.
  if (standing.status === 'purged' && standing.purgedAt)
    return retentionTexts.purged(formatDate(standing.purgedAt));
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

const utcDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
/** A `YYYY-MM-DD` date as the reader's locale writes it (the date itself, whatever the reader's zone). */
export const formatIsoDate = (date: string): string => {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : utcDate.format(parsed);
};

/**
 * The latest reassigned-number check of the verified number (issue #36), in one sentence with its dates: what the
 * standing says beside the signed certificate. No data is said as such, never as a no. Null when none was made.
 */
export function reassignmentSentence(standing: Pick<CertificateStanding, 'reassignment'>): string | null {
  const check = standing.reassignment;
  if (!check) return null;
  const asked = `checked on ${formatDate(check.checkedAt)} for the consent date ${formatIsoDate(check.lastVerifiedDate)}`;
  switch (check.answer) {
    case 'yes':
      return `${reassignmentAnswerLabels.yes} — ${asked}: the number was disconnected since, so this consent does not cover whoever holds it now.`;
    case 'no':
      return `${reassignmentAnswerLabels.no} — ${asked}.`;
    case 'no_data':
      return `${reassignmentAnswerLabels.no_data} — ${asked}: the database had no data for this number and date, which is not a “no”.`;
  }
}
