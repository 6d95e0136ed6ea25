/**
 * The revocations module's public entry (issue #35, ADR 0036): revocations of consent from every channel (replies to
 * code texts, the public page, API v1, members), what a reply says (words.ts), when one must be honoured (deadline.ts,
 * over the federal business days of domain/business-days.ts) and what it is now (status.ts: open, overdue…), whether
 * consent still stands (standing.ts), the overdue sweep (overdue.ts) and the one confirmation text (confirmation.ts).
 */
export {
  CONFIRMATION_LIMITS,
  CONFIRMATION_WINDOW_MS,
  type ConfirmationOutcome,
  composeConfirmationSms,
  deliverRevocationConfirmation,
} from './confirmation.ts';
export { type DeadlineRule, revocationDeadline } from './deadline.ts';
export { twilioInboundMessageSchema, twilioInboundRoutes } from './inbound-routes.ts';
export { markRevokedVerifications, unmarkVerification } from './marks.ts';
export { notifyOverdueRevocations, OVERDUE_BATCH, overdueDedupeKey, sendOverdueEmail } from './overdue.ts';
export { revocationRoutes } from './routes.ts';
export { createRevocations, type InboundReply, type RecordedReply, type Revocations } from './service.ts';
export {
  firstRevocationOfVerification,
  firstRevocationSince,
  REVOKING_STATUSES,
  type RevocationReach,
  type RevocationSince,
  reachedVerifications,
} from './standing.ts';
export { deadlineToday, statusIs, statusOf } from './status.ts';
export { languageOfWords, normalizeReply, type ReplyReading, readReply } from './words.ts';
