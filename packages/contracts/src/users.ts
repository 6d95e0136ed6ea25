import { z } from 'zod';

export const userSchema = z.object({
  id: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  uploadedProfileImage: z.string().nullable(),
  isAuthenticated: z.boolean(),
  emailIsVerified: z.boolean(),
  emailVerifiedAsOf: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const anonymousUser: User = {
  id: null,
  name: '',
  email: '',
  uploadedProfileImage: null,
  isAuthenticated: false,
  emailIsVerified: false,
  emailVerifiedAsOf: null,
};
