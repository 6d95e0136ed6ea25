import type { RevocationChannel, RevocationStatus, RevocationVia } from '@veriform/contracts';

export const revocationStatusLabels: Record<RevocationStatus, string> = {
  open: 'Open',
  overdue: 'Overdue',
  possible: 'Possible',
  acknowledged: 'Acknowledged',
  dismissed: 'Not a revocation',
};

/** Dark enough on their light badge backgrounds for AA contrast. */
export const revocationStatusColors: Record<RevocationStatus, string> = {
  open: 'blue',
  overdue: 'red',
  possible: 'yellow',
  acknowledged: 'green',
  dismissed: 'gray',
};

export const revocationChannelLabels: Record<RevocationChannel, string> = {
  sms_reply: 'Reply to a code text',
  public_page: 'Revocation page',
  api: 'API',
  member: 'Recorded by a member',
};

export const revocationViaLabels: Record<RevocationVia, string> = {
  phone_call: 'Phone call',
  email: 'E-mail',
  letter: 'Letter',
  other: 'Other',
};
