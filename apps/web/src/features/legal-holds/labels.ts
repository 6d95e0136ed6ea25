import type { LegalHold, LegalHoldScope, LegalHoldStatus } from '@veriform/contracts';

/** Each scope in words, for the list, the form's choices and a verification's notice. */
export const legalHoldScopeLabels: Record<LegalHoldScope, string> = {
  account: 'Whole account',
  form: 'A form',
  identifier: 'A number or address',
  verification: 'One verification',
};

export const legalHoldStatusLabels: Record<LegalHoldStatus, string> = {
  active: 'Active',
  released: 'Released',
};

/** What a hold keeps, in words: "Form Loans", "+1 201 555 0111", "Verification 42", "Every verification". */
export function legalHoldTarget(hold: LegalHold): string {
  switch (hold.scope) {
    case 'account':
      return 'Every verification';
    case 'form':
      return `Form ${hold.formName ?? `#${hold.formId ?? ''}`}`;
    case 'identifier':
      return hold.phone ?? hold.email ?? '';
    case 'verification':
      return `Verification ${hold.verificationId ?? ''}`;
  }
}

/** "12 verifications", "1,000+ verifications"; nothing for a released hold. */
export function legalHoldReach(hold: LegalHold): string {
  if (hold.reaches === null) return '—';
  const n = hold.reaches.verifications;
  const count = `${n.toLocaleString('en-US')}${hold.reaches.more ? '+' : ''}`;
  return `${count} ${n === 1 && !hold.reaches.more ? 'verification' : 'verifications'}`;
}
