import type { DeliveryStatus, VerificationAttempt } from '@veriform/contracts';

/** The words of each delivery status, in the order a message goes through them (the filter's order too). */
export const deliveryStatusLabels: Record<DeliveryStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Undelivered',
  failed: 'Failed',
  unknown: 'Unknown',
};

/**
 * The badge's tint; the text beside it says the same, so colour is never the only signal. `unknown` is not grey like
 * `queued`: no carrier answer 10 minutes after sending is worth a look.
 */
export const deliveryStatusColors: Record<DeliveryStatus, string> = {
  queued: 'gray',
  sent: 'blue',
  delivered: 'green',
  undelivered: 'orange',
  failed: 'red',
  unknown: 'yellow',
};

/** What became of a code that was not (or not yet) verified. */
export const attemptStatusLabels: Record<VerificationAttempt['status'], string> = {
  pending: 'Not yet',
  verified: 'Verified',
  locked: 'No: 5 wrong codes',
  replaced: 'No: a newer code was sent',
  canceled: 'No: canceled',
  expired: 'No: expired',
};
