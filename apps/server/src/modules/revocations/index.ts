/**
 * The revocations module's public entry (issue #35, ADR 0036): revocations of consent from every channel. This first
 * slice: what a reply to a code text says (words.ts), when a revocation must be honoured (deadline.ts, over the
 * federal business days of domain/business-days.ts), and the replies Twilio brings (inbound-routes.ts) recorded as
 * revocations (store.ts). The other channels, the lists, the acknowledgment and the events follow.
 */
export {
  CONFIRMATION_LIMITS,
  CONFIRMATION_WINDOW_MS,
  type ConfirmationOutcome,
  composeConfirmationSms,
  deliverRevocationConfirmation,
} from './confirmation.ts';
export { type DeadlineRule, isOverdue, revocationDeadline } from './deadline.ts';
export { twilioInboundMessageSchema, twilioInboundRoutes } from './inbound-routes.ts';
export { notifyOverdueRevocations, OVERDUE_BATCH, overdueDedupeKey, sendOverdueEmail } from './overdue.ts';
export { revocationRoutes } from './routes.ts';
export { createRevocations, type InboundReply, type RecordedReply, type Revocations } from './service.ts';
export { firstRevocationSince, REVOKING_STATUSES, type RevocationSince } from './standing.ts';
export { languageOfWords, normalizeReply, type ReplyReading, readReply } from './words.ts';
