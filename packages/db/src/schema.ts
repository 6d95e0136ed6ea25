import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
/** A code message's delivery statuses (issue #18), in the order they can follow each other. */
export const codeDeliveryStatuses = ['queued', 'sent', 'delivered', 'undelivered', 'failed'] as const;
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    emailIsVerified: boolean('email_is_verified').notNull().default(false),
    emailVerifiedAsOf: timestamp('email_verified_as_of', { withTimezone: true, mode: 'date' }),
    uploadedProfileImage: text('uploaded_profile_image'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }),
    /**
     * When the person last enrolled a second factor (issue #38: a TOTP confirmed, a passkey added); null while they
     * have none. On the user row, which every request loads, so the owners' requirement (403 `mfa_setup_required`) and
     * step-up (a session's last proof older than this) cost no query. Kept by the enrolment and removal use cases.
     */
    mfaEnrolledAt: timestamp('mfa_enrolled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    // E-mail addresses are unique case-insensitively; the app stores them lower-cased.
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // /media/ serves an image only while a row uses it (media service `inUse`): three index probes, not scans.
    index('users_uploaded_profile_image_idx')
      .on(t.uploadedProfileImage)
      .where(sql`${t.uploadedProfileImage} is not null`),
  ],
);

/** Only the SHA-256 of the session id is stored (DESIGN §4). */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Remembered server-side so the initial page data can name the current membership (SPEC §4); a membership
    // that goes away simply falls back to the first one.
    currentMembershipId: integer('current_membership_id').references(() => memberships.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /**
     * When this session last proved a second factor (issue #38): at a sign-in with one (TOTP, recovery code, passkey),
     * an enrolment's confirmation or a step-up. Null when it never did. Step-up asks again when it is older than 10
     * minutes or older than the person's latest enrolment.
     */
    lastProofAt: timestamp('last_proof_at', { withTimezone: true, mode: 'date' }),
    /** How the session began: `password`, `passkey` (without a password) or `sso`. */
    signedInWith: text('signed_in_with', { enum: ['password', 'passkey', 'sso'] })
      .notNull()
      .default('password'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    displayName: text('display_name').notNull(),
    uploadedProfileImage: text('uploaded_profile_image'),
    /**
     * The countries (libphonenumber region codes) whose numbers the account's forms send codes to, by SMS or e-mail:
     * anything else is refused (toll fraud). Forms have no country of their own and the public page reads a number
     * without a country code as a US number, so every account starts with the US; owners add more in Company Info.
     */
    phoneCountries: text('phone_countries').array().notNull().default(['US']),
    /** How long the account's audit events are kept (issue #16): 1–7 years, 2 by default. */
    auditRetentionYears: integer('audit_retention_years').notNull().default(2),
    /**
     * How long a verification stands as consent for the contactability verdict (issue #35): 1–60 months, 18 by default
     * (the age after which lead buyers commonly ask for fresh consent; the law sets none).
     */
    consentMaxAgeMonths: integer('consent_max_age_months').notNull().default(18),
    /**
     * How long the account's evidence is kept (issue #37): 1–10 years, 5 by default (TrustedForm's default; the TCPA's
     * four-year limitation period plus a year). The daily purge removes what is older and leaves tombstones.
     */
    retentionYears: integer('retention_years').notNull().default(5),
    /**
     * When an owner confirmed a policy below the TCPA's four years (the warning's confirmation); null at 4 years or
     * more. Cleared when the policy goes back to 4 or more.
     */
    retentionBelowFourConfirmedAt: timestamp('retention_below_four_confirmed_at', {
      withTimezone: true,
      mode: 'date',
    }),
    /**
     * Owners require a second factor of every member (issue #38): a member without one is led through enrolment and
     * every other call on the account answers 403 `mfa_setup_required` until then.
     */
    requireMfa: boolean('require_mfa').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('accounts_audit_retention_years_check', sql`${t.auditRetentionYears} between 1 and 7`),
    check('accounts_retention_years_check', sql`${t.retentionYears} between 1 and 10`),
    check(
      'accounts_retention_below_four_check',
      sql`${t.retentionYears} >= 4 or ${t.retentionBelowFourConfirmedAt} is not null`,
    ),
    check('accounts_consent_max_age_months_check', sql`${t.consentMaxAgeMonths} between 1 and 60`),
    index('accounts_uploaded_profile_image_idx')
      .on(t.uploadedProfileImage)
      .where(sql`${t.uploadedProfileImage} is not null`),
  ],
);

export const memberships = pgTable(
  'memberships',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['member', 'owner'] }).notNull(),
    canSearchData: boolean('can_search_data').notNull().default(false),
    canViewReports: boolean('can_view_reports').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('memberships_user_account_idx').on(t.userId, t.accountId),
    index('memberships_account_idx').on(t.accountId),
  ],
);

/** Every message sent (or, without SMTP/Twilio, kept as the development outbox). */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: serial('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    to: text('to').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_messages_created_idx').on(t.createdAt)],
);

/**
 * Events counted by the limits that protect accounts and money (login failures, e-mail sends).
 * Counted from rows so that the limits hold across server processes (DESIGN §7).
 */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bucket: text('bucket').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('rate_limit_events_bucket_created_idx').on(t.bucket, t.createdAt)],
);

/**
 * Uploaded images, content-addressed (DESIGN §2); served while a user, account or form uses them (modules/media), with
 * 5-minute revalidated caching.
 */
export const media = pgTable('media', {
  sha256: text('sha256').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: createdAt(),
});

/**
 * A user's e-mail change (SPEC §3, §4): one row per user, reused by every later request. `status` stores only
 * pending / successfully_changed; "expired" is computed (pending and requested_at older than the validity).
 */
export const emailChangeRequests = pgTable('email_change_requests', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .unique('email_change_requests_user_id_key')
    .references(() => users.id, { onDelete: 'cascade' }),
  fromEmail: text('from_email').notNull(),
  toEmail: text('to_email').notNull(),
  /** When the pending change was asked for (or re-armed by a resend after it had expired). */
  requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** When this request was confirmed; cleared by a new request. */
  successfullyChangedAt: timestamp('successfully_changed_at', { withTimezone: true, mode: 'date' }),
  /** When the from or the to address last differed from the previous request's. */
  lastRequestedANewFromOrToEmailAt: timestamp('last_requested_a_new_from_or_to_email_at', {
    withTimezone: true,
    mode: 'date',
  }),
  lastSentAChangeEmailAt: timestamp('last_sent_a_change_email_at', { withTimezone: true, mode: 'date' }),
  /** When any request of this user was last confirmed; kept across new requests. */
  lastSuccessfullyChangedAt: timestamp('last_successfully_changed_at', { withTimezone: true, mode: 'date' }),
  status: text('status', { enum: ['pending', 'successfully_changed'] }).notNull(),
  createdAt: createdAt(),
});

/**
 * Invitations to join an account (DESIGN §5 "Team"). The key travels only in the e-mail
 * (`/follow-invitation/?key=…`); only its SHA-256 is stored. A resend replaces the key (the old link dies).
 * An invitation is open while neither accepted nor revoked; open and past `expires_at` it is "expired" (computed).
 * At most one open invitation per account and address (partial unique index).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    role: text('role', { enum: ['member', 'owner'] }).notNull(),
    canSearchData: boolean('can_search_data').notNull().default(false),
    canViewReports: boolean('can_view_reports').notNull().default(false),
    keyHash: text('key_hash').notNull(),
    invitedByUserId: integer('invited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    acceptedMembershipId: integer('accepted_membership_id').references(() => memberships.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('invitations_key_hash_idx').on(t.keyHash),
    index('invitations_account_created_idx').on(t.accountId, t.createdAt),
    uniqueIndex('invitations_open_email_idx')
      .on(t.accountId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);

/**
 * Verification forms (DESIGN §5). `public_id` names the consumer page `/f/{publicId}`: random and URL-safe, so form
 * ids cannot be enumerated from the outside. A form that has verifications cannot be hard-deleted (the FK below
 * refuses; DELETE answers 400) — the activity log keeps pointing at it; take it offline with isLive=false.
 */
export const verifyForms = pgTable(
  'verify_forms',
  {
    id: serial('id').primaryKey(),
    publicId: text('public_id').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isLive: boolean('is_live').notNull().default(false),
    language: text('language', { enum: ['en', 'es'] })
      .notNull()
      .default('en'),
    category: text('category').notNull().default(''),
    /** A /media/… URL. */
    bannerImage: text('banner_image'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('verify_forms_public_id_idx').on(t.publicId),
    index('verify_forms_account_created_idx').on(t.accountId, t.createdAt.desc()),
    index('verify_forms_account_category_idx').on(t.accountId, t.category),
    index('verify_forms_banner_image_idx').on(t.bannerImage).where(sql`${t.bannerImage} is not null`),
  ],
);

/**
 * A public form page opened by a visitor (issue #18): the funnel's first step and the timeline's "page opened" and
 * "consent shown". `id` (`pv_` + 128 random bits) goes to the page with the form's data and comes back with
 * `send-code`, linking the attempt to the view. Members' previews record none.
 */
export const formPageViews = pgTable(
  'form_page_views',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    verifyFormId: integer('verify_form_id')
      .notNull()
      .references(() => verifyForms.id, { onDelete: 'cascade' }),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    /** The consent version the page showed; null when the form had none. */
    consentVersionId: text('consent_version_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    // The funnel counts views by account, range and form from the index alone.
    index('form_page_views_account_created_idx').on(t.accountId, t.createdAt, t.verifyFormId),
  ],
);

/**
 * The consent text a form shows, per language (issue #18, ADR 22). Publishing makes a new numbered version (1, 2, …
 * per form and language, numbered under the form row's lock); a version is never changed or removed — a trigger
 * (migration 0017) refuses UPDATE, and DELETE unless its form or account is already gone (their cascade). `id` is
 * random (`cv_…`): the public page shows it, and a serial would count every customer's versions. `sha256` is the hex
 * SHA-256 of `text`'s UTF-8 bytes, exactly as the page renders it.
 */
export const consentVersions = pgTable(
  'consent_versions',
  {
    id: text('id').primaryKey(),
    verifyFormId: integer('verify_form_id')
      .notNull()
      .references(() => verifyForms.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    sha256: text('sha256').notNull(),
    requireCheckbox: boolean('require_checkbox').notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('consent_versions_form_language_version_idx').on(t.verifyFormId, t.language, t.version),
    check('consent_versions_version_check', sql`${t.version} >= 1`),
  ],
);

/**
 * What an attempt or a verification was asked under (issue #18 item 3): the consent version shown, copied with its
 * number, language and hash so the evidence reads from the row itself. No foreign key: a version goes only with its
 * form or account, and so do these rows; a key would make each version's removal scan every verification.
 */
const consentEvidence = () => ({
  consentVersionId: text('consent_version_id'),
  consentVersion: integer('consent_version'),
  consentLanguage: text('consent_language', { enum: ['en', 'es'] }),
  consentSha256: text('consent_sha256'),
});

/**
 * One phone verification through a form (SPEC §3). The form's name and category are copied at that moment, so the
 * activity log shows what the consumer saw even after the form is renamed. Read at a million rows per account:
 * every list/report query is served by one of the indexes below (keyset by created_at, id).
 */
export const verifications = pgTable(
  'verifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    // NO ACTION rather than RESTRICT: checked at the end of the statement, so deleting an account (which cascades to
    // both tables) still works, while deleting a form that has verifications fails.
    verifyFormId: integer('verify_form_id')
      .notNull()
      .references(() => verifyForms.id, { onDelete: 'no action' }),
    /** E.164. */
    cellPhone: text('cell_phone').notNull(),
    externalRefId: text('external_ref_id').notNull().default(''),
    verifyFormName: text('verify_form_name').notNull(),
    verifyFormCategory: text('verify_form_category').notNull().default(''),
    verificationMethod: text('verification_method', { enum: ['sms', 'email'] }).notNull(),
    /** The address the code went to, when the method is e-mail (evidence). */
    email: text('email'),
    isTest: boolean('is_test').notNull().default(false),
    codeSentAt: timestamp('code_sent_at', { withTimezone: true, mode: 'date' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** Copied from its attempt: the hosted page or API v1, shown and filtered in the activity log. */
    source: text('source', { enum: ['hosted', 'api'] })
      .notNull()
      .default('hosted'),
    ...consentEvidence(),
    createdAt: createdAt(),
    /**
     * When the consumer's personal data was redacted at the account's request (issue #19): the number and address
     * kept masked, IP and user agent removed here and in its attempts, page views and code entries, and its
     * certificate's content removed (its hash, signature and place in the chain kept). Never undone.
     */
    redactedAt: timestamp('redacted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // Every sort index ends with the id, so a page's ids come from an index-only scan (the list's deferred join reads
    // whole rows for the page only, however deep the offset), and then with `is_test`, so the live view's `NOT is_test`
    // is checked on the index entry, not the row (ADR 29).
    index('verifications_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc(), t.isTest),
    // The activity log's test view (issue #33, ADR 29): test verifications are few among the account's, so the view
    // walks this small partial index instead of filtering the whole account's.
    index('verifications_account_test_created_idx')
      .on(t.accountId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.isTest}`),
    index('verifications_account_form_created_id_idx').on(
      t.accountId,
      t.verifyFormId,
      t.createdAt.desc(),
      t.id.desc(),
      t.isTest,
    ),
    index('verifications_account_phone_id_idx').on(t.accountId, t.cellPhone, t.id, t.isTest),
    // A revoked address's verifications (issue #35, modules/verifications/revoked.ts): the log's revoked filter reads
    // them from the revocations side, as it reads a revoked number's through the phone index above.
    index('verifications_account_email_idx').on(t.accountId, t.email).where(sql`${t.email} is not null`),
    // The activity log's search (apps/server/src/modules/verifications/filters.ts): digits that begin or end a number
    // and a reference's beginning are LIKE 'prefix%' ranges; text_pattern_ops serves them whatever the collation.
    index('verifications_account_phone_prefix_idx').on(t.accountId, t.cellPhone.op('text_pattern_ops')),
    index('verifications_account_phone_suffix_idx').on(
      t.accountId,
      sql`reverse(${t.cellPhone}) text_pattern_ops`,
    ),
    index('verifications_account_ref_prefix_idx').on(
      t.accountId,
      sql`lower(${t.externalRefId}) text_pattern_ops`,
    ),
    // The log's sorts: key then id (the tie-breaker), so a page is an index walk rather than a sort of the account's
    // rows; forms, categories and empty references tie by the hundred thousand.
    index('verifications_account_ref_id_idx').on(t.accountId, t.externalRefId, t.id, t.isTest),
    index('verifications_account_form_id_idx').on(t.accountId, t.verifyFormId, t.id, t.isTest),
    index('verifications_account_form_name_id_idx').on(t.accountId, t.verifyFormName, t.id, t.isTest),
    // One form's rows by name: the form's own range instead of the account's names filtered row by row.
    index('verifications_account_form_form_name_id_idx').on(
      t.accountId,
      t.verifyFormId,
      t.verifyFormName,
      t.id,
      t.isTest,
    ),
    index('verifications_account_category_id_idx').on(t.accountId, t.verifyFormCategory, t.id, t.isTest),
    // One form's rows by category, as by name above. Without it, a form's last 30 days by category walked the
    // account's category index and filtered: the form's category sorts last, so 107,000 rows were read for 25 (181 ms
    // at 300,000 verifications; 0.2 ms with it).
    index('verifications_account_form_category_id_idx').on(
      t.accountId,
      t.verifyFormId,
      t.verifyFormCategory,
      t.id,
      t.isTest,
    ),
    // The dashboard report reads a date range's method, form and category from the index alone (index-only scan):
    // rows of one month lie all over the heap, and fetching them was 1 s of the report at 1M rows.
    index('verifications_account_created_report_idx').on(
      t.accountId,
      t.createdAt,
      t.verificationMethod,
      t.verifyFormId,
      t.verifyFormCategory,
      t.isTest,
    ),
  ],
);

/**
 * How many verifications each account has per UTC day, form, category and method: the activity log's total `count`
 * without a search reads these few rows instead of counting up to a million (docs/decisions/0008). Kept by statement
 * triggers on `verifications` (migration 0007), in the same transaction as the rows they count, so the sum is exact;
 * nothing in the app writes it. A local day starts at any instant, so the list sums the whole UTC days inside its
 * range and counts the rows of the partial days at either end.
 */
export const verificationDailyCounts = pgTable(
  'verification_daily_counts',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Test rows (issue #33) are counted apart, so a live or a test total reads only its own rows (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    /** The UTC day of `created_at`. */
    day: date('day', { mode: 'string' }).notNull(),
    verifyFormId: integer('verify_form_id').notNull(),
    verifyFormCategory: text('verify_form_category').notNull(),
    verificationMethod: text('verification_method', { enum: ['sms', 'email'] }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'verification_daily_counts_pk',
      columns: [t.accountId, t.isTest, t.day, t.verifyFormId, t.verifyFormCategory, t.verificationMethod],
    }),
  ],
);

/**
 * Verifications of all time per form, category recorded and method (issue #20, migration 0030): the activity log's
 * total without dates, its default view, reads a row per key here instead of summing every day of the account (9,600
 * daily rows at the load mix's 300,000 verifications, ~1 ms a list). Kept by the daily counts' own trigger functions,
 * in the same transaction and statement as the rows, so the two always agree.
 */
export const verificationTotalCounts = pgTable(
  'verification_total_counts',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Test rows (issue #33) are counted apart, so a live or a test total reads only its own rows (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    verifyFormId: integer('verify_form_id').notNull(),
    verifyFormCategory: text('verify_form_category').notNull(),
    verificationMethod: text('verification_method', { enum: ['sms', 'email'] }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'verification_total_counts_pk',
      columns: [t.accountId, t.isTest, t.verifyFormId, t.verifyFormCategory, t.verificationMethod],
    }),
  ],
);

/**
 * Verifications per UTC hour, form, category recorded, method and source (issue #20, ADR 28): the report's series per
 * local day, forms and categories without reading the range's rows. Kept by triggers of migration 0024 in the same
 * transaction as the verifications; nothing in the application writes it.
 */
export const verificationHourlyCounts = pgTable(
  'verification_hourly_counts',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Test rows (issue #33) are counted apart, so a live or a test total reads only its own rows (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    /** The UTC hour of `created_at` (its start). */
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    verifyFormId: integer('verify_form_id').notNull(),
    verifyFormCategory: text('verify_form_category').notNull(),
    verificationMethod: text('verification_method', { enum: ['sms', 'email'] }).notNull(),
    source: text('source', { enum: ['hosted', 'api'] }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'verification_hourly_counts_pk',
      columns: [
        t.accountId,
        t.isTest,
        t.hour,
        t.verifyFormId,
        t.verifyFormCategory,
        t.verificationMethod,
        t.source,
      ],
    }),
  ],
);

/**
 * Verifications per UTC hour and method only (issue #20): the report's series per local day when no form, category or
 * source is filtered, ~10× fewer rows than verification_hourly_counts where an hour holds a few verifications per form.
 * Kept by the same triggers as verification_hourly_counts (migration 0026); nothing in the application writes it.
 */
export const verificationHourlyMethodCounts = pgTable(
  'verification_hourly_method_counts',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Test rows (issue #33) are counted apart, so a live or a test total reads only its own rows (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    /** The UTC hour of `created_at` (its start). */
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    verificationMethod: text('verification_method', { enum: ['sms', 'email'] }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'verification_hourly_method_counts_pk',
      columns: [t.accountId, t.isTest, t.hour, t.verificationMethod],
    }),
  ],
);

/**
 * One code sent through a public form (DESIGN §5): the public `attemptId` is a random 128-bit id, the code is kept
 * only as an HMAC keyed by SECRET_KEY. Attempts are kept after they end: they are the "codes sent" side of the
 * report's funnel and the evidence behind each verification.
 *
 * status: pending → verified (the right code, once) | locked (5 wrong tries) | replaced (a newer code for the same
 * form and phone). Expiry is computed from `expires_at`.
 */
export const verificationAttempts = pgTable(
  'verification_attempts',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    verifyFormId: integer('verify_form_id')
      .notNull()
      .references(() => verifyForms.id, { onDelete: 'cascade' }),
    /** E.164. */
    cellPhone: text('cell_phone').notNull(),
    method: text('method', { enum: ['sms', 'email'] }).notNull(),
    email: text('email'),
    externalRefId: text('external_ref_id').notNull().default(''),
    codeHash: text('code_hash').notNull(),
    // `canceled`: by the customer through API v1 (issue #15).
    status: text('status', { enum: ['pending', 'verified', 'locked', 'replaced', 'canceled'] })
      .notNull()
      .default('pending'),
    /** Sent to one of the account's test numbers: no message goes out, the code is the number's fixed code. */
    isTest: boolean('is_test').notNull().default(false),
    wrongTries: integer('wrong_tries').notNull().default(0),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** When the code was asked for. */
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the provider (Twilio, SMTP, outbox) accepted the message; set by the sending job. */
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** Twilio's message SID (or the SMTP message id): evidence that the message left. */
    providerMessageId: text('provider_message_id'),
    /** The last sending error, when the job failed (kept for support; never shown to the consumer). */
    sendError: text('send_error'),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    verificationId: bigint('verification_id', { mode: 'number' }).references(() => verifications.id, {
      onDelete: 'set null',
    }),
    /** Where the code was asked for: the hosted page, or API v1 (issue #15) with the key that asked. */
    source: text('source', { enum: ['hosted', 'api'] })
      .notNull()
      .default('hosted'),
    apiKeyId: integer('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    /** The page view the code was asked from (issue #18); null through API v1 or from a page older than views. */
    pageViewId: text('page_view_id').references(() => formPageViews.id, { onDelete: 'set null' }),
    ...consentEvidence(),
    /**
     * The furthest delivery status reached (issue #18): queued → sent → delivered | undelivered | failed. Its history is
     * in code_delivery_events; this copy is what lists filter on. "Unknown" (no callback 10 minutes after `sent`) is
     * derived when read, never stored.
     */
    deliveryStatus: text('delivery_status', { enum: codeDeliveryStatuses }).notNull().default('queued'),
    /** The provider's error code of the final status (Twilio's `ErrorCode`, the SMTP reply code). */
    deliveryErrorCode: text('delivery_error_code'),
    /**
     * Someone typed a code for it (it has a code entry): the funnel's "code entered" step, set by a trigger on
     * code_entries (migration 0024), so the report's hourly funnel can count it once, whatever the race of entries.
     */
    codeEntered: boolean('code_entered').notNull().default(false),
    /**
     * The code's send, claimed from this row by the code-send worker (ADR 33; modules/attempts/code-delivery.ts): the code
     * sealed with SECRET_KEY under the attempt id while a send is owed (cleared once it is done), where the send is
     * (queued, active, retry, then its outcome: sent, skipped, rejected, unreadable, failed), when it may next be
     * taken (its start, an active try's lease, a retry's back-off; null once done) and how many tries were taken.
     */
    sealedCode: text('sealed_code'),
    sendState: text('send_state', {
      enum: ['queued', 'active', 'retry', 'sent', 'skipped', 'rejected', 'unreadable', 'malformed', 'failed'],
    }),
    sendAfter: timestamp('send_after', { withTimezone: true, mode: 'date' }),
    sendTries: integer('send_tries').notNull().default(0),
    /**
     * Carrier lookups asked when the code was requested (issue #36 item 1, ADR 42), when the account turned them on:
     * the line type's record and the SIM swap's (null: not asked, or no answer came). The records are the evidence;
     * `sim_swap_within_window` is the judgment made then (the last swap within the account's window of
     * `sim_swap_window_days` days before the request), kept as it was judged whatever the settings become.
     */
    lineTypeLookupId: bigint('line_type_lookup_id', { mode: 'number' }).references(() => lookups.id, {
      onDelete: 'set null',
    }),
    simSwapLookupId: bigint('sim_swap_lookup_id', { mode: 'number' }).references(() => lookups.id, {
      onDelete: 'set null',
    }),
    simSwapWithinWindow: boolean('sim_swap_within_window'),
    simSwapWindowDays: integer('sim_swap_window_days'),
    /**
     * The approved attempt (API v1's verification id) whose consent this one refreshes (issue #36 item 4, ADR 44): set
     * when the code was asked through a refresh link of that verification (refresh_links), never otherwise.
     */
    refreshes: text('refreshes').references((): AnyPgColumn => verificationAttempts.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    // The refreshes of a verification (its deletion's `set null`, retention and erasure, issue #37).
    index('verification_attempts_refreshes_idx').on(t.refreshes).where(sql`${t.refreshes} is not null`),
    // The retention purge strips a page view's IP and user agent only when no kept attempt names it (ADR 45).
    index('verification_attempts_page_view_idx').on(t.pageViewId).where(sql`${t.pageViewId} is not null`),
    // A lookup record's attempts (erasure and retention, issue #37, delete lookups: the foreign keys' set null).
    index('verification_attempts_line_type_lookup_idx')
      .on(t.lineTypeLookupId)
      .where(sql`${t.lineTypeLookupId} is not null`),
    index('verification_attempts_sim_swap_lookup_idx')
      .on(t.simSwapLookupId)
      .where(sql`${t.simSwapLookupId} is not null`),
    check(
      'verification_attempts_sim_swap_judged_check',
      sql`(${t.simSwapWithinWindow} is null) = (${t.simSwapWindowDays} is null)`,
    ),
    // The code-send worker's claim: the few attempts whose send is owed, by when it may be taken.
    index('verification_attempts_send_due_idx').on(t.sendAfter).where(sql`${t.sendAfter} is not null`),
    // An approved attempt from its verification (issue #35): the contactability verdict names the consent by the id API
    // v1 shows, and a verification's delete (retention, issue #37) finds the attempts to unlink. Only approved
    // attempts have one, written once on approval.
    index('verification_attempts_verification_idx')
      .on(t.verificationId)
      .where(sql`${t.verificationId} is not null`),
    // Twilio's status callbacks name the message only by its SID.
    index('verification_attempts_provider_message_idx')
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    // A form's latest code to a number (resend spacing), and a number's latest code in any form (whose code text an
    // SMS reply answers, issue #35): the number first serves both.
    index('verification_attempts_phone_form_created_idx').on(t.cellPhone, t.verifyFormId, t.createdAt.desc()),
    // API v1's list (issue #15): newest first with the id as tie-break, as a keyset page reads it; by form and by the
    // caller's reference likewise.
    index('verification_attempts_account_created_idx').on(
      t.accountId,
      t.createdAt.desc(),
      t.id.desc(),
      t.isTest,
    ),
    // A test key's list and the attempts view's test filter (issue #33, ADR 29): the few test attempts, in list order.
    index('verification_attempts_account_test_created_idx')
      .on(t.accountId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.isTest}`),
    index('verification_attempts_account_form_created_idx').on(
      t.accountId,
      t.verifyFormId,
      t.createdAt.desc(),
      t.id.desc(),
      t.isTest,
    ),
    index('verification_attempts_account_ref_created_idx').on(
      t.accountId,
      t.externalRefId,
      t.createdAt.desc(),
      t.id.desc(),
      t.isTest,
    ),
    // A search's reference reading (`lower(ref) LIKE 'prefix%'`, filters.ts), as verifications_account_ref_prefix_idx
    // serves the log: without it the attempts view's search and the report's funnel read the range's every attempt.
    index('verification_attempts_account_ref_prefix_idx').on(
      t.accountId,
      sql`lower(${t.externalRefId}) text_pattern_ops`,
    ),
    // The report's funnel (codes sent) by method and form over a date range, from the index alone.
    index('verification_attempts_account_created_report_idx').on(
      t.accountId,
      t.createdAt,
      t.method,
      t.verifyFormId,
      t.isTest,
    ),
    // The expiry sweep (webhook event verification.expired): codes still pending whose time ran out lately.
    index('verification_attempts_pending_expires_idx').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    // The report's top failure reasons: only the failed messages of a range are read (ADR 28).
    index('verification_attempts_account_failed_created_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.deliveryStatus} in ('undelivered', 'failed')`),
  ],
);

/**
 * The report's funnel per UTC hour, form, method and source (issue #20, ADR 28): codes requested, and of those the
 * delivered, the ones someone typed a code for, the verified. Kept by triggers of migration 0024 in the attempts' own
 * transactions (a row trigger when a step changes); nothing in the application writes it.
 */
export const verificationAttemptHourlyFunnel = pgTable(
  'verification_attempt_hourly_funnel',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Test rows (issue #33) are counted apart, so a live or a test total reads only its own rows (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    /** The UTC hour of `created_at` (its start). */
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    verifyFormId: integer('verify_form_id').notNull(),
    method: text('method', { enum: ['sms', 'email'] }).notNull(),
    source: text('source', { enum: ['hosted', 'api'] }).notNull(),
    requested: integer('requested').notNull(),
    delivered: integer('delivered').notNull(),
    entered: integer('entered').notNull(),
    verified: integer('verified').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'verification_attempt_hourly_funnel_pk',
      columns: [t.accountId, t.isTest, t.hour, t.verifyFormId, t.method, t.source],
    }),
  ],
);

/**
 * Codes sent per UTC day, form, method and source, and the funnel's steps they reached (issue #20): the attempts view's
 * total without counting millions of rows, as verification_daily_counts is the activity log's (ADR 8, ADR 27), and the
 * report's funnel over the range's whole UTC days (its hourly funnel covers the hours at either end). `n` is the codes
 * requested. Kept by the hourly funnel's triggers (migration 0026) in the same transaction as the attempts; nothing
 * in the application writes it.
 */
export const verificationAttemptDailyCounts = pgTable(
  'verification_attempt_daily_counts',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Test rows (issue #33) are counted apart, so a live or a test total reads only its own rows (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    /** The UTC day of `created_at`. */
    day: date('day', { mode: 'string' }).notNull(),
    verifyFormId: integer('verify_form_id').notNull(),
    method: text('method', { enum: ['sms', 'email'] }).notNull(),
    source: text('source', { enum: ['hosted', 'api'] }).notNull(),
    n: integer('n').notNull(),
    delivered: integer('delivered').notNull().default(0),
    entered: integer('entered').notNull().default(0),
    verified: integer('verified').notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'verification_attempt_daily_counts_pk',
      columns: [t.accountId, t.isTest, t.day, t.verifyFormId, t.method, t.source],
    }),
  ],
);

/**
 * A revocation of consent (issue #35, FCC 24-24: by any reasonable means, honoured within 10 business days): one row
 * per revocation received, from any channel, with the exact words and the deadline counted when it arrived. A reply to
 * a code text that is not a per-se revocation is kept as `possible` for a member to decide. It covers the account's
 * consent for that number or address from `received_at` on.
 */
export const revocations = pgTable(
  'revocations',
  {
    /** Random, 128 bits, base64url: the id API v1 and the app show. */
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['sms_reply', 'public_page', 'api', 'member'] }).notNull(),
    /** How one recorded by a member or API v1 reached the customer. */
    via: text('via', { enum: ['phone_call', 'email', 'letter', 'other'] }),
    note: text('note').notNull().default(''),
    /** A member's e-mail or an API key's prefix (as the audit log names them); null for a reply or the public page. */
    recordedBy: text('recorded_by'),
    /** E.164; null when the revocation names an address only. */
    phone: text('phone'),
    email: text('email'),
    /** What the consumer said or wrote, exactly (a reply's body); for other channels, their note. */
    words: text('words').notNull().default(''),
    /** The per-se words or phrases recognised in `words` (normalised; modules/revocations/words.ts). */
    perSeWords: text('per_se_words').array().notNull().default(sql`'{}'::text[]`),
    status: text('status', { enum: ['open', 'possible', 'acknowledged', 'dismissed'] }).notNull(),
    /** A reply's Twilio MessageSid: the same reply delivered twice is one revocation. */
    providerMessageId: text('provider_message_id'),
    /** The code text the reply answers (the number's latest in any account): whose consent it revokes. */
    // No foreign key: attempts are purged by retention (issue #37) and their deletes must not look here.
    attemptId: text('attempt_id'),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The last day it may be honoured on (modules/revocations/deadline.ts), counted when it arrived. */
    deadline: date('deadline', { mode: 'string' }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, mode: 'date' }),
    /**
     * Made with a `vf_test_` key (API v1): it revokes the account's test verifications only, and only test keys see it
     * (ADR 29). Replies, the public page and members record live ones.
     */
    isTest: boolean('is_test').notNull().default(false),
    /** When the owners were told it is overdue (`revocation.overdue` and one e-mail): never twice. */
    overdueNotifiedAt: timestamp('overdue_notified_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    // The overdue sweep's walk: open ones not yet notified, by deadline.
    index('revocations_overdue_due_idx')
      .on(t.deadline)
      .where(sql`${t.status} = 'open' and ${t.overdueNotifiedAt} is null`),
    uniqueIndex('revocations_provider_message_idx')
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    index('revocations_account_received_idx').on(t.accountId, t.isTest, t.receivedAt.desc(), t.id.desc()),
    // A number's (or an address's) revocations in time order: the verdict's and the verification's "revoked since".
    index('revocations_account_phone_idx')
      .on(t.accountId, t.phone, t.receivedAt)
      .where(sql`${t.phone} is not null`),
    index('revocations_account_email_idx')
      .on(t.accountId, t.email, t.receivedAt)
      .where(sql`${t.email} is not null`),
    check('revocations_someone_check', sql`${t.phone} is not null or ${t.email} is not null`),
  ],
);

/**
 * Which revocation revoked each revoked verification (issue #35): the first revoking revocation of its number or address
 * received since it was made, as modules/revocations/standing.ts's rule answers it, kept so the activity log's
 * `revoked` filter, its rows, the CSV and the certificate read one row by key instead of judging every verification
 * (docs/benchmarks.md, session 29). Written by modules/revocations/marks.ts only, in the transaction that makes a
 * revocation revoking; a row only ever moves to an earlier revocation (revoking statuses are final). A verification
 * without a row is not revoked.
 */
export const revocationMarks = pgTable(
  'revocation_marks',
  {
    verificationId: bigint('verification_id', { mode: 'number' })
      .primaryKey()
      .references(() => verifications.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The verification's mode (a revocation revokes its own mode's verifications only). */
    isTest: boolean('is_test').notNull(),
    revocationId: text('revocation_id')
      .notNull()
      .references(() => revocations.id, { onDelete: 'cascade' }),
    /** The revocation's `received_at`: when consent ended. */
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    // The log's `revoked` filter and its count: an account's revoked verifications of one mode.
    index('revocation_marks_account_idx').on(t.accountId, t.isTest, t.verificationId),
    index('revocation_marks_revocation_idx').on(t.revocationId),
  ],
);

/**
 * Every delivery status a code's message went through, in arrival order (issue #18): `queued` when the code is issued,
 * `sent` when the provider took it, then what Twilio's callbacks report. Kept even when it arrives out of order (the
 * attempt's own status never moves back), as evidence of what the provider said and when.
 */
export const codeDeliveryEvents = pgTable(
  'code_delivery_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /**
     * Null while a callback is ahead of its message: Twilio may report on a message before the sending job has saved
     * its SID. The job adopts such events (by `provider_message_id`) when it saves the SID.
     */
    attemptId: text('attempt_id').references(() => verificationAttempts.id, { onDelete: 'cascade' }),
    status: text('status', { enum: codeDeliveryStatuses }).notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    errorCode: text('error_code'),
    providerMessageId: text('provider_message_id'),
  },
  (t) => [
    index('code_delivery_events_attempt_idx').on(t.attemptId, t.at),
    index('code_delivery_events_orphan_idx').on(t.providerMessageId).where(sql`${t.attemptId} is null`),
  ],
);

/**
 * Every code typed on the page (or checked through API v1) for an attempt, right or wrong (issue #18): the timeline's
 * "code entered" lines and the certificate's code entries. Only whether it was right is kept, never the code.
 */
export const codeEntries = pgTable(
  'code_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    attemptId: text('attempt_id')
      .notNull()
      .references(() => verificationAttempts.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    correct: boolean('correct').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('code_entries_attempt_idx').on(t.attemptId, t.at)],
);

/**
 * An account's test numbers (test mode): sending a code to one of them sends nothing and expects the fixed `code`;
 * the verification is marked `is_test`. Owners manage them.
 */
export const testPhoneNumbers = pgTable(
  'test_phone_numbers',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** E.164. */
    cellPhone: text('cell_phone').notNull(),
    /** Six digits. */
    code: text('code').notNull(),
    /**
     * What the simulated delivery reports (issue #18): null = delivered; else a provider error code (Twilio's 30003,
     * 30006, 30007…) the code's message "fails" with, so a customer can see and test the failure paths.
     */
    simulatedErrorCode: text('simulated_error_code'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('test_phone_numbers_account_phone_idx').on(t.accountId, t.cellPhone)],
);

/**
 * API keys (issue #15; ADR 16). Only the SHA-256 of the whole key is kept (`secret_hash`, 32 bytes): a bearer request
 * finds its key by that unique index alone. `prefix` is the key's first 12 characters (`vf_live_AbCd`), shown in lists.
 * A revoked key keeps its row (the list shows it as evidence) and never answers again.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    prefix: text('prefix').notNull(),
    secretHash: bytea('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    lastUsedIp: text('last_used_ip'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
    // NULLS FIRST, DESC's default: the list's plain `order by created_at desc, id desc` reads it in order (drizzle's
    // `.desc()` alone writes NULLS LAST, which that order cannot use).
    index('api_keys_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('api_keys_mode_check', sql`${t.mode} in ('live', 'test')`),
    check('api_keys_scopes_check', sql`cardinality(${t.scopes}) > 0`),
  ],
);

/**
 * API v1's Idempotency-Key (ADR 17): a POST's key per API key, claimed `running` before the handler runs and `done`
 * with the answer it produced (status, content type, body bytes) for replays. `request_hash` is the SHA-256 of the
 * method, path and raw body bytes. Rows count for 24 h (older ones are ignored, then pruned hourly by created_at).
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: bytea('request_hash').notNull(),
    state: text('state', { enum: ['running', 'done'] }).notNull(),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    body: bytea('body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.key] }),
    index('api_idempotency_keys_created_idx').on(t.createdAt),
    check('api_idempotency_keys_state_check', sql`${t.state} in ('running', 'done')`),
    check(
      'api_idempotency_keys_done_check',
      sql`${t.state} = 'running' or (${t.statusCode} is not null and ${t.body} is not null)`,
    ),
  ],
);

/**
 * The audit log (issue #16, ADR 19): one row per event, append-only (a trigger refuses UPDATE, and DELETE except for
 * the retention job), one hash chain per account: `sequence` 1, 2, 3… and `hash` = SHA-256 of the event's canonical
 * JSON with `prev_hash`, the hash of the event before it. The first target is also in `target_type`/`target_id`, which
 * the filters read.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    actorType: text('actor_type', { enum: ['user', 'api_key', 'system'] }).notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targets: jsonb('targets').notNull(),
    changes: jsonb('changes'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_events_account_sequence_idx').on(t.accountId, t.sequence),
    index('audit_events_account_occurred_idx').on(t.accountId, t.occurredAt.desc(), t.id.desc()),
    index('audit_events_account_action_idx').on(t.accountId, t.action, t.occurredAt.desc(), t.id.desc()),
    index('audit_events_account_actor_idx').on(
      t.accountId,
      t.actorType,
      t.actorId,
      t.occurredAt.desc(),
      t.id.desc(),
    ),
    index('audit_events_account_target_idx').on(
      t.accountId,
      t.targetType,
      t.targetId,
      t.occurredAt.desc(),
      t.id.desc(),
    ),
  ],
);

/**
 * The head of each account's chain: its last sequence and hash. Writing an event locks this row (one upsert), so the
 * events of one account are chained one at a time in every process, while other accounts write in parallel.
 */
export const auditChainHeads = pgTable('audit_chain_heads', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  sequence: bigint('sequence', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});

/**
 * Webhook endpoints (issue #17, ADR 20): where an account's events are POSTed. The signing secret (`whsec_…`) is
 * sealed with SECRET_KEY (AES-GCM, lib/sealed.ts), not hashed: the sender signs with it and owners may read it again.
 * During a rotation's overlap the previous secret also signs, until `previous_secret_expires_at`. `event_types` is
 * the list of types wanted, or `{*}` for all.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    /** The owner who created it (ADR 30); null for endpoints made before this was recorded, or a deleted user. */
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    /**
     * `failing`: disabled by the sender after WEBHOOK_DISABLE_AFTER_DAYS of failed deliveries; `creator_removed`: its
     * creator stopped being an owner (removed or demoted) and the owner doing it did not keep it (ADR 30).
     */
    disabledReason: text('disabled_reason', { enum: ['manual', 'failing', 'creator_removed'] }),
    /** The first failed attempt since the last success: the clock of the warning and of disabling. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** When the owners were warned of this failing streak (once per streak). */
    failureWarnedAt: timestamp('failure_warned_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('webhook_endpoints_account_idx').on(t.accountId, t.id),
    check('webhook_endpoints_event_types_check', sql`cardinality(${t.eventTypes}) > 0`),
  ],
);

/**
 * Webhook events (issue #17): what happened in an account, stored once in the transaction of the change itself, so an
 * event exists exactly when its change committed. `id` is `evt_…` (the `webhook-id` of every delivery), `data` the
 * object as API v1 shows it. Listed by GET /api/v1/events and replayable for 30 days (a prune job removes older ones).
 * `dedupe_key` makes events found by a sweep rather than a change (a verification's expiry) stored once however often
 * the sweep sees them.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
    dedupeKey: text('dedupe_key'),
    /**
     * Stripe's `livemode` (issue #33, ADR 29): false for an event about a test object (a verification made for one of
     * the account's test numbers); set once from its `data.livemode` by both emitters (modules/webhooks/events.ts and
     * emit_webhook_event in SQL). A `vf_test_` key lists only the false ones, a `vf_live_` key only the true ones.
     */
    livemode: boolean('livemode').notNull().default(true),
  },
  (t) => [
    index('webhook_events_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // A test key's events list (issue #33): test events are few, so a partial index keeps their page as fast as the
    // live one's without a second copy of the account's whole index.
    index('webhook_events_account_test_created_idx')
      .on(t.accountId, t.createdAt.desc(), t.id.desc())
      .where(sql`NOT ${t.livemode}`),
    index('webhook_events_account_type_created_idx').on(t.accountId, t.type, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('webhook_events_account_dedupe_idx')
      .on(t.accountId, t.dedupeKey)
      .where(sql`${t.dedupeKey} IS NOT NULL`),
    // The retention job deletes by age across accounts.
    index('webhook_events_created_idx').on(t.createdAt),
  ],
);

/**
 * One event to one endpoint: made in the event's transaction for every enabled endpoint that wants its type, and by
 * a replay. Each try is a `deliver-webhook` job; its outcome is one row of `webhook_delivery_attempts`.
 * `attempt_count` is also the guard that makes a job that runs twice (a crash after its commit) try once.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'succeeded', 'retrying', 'failed'] })
      .notNull()
      .default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    /** When the event happened (copied, so an endpoint's deliveries page and replay ranges read one index). */
    eventCreatedAt: timestamp('event_created_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    /**
     * The delivery worker's claim (ADR 33; modules/webhooks/sender.ts): when the row may next be taken (now for a new
     * or replayed delivery, the retry's time, an attempt's lease while one runs; null when nothing is owed), the
     * trigger its next attempt records, and how many claims ran since the last recorded attempt (a crash or a
     * database error in between; the delivery fails for good past the deliver-webhook job's retry limit).
     */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
    nextTrigger: text('next_trigger', { enum: ['scheduled', 'replay', 'test'] })
      .notNull()
      .default('scheduled'),
    claims: integer('claims').notNull().default(0),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_idx').on(t.endpointId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.dueAt).where(sql`${t.dueAt} is not null`),
    index('webhook_deliveries_endpoint_created_idx').on(
      t.endpointId,
      t.eventCreatedAt.desc(),
      t.eventId.desc(),
    ),
    index('webhook_deliveries_endpoint_status_created_idx').on(
      t.endpointId,
      t.status,
      t.eventCreatedAt.desc(),
      t.eventId.desc(),
    ),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** Every try of a delivery: when, the receiver's status, latency and first 1 KB, or why there was no answer. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
    responseSnippet: text('response_snippet').notNull().default(''),
    trigger: text('trigger', { enum: ['scheduled', 'replay', 'test'] })
      .notNull()
      .default('scheduled'),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/**
 * Every key that ever signed a verification certificate (issue #19, ADR 24): the Ed25519 public key (base64 of the raw
 * 32 bytes) under its `key_id` (`vfk_` + 16 hex of its SHA-256). The private key is derived from SECRET_KEY and
 * CERTIFICATE_KEY_GENERATION and never stored; the public one stays here after a rotation (`retired_at` set), so
 * certificates it signed keep verifying even once SECRET_KEY has changed.
 */
export const certificateSigningKeys = pgTable('certificate_signing_keys', {
  keyId: text('key_id').primaryKey(),
  publicKey: text('public_key').notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
});

/**
 * A verification's signed certificate (issue #19, ADR 24), issued once, on its first request. `content` is the
 * canonical JSON (RFC 8785) exactly as signed; `sha256` the hex SHA-256 of its bytes. Each account's certificates are
 * chained in issue order: `seq` 1, 2, 3… and `prev_hash` the previous certificate's `sha256` (null for the first), both
 * also inside the signed content. NO ACTION on the verification: evidence is not removed by accident (an account's
 * removal still cascades to both).
 */
export const verificationCertificates = pgTable(
  'verification_certificates',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    // No foreign key: the retention purge (issue #37) removes the verification and keeps this row as its tombstone,
    // still naming the verification it was of.
    verificationId: bigint('verification_id', { mode: 'number' }).notNull(),
    seq: integer('seq').notNull(),
    prevHash: text('prev_hash'),
    /** Null once redacted (`redacted_at`): the rest of the row still proves what was signed and where it sat. */
    content: text('content'),
    sha256: text('sha256').notNull(),
    keyId: text('key_id')
      .notNull()
      .references(() => certificateSigningKeys.keyId),
    signature: text('signature').notNull(),
    /**
     * The salt of the content's `cellPhoneSha256` and `emailSha256` (32 hex), kept out of the content: with it in the
     * file, the masked number's few hidden digits would be found by hashing every candidate. Revealed with the number
     * when someone who knows it unlocks the certificate.
     */
    unlockSalt: text('unlock_salt'),
    createdAt: createdAt(),
    /**
     * Revoked by the account (issue #19), with its reason in words: the certificate still verifies (it was signed), and
     * every check of it says it was revoked and when. Set once; the trigger of migration 0021 refuses any other change.
     */
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revocationReason: text('revocation_reason'),
    /** When its verification was redacted: `content` and `unlock_salt` are then null. Set once. */
    redactedAt: timestamp('redacted_at', { withTimezone: true, mode: 'date' }),
    /**
     * When the retention purge (issue #37) removed its verification: `content` and `unlock_salt` are then null and the
     * row is the tombstone (hash, signature, chain link). Set once.
     */
    purgedAt: timestamp('purged_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('verification_certificates_verification_idx').on(t.verificationId),
    uniqueIndex('verification_certificates_account_seq_idx').on(t.accountId, t.seq),
    check('verification_certificates_seq_check', sql`${t.seq} >= 1`),
    check(
      'verification_certificates_redacted_check',
      sql`(${t.redactedAt} is null and ${t.purgedAt} is null) = (${t.content} is not null and ${t.unlockSalt} is not null)`,
    ),
    check(
      'verification_certificates_revoked_check',
      sql`(${t.revokedAt} is null) = (${t.revocationReason} is null)`,
    ),
  ],
);

/**
 * The head of each account's certificate chain: its last `seq` and `sha256`. Issuing locks this row (one upsert), as
 * the audit log's heads do (ADR 19), so concurrent first requests chain one at a time without gaps or forks.
 */
export const certificateChainHeads = pgTable('certificate_chain_heads', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  seq: integer('seq').notNull(),
  sha256: text('sha256'),
});

/**
 * Company domains (issue #33 item 10; ADR 31): an owner proves the company controls a domain by a DNS TXT record
 * (`_veriform.<domain>`) or a file (`https://<domain>/.well-known/veriform-domain-verification.txt`) holding `token`.
 * Certificates sign the account's verified domains at issue, and the public pages show them beside its name. `domain`
 * is lower-case ASCII (IDNA) without a trailing dot; one row per account and domain (two accounts may each prove the
 * same domain, each with its own token). `verified_at` is set once, by the first check that found the token.
 */
export const accountDomains = pgTable(
  'account_domains',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    token: text('token').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    /** How it was proven: `dns` (the TXT record) or `file` (the HTTPS file). */
    verifiedBy: text('verified_by', { enum: ['dns', 'file'] }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, mode: 'date' }),
    /** What the last check found, in words. */
    lastCheckResult: text('last_check_result'),
  },
  (t) => [
    uniqueIndex('account_domains_account_domain_idx').on(t.accountId, t.domain),
    check('account_domains_domain_check', sql`length(${t.domain}) between 1 and 253`),
    check('account_domains_verified_check', sql`(${t.verifiedAt} is null) = (${t.verifiedBy} is null)`),
  ],
);

/**
 * Every contactability verdict given (issue #35): the question (number, channel, purpose, instant), the answer and the
 * rules' version. It is the customer's proof that it checked before contacting, listed in API v1 and the app. Holds a
 * number: retention and erasure (issue #37) reach it by `account_id` and `phone`.
 */
export const contactabilityChecks = pgTable(
  'contactability_checks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    isTest: boolean('is_test').notNull(),
    /** The API key's prefix, or the member's e-mail, that asked. */
    askedBy: text('asked_by').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    channel: text('channel', { enum: ['sms', 'voice'] }).notNull(),
    purpose: text('purpose', { enum: ['marketing', 'informational'] }).notNull(),
    /** The instant asked about (`at`, now when not given). */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    allowed: boolean('allowed').notNull(),
    /** `[{code, text}]`, in the order given. */
    reasons: jsonb('reasons').notNull(),
    /** The consent relied on (an approved attempt's id, as API v1 names verifications), if any. */
    verificationId: text('verification_id'),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    certificateId: text('certificate_id'),
    revocationId: text('revocation_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    timeZone: text('time_zone'),
    localTime: text('local_time'),
    state: text('state'),
    /** Null for a number no area code places. */
    withinCallingWindow: boolean('within_calling_window'),
    nextAllowedAt: timestamp('next_allowed_at', { withTimezone: true, mode: 'date' }),
    rulesVersion: text('rules_version').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * The reassigned-number check the verdict relied on (issue #36, ADR 43): when it was answered and its answer (the
     * latest when it judged; null: none), and what the verdict did about it (contracts `reassignmentCheckNotes`; null
     * for verdicts kept before the checks were).
     */
    reassignmentCheckedAt: timestamp('reassignment_checked_at', { withTimezone: true, mode: 'date' }),
    reassignmentAnswer: text('reassignment_answer', { enum: ['yes', 'no', 'no_data'] }),
    reassignmentCheck: text('reassignment_check', {
      enum: ['off', 'not_due', 'reused', 'made', 'not_possible', 'failed', 'ceiling_reached', 'timed_out'],
    }),
  },
  (t) => [
    index('contactability_checks_account_id_idx').on(t.accountId, t.isTest, t.id.desc()),
    index('contactability_checks_account_phone_idx').on(t.accountId, t.phone),
    // The retention purge's walk of an account's verdicts older than its cut-off (issue #37, ADR 45).
    index('contactability_checks_account_checked_idx').on(t.accountId, t.checkedAt),
    check(
      'contactability_checks_reassignment_check',
      sql`(${t.reassignmentCheckedAt} is null) = (${t.reassignmentAnswer} is null)`,
    ),
  ],
);

/** Carrier lookups' kinds (issue #36), as contracts' `lookupKinds` names them. */
const lookupKinds = ['lineType', 'simSwap', 'reassigned'] as const;

/**
 * Every carrier lookup asked of the provider (issue #36, ADR 42): the question (the number, the kind, and for a
 * reassigned-number check the `LastVerifiedDate` sent), the answer as the provider sent it (`answer`, Twilio's body)
 * and as we read it (the typed columns), the provider's error code, and when. A reassigned-number answer is the
 * safe-harbour proof of 47 CFR 64.1200(m): never changed once answered. A row is `pending` while its request is in
 * flight: the partial unique index makes concurrent identical questions one request, in every process. A `failed` one
 * (network, timeout, 429, 5xx) is no answer: never reused, and not counted against the ceiling. Holds a number:
 * retention and erasure (issue #37) reach it by `account_id` and `phone`.
 */
export const lookups = pgTable(
  'lookups',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Asked for a test-mode object (ADR 29): answered and reused apart from live ones. */
    isTest: boolean('is_test').notNull().default(false),
    kind: text('kind', { enum: lookupKinds }).notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    /** The `LastVerifiedDate` asked with (the consent's UTC date): reassigned-number checks only. */
    lastVerifiedDate: date('last_verified_date', { mode: 'string' }),
    status: text('status', { enum: ['pending', 'answered', 'failed'] }).notNull(),
    provider: text('provider', { enum: ['twilio'] }).notNull(),
    /** The provider's answer exactly as received (its JSON body); null until answered and for a failed request. */
    answer: jsonb('answer'),
    /** Line type: ours (contracts `carrierLineTypes`), and the carrier's name (SIM swap answers name it too). */
    lineType: text('line_type'),
    carrierName: text('carrier_name'),
    /** SIM swap: the last swap's instant where the carrier tells it, else whether one fell in its period. */
    lastSimSwapAt: timestamp('last_sim_swap_at', { withTimezone: true, mode: 'date' }),
    simSwappedPeriod: text('sim_swapped_period'),
    simSwappedInPeriod: boolean('sim_swapped_in_period'),
    /** Reassigned number: `yes`, `no` or `no_data` (no data available, or an empty answer). */
    reassigned: text('reassigned', { enum: ['yes', 'no', 'no_data'] }),
    /** The provider's error code inside an answer (an answer still: e.g. no coverage for the number). */
    errorCode: integer('error_code'),
    /** Why a failed request failed (HTTP status and code, timeout, network): for operators, never an answer. */
    failure: text('failure'),
    askedAt: timestamp('asked_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the answer (or the failure) arrived. */
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // The day's reuse (the newest answer to the same question) and a number's checks, newest first.
    index('lookups_question_idx').on(t.accountId, t.kind, t.phone, t.askedAt.desc()),
    // The dashboard's count of an account's lookups over its dates (GET /api/lookups/summary; ADR 42: 108 → 5 ms for
    // 7 days of one account among 720k rows).
    index('lookups_account_asked_idx').on(t.accountId, t.askedAt),
    // One request in flight per question, whichever process asks (ADR 42).
    uniqueIndex('lookups_in_flight_idx')
      .on(t.accountId, t.isTest, t.kind, t.phone, sql`coalesce(${t.lastVerifiedDate}, '-infinity'::date)`)
      .where(sql`${t.status} = 'pending'`),
    check(
      'lookups_last_verified_date_check',
      sql`(${t.kind} = 'reassigned') = (${t.lastVerifiedDate} is not null)`,
    ),
    check('lookups_answered_check', sql`(${t.status} = 'pending') = (${t.answeredAt} is null)`),
  ],
);

/**
 * A verification's reassigned-number checks (issue #36 item 2, ADR 42): which lookup record answered the question for
 * which verification (API v1's id, the attempt). The lookup record is the proof (the question, the answer as the
 * provider sent it, the times); this links it to the consent it protects. One row per verification and record: the same
 * question asked again within the day is answered by the same record, so by the same check; two verifications of one
 * number approved the same day share a record, each with its own check.
 */
export const reassignmentChecks = pgTable(
  'reassignment_checks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    isTest: boolean('is_test').notNull(),
    attemptId: text('attempt_id')
      .notNull()
      .references(() => verificationAttempts.id, { onDelete: 'cascade' }),
    lookupId: bigint('lookup_id', { mode: 'number' })
      .notNull()
      .references(() => lookups.id, { onDelete: 'cascade' }),
    /** When the record's answer arrived (copied: the verification's latest check is read by it). */
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('reassignment_checks_attempt_lookup_idx').on(t.attemptId, t.lookupId),
    index('reassignment_checks_attempt_idx').on(t.attemptId, t.checkedAt.desc(), t.id.desc()),
    // The retention purge keeps the lookups a kept check names, and a lookup's delete cascades here (ADR 45).
    index('reassignment_checks_lookup_idx').on(t.lookupId),
  ],
);

/**
 * Lookups asked of the provider per account, kind and month (UTC; `month` is its first day): what the monthly ceiling
 * counts, claimed in the same statement that checks it (ADR 42), and given back when a request failed.
 */
export const lookupUsage = pgTable(
  'lookup_usage',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: lookupKinds }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    asked: integer('asked').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.kind, t.month] }),
    check('lookup_usage_asked_check', sql`${t.asked} >= 0`),
  ],
);

/**
 * An account's carrier lookup settings (issue #36): which lookups are asked automatically, the SIM swap window, the
 * reassigned-number checks' age, and the monthly ceiling per kind. No row: the defaults (everything off), which
 * contracts' LOOKUP_* constants and these columns' defaults hold alike; the checks are their ranges.
 */
export const lookupSettings = pgTable(
  'lookup_settings',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    lineType: boolean('line_type').notNull().default(false),
    simSwap: boolean('sim_swap').notNull().default(false),
    simSwapWindowDays: integer('sim_swap_window_days').notNull().default(7),
    refuseOnSimSwap: boolean('refuse_on_sim_swap').notNull().default(false),
    reassignedChecks: boolean('reassigned_checks').notNull().default(false),
    reassignedMaxAgeDays: integer('reassigned_max_age_days').notNull().default(30),
    ceilingLineType: integer('ceiling_line_type').notNull().default(1000),
    ceilingSimSwap: integer('ceiling_sim_swap').notNull().default(1000),
    ceilingReassigned: integer('ceiling_reassigned').notNull().default(1000),
  },
  (t) => [
    check('lookup_settings_sim_swap_window_days_check', sql`${t.simSwapWindowDays} between 1 and 90`),
    check('lookup_settings_reassigned_max_age_days_check', sql`${t.reassignedMaxAgeDays} between 1 and 365`),
    check(
      'lookup_settings_ceilings_check',
      sql`${t.ceilingLineType} between 0 and 1000000 and ${t.ceilingSimSwap} between 0 and 1000000 and ${t.ceilingReassigned} between 0 and 1000000`,
    ),
  ],
);

/**
 * Refresh links (issue #36 item 4, ADR 44): a fresh verification link for an approved verification whose consent is
 * reassigned, stale or revoked, made by a member or an API key. The link's token is a bearer secret (whoever holds it
 * links their verification of the form to this consent record): only its SHA-256 is kept. The hosted page sends the
 * token with the code request; a live, unexpired link of the form's account and mode makes the new attempt
 * `refreshes` the old one, with the old one's `external_ref_id` (from here, never from the URL). Reusable until it
 * expires; `first_used_at` is the first code sent through it.
 */
export const refreshLinks = pgTable(
  'refresh_links',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenSha256: text('token_sha256').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    isTest: boolean('is_test').notNull(),
    /** The approved attempt refreshed (API v1's verification id). */
    attemptId: text('attempt_id')
      .notNull()
      .references(() => verificationAttempts.id, { onDelete: 'cascade' }),
    verifyFormId: integer('verify_form_id')
      .notNull()
      .references(() => verifyForms.id, { onDelete: 'cascade' }),
    /** Copied from the attempt: the new verification's reference. */
    externalRefId: text('external_ref_id').notNull().default(''),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdByApiKeyId: integer('created_by_api_key_id').references(() => apiKeys.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    firstUsedAt: timestamp('first_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('refresh_links_token_idx').on(t.tokenSha256),
    index('refresh_links_attempt_idx').on(t.attemptId),
    check('refresh_links_creator_check', sql`${t.createdByUserId} is null or ${t.createdByApiKeyId} is null`),
  ],
);

/**
 * Legal holds (issue #37): evidence an account must keep, whatever its retention policy or a data-subject request says.
 * A hold reaches the whole account, one form, one number or address, or one verification; held evidence is never
 * purged or redacted (modules/legal-holds: the one rule of what a hold reaches). Placed and released by owners, each
 * with a reason; released ones stay as the record.
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    /** Random, 128 bits, base64url, prefixed `lh_`. */
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['account', 'form', 'identifier', 'verification'] }).notNull(),
    // No foreign key on the form or the verification: a hold outlives neither's deletion rules, and names what it held.
    verifyFormId: integer('verify_form_id'),
    /** E.164, for an identifier hold on a number. */
    phone: text('phone'),
    /** Lower-case, for an identifier hold on an address. */
    email: text('email'),
    verificationId: bigint('verification_id', { mode: 'number' }),
    reason: text('reason').notNull(),
    /** The member's e-mail, as the audit log names them. */
    placedBy: text('placed_by').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true, mode: 'date' }).notNull(),
    releasedBy: text('released_by'),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
    releaseReason: text('release_reason'),
  },
  (t) => [
    // What holds reach an account's evidence now: the purge's, the redaction's and the detail's one read.
    index('legal_holds_account_active_idx').on(t.accountId, t.scope).where(sql`${t.releasedAt} is null`),
    index('legal_holds_account_placed_idx').on(t.accountId, t.placedAt.desc(), t.id.desc()),
    check(
      'legal_holds_scope_check',
      sql`case ${t.scope}
        when 'account' then ${t.verifyFormId} is null and ${t.phone} is null and ${t.email} is null and ${t.verificationId} is null
        when 'form' then ${t.verifyFormId} is not null and ${t.phone} is null and ${t.email} is null and ${t.verificationId} is null
        when 'identifier' then ${t.verifyFormId} is null and (${t.phone} is null) <> (${t.email} is null) and ${t.verificationId} is null
        else ${t.verifyFormId} is null and ${t.phone} is null and ${t.email} is null and ${t.verificationId} is not null
      end`,
    ),
    check(
      'legal_holds_released_check',
      sql`(${t.releasedAt} is null) = (${t.releasedBy} is null) and (${t.releasedAt} is null) = (${t.releaseReason} is null)`,
    ),
  ],
);

/**
 * What each run of the retention purge removed from an account (issue #37): the cut-off, the policy then, and how many
 * rows of each kind went and how many verifications a hold kept. The audit log records the same as
 * `retention.purged`; this table is what Settings shows.
 */
export const retentionPurges = pgTable(
  'retention_purges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    ranAt: timestamp('ran_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Evidence created before this instant was due. */
    cutoff: timestamp('cutoff', { withTimezone: true, mode: 'date' }).notNull(),
    retentionYears: integer('retention_years').notNull(),
    /** Rows removed per kind: `{verifications, attempts, pageViews, codeEntries, deliveryEvents, …}`. */
    removed: jsonb('removed').$type<Record<string, number>>().notNull(),
    /** Verifications past the cut-off kept because a hold reaches them. */
    held: integer('held').notNull().default(0),
  },
  (t) => [index('retention_purges_account_ran_idx').on(t.accountId, t.ranAt.desc())],
);

/**
 * Data-subject requests (issue #37): access, erasure or restriction of a person's data, filed by an owner or by the
 * customer's privacy tooling through API v1, carried out by a job. Kept 24 months (CCPA, 11 CCR §7101), holding no
 * more personal data than the answer needs: the identifiers are masked once the request is answered.
 */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    /** Random, 128 bits, base64url, prefixed `dsr_`. */
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['access', 'erasure', 'restriction'] }).notNull(),
    law: text('law', { enum: ['ccpa', 'gdpr', 'other'] }).notNull(),
    status: text('status', { enum: ['open', 'running', 'answered'] })
      .notNull()
      .default('open'),
    /** E.164 numbers and lower-case addresses the request names (masked once answered). */
    phones: text('phones').array().notNull().default(sql`'{}'::text[]`),
    emails: text('emails').array().notNull().default(sql`'{}'::text[]`),
    requesterName: text('requester_name').notNull(),
    requesterEmail: text('requester_email'),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    extendedAt: timestamp('extended_at', { withTimezone: true, mode: 'date' }),
    extensionReason: text('extension_reason'),
    /** A member's e-mail or an API key's prefix (as the audit log names them). */
    filedBy: text('filed_by').notNull(),
    /** Made with a `vf_test_` key: it reaches the account's test data only (ADR 29). */
    isTest: boolean('is_test').notNull().default(false),
    /** Counts of what holds the identifiers: `{verifications, attempts, revocations, webhookEvents, deliveries}`. */
    matches: jsonb('matches').$type<Record<string, number>>(),
    /** What was done: counts erased or restricted, and the holds that kept evidence (ids and reasons). */
    answer: jsonb('answer').$type<Record<string, unknown>>(),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    /** When the running carry-out began (null unless `running`): a run past its job's last try is found by it. */
    runningSince: timestamp('running_since', { withTimezone: true, mode: 'date' }),
    /** Verifications erased by every run of this request so far (a run that failed part-way keeps its count). */
    erasedSoFar: integer('erased_so_far').notNull().default(0),
    /** The same for the erasure's reach past the verifications: attempts no verification names, verdicts, lookups. */
    attemptsErasedSoFar: integer('attempts_erased_so_far').notNull().default(0),
    verdictsErasedSoFar: integer('verdicts_erased_so_far').notNull().default(0),
    lookupsErasedSoFar: integer('lookups_erased_so_far').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('privacy_requests_account_received_idx').on(
      t.accountId,
      t.isTest,
      t.receivedAt.desc(),
      t.id.desc(),
    ),
    // The 24-month prune's walk.
    index('privacy_requests_created_idx').on(t.createdAt),
    check('privacy_requests_extended_check', sql`(${t.extendedAt} is null) = (${t.extensionReason} is null)`),
    check('privacy_requests_answered_check', sql`(${t.status} = 'answered') = (${t.answeredAt} is not null)`),
    check('privacy_requests_running_check', sql`(${t.status} = 'running') = (${t.runningSince} is not null)`),
  ],
);

/**
 * Verifications restricted under GDPR art. 18 (issue #37): by a restriction request, or by an erasure request that a
 * legal hold kept from erasing. A restricted verification is stored and shown to members, but not processed further:
 * it no longer stands as consent in the contactability verdict, and is left out of exports and webhooks' replays.
 */
export const verificationRestrictions = pgTable(
  'verification_restrictions',
  {
    // No foreign key: verifications are purged by retention and their deletes must not look here.
    verificationId: bigint('verification_id', { mode: 'number' }).notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    // No foreign key: the request's record is pruned after 24 months; the restriction stands until the evidence goes.
    privacyRequestId: text('privacy_request_id').notNull(),
    restrictedAt: timestamp('restricted_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.verificationId, t.privacyRequestId] }),
    index('verification_restrictions_account_idx').on(t.accountId, t.verificationId),
  ],
);

/**
 * A person's TOTP authenticator (issue #38, RFC 6238: SHA-1, 6 digits, 30 s). The secret is sealed (lib/sealed.ts,
 * context `totp:<userId>`): it must be read back to check codes, so it cannot be hashed. Unconfirmed until a first
 * code proves the person's app has it; only a confirmed one is a factor. `last_used_step` refuses a code's replay
 * within its window (a step at or below it is refused).
 */
export const userTotp = pgTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-time recovery codes (issue #38): 10 made at a TOTP confirmation, shown once, kept as SHA-256 only. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_idx').on(t.userId, t.codeHash)],
);

/** WebAuthn credentials (issue #38): several per person, named; a passkey may sign in without a password. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential's id, base64url, as the authenticator gave it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key. */
    publicKey: bytea('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    /** `singleDevice` or `multiDevice` (synced), and whether it is backed up, as the registration reported. */
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_idx').on(t.credentialId),
    index('passkeys_user_id_idx').on(t.userId),
    check('passkeys_name_check', sql`length(${t.name}) between 1 and 100`),
  ],
);

/**
 * Short-lived ceremony state (issue #38), each used once (taken with DELETE … RETURNING): a sign-in waiting for its
 * second factor (`mfa_login`), a WebAuthn challenge (`passkey_registration`, `passkey_authentication`) and an OpenID
 * Connect sign-in's state, nonce and PKCE verifier (`sso`). The key is the SHA-256 of the token or challenge the
 * browser holds; `payload` is what the ceremony needs back.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind', {
      enum: ['mfa_login', 'passkey_registration', 'passkey_authentication', 'sso'],
    }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('auth_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * An account's single sign-on connection (issue #38): an OpenID Connect provider for the people of one of its
 * verified domains (account_domains). One connection per domain across all accounts. The client secret is sealed
 * (context `sso:<accountId>`). `required`: people of the domain may no longer sign in with a password.
 */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    defaultRole: text('default_role', { enum: ['member', 'owner'] })
      .notNull()
      .default('member'),
    required: boolean('required').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_connections_domain_idx').on(t.domain)],
);

/** Who a provider's subject is (issue #38): after the first sign-in, the `sub` decides, not the e-mail address. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    id: serial('id').primaryKey(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('sso_identities_issuer_subject_idx').on(t.issuer, t.subject),
    index('sso_identities_user_id_idx').on(t.userId),
  ],
);
