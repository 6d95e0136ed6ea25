import { z } from 'zod';
import { membershipSchema } from './memberships.ts';
import { followInvitationErrorSchema, followInvitationSchema } from './teams.ts';
import { userSchema } from './users.ts';

const validity = z.object({ isValid: z.boolean() });

/** `extra` of the initial page data (SPEC §3). */
export const initialExtraSchema = z.object({
  signaling: z.object({ immediatelyRedirectTo: z.string().nullable() }).optional(),
  followInvitation: z.union([followInvitationSchema, z.object({ hasError: z.literal(true) })]).optional(),
  followInvitationError: followInvitationErrorSchema.optional(),
  verifyEmailConfirm: validity.optional(),
  resetPasswordConfirm: validity.optional(),
  changeEmailConfirm: validity.optional(),
  /** The cancel link sent to the OLD address when a change is requested (ours). */
  changeEmailCancel: validity.optional(),
  justCreatedAccount: z.object({ membershipCreated: membershipSchema }).optional(),
});
export type InitialExtra = z.infer<typeof initialExtraSchema>;

export const initialDataSchema = z.object({
  user: userSchema,
  memberships: z.array(membershipSchema),
  currentMembership: membershipSchema.nullable(),
  csrfToken: z.string(),
  extra: initialExtraSchema,
});
export type InitialData = z.infer<typeof initialDataSchema>;

export { INITIAL_DATA_ELEMENT_ID } from './page-data-element.ts';
