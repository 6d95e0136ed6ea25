import { z } from 'zod';
import { endpoint, ok } from './endpoints.ts';
import { roleSchema } from './memberships.ts';

export * from './sso-texts.ts';

/**
 * Single sign-on (issue #38 item 4): an account with a verified domain connects an OpenID Connect provider; people
 * of that domain then sign in through it (`GET /auth/sso/start?email=` → the provider → `GET /auth/sso/callback`, page
 * routes outside /api). Memberships are made at the first sign-in with the default role; `required` refuses password
 * sign-in for the domain.
 */
export const ssoConnectionSchema = z.object({
  domain: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  /** Never answered: only whether one is set. */
  clientSecretSet: z.boolean(),
  defaultRole: roleSchema,
  required: z.boolean(),
  /** Where the provider must send people back (its allowed redirect URI). */
  redirectUri: z.string(),
  updatedAt: z.string(),
});
export type SsoConnection = z.infer<typeof ssoConnectionSchema>;

export const ssoSettingsResponseSchema = z.object({
  connection: ssoConnectionSchema.nullable(),
  /** The account's verified domains, one of which the connection must name. */
  verifiedDomains: z.array(z.string()),
  redirectUri: z.string(),
});
export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponseSchema>;

export const putSsoRequestSchema = z.object({
  domain: z.string().min(1).max(253),
  issuer: z.url({ protocol: /^https?$/ }).max(2048),
  clientId: z.string().trim().min(1).max(512),
  /** Left out to keep the stored secret (an edit of the other fields). */
  clientSecret: z.string().min(1).max(2048).optional(),
  defaultRole: roleSchema,
  required: z.boolean(),
});
export type PutSsoRequest = z.input<typeof putSsoRequestSchema>;

/** The query of `GET /auth/sso/start`. */
export const ssoStartQuerySchema = z.object({ email: z.string().max(254) });

export const ssoEndpoints = {
  get: endpoint('GET /api/accounts/:id/sso', {
    params: z.object({ id: z.string() }),
    response: ok(ssoSettingsResponseSchema),
    access: { account: { from: 'path.account', can: 'manageCompany' } },
  }),
  put: endpoint('PUT /api/accounts/:id/sso', {
    params: z.object({ id: z.string() }),
    body: putSsoRequestSchema,
    response: ok(ssoSettingsResponseSchema),
    access: { account: { from: 'path.account', can: 'manageCompany' } },
    stepUp: true,
  }),
};
