import {
  ALL_WEBHOOK_EVENTS,
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookDeliveryAttempt,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '@veriform/contracts';

/** The words for each event type an endpoint can want (the dotted name is shown beside them). */
export const eventTypeLabels: Record<WebhookEventType, string> = {
  'verification.code_sent': 'Verification code sent',
  'verification.approved': 'Verification approved',
  'verification.failed': 'Verification failed',
  'verification.expired': 'Verification expired',
  'verification.canceled': 'Verification canceled',
  'verification.delivered': 'Code delivered',
  'verification.delivery_failed': 'Code not delivered',
  'form.created': 'Form created',
  'form.updated': 'Form updated',
  'form.live_changed': 'Form went live or offline',
  'membership.created': 'Team member added',
  'membership.removed': 'Team member removed',
  'consent.revoked': 'Consent revoked',
  'revocation.acknowledged': 'Revocation acknowledged',
  'revocation.overdue': 'Revocation overdue',
  'consent.number_reassigned': 'Number reassigned',
  'legal_hold.placed': 'Legal hold placed',
  'legal_hold.released': 'Legal hold released',
  'privacy_request.answered': 'Privacy request answered',
  'privacy_request.reopened': 'Privacy request reopened',
};

export const ALL_EVENTS_LABEL = 'All events';

/** A type's words, or the type itself for one this page does not know yet (sent by a newer server). */
export function eventTypeLabel(type: string): string {
  if (type === ALL_WEBHOOK_EVENTS) return ALL_EVENTS_LABEL;
  if (type === WEBHOOK_TEST_EVENT_TYPE) return 'Test event';
  return type in eventTypeLabels ? eventTypeLabels[type as WebhookEventType] : type;
}

export const deliveryStatusLabels: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  retrying: 'Retrying',
  failed: 'Failed',
};

export const deliveryStatusColors: Record<WebhookDeliveryStatus, string> = {
  pending: 'gray',
  succeeded: 'green',
  retrying: 'orange',
  failed: 'red',
};

const attemptErrorLabels: Record<NonNullable<WebhookDeliveryAttempt['error']>, string> = {
  invalid_url: 'Invalid URL',
  blocked_address: 'Blocked: private address',
  dns_failed: 'Host not found',
  timeout: 'Timed out',
  connection_failed: 'Connection failed',
  redirect_not_followed: 'Redirect not followed',
};

/** What an attempt got back: "200", "500", or why there was no answer. */
export function attemptOutcome(attempt: WebhookDeliveryAttempt): string {
  if (attempt.error === 'redirect_not_followed' && attempt.statusCode !== null)
    return `${attempt.statusCode} · ${attemptErrorLabels.redirect_not_followed}`;
  if (attempt.statusCode !== null) return String(attempt.statusCode);
  return attempt.error ? attemptErrorLabels[attempt.error] : 'No answer';
}

export const triggerLabels: Record<WebhookDeliveryAttempt['trigger'], string> = {
  scheduled: 'Scheduled',
  replay: 'Replay',
  test: 'Test',
};

/** Rotation overlaps an owner can choose (contract: at most 7 days). */
export const overlapOptions = [
  { value: '0', label: 'None: the old secret stops now' },
  { value: '1', label: '1 hour' },
  { value: '24', label: '24 hours' },
  { value: '168', label: '7 days' },
] as const;

export const DISABLED_FOR_FAILING_TEXT = `Disabled after ${WEBHOOK_DISABLE_AFTER_DAYS} days of failed deliveries`;
export const DISABLED_CREATOR_REMOVED_TEXT =
  'Disabled when the owner who created it left the team or became a member';
