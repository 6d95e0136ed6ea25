import { z } from 'zod';

export const roles = ['member', 'owner'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

export const accountSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  uploadedProfileImage: z.string().nullable(),
});
export type Account = z.infer<typeof accountSchema>;

export const membershipSchema = z.object({
  id: z.number().int(),
  role: roleSchema,
  canSearchData: z.boolean(),
  canViewReports: z.boolean(),
  account: accountSchema,
});
export type Membership = z.infer<typeof membershipSchema>;
