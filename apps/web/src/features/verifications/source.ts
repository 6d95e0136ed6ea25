import type { VerificationSource } from '@veriform/contracts';

/** Where a verification was made, as the activity log, its filter and the CSV's Source column name it. */
export const sourceLabels: Record<VerificationSource, string> = { api: 'API', hosted: 'Hosted page' };
