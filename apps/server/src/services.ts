import type { Db, StreamCsv } from '@veriform/db';
import type { Config } from './config.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Clock } from './lib/clock.ts';
import { createPace, type Pace } from './lib/pacing.ts';
import { createPasswords } from './lib/passwords.ts';
import { createRateLimiter, type RateLimiter } from './lib/rate-limit.ts';
import { createSealer, type Sealer } from './lib/sealed.ts';
import { createSessionStore, type SessionStore } from './lib/session-store.ts';
import { createTokenSigner, type TokenSigner } from './lib/tokens.ts';
import { type HostResolver, systemResolver } from './lib/webhook-url.ts';
import type { Mailer } from './messaging/email.ts';
import { type CarrierLookup, createCarrierLookup } from './messaging/lookup.ts';
import type { SmsSender } from './messaging/sms.ts';
import { type AccountService, createAccountService } from './modules/accounts/index.ts';
import { type ApiKeyService, createApiKeyService } from './modules/api-keys/index.ts';
import {
  type ApiEvents,
  type ApiVerifications,
  createApiEvents,
  createApiVerifications,
  redactIdempotentAnswers,
} from './modules/api-v1/index.ts';
import { type CodeDelivery, createAttemptStore, createCodeDelivery } from './modules/attempts/index.ts';
import { type AuditLog, type AuditReader, createAuditLog, createAuditReader } from './modules/audit/index.ts';
import {
  type AuthService,
  createAuthService,
  createEmailChange,
  createEmailVerification,
  createPasswordReset,
  type EmailChange,
  type EmailVerification,
  type PasswordReset,
} from './modules/auth/index.ts';
import { type AuthSessions, createAuthSessions } from './modules/auth-sessions/index.ts';
import {
  type CertificateChecker,
  type CertificateRevocation,
  type CertificateService,
  createCertificateCheck,
  createCertificateRevocation,
  createCertificateService,
  createPublicCertificates,
  type PublicCertificates,
} from './modules/certificates/index.ts';
import { createTwilioStatus, type TwilioStatus } from './modules/code-delivery/index.ts';
import { type ConsentService, createConsentService } from './modules/consent/index.ts';
import { type Contactability, createContactability } from './modules/contactability/index.ts';
import {
  createDomainService,
  createTxtLookup,
  type DomainService,
  type TxtLookup,
} from './modules/domains/index.ts';
import { createInvitationService, type InvitationService } from './modules/invitations/index.ts';
import { createLegalHolds, type LegalHolds } from './modules/legal-holds/index.ts';
import {
  createLookupSettings,
  createLookups,
  createReassignmentChecks,
  type LookupSettingsService,
  type Lookups,
  type ReassignmentChecks,
} from './modules/lookups/index.ts';
import { createMediaService, type MediaService } from './modules/media/index.ts';
import { createMembershipService, type MembershipService } from './modules/memberships/index.ts';
import { createMfaService, type MfaService } from './modules/mfa/index.ts';
import { createPasskeyService, type PasskeyService } from './modules/passkeys/index.ts';
import { createPrivacyRequests, type PrivacyRequests } from './modules/privacy-requests/index.ts';
import { createPublicVerifyService, type PublicVerifyService } from './modules/public-verify/index.ts';
import { createRefreshLinks, type RefreshLinks } from './modules/refresh-links/index.ts';
import { createRetentionPolicy, type RetentionPolicyService } from './modules/retention/index.ts';
import { createRevocations, type Revocations } from './modules/revocations/index.ts';
import { createSsoService, type SsoService } from './modules/sso/index.ts';
import { createTestNumberService, type TestNumberService } from './modules/test-numbers/index.ts';
import { createUserService, type UserService } from './modules/users/index.ts';
import {
  createVerificationAttemptService,
  type VerificationAttemptService,
} from './modules/verification-attempts/index.ts';
import {
  createVerificationExport,
  createVerificationRedaction,
  createVerificationService,
  type VerificationExportService,
  type VerificationRedaction,
  type VerificationService,
} from './modules/verifications/index.ts';
import { createVerifyFormService, type VerifyFormService } from './modules/verify-forms/index.ts';
import {
  createWebhookEndpointService,
  createWebhookEvents,
  createWebhookOperations,
  createWebhookSender,
  type WebhookEndpointService,
  type WebhookEvents,
  type WebhookOperations,
  type WebhookSender,
} from './modules/webhooks/index.ts';

/** Everything routes and plugins need, built once per app from the config and the injected dependencies. */
export type Services = {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  /** Seals short-lived secrets (codes and invitation keys in queued jobs) with SECRET_KEY. */
  sealer: Sealer;
  /** Enqueues jobs (jobs/definitions/), in the caller's transaction when given one; wakes row jobs' workers. */
  jobs: JobQueue;
  rateLimit: RateLimiter;
  tokens: TokenSigner;
  sessions: SessionStore;
  /** The audit log (issue #16): each change's event, written in its transaction. */
  audit: AuditLog;
  /** Reading the audit log: pages, API v1's cursor pages, exports. */
  auditReader: AuditReader;
  emailVerification: EmailVerification;
  passwordReset: PasswordReset;
  emailChange: EmailChange;
  auth: AuthService;
  /** Second factors (issue #38): TOTP, recovery codes, the sign-in's second step, step-up. */
  mfa: MfaService;
  /** Passkeys (WebAuthn, issue #38): registration, the sign-in without a password, assertions for a known person. */
  passkeys: PasskeyService;
  /** The signed-in person's own sessions: the list, ending one or all the others (issue #38). */
  authSessions: AuthSessions;
  users: UserService;
  media: MediaService;
  accounts: AccountService;
  memberships: MembershipService;
  invitations: InvitationService;
  verifyForms: VerifyFormService;
  /** Forms' consent versions (issue #18): published, never edited; the public page shows the current one. */
  consent: ConsentService;
  /** The account's test numbers (test mode). */
  testNumbers: TestNumberService;
  verifications: VerificationService;
  /** The activity log's CSV export (COPY on PostgreSQL, keyset batches on PGlite). */
  verificationExport: VerificationExportService;
  /** Removing a consumer's personal data from one verification and every copy of it (ADR 25). */
  verificationRedaction: VerificationRedaction;
  /** Verification certificates (issue #19): signed once, chained per account; the public keys. */
  certificates: CertificateService;
  /** The public check of a dropped certificate file (issue #19 item 4). */
  certificateCheck: CertificateChecker;
  /** The public check page's API: a certificate's standing, and unlocking its number (ADR 24). */
  publicCertificates: PublicCertificates;
  /** Where a verification's certificate stands, and revoking it. */
  certificateRevocation: CertificateRevocation;
  /** The activity log's attempts view (issue #18): every code sent, its delivery; the list and its CSV. */
  verificationAttempts: VerificationAttemptService;
  /** API keys: owners manage them; `authenticate` is the app's bearer lookup (plugins/caller.ts). */
  apiKeys: ApiKeyService;
  /** Queues verification codes for sending (public verification). */
  codeDelivery: CodeDelivery;
  /** Twilio's delivery reports, recorded on their attempts. */
  twilioStatus: TwilioStatus;
  /** Revocations of consent (issue #35), from every channel. */
  revocations: Revocations;
  legalHolds: LegalHolds;
  /** Data-subject requests (issue #37): access, erasure and restriction, carried out by a job. */
  privacyRequests: PrivacyRequests;
  /** Background work's pace (BACKGROUND_PAUSE_FACTOR): the retention purge's batches, an erasure's redactions. */
  pace: Pace;
  /** "May I contact this number now?" (issue #35): verdicts, each kept. */
  contactability: Contactability;
  /** Twilio Lookup v2 (issue #36): the provider's client, with the account credentials of config.ts. */
  carrierLookup: CarrierLookup;
  /** Carrier lookups (issue #36): each question asked once, reused for a day, capped per month, kept as evidence. */
  lookups: Lookups;
  /** The account's carrier lookup settings (owners). */
  lookupSettings: LookupSettingsService;
  /** The account's evidence retention policy (issue #37): members read it, owners change it. */
  retentionPolicy: RetentionPolicyService;
  /** Reassigned-number checks of verifications (issue #36): each a lookup record linked to the consent it protects. */
  reassignmentChecks: ReassignmentChecks;
  /** The public verification page's API (read a live form, send a code, check it). */
  publicVerify: PublicVerifyService;
  /** API v1's verifications: the public page's rules through an account's API key. */
  apiVerifications: ApiVerifications;
  /** Fresh verification links bound to an approved verification (issue #36 item 4), for API v1 and the app. */
  refreshLinks: RefreshLinks;
  /** API v1's events: the account's webhook events of the last 30 days, in cursor pages. */
  apiEvents: ApiEvents;
  /** Webhook endpoints (issue #17): owners manage them; their secrets are sealed with SECRET_KEY. */
  webhookEndpoints: WebhookEndpointService;
  /** Company domains (issue #33 item 10): owners prove the company's domains; certificates name the verified ones. */
  domains: DomainService;
  /** Webhook events (issue #17): `emit` in the change's transaction stores the event and queues its deliveries. */
  webhookEvents: WebhookEvents;
  /** Single sign-on (issue #38 item 4): owners connect an OpenID provider for a verified domain; its people sign in. */
  sso: SsoService;
  /** One attempt of a webhook delivery (the deliver-webhook row job). */
  webhookSender: WebhookSender;
  /** An endpoint's deliveries, "Send test event" and replays (issue #17 item 5). */
  webhookOperations: WebhookOperations;
};

export function createServices(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  jobs: JobQueue;
  /** The database's COPY stream, where it has one (PostgreSQL). */
  streamCsv?: StreamCsv | undefined;
  /** How webhook URLs' host names are resolved (the operating system's resolver; tests inject one). */
  resolveHost?: HostResolver | undefined;
  /** How company domains' TXT records are looked up (node:dns's resolver; tests point one at a local DNS server). */
  lookupTxt?: TxtLookup | undefined;
  /** The carrier lookups' provider (Twilio Lookup from config; tests may hand one in). */
  carrierLookup?: CarrierLookup | undefined;
}): Services {
  const { config, db, clock, mailer, sms, jobs, streamCsv } = deps;
  const sealer = createSealer(config.secretKey);
  const rateLimit = createRateLimiter(db, clock);
  const tokens = createTokenSigner(config.secretKey, clock);
  const sessions = createSessionStore(db, clock);
  const audit = createAuditLog({ clock });
  const webhookEvents = createWebhookEvents({ clock, jobs });
  const auditReader = createAuditReader({ db, clock });
  const linkDeps = { config, db, clock, tokens, mailer, jobs, sealer, rateLimit };
  const emailVerification = createEmailVerification(linkDeps);
  const passwords = createPasswords({ fast: config.fastPasswordHashing });
  const pace = createPace(config.backgroundPauseFactor);
  const passwordReset = createPasswordReset({ ...linkDeps, sessions, audit, passwords });
  const auth = createAuthService({ db, clock, rateLimit, sessions, emailVerification, audit, passwords });
  const passkeys = createPasskeyService({ db, clock, config, rateLimit, sessions, audit, guesses: auth });
  const authSessions = createAuthSessions({ db, sessions, audit });
  const mfa = createMfaService({ db, clock, sealer, sessions, audit, guesses: auth, passkeys });
  const emailChange = createEmailChange({ ...linkDeps, checkPassword: auth.checkCurrentPassword, audit });
  const media = createMediaService(db, rateLimit);
  const users = createUserService(db);
  const accounts = createAccountService({ db, clock, rateLimit, audit });
  const memberships = createMembershipService({ db, clock, sessions, audit, webhookEvents });
  const invitations = createInvitationService({
    config,
    db,
    clock,
    mailer,
    sealer,
    jobs,
    rateLimit,
    sessions,
    audit,
    webhookEvents,
  });
  const verifyForms = createVerifyFormService({ config, db, clock, rateLimit, audit, webhookEvents });
  const consent = createConsentService({ db, clock, audit });
  const testNumbers = createTestNumberService({ db, audit });
  const verifications = createVerificationService({ db, clock, audit });
  const verificationExport = createVerificationExport({ db, clock, streamCsv, audit });
  const verificationRedaction = createVerificationRedaction({
    db,
    clock,
    audit,
    redactStoredAnswers: redactIdempotentAnswers,
  });
  const certificates = createCertificateService({ db, clock, config, audit });
  const certificateCheck = createCertificateCheck({ db, rateLimit, certificates });
  const publicCertificates = createPublicCertificates({ db, clock, rateLimit, audit });
  const certificateRevocation = createCertificateRevocation({ db, clock, audit, certificates });
  const verificationAttempts = createVerificationAttemptService({ db, clock, audit });
  const apiKeys = createApiKeyService({ db, clock, audit });
  const codeDelivery = createCodeDelivery({ db, jobs, sealer });
  const twilioStatus = createTwilioStatus({ db, clock, webhookEvents });
  const revocations = createRevocations({ db, clock, audit, webhookEvents, jobs });
  const legalHolds = createLegalHolds({ db, clock, audit, webhookEvents });
  const privacyRequests = createPrivacyRequests({
    db,
    clock,
    audit,
    jobs,
    redaction: verificationRedaction,
    webhookEvents,
    pace,
  });
  const carrierLookup = deps.carrierLookup ?? createCarrierLookup(config);
  const lookups = createLookups({ db, clock, carrierLookup, timeoutMs: config.lookupTimeoutMs });
  const lookupSettings = createLookupSettings({ db, clock, audit });
  const retentionPolicy = createRetentionPolicy({ db, clock, audit });
  const reassignmentChecks = createReassignmentChecks({
    db,
    clock,
    lookups,
    // A `yes` tells the customer's systems in the check's own transaction (issue #36 item 3).
    onReassigned: async (tx, accountId, check) => {
      await webhookEvents.emit(tx, accountId, { type: 'consent.number_reassigned', data: check });
    },
  });
  const contactability = createContactability({
    db,
    clock,
    reassignmentChecks,
    reassignmentCheckWaitMs: config.reassignmentCheckWaitMs,
  });
  const attempts = createAttemptStore({
    config,
    db,
    clock,
    codeDelivery,
    jobs,
    webhookEvents,
    lookups,
    rateLimit,
  });
  const publicVerify = createPublicVerifyService({ config, db, clock, attempts, revocations, rateLimit });
  const apiEvents = createApiEvents({ db, clock });
  const refreshLinks = createRefreshLinks({ config, db, clock, audit });
  const apiVerifications = createApiVerifications({
    config,
    db,
    clock,
    attempts,
    audit,
  });
  const resolveHost = deps.resolveHost ?? systemResolver;
  const webhookEndpoints = createWebhookEndpointService({ db, clock, config, sealer, resolveHost, audit });
  const webhookSender = createWebhookSender({ db, clock, config, sealer, jobs, resolveHost, audit });
  const webhookOperations = createWebhookOperations({ db, clock, jobs, rateLimit, webhookEvents, audit });
  const domains = createDomainService({
    db,
    clock,
    config,
    rateLimit,
    audit,
    resolveHost,
    lookupTxt: deps.lookupTxt ?? createTxtLookup(),
  });
  const sso = createSsoService({ db, clock, config, sealer, audit, webhookEvents, resolveHost });
  return {
    config,
    db,
    clock,
    mailer,
    sms,
    sealer,
    jobs,
    rateLimit,
    tokens,
    sessions,
    audit,
    auditReader,
    emailVerification,
    passwordReset,
    emailChange,
    auth,
    mfa,
    passkeys,
    authSessions,
    users,
    media,
    accounts,
    memberships,
    invitations,
    verifyForms,
    consent,
    testNumbers,
    verifications,
    verificationExport,
    verificationRedaction,
    certificates,
    certificateCheck,
    publicCertificates,
    certificateRevocation,
    verificationAttempts,
    apiKeys,
    codeDelivery,
    twilioStatus,
    revocations,
    legalHolds,
    privacyRequests,
    pace,
    contactability,
    carrierLookup,
    lookups,
    lookupSettings,
    retentionPolicy,
    reassignmentChecks,
    publicVerify,
    apiVerifications,
    refreshLinks,
    apiEvents,
    webhookEndpoints,
    webhookEvents,
    webhookSender,
    webhookOperations,
    domains,
    sso,
  };
}
