/**
 * The server test files that run on BOTH engines (issue #14 item 4). Every server test file runs on PostgreSQL, the
 * production engine; these also run on PGlite, the embedded default, because what they test differs by engine:
 * - SQL run differently: the CSV export (COPY on PostgreSQL, keyset batches on PGlite), the list's count and page
 *   (at once on PostgreSQL), migrations and readiness;
 * - jobs (pg-boss through each engine's own `executeSql`) and the deliveries they make;
 * - durability (a killed process, fsync on PGlite);
 * - concurrency (a pool of connections against PGlite's one): the limits under bursts, "only once" rules, row locks.
 * A file named here must exist (vitest.config.ts checks), so a rename cannot drop it from the PGlite run silently.
 */
export const engineSpecificTests = [
  'src/crash-safety.test.ts',
  'src/jobs/jobs.test.ts',
  // Row jobs (ADR 33): many claimers at once take each code send and webhook delivery once, on each engine's locking.
  'src/jobs/claims.test.ts',
  'src/jobs/durability.test.ts',
  'src/jobs/maintenance.test.ts',
  'src/plugins/health.test.ts',
  'src/lib/error-reporting.test.ts',
  'src/messaging/code-delivery.test.ts',
  'src/messaging/smtp.test.ts',
  'src/messaging/twilio.test.ts',
  'src/modules/verifications/export.test.ts',
  'src/modules/verifications/count.test.ts',
  // Second factors (issue #38): one TOTP code or recovery code 20 times at once is used once, one pending sign-in
  // finished once, 20 wrong codes at once checked at most 5 times.
  'src/modules/mfa/mfa-bursts.test.ts',
  // Single sign-on (issue #38): one state replayed by 20 callbacks at once signs in once.
  'src/modules/sso/sso-concurrency.test.ts',
  // A reply delivered 10 times at once is one revocation (its MessageSid unique), on each engine's locking.
  'src/modules/revocations/inbound.test.ts',
  // 20 acknowledgments of one revocation at once: one wins.
  'src/modules/revocations/revocations.test.ts',
  // 20 releases of one legal hold at once: one wins; a redaction racing a hold (issue #37).
  'src/modules/legal-holds/legal-holds.test.ts',
  // Data-subject requests (issue #37): twenty carry-outs at once make one job; the erasure job's redactions.
  'src/modules/privacy-requests/privacy-requests.test.ts',
  // An erasure's reach past the verifications (ADR 47 amendment): no copy of the number or address left anywhere.
  'src/modules/privacy-requests/erasure-reach.test.ts',
  // Four overdue sweeps at once (SKIP LOCKED, marked once): one event and one e-mail per owner; and API v1's
  // acknowledgments of one revocation at once.
  'src/modules/revocations/overdue.test.ts',
  'src/modules/api-v1/revocations.test.ts',
  // Reassigned-number checks (issue #36): 10 checks of one verification at once make one Lookup request and one check.
  'src/modules/api-v1/reassignment-checks.test.ts',
  // The verdict's due checks (issue #36, ADR 43): a batch's checks 8 at once, each verification once, a wait bounded.
  'src/modules/contactability/reassignment-checks.test.ts',
  // The daily reassigned-number checks: two sweeps at once ask each number once.
  'src/modules/contactability/reassignment-schedule.test.ts',
  // Refresh links (issue #36 item 4): six code requests through one link at once all bind it, its first use kept once.
  'src/modules/refresh-links/refresh-links.test.ts',
  // The retention purge (issue #37): batches under the holds' table lock, a hold placed while it runs keeps its evidence.
  'src/modules/retention/retention.test.ts',
  // The app's verdicts (issue #35): the batch statement (unnest … with ordinality), and the count and page of those kept.
  'src/modules/contactability/contactability.test.ts',
  'src/modules/verifications/list.test.ts',
  // Test mode (issue #33): the live totals less the test rows in the counts' statement, the CSV export of each mode
  // (COPY or batches), and the events' mode stored by both emitters (TypeScript and emit_webhook_event in SQL).
  'src/modules/verifications/test-mode.test.ts',
  'src/modules/api-v1/test-mode.test.ts',
  'src/modules/verifications/report.test.ts',
  'src/security/limits-race.test.ts',
  // Which time zones the database knows is the engine's own zone data.
  'src/security/time-zones.test.ts',
  'src/lib/rate-limit.test.ts',
  // Passkeys (issue #38): one challenge under a burst of 20 is one session; the passkey limit under a burst; the guess
  // limits shared with passwords.
  'src/modules/passkeys/passkeys.test.ts',
  // The person's sessions: 20 endings of one session at once end it once, with one event.
  'src/modules/auth-sessions/auth-sessions.test.ts',
  // The audit chain (one event at a time per account, hashed in SQL) and the summaries' triggers (30 code entries at
  // once count one attempt entered): "only once" rules under bursts.
  'src/modules/audit/audit.test.ts',
  'src/modules/verifications/report-summaries.test.ts',
  'src/modules/public-verify/public-verify.test.ts',
  'src/modules/public-verify/sms-cap.test.ts',
  // Issue #34 (ADR 32): every PL/pgSQL path on both engines, as ADR 26 says. The code send (issue_verification_code,
  // emit_webhook_event, rate_limit_wait) and the judge (judge_verification_code) under limits, toll-fraud caps, test
  // numbers' delivery, page views and API v1; the webhook emit of both emitters; the immutable tables' triggers; and
  // the functions and triggers a freshly migrated database holds, against their source files (packages/db/sql).
  'src/modules/public-verify/limits.test.ts',
  'src/modules/public-verify/toll-fraud.test.ts',
  'src/modules/public-verify/delivery.test.ts',
  'src/modules/public-verify/page-views.test.ts',
  // The public revocation page (issue #35): 30 revocations at once from one connection record exactly the limit, and
  // the one confirmation text goes through a pg-boss job written in the revocation's transaction, once.
  'src/modules/public-verify/revoke.test.ts',
  'src/modules/webhooks/events.test.ts',
  'src/modules/api-v1/verifications.test.ts',
  'src/modules/consent/immutable.test.ts',
  'src/modules/certificates/revocation.test.ts',
  'src/sql-source.test.ts',
  // "Expired" in TypeScript and in SQL (attempt_is_open, attempt_status_at): one table of cases, both engines (ADR 35).
  'src/domain/attempt-state.test.ts',
  'src/modules/memberships/memberships.test.ts',
  // Issue #33 (ADR 30): an owner removed or demoted while creating keys and endpoints (none of theirs survives), and
  // keys, endpoints, the company and forms changed at once (one lock order: no deadlock).
  'src/modules/memberships/owned-credentials.test.ts',
  'src/modules/accounts/lock-order.test.ts',
  'src/modules/invitations/invitations.test.ts',
  'src/modules/invitations/inviter.test.ts',
  'src/modules/invitations/invitation-email.test.ts',
  'src/modules/auth/change-email.test.ts',
  'src/modules/auth/auth-email-jobs.test.ts',
  // Company domains: many adds at once (the per-account cap under the account row's lock, the unique index), many
  // checks at once (the per-domain limit, one verification and one audit event).
  'src/modules/domains/domains.test.ts',
  // Carrier lookups (issue #36): 20 identical questions at once (in one process, and from 20 services on one database)
  // make one request; 20 different ones at once ask exactly the monthly ceiling.
  'src/modules/lookups/lookups.test.ts',
  // The hosted page's sends that ask lookups: 12 strangers' numbers at once from one address ask only its budget.
  'src/modules/attempts/lookups-at-send-limits.test.ts',
  // Redaction's reach (issue #33): byte-string matching in stored API answers, regexp masking, an information_schema
  // sweep of every row, webhook deliveries through the jobs; and reads recorded under bursts (one chain).
  'src/modules/verifications/redaction-copies.test.ts',
  'src/modules/audit/read-recording.test.ts',
  // @veriform/db's transaction(), query() and afterCommit on each driver's own connection API (ADR 0034).
  'src/lib/transaction.test.ts',
];
