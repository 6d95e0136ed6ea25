import type { ContactabilityReasonCode } from '@veriform/contracts';

export const channelLabels = { sms: 'Text message', voice: 'Voice call' } as const;
export const purposeLabels = { marketing: 'Marketing', informational: 'Informational' } as const;

/** The verdict in two words: what a member reads before calling or texting. */
export const verdictLabels = { allowed: 'Allowed', refused: 'Not now' } as const;
export const verdictLabel = (allowed: boolean) => (allowed ? verdictLabels.allowed : verdictLabels.refused);

/** A reason's short name (the list's column); the verdict itself says each in full. */
export const reasonLabels: Record<ContactabilityReasonCode, string> = {
  no_consent: 'No consent',
  consent_too_old: 'Consent too old',
  revoked: 'Consent revoked',
  quiet_hours: 'Quiet hours',
  state_quiet_hours: 'State quiet hours',
  number_reassigned: 'Number reassigned',
};
