import {
  type PrivacyLaw,
  type PrivacyRequest,
  type PrivacyRequestFilter,
  type PrivacyRequestStatus,
  type PrivacyRequestType,
  privacyLawDeadlines,
} from '@veriform/contracts';

export const privacyRequestTypeLabels: Record<PrivacyRequestType, string> = {
  access: 'Access',
  erasure: 'Erasure',
  restriction: 'Restriction',
};

/** One line each: what the person asked for, and what carrying it out does. */
export const privacyRequestTypeDescriptions: Record<PrivacyRequestType, string> = {
  access: 'A copy of everything kept about the numbers and addresses, as a downloadable bundle.',
  erasure: 'Their personal data redacted everywhere; evidence under a legal hold is restricted instead.',
  restriction: 'Their evidence kept but no longer used: it stops standing as consent.',
};

export const privacyLawLabels: Record<PrivacyLaw, string> = {
  ccpa: 'CCPA',
  gdpr: 'GDPR',
  other: 'Other',
};

const lawNames: Record<PrivacyLaw, string> = {
  ccpa: 'the CCPA',
  gdpr: 'the GDPR',
  other: 'the other law',
};

/** "45 days, extendable once by 45": the due period a law implies (the contract's table). */
export function lawPeriodText(law: PrivacyLaw): string {
  const { days, extensionDays } = privacyLawDeadlines[law];
  return `${days} days, extendable once by ${extensionDays}`;
}

export const privacyRequestStatusLabels: Record<PrivacyRequestStatus, string> = {
  open: 'Open',
  running: 'Running',
  answered: 'Answered',
};

export const privacyRequestFilterLabels: Record<PrivacyRequestFilter, string> = {
  ...privacyRequestStatusLabels,
  overdue: 'Overdue',
};

/** Dark enough on their light badge backgrounds for AA contrast (the text is dark.6 on all). */
export const privacyRequestStatusColors: Record<PrivacyRequestStatus, string> = {
  open: 'blue',
  running: 'yellow',
  answered: 'green',
};

/** A day, as the request's dates are read: "Nov 30, 2026". */
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
export function formatDay(iso: string): string {
  return dayFormat.format(new Date(iso));
}

/** How the due date was computed: the law's days from receipt, plus the extension's once extended. */
export function dueDateExplanation(
  request: Pick<PrivacyRequest, 'law' | 'receivedAt' | 'extendedAt' | 'extendable'>,
): string {
  const { days, extensionDays } = privacyLawDeadlines[request.law];
  const base = `${days} days from its receipt on ${formatDay(request.receivedAt)} under ${lawNames[request.law]}`;
  if (request.extendedAt)
    return `${base}, plus the ${extensionDays}-day extension made on ${formatDay(request.extendedAt)}.`;
  return request.extendable ? `${base}; it may be extended once by ${extensionDays} days.` : `${base}.`;
}
