import { z } from 'zod';
import { datePresets, localDateSchema, timeZoneSchema } from './date-filters.ts';
import { endpoint, ok } from './endpoints.ts';
import { listResponseSchema, MAX_INT_ID } from './lists.ts';

/**
 * The audit log (issue #16): who did what, when and from where, one hash chain per account. Action names are a
 * published contract (exports, API v1, customers' SIEM rules): add new ones, never rename.
 */

export const auditActions = [
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.logout',
  'user.password_changed',
  'user.email_changed',
  'invitation.sent',
  'invitation.resent',
  'invitation.revoked',
  'invitation.accepted',
  'membership.role_changed',
  'membership.permissions_changed',
  'membership.removed',
  'account.updated',
  'form.created',
  'form.updated',
  'form.live_changed',
  'form.deleted',
  'form.banner_changed',
  'test_number.added',
  'test_number.removed',
  'verifications.exported',
  'verification.viewed',
  'api_key.created',
  'api_key.revoked',
  'audit.pruned',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_viewed',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.test_sent',
  'webhook_endpoint.replayed_failed',
  'webhook_endpoint.disabled',
  'webhook_event.replayed',
  'verify_form.consent_published',
  'verification.certificate_viewed',
  'verification.certificate_downloaded',
  'verification.certificate_revoked',
  'verification.redacted',
  'verification.certificate_unlocked',
  'domain.added',
  'domain.verified',
  'domain.removed',
  'api_key.kept',
  'webhook_endpoint.kept',
  'verification.list_read',
  'event.list_read',
  'audit_log.list_read',
  'audit_log.exported',
  'revocation.recorded',
  'revocation.decided',
  'revocation.acknowledged',
  'verification.refresh_link_created',
  'privacy_request.filed',
  'privacy_request.carry_out_started',
  'privacy_request.carry_out_failed',
  'privacy_request.extended',
  'privacy_request.answered',
  'privacy_request.bundle_downloaded',
  'legal_hold.placed',
  'legal_hold.released',
  'retention.purged',
  'auth.mfa_enrolled',
  'auth.mfa_removed',
  'auth.recovery_codes_regenerated',
  'auth.recovery_code_used',
  'auth.mfa_failed',
  'auth.step_up',
  'auth.passkey_added',
  'auth.passkey_removed',
  'auth.sso_login',
  'auth.sso_failed',
  'auth.session_ended',
  'account.mfa_requirement_changed',
  'account.sso_changed',
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** Each action in words, for the screen and the CSV (the JSON keeps the dotted name). */
export const auditActionLabels: Record<AuditAction, string> = {
  'auth.login_succeeded': 'Signed in',
  'auth.login_failed': 'Failed sign-in',
  'auth.logout': 'Signed out',
  'user.password_changed': 'Changed password',
  'user.email_changed': 'Changed e-mail address',
  'invitation.sent': 'Sent an invitation',
  'invitation.resent': 'Resent an invitation',
  'invitation.revoked': 'Revoked an invitation',
  'invitation.accepted': 'Accepted an invitation',
  'membership.role_changed': 'Changed a role',
  'membership.permissions_changed': 'Changed permissions',
  'membership.removed': 'Removed a member',
  'account.updated': 'Updated the company',
  'form.created': 'Created a form',
  'form.updated': 'Edited a form',
  'form.live_changed': 'Took a form live or offline',
  'form.deleted': 'Deleted a form',
  'form.banner_changed': 'Changed a form banner',
  'test_number.added': 'Added a test number',
  'test_number.removed': 'Removed a test number',
  'verifications.exported': 'Exported verifications',
  'verification.viewed': 'Viewed a verification',
  'api_key.created': 'Created an API key',
  'api_key.revoked': 'Revoked an API key',
  'audit.pruned': 'Removed old audit events',
  'webhook_endpoint.created': 'Added a webhook endpoint',
  'webhook_endpoint.updated': 'Edited a webhook endpoint',
  'webhook_endpoint.deleted': 'Deleted a webhook endpoint',
  'webhook_endpoint.secret_viewed': 'Viewed a webhook signing secret',
  'webhook_endpoint.secret_rotated': 'Rotated a webhook signing secret',
  'webhook_endpoint.test_sent': 'Sent a test event to a webhook endpoint',
  'webhook_endpoint.replayed_failed': 'Replayed the failed events of a webhook endpoint',
  'webhook_endpoint.disabled': 'Disabled a webhook endpoint',
  'webhook_event.replayed': 'Replayed a webhook event',
  'verify_form.consent_published': 'Published a consent text',
  'verification.certificate_viewed': 'Viewed a verification certificate',
  'verification.certificate_downloaded': 'Downloaded a verification certificate',
  'verification.certificate_revoked': 'Revoked a verification certificate',
  'verification.redacted': "Redacted a consumer's personal data",
  'verification.certificate_unlocked': 'Unlocked a certificate on the public check page',
  'domain.added': 'Added a company domain',
  'domain.verified': 'Verified a company domain',
  'domain.removed': 'Removed a company domain',
  'api_key.kept': 'Kept an API key of a removed or demoted owner',
  'webhook_endpoint.kept': 'Kept a webhook endpoint of a removed or demoted owner',
  'verification.list_read': 'Read a page of verifications through the API',
  'event.list_read': 'Read a page of events through the API',
  'audit_log.list_read': 'Read a page of the audit log through the API',
  'audit_log.exported': 'Exported the audit log',
  'revocation.recorded': 'Recorded a revocation of consent',
  'revocation.decided': 'Decided a possible revocation',
  'revocation.acknowledged': 'Acknowledged a revocation',
  'verification.refresh_link_created': 'Made a fresh verification link',
  'privacy_request.filed': 'Filed a data-subject request',
  'privacy_request.carry_out_started': 'Started carrying out a data-subject request',
  'privacy_request.carry_out_failed': 'A data-subject request could not be carried out; it is open again',
  'privacy_request.extended': 'Extended a data-subject request’s due date',
  'privacy_request.answered': 'Answered a data-subject request',
  'privacy_request.bundle_downloaded': 'Downloaded a data-subject request’s access bundle',
  'legal_hold.placed': 'Placed a legal hold',
  'legal_hold.released': 'Released a legal hold',
  'retention.purged': 'Removed evidence past the retention policy',
  'auth.mfa_enrolled': 'Set up an authenticator app',
  'auth.mfa_removed': 'Removed an authenticator app',
  'auth.recovery_codes_regenerated': 'Made new recovery codes',
  'auth.recovery_code_used': 'Used a recovery code',
  'auth.mfa_failed': 'Failed a second-factor check',
  'auth.step_up': 'Confirmed a second factor for a sensitive action',
  'auth.passkey_added': 'Added a passkey',
  'auth.passkey_removed': 'Removed a passkey',
  'auth.sso_login': 'Signed in with single sign-on',
  'auth.sso_failed': 'Single sign-on failed',
  'auth.session_ended': 'Ended a session',
  'account.mfa_requirement_changed': 'Changed the two-factor requirement',
  'account.sso_changed': 'Changed single sign-on',
};

export const auditActorTypes = ['user', 'api_key', 'system'] as const;
export const auditActorTypeSchema = z.enum(auditActorTypes);
export type AuditActorType = z.infer<typeof auditActorTypeSchema>;

export const auditTargetTypes = [
  'user',
  'account',
  'membership',
  'invitation',
  'form',
  'test_number',
  'api_key',
  'verification',
  'audit_event',
  'webhook_endpoint',
  'webhook_event',
  'domain',
  'revocation',
  'legal_hold',
  'privacy_request',
  'passkey',
  'sso_connection',
] as const;
export const auditTargetTypeSchema = z.enum(auditTargetTypes);
export type AuditTargetType = z.infer<typeof auditTargetTypeSchema>;

/** Who acted: a person (id, e-mail), an API key (id, prefix), or Veriform itself (retention). */
export const auditActorSchema = z.object({
  type: auditActorTypeSchema,
  id: z.string().nullable(),
  name: z.string(),
});
export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditTargetSchema = z.object({ type: auditTargetTypeSchema, id: z.string(), name: z.string() });
export type AuditTarget = z.infer<typeof auditTargetSchema>;

/** `{field: [before, after]}` for an edit; other details of the action (an export's filters and row count) as is. */
export const auditChangesSchema = z.record(z.string(), z.unknown()).nullable();
export type AuditChanges = z.infer<typeof auditChangesSchema>;

export const auditEventSchema = z
  .object({
    id: z.number().int(),
    /** Its place in the account's chain: 1, 2, 3… without gaps (until retention removes the oldest). */
    sequence: z.number().int(),
    occurredAt: z.string(),
    actor: auditActorSchema,
    action: auditActionSchema,
    targets: z.array(auditTargetSchema),
    changes: auditChangesSchema,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestId: z.string().nullable(),
    /** The hash of the event before it in the account's chain (64 zeros for the first). */
    prevHash: z.string(),
    /** SHA-256 (hex) of the event's canonical JSON, prevHash included (docs/decisions/0019-audit-log-hash-chain.md). */
    hash: z.string(),
  })
  .meta({ id: 'AuditEventBase' });
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** The screen's filters; a bad value falls back to none, as the activity log's do (a shared link always opens). */
export const auditFilterSchema = z.object({
  action: auditActionSchema.optional().catch(undefined),
  actorType: auditActorTypeSchema.optional().catch(undefined),
  actorId: z.string().trim().max(64).optional().catch(undefined),
  targetType: auditTargetTypeSchema.optional().catch(undefined),
  targetId: z.string().trim().max(64).optional().catch(undefined),
  created__date__preset: z.enum(datePresets).catch('all').default('all'),
  created__date__gte: localDateSchema.optional().catch(undefined),
  created__date__lte: localDateSchema.optional().catch(undefined),
  tz: timeZoneSchema.optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const AUDIT_PAGE_SIZE_DEFAULT = 25;
export const AUDIT_PAGE_SIZE_MAX = 100;

export const auditSearchSchema = auditFilterSchema.extend({
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(AUDIT_PAGE_SIZE_MAX)
    .catch(AUDIT_PAGE_SIZE_DEFAULT)
    .default(AUDIT_PAGE_SIZE_DEFAULT),
});
export type AuditSearch = z.infer<typeof auditSearchSchema>;

const accountParam = { account: z.coerce.number().int().positive().max(MAX_INT_ID) };

/** GET /api/audit-events?account=…&…filters → newest first (owners: capability readAuditLog). */
export const auditEventListQuerySchema = auditSearchSchema.extend(accountParam);
/**
 * An event as the screen lists it: the stored event (what the chain's hash covers, so the actor's name is the e-mail
 * at the time) and, read at request time, the acting person's name as it is now. Null for an API key, Veriform, a user
 * since deleted, or one with no name: the screen shows the stored e-mail alone then.
 */
export const auditEventListItemSchema = auditEventSchema.extend({ actorUserName: z.string().nullable() });
export type AuditEventListItem = z.infer<typeof auditEventListItemSchema>;
export const auditEventListSchema = listResponseSchema(auditEventListItemSchema);
export type AuditEventList = z.infer<typeof auditEventListSchema>;

/** GET /api/audit-events/export?account=…&format=csv|jsonl&…filters → every matching event, streamed, oldest first. */
export const auditExportFormats = ['csv', 'jsonl'] as const;
export const auditExportQuerySchema = auditFilterSchema.extend({
  ...accountParam,
  format: z.enum(auditExportFormats).catch('csv').default('csv'),
});
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;

/** The audit log is the owners': capability readAuditLog (members 403, another account 404). */
const auditReaders = { account: { from: 'query.account', can: 'readAuditLog' } } as const;

/** The session API's audit-log routes (Settings → Audit log). */
export const auditEndpoints = {
  /** Newest first, a page at a time. */
  list: endpoint('GET /api/audit-events', {
    query: auditEventListQuerySchema,
    response: ok(auditEventListSchema),
    access: auditReaders,
  }),
  /** Every matching event, oldest first, as a CSV or JSON Lines download (the read is itself recorded). */
  export: endpoint('GET /api/audit-events/export', {
    query: auditExportQuerySchema,
    response: ok(),
    access: auditReaders,
    stepUp: true,
  }),
};
