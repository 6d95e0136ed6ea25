import { z } from 'zod';
import { authResponseSchema, detailResponseSchema, emailSchema, tokenConfirmRequestSchema } from './auth.ts';
import { anyIdParams, endpoint, ok } from './endpoints.ts';
import { singleLineName } from './names.ts';
import { newPasswordSchema } from './password.ts';
import { userSchema } from './users.ts';

const passwordConfirmSchema = z.string().min(1).max(256);
const passwordsMatch = { path: ['newPasswordConfirm'], message: 'The two passwords do not match.' };

/** POST /api/auth/reset-password: always the same answer (serverTexts.resetPasswordSent). */
export const resetPasswordRequestSchema = z.object({ email: emailSchema });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** POST /api/auth/reset-password/confirm (DESIGN §5). */
export const resetPasswordConfirmRequestSchema = z
  .object({
    uidb64: z.string().min(1).max(64),
    token: z.string().min(1).max(256),
    newPassword: newPasswordSchema,
    newPasswordConfirm: passwordConfirmSchema,
  })
  .refine((v) => v.newPassword === v.newPasswordConfirm, passwordsMatch);
export type ResetPasswordConfirmRequest = z.infer<typeof resetPasswordConfirmRequestSchema>;

/** POST /api/auth/change-password (SPEC §7). */
export const changePasswordRequestSchema = z
  .object({
    previousPassword: z.string().min(1).max(256),
    newPassword: newPasswordSchema,
    newPasswordConfirm: passwordConfirmSchema,
  })
  .refine((v) => v.newPassword === v.newPasswordConfirm, passwordsMatch);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** SPEC §4: the e-mail change request's status; '' when the user never asked for a change. */
export const emailChangeStatuses = ['', 'pending', 'expired', 'successfully_changed'] as const;
export const emailChangeStatusSchema = z.enum(emailChangeStatuses);
export type EmailChangeStatus = z.infer<typeof emailChangeStatusSchema>;

/**
 * The e-mail change request of SPEC §3, field names exactly as written there (status_display included).
 * GET /api/auth/change-email/retrieve answers it with id null and status '' when there is none.
 */
export const emailChangeRequestSchema = z.object({
  id: z.number().int().nullable(),
  user: z.number().int(),
  fromEmail: z.string(),
  toEmail: z.string(),
  requestedAt: z.string().nullable(),
  successfullyChangedAt: z.string().nullable(),
  lastRequestedANewFromOrToEmailAt: z.string().nullable(),
  lastSentAChangeEmailAt: z.string().nullable(),
  lastSuccessfullyChangedAt: z.string().nullable(),
  status: emailChangeStatusSchema,
  status_display: z.string(),
});
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;

/**
 * POST /api/auth/change-email/request (SPEC §7), with the current password (ours: a stolen session alone must not be
 * able to move the login to another mailbox). A wrong one is a 400 on `password` and counts as a failed login.
 */
export const changeEmailRequestSchema = z.object({
  toEmail: emailSchema,
  password: z.string().min(1).max(256),
});
export type ChangeEmailRequest = z.infer<typeof changeEmailRequestSchema>;

/** PATCH /api/users/{id} (SPEC §7). */
export const updateUserRequestSchema = z.object({ name: singleLineName(150) });
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

export const userIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

/** PATCH /api/users/{id}/check-delete: whether the user could close their login, and why not. */
export const checkDeleteResponseSchema = z.object({
  canDelete: z.boolean(),
  reasons: z.array(z.string()),
});
export type CheckDeleteResponse = z.infer<typeof checkDeleteResponseSchema>;

/**
 * The session API's password and e-mail routes (SPEC §7, DESIGN §5). A reset and the links' confirmations need no
 * session (the link may be opened on another device, or logged out); changing the password or the address does.
 */
export const accountSelfServiceEndpoints = {
  /** Always the same 200 (no account enumeration); 429 when limited. */
  resetPassword: endpoint('POST /api/auth/reset-password', {
    body: resetPasswordRequestSchema,
    response: ok(detailResponseSchema),
    access: 'public',
  }),
  /** Sets the new password and ends every session of that user, the caller's too when it is one of them. */
  confirmPasswordReset: endpoint('POST /api/auth/reset-password/confirm', {
    body: resetPasswordConfirmRequestSchema,
    response: ok(authResponseSchema),
    access: 'public',
  }),
  /** Keeps this session (a new CSRF token) and ends the others. */
  changePassword: endpoint('POST /api/auth/change-password', {
    body: changePasswordRequestSchema,
    response: ok(authResponseSchema),
    access: 'signedIn',
  }),
  /** The user's e-mail change request (status '' when there is none). */
  retrieveEmailChange: endpoint('GET /api/auth/change-email/retrieve', {
    response: ok(emailChangeRequestSchema),
    access: 'signedIn',
  }),
  /** Sends the link to the new address; 400 field errors on toEmail (taken, the current one) or password. */
  requestEmailChange: endpoint('POST /api/auth/change-email/request', {
    body: changeEmailRequestSchema,
    response: ok(emailChangeRequestSchema),
    access: 'signedIn',
  }),
  /** Sends the pending request's link again. */
  resendEmailChange: endpoint('POST /api/auth/change-email/resend', {
    response: ok(emailChangeRequestSchema),
    access: 'signedIn',
  }),
  /**
   * The link sent to the OLD address calls the pending change off; 400 with MainCode_ invalid_token when the link is
   * bad (used, replaced, confirmed meanwhile, expired).
   */
  cancelEmailChange: endpoint('POST /api/auth/change-email/cancel', {
    body: tokenConfirmRequestSchema,
    response: ok(detailResponseSchema),
    access: 'public',
  }),
  /** The link sent to the new address makes the change; 400 with MainCode_ invalid_token when it is bad. */
  confirmEmailChange: endpoint('POST /api/auth/change-email/confirm', {
    body: tokenConfirmRequestSchema,
    response: ok(authResponseSchema),
    access: 'public',
  }),
};

/** `/api/users/:id…`: the caller's own user only (another id, numeric or not, answers 404 like an unknown one). */
const ownUser = { params: anyIdParams, access: 'self' } as const;

/** The session API's user routes (SPEC §7): the caller's own profile; each answers the user. */
export const userEndpoints = {
  /** The name. */
  update: endpoint('PATCH /api/users/:id', {
    ...ownUser,
    body: updateUserRequestSchema,
    response: ok(userSchema),
  }),
  /** Multipart `uploadedProfileImage` (PROFILE_IMAGE_FIELD). */
  uploadProfileImage: endpoint('POST /api/users/:id/update-uploaded-profile-image', {
    ...ownUser,
    body: 'multipart',
    response: ok(userSchema),
  }),
  /** Removes the profile picture. */
  deleteProfileImage: endpoint('PATCH /api/users/:id/delete-uploaded-profile-image', {
    ...ownUser,
    response: ok(userSchema),
  }),
  /** Whether the user could close their login, and why not; a read (it changes nothing) with a PATCH. */
  checkDelete: endpoint('PATCH /api/users/:id/check-delete', {
    ...ownUser,
    response: ok(checkDeleteResponseSchema),
  }),
};

/** SPEC §5 and §9: image uploads. */
export const IMAGE_UPLOAD_MAX_BYTES = 6_000_000;
export const IMAGE_MAX_SIDE = 1024;
export const imageUploadMimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const uploadTexts = {
  required: 'You must provide a file.',
  wrongType: `File type must be ${imageUploadMimeTypes.join(', ')}`,
  tooLarge: `File is larger than ${IMAGE_UPLOAD_MAX_BYTES} bytes`,
  tooMany: 'Too many files',
  hint: 'Upload a picture under 1 MB and less than 1024 x 1024.',
} as const;

/** Cross-tab events (BroadcastChannel), SPEC §4. */
export const BROADCAST_CHANNEL = 'veriform';
export const broadcastMessageSchema = z.object({ type: z.literal('user.emailChanged') });
export type BroadcastMessage = z.infer<typeof broadcastMessageSchema>;

/** Where the close-account note points (SPEC §1: closing an account is done by contacting support). */
export const SUPPORT_EMAIL = 'support@veriform.app';
