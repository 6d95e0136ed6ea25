/** The table's columns. Newest first only: the list's order is the order codes were sent (the contract has no `o`). */
export const attemptColumns = [
  'Created',
  'Cell phone',
  'Form',
  'Channel',
  'Delivery status',
  'Reason',
  'Codes entered',
  'Verified',
] as const;
