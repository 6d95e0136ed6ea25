import { z } from 'zod';
import { endpoint, noContent, ok } from './endpoints.ts';

/**
 * The signed-in person's sessions (issue #38 item 5): My Account lists them and ends any one or all the others. The
 * `id` is derived from the stored hash, never the cookie's value.
 */
export const authSessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  userAgent: z.string().nullable(),
  /** A short reading of the user agent: "Chrome on macOS". */
  device: z.string(),
  ip: z.string().nullable(),
  /** Where the IP is, as far as the server can tell without an outside service ("Private network", "Loopback"…). */
  place: z.string().nullable(),
  signedInWith: z.enum(['password', 'passkey', 'sso']),
  lastSeenAt: z.string(),
  createdAt: z.string(),
});
export type AuthSession = z.infer<typeof authSessionSchema>;

export const authSessionEndpoints = {
  list: endpoint('GET /api/auth/sessions', { response: ok(z.array(authSessionSchema)), access: 'signedIn' }),
  /** Ends one session (the current one too: that is a sign-out). Another person's id answers 404. */
  end: endpoint('DELETE /api/auth/sessions/:id', {
    params: z.object({ id: z.string().max(64) }),
    response: noContent,
    access: 'signedIn',
  }),
  /** Ends every session but this one. */
  endOthers: endpoint('DELETE /api/auth/sessions', { response: noContent, access: 'signedIn' }),
};
