import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { anyIdParams, created, endpoint, noContent, ok } from './endpoints.ts';
import { listResponseSchema } from './lists.ts';
import { accountSchema, membershipSchema, roleSchema } from './memberships.ts';
import { singleLineName } from './names.ts';
import {
  keepCredentialsSchema,
  ownedCredentialsSchema,
  removeMembershipRequestSchema,
} from './owned-credentials.ts';
import { phoneCountriesSchema } from './phone-countries.ts';

/**
 * Roles and permissions (SPEC §6; the spec leaves the settings screens open — our table is docs/roles.md).
 * The sidebar mirrors these; the server decides. API keys get capabilities from their scopes instead
 * (api-key-scopes.ts): `readForms`, `writeVerifications`, `readAuditLog` and `readEvents` exist so that a scope can
 * grant reading without writing; a member has the first two like `manageForms` (any member may list forms and take one
 * live, which starts verifications through the hosted page); the audit log is the owners', and so are the webhook
 * events, which hold numbers in full like the endpoints that receive them (owners' too). `manageEvidence` — revoking
 * a certificate, redacting a consumer's personal data (issue #19) — is the owners'.
 */
export const capabilities = [
  'viewReports',
  'searchData',
  'manageTeam',
  'manageCompany',
  'manageForms',
  'readForms',
  'writeVerifications',
  'readAuditLog',
  'readEvents',
  'manageEvidence',
  'readRevocations',
  'writeRevocations',
  'checkContactability',
  'readPrivacyRequests',
  'writePrivacyRequests',
] as const;
export type Capability = (typeof capabilities)[number];
export function can(
  membership: { role: 'member' | 'owner'; canSearchData: boolean; canViewReports: boolean },
  capability: Capability,
): boolean {
  if (membership.role === 'owner') return true;
  switch (capability) {
    case 'viewReports':
      return membership.canViewReports;
    case 'searchData':
    // Revocations and verdicts hold numbers and a consumer's words, as the activity log does (issue #35).
    case 'readRevocations':
    case 'writeRevocations':
    case 'checkContactability':
      return membership.canSearchData;
    case 'manageForms':
    case 'readForms':
    case 'writeVerifications':
      return true;
    case 'manageTeam':
    case 'manageCompany':
    case 'readAuditLog':
    case 'readEvents':
    case 'manageEvidence':
    // Data-subject requests name requesters and their identifiers, and erasure redacts like manageEvidence (issue #37).
    case 'readPrivacyRequests':
    case 'writePrivacyRequests':
      return false;
  }
}

// ---- Accounts ----------------------------------------------------------------------------------------------------

export const displayNameSchema = singleLineName(100);

/** POST /api/accounts → the new owner membership, put first and made current (SPEC §4). */
export const createAccountRequestSchema = z.object({ displayName: displayNameSchema });
export type CreateAccountRequest = z.infer<typeof createAccountRequestSchema>;
export const createAccountResponseSchema = z.object({
  membership: membershipSchema,
  justCreatedAccount: z.object({ membershipCreated: membershipSchema }),
});
export type CreateAccountResponse = z.infer<typeof createAccountResponseSchema>;

/**
 * An account as Company Info shows it: the account and the countries its forms send codes to (phone-countries.ts).
 * GET /api/accounts/{id} answers it to any member.
 */
export const companyInfoSchema = accountSchema.extend({
  phoneCountries: z.array(z.string()),
  /** How long the audit log keeps events (issue #16): 1–7 years. */
  auditRetentionYears: z.number().int(),
  /** How long a verification stands as consent in the contactability verdict (issue #35): 1–60 months. */
  consentMaxAgeMonths: z.number().int(),
  /**
   * Members must have a second factor (issue #38 item 3): until they set one up, every call on this account answers
   * 403 `mfa_setup_required`.
   */
  requireMfa: z.boolean(),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;

/** PATCH /api/accounts/{id} (owners): the name, the countries, or both. Logo: POST
 * /api/accounts/{id}/update-uploaded-profile-image (multipart `uploadedProfileImage`, same rules as the profile
 * picture) and PATCH /api/accounts/{id}/delete-uploaded-profile-image; all three answer the company info. */
export const AUDIT_RETENTION_YEARS = { min: 1, max: 7, default: 2 } as const;
/** The consent age of the contactability verdict (issue #35; the database checks the same range). */
export const CONSENT_MAX_AGE_MONTHS = { min: 1, max: 60, default: 18 } as const;

export const updateAccountRequestSchema = z
  .object({
    displayName: displayNameSchema.optional(),
    phoneCountries: phoneCountriesSchema.optional(),
    auditRetentionYears: z
      .number()
      .int()
      .min(AUDIT_RETENTION_YEARS.min)
      .max(AUDIT_RETENTION_YEARS.max)
      .optional(),
    consentMaxAgeMonths: z
      .number()
      .int()
      .min(CONSENT_MAX_AGE_MONTHS.min)
      .max(CONSENT_MAX_AGE_MONTHS.max)
      .optional(),
    /** Owners make a second factor mandatory for every member (issue #38 item 3). */
    requireMfa: z.boolean().optional(),
  })
  .refine(
    (body) =>
      body.displayName !== undefined ||
      body.phoneCountries !== undefined ||
      body.auditRetentionYears !== undefined ||
      body.consentMaxAgeMonths !== undefined ||
      body.requireMfa !== undefined,
    { message: 'Send displayName, phoneCountries, auditRetentionYears, consentMaxAgeMonths or requireMfa.' },
  );
export type UpdateAccountRequest = z.input<typeof updateAccountRequestSchema>;

/** `/api/accounts/:id…`: the path id is the account (another one answers 404); any member may read it. */
const accountMembers = { params: anyIdParams, access: { account: { from: 'path.account' } } } as const;
/** Changing it is the owners'. */
const accountOwners = {
  params: anyIdParams,
  access: { account: { from: 'path.account', can: 'manageCompany' } },
} as const;

/** The session API's account routes (DESIGN §5); all but the first answer the company info. */
export const accountEndpoints = {
  /** The new owner membership; it goes first and becomes current (SPEC §4). A verified address only. */
  create: endpoint('POST /api/accounts', {
    body: createAccountRequestSchema,
    response: created(createAccountResponseSchema),
    access: 'signedIn',
  }),
  /** The company info, to any member. */
  get: endpoint('GET /api/accounts/:id', { ...accountMembers, response: ok(companyInfoSchema) }),
  /** displayName, phoneCountries, auditRetentionYears, consentMaxAgeMonths, requireMfa. */
  update: endpoint('PATCH /api/accounts/:id', {
    ...accountOwners,
    body: updateAccountRequestSchema,
    response: ok(companyInfoSchema),
  }),
  /** The logo: multipart `uploadedProfileImage`, the profile picture's rules. */
  uploadImage: endpoint('POST /api/accounts/:id/update-uploaded-profile-image', {
    ...accountOwners,
    body: 'multipart',
    response: ok(companyInfoSchema),
  }),
  /** Removes the logo. */
  deleteImage: endpoint('PATCH /api/accounts/:id/delete-uploaded-profile-image', {
    ...accountOwners,
    response: ok(companyInfoSchema),
  }),
};

// ---- Memberships -------------------------------------------------------------------------------------------------

export const teamUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  uploadedProfileImage: z.string().nullable(),
});
export type TeamUser = z.infer<typeof teamUserSchema>;

/** A member's second factors, as the team screen shows them (issue #38 item 3): never what they are, only that. */
export const memberSecondFactorsSchema = z.object({ totp: z.boolean(), passkeys: z.number().int() });
export type MemberSecondFactors = z.infer<typeof memberSecondFactorsSchema>;

/** A membership as the team screen shows it: with its person and which second factors they have. */
export const teamMembershipSchema = membershipSchema.extend({
  user: teamUserSchema,
  created: z.string(),
  mfa: memberSecondFactorsSchema,
});
export type TeamMembership = z.infer<typeof teamMembershipSchema>;

/**
 * GET /api/memberships?accountId= : the team of that account (any member may look), oldest first.
 * GET /api/memberships (no accountId): the caller's own memberships, as in the initial page data.
 */
export const membershipListQuerySchema = z.object({
  accountId: z.coerce.number().int().positive().optional(),
});
export type MembershipListQuery = z.infer<typeof membershipListQuerySchema>;
export const teamMembershipListSchema = listResponseSchema(teamMembershipSchema);
export type TeamMembershipList = z.infer<typeof teamMembershipListSchema>;

/**
 * POST /api/memberships/{id}/update-role (owners; the last owner cannot be demoted). Answers the team membership. An
 * owner made a member keeps only the keys and endpoints named (owned-credentials.ts); the rest are revoked/disabled.
 */
export const updateRoleRequestSchema = keepCredentialsSchema.extend({ role: roleSchema }).strict();
export type UpdateRoleRequest = z.infer<typeof updateRoleRequestSchema>;

/** POST /api/memberships/{id}/update-permissions (owners): what the team screen needs for the two switches. */
export const updatePermissionsRequestSchema = z.object({
  canSearchData: z.boolean(),
  canViewReports: z.boolean(),
});
export type UpdatePermissionsRequest = z.infer<typeof updatePermissionsRequestSchema>;

/**
 * POST /api/memberships/{id}/select: the SPA sends `{}` (SPEC §7). The server reads no body, so whatever comes is
 * taken, as it always was.
 */
export const selectMembershipRequestSchema = z.unknown();
/** POST /api/memberships/{id}/select → the membership, now current for this session. */
export const selectMembershipResponseSchema = z.object({ currentMembership: membershipSchema });
export type SelectMembershipResponse = z.infer<typeof selectMembershipResponseSchema>;

/** A membership in the path: any member of its account passes (the service checks further). */
const ofMembership = { from: { pathObject: 'memberships' } } as const;
/** Changing someone's membership, or reading what it holds: owners (`manageTeam`). */
const teamOwners = { account: { ...ofMembership, can: 'manageTeam' } } as const;

/** The session API's membership routes (SPEC §7). */
export const membershipEndpoints = {
  /** With `accountId`: that account's team (any member). Without: the caller's own, open to an unverified address. */
  list: endpoint('GET /api/memberships', {
    query: membershipListQuerySchema,
    response: ok(teamMembershipListSchema),
    access: { account: { from: 'query.accountId', optional: true } },
  }),
  /** One membership of an account the caller is a member of. */
  get: endpoint('GET /api/memberships/:id', {
    params: anyIdParams,
    response: ok(teamMembershipSchema),
    access: { account: ofMembership },
  }),
  /** Makes them an owner or a member; the last owner cannot be demoted (400 `last_owner`). */
  updateRole: endpoint('POST /api/memberships/:id/update-role', {
    params: anyIdParams,
    body: updateRoleRequestSchema,
    response: ok(teamMembershipSchema),
    access: teamOwners,
    stepUp: true,
  }),
  /** What removing or demoting them would revoke and disable (ADR 30). */
  ownedCredentials: endpoint('GET /api/memberships/:id/owned-credentials', {
    params: anyIdParams,
    response: ok(ownedCredentialsSchema),
    access: teamOwners,
  }),
  /** The member's two switches. */
  updatePermissions: endpoint('POST /api/memberships/:id/update-permissions', {
    params: anyIdParams,
    body: updatePermissionsRequestSchema,
    response: ok(teamMembershipSchema),
    access: teamOwners,
  }),
  /** Makes one of the caller's own memberships current (anyone else's id is 404); verified addresses only. */
  select: endpoint('POST /api/memberships/:id/select', {
    params: anyIdParams,
    body: selectMembershipRequestSchema,
    response: ok(selectMembershipResponseSchema),
    access: 'signedIn',
  }),
  /**
   * Owners remove anyone, a member only themselves (leaving); never the last owner. The body, optional, names the
   * person's keys and endpoints to keep (ADR 30); without it nothing is kept.
   */
  remove: endpoint('DELETE /api/memberships/:id', {
    params: anyIdParams,
    body: removeMembershipRequestSchema.nullish(),
    response: noContent,
    access: { account: ofMembership },
    stepUp: true,
  }),
};

// ---- Invitations -------------------------------------------------------------------------------------------------

export const invitationStatuses = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const invitationStatusSchema = z.enum(invitationStatuses);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const invitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  canSearchData: z.boolean(),
  canViewReports: z.boolean(),
  account: accountSchema,
  invitedBy: z.object({ name: z.string(), email: z.string() }),
  created: z.string(),
  expiresAt: z.string(),
  lastSentAt: z.string(),
  status: invitationStatusSchema,
});
export type Invitation = z.infer<typeof invitationSchema>;

/** GET /api/invitations?accountId= (owners): pending invitations, newest first. */
export const invitationListQuerySchema = z.object({ accountId: z.coerce.number().int().positive() });
export const invitationListSchema = listResponseSchema(invitationSchema);
export type InvitationList = z.infer<typeof invitationListSchema>;

/** POST /api/invitations (owners). An address that is already a member, or already invited, is refused on `email`. */
export const createInvitationRequestSchema = z.object({
  accountId: z.number().int().positive(),
  email: emailSchema,
  role: roleSchema,
  canSearchData: z.boolean().default(false),
  canViewReports: z.boolean().default(false),
});
export type CreateInvitationRequest = z.input<typeof createInvitationRequestSchema>;

/**
 * The invitation e-mail links to `/follow-invitation/?key={key}`. That page, and `/auth/signup/from-invitation?key=`
 * and `/auth/login/from-invitation?key=`, get `extra.followInvitation` (the invitation's public face) or, when the key is
 * missing, unknown, expired, revoked or used, `extra.followInvitation = {hasError: true}` and
 * `extra.followInvitationError` (shown by /follow-invitation/error).
 */
export const followInvitationSchema = z.object({
  hasError: z.literal(false),
  key: z.string(),
  email: z.string(),
  role: roleSchema,
  accountName: z.string(),
  invitedByName: z.string(),
  expiresAt: z.string(),
  /** Whether someone already has a login with this address: the page offers log in rather than sign up. */
  userExists: z.boolean(),
});
export type FollowInvitation = z.infer<typeof followInvitationSchema>;

export const invitationErrorCodes = ['missing', 'not_found', 'expired', 'revoked', 'accepted'] as const;
export const followInvitationErrorSchema = z.object({
  code: z.enum(invitationErrorCodes),
  message: z.string(),
});
export type FollowInvitationError = z.infer<typeof followInvitationErrorSchema>;

export const invitationErrorTexts: Record<(typeof invitationErrorCodes)[number], string> = {
  missing: 'This invitation link is incomplete. Open the link from the invitation e-mail again.',
  not_found: 'This invitation link is not valid. Ask the person who invited you to send a new one.',
  expired: 'This invitation has expired. Ask the person who invited you to send a new one.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you if you should still join.',
  accepted: 'This invitation has already been used. Log in to reach the account.',
};

/**
 * POST /api/invitations/accept {key} (logged in, with the invited address; the invitation proves the mailbox, so an
 * unverified address becomes verified) → the new membership, put first and made current.
 */
export const acceptInvitationRequestSchema = z.object({ key: z.string().min(1).max(200) });
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;
export const acceptInvitationResponseSchema = z.object({ membership: membershipSchema });
export type AcceptInvitationResponse = z.infer<typeof acceptInvitationResponseSchema>;

/** An invitation in the path: owners (`manageTeam`) of its account. */
const ofInvitation = { account: { from: { pathObject: 'invitations' }, can: 'manageTeam' } } as const;

/** The session API's invitation routes (DESIGN §5 "Team"): owners manage them, the invited person accepts. */
export const invitationEndpoints = {
  /** Pending invitations, newest first (owners; verified addresses only). */
  list: endpoint('GET /api/invitations', {
    query: invitationListQuerySchema,
    response: ok(invitationListSchema),
    access: { account: { from: 'query.accountId', can: 'manageTeam' } },
  }),
  /** Invites and e-mails (owners; verified addresses only). */
  create: endpoint('POST /api/invitations', {
    body: createInvitationRequestSchema,
    response: created(invitationSchema),
    access: { account: { from: 'body.accountId', can: 'manageTeam' } },
  }),
  /** The e-mailed key → the new membership, first and current (SPEC §4). */
  accept: endpoint('POST /api/invitations/accept', {
    body: acceptInvitationRequestSchema,
    response: ok(acceptInvitationResponseSchema),
    access: 'signedIn',
  }),
  /** Sends the e-mail again (429 sooner than INVITATION_RESEND_SECONDS after the last). */
  resend: endpoint('POST /api/invitations/:id/resend', {
    params: anyIdParams,
    response: ok(invitationSchema),
    access: ofInvitation,
  }),
  /** Revokes it (its link then says so). */
  revoke: endpoint('DELETE /api/invitations/:id', {
    params: anyIdParams,
    response: noContent,
    access: ofInvitation,
  }),
};

export const INVITATION_VALID_DAYS = 7;

export const teamTexts = {
  lastOwner: 'An account must keep at least one owner.',
  alreadyMember: 'That person is already a member of this account.',
  alreadyInvited: 'That address already has a pending invitation. Resend it instead.',
  wrongInvitee: (email: string) =>
    `This invitation was sent to ${email}. Log in with that address to accept it.`,
} as const;

// ---- Server decisions the spec leaves open (additions; nothing above changes) -------------------------------------

/**
 * `MainCode_` of the team refusals (400s): `last_owner` (demote, remove or leave the last owner), `invitation_<code>`
 * for each invitationErrorCodes entry on POST /api/invitations/accept, and `invitation_wrong_invitee` when the
 * logged-in user's address is not the invited one.
 */
export const teamMainCodes = [
  'last_owner',
  'invitation_missing',
  'invitation_not_found',
  'invitation_expired',
  'invitation_revoked',
  'invitation_accepted',
  'invitation_wrong_invitee',
] as const;
export type TeamMainCode = (typeof teamMainCodes)[number];

/** The least time between two sends of one invitation (create or resend); sooner answers 429 with Retry-After. */
export const INVITATION_RESEND_SECONDS = 30;
