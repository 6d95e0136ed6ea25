/**
 * The lookups module's public entry (issue #36, ADR 0036): carrier lookups (Twilio Lookup v2's line type, SIM swap and
 * reassigned number) asked once per question, reused for a day, capped per account and kind each month, each kept as
 * evidence (service.ts); the account's settings (settings.ts) and their routes; the lookups a code send asks
 * (at-send.ts, called by the attempt's store).
 */

export {
  askAtSend,
  type CarrierAtSend,
  type LookupSettingsColumns,
  type LookupsAtSend,
  lookupsAtSendOf,
  NOTHING_ASKED,
  simSwapWithinWindow,
} from './at-send.ts';
export {
  type CheckableVerification,
  checkIsDue,
  createReassignmentChecks,
  latestReassignmentColumns,
  latestReassignmentJoin,
  latestReassignmentOf,
  notCheckable,
  type ReassignmentChecks,
  reassignmentTexts,
  utcDateOf,
} from './reassignment.ts';
export { eraseLookupsOf, type HeldNumberRule, redactLookupsOf } from './redaction.ts';
export { lookupRoutes } from './routes.ts';
export {
  type AccountMode,
  createLookups,
  LOOKUP_REUSE_MS,
  type LookupAsker,
  type LookupParams,
  type LookupRecord,
  type Lookups,
} from './service.ts';
export {
  accountsCheckingReassigned,
  createLookupSettings,
  type LookupSettingsService,
  reassignedChecksFrom,
} from './settings.ts';
export { monthOf } from './usage.ts';
