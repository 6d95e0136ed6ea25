import { type PrivacyLaw, privacyLawDeadlines } from '@veriform/contracts';

const DAY_MS = 86_400_000;

/**
 * When a request must be answered (issue #37): its law's days from receipt, counted as calendar days of 24 hours from
 * the instant it arrived (CCPA 11 CCR §7021: 45 calendar days; GDPR art. 12(3)'s month counted as the issue's 30 days;
 * ADR 47), plus the one extension's days once extended.
 */
export function dueAtOf(law: PrivacyLaw, receivedAt: Date, extended: boolean): Date {
  const { days, extensionDays } = privacyLawDeadlines[law];
  return new Date(receivedAt.getTime() + (days + (extended ? extensionDays : 0)) * DAY_MS);
}

/** The due date once extended: the current one plus the law's extension. */
export function extendedDueAt(law: PrivacyLaw, dueAt: Date): Date {
  return new Date(dueAt.getTime() + privacyLawDeadlines[law].extensionDays * DAY_MS);
}

/** Open or running past its due date (derived when read, never stored). */
export function isOverdue(row: { status: string; dueAt: Date }, now: Date): boolean {
  return row.status !== 'answered' && row.dueAt.getTime() < now.getTime();
}
