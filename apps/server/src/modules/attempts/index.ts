/**
 * The attempt and its verification, owned once (issue #34, ADR 35): other modules import this entry only.
 * - state.ts (pure): statuses, transitions, the code's lifetime, tries and spacing, "expired", the delivery order;
 * - store.ts, redact.ts, code-delivery.ts, purge.ts: the only writers of `verification_attempts`, `verifications` and
 *   `code_delivery_events` (ownership.test.ts keeps it so), and the only caller of issue_verification_code and
 *   judge_verification_code; redact.ts masks the verification and its attempts for verifications/redaction.ts, in its
 *   transaction; code-delivery.ts makes a code's send owed and is the send job's row store (ADR 33); purge.ts removes
 *   what the retention policy says is past (issue #37, ADR 45), for modules/retention;
 * - events.ts: which webhook event each transition emits, its payload typed;
 * - codes.ts: the attempt's id and its code (made, hashed, compared).
 */

export * from '../../domain/attempt-state.ts';
export {
  type CodeDelivery,
  type CodeMessage,
  createCodeDelivery,
  createCodeSendStore,
} from './code-delivery.ts';
export {
  ATTEMPT_ID_PATTERN,
  CODE_PATTERN,
  codeMatches,
  hashCode,
  newAttemptId,
  newCode,
  newPageViewId,
} from './codes.ts';
export {
  ATTEMPT_EVENT_TYPES,
  type AttemptEvent,
  type AttemptEventType,
  attemptEvent,
  deliveryOutcomeEvent,
  emitDeliveryOutcome,
  transitionEvent,
} from './events.ts';
export {
  attemptKept,
  type KeptColumns,
  type KeptRule,
  type PurgeBatch,
  purgeOrphanDeliveryEvents,
  purgeUnlinkedAttemptBatch,
  purgeVerificationBatch,
} from './purge.ts';
export {
  type ErasedAttempt,
  eraseUnlinkedAttemptBatch,
  type RedactedAttempt,
  redactVerificationRecord,
  type VerificationRow,
} from './redact.ts';
export {
  type CodeSendOutcome,
  composeCodeEmail,
  composeCodeSms,
  sendVerificationCode,
  webOtpLine,
} from './send-code.ts';
export {
  type AttemptStore,
  adoptOrphanEvents,
  type Closed,
  type CodeOutcome,
  createAttemptStore,
  type DeliveryEvent,
  type FormRow,
  type IssueOptions,
  latestCodeTextTo,
  lockProviderMessage,
  type PublicRequestContext,
  recordDeliveryEvent,
  recordOrphanEvent,
  recordProviderStatus,
  recordSendError,
  recordSendRefused,
  recordSent,
  type TestNumber,
} from './store.ts';
