import { z } from 'zod';
import { endpoint, ok } from './endpoints.ts';
import { roleSchema } from './memberships.ts';

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

export const ssoTexts = {
  noConnection: (domain: string) =>
    `No single sign-on is set up for ${domain}. Sign in with your password instead.`,
  required: 'Your company signs you in through its identity provider. Use "Sign in with SSO".',
  domainNotVerified:
    'Verify the domain in Settings › Domains first: only a verified domain can use single sign-on.',
  domainTaken: 'Another account already uses single sign-on for this domain.',
  discoveryFailed:
    'The identity provider could not be reached at that issuer URL, or it is not an OpenID provider.',
  failed: 'Single sign-on failed. Try again, or ask your administrator.',
  secretRequired: 'Enter the client secret your identity provider gave you.',
  invalidEmail: 'Enter your work e-mail address.',
} as const;

/** The paths of single sign-on's page routes (outside /api: the browser goes there itself). */
export const SSO_START_PATH = '/auth/sso/start';
export const SSO_CALLBACK_PATH = '/auth/sso/callback';

/** The query of `GET /auth/sso/start`. */
export const ssoStartQuerySchema = z.object({ email: z.string().max(254) });

/**
 * Why a sign-in through the identity provider failed: the callback sends the browser to `/auth/login?sso_error=<code>`,
 * and the login page shows the text. They name no person and nothing the provider said.
 */
export const ssoErrorCodes = [
  'expired',
  'provider',
  'email_unverified',
  'wrong_domain',
  'unavailable',
] as const;
export type SsoErrorCode = (typeof ssoErrorCodes)[number];

export const ssoErrorTexts: Record<SsoErrorCode, string> = {
  expired: 'That single sign-on link has expired or was already used. Start again.',
  provider: 'Your identity provider did not confirm the sign-in. Try again, or ask your administrator.',
  email_unverified: 'Your identity provider did not confirm a verified e-mail address for you.',
  wrong_domain:
    'Your identity provider signed you in with an address of another domain than the one you typed.',
  unavailable: 'Your identity provider could not be reached. Try again in a moment.',
};

/** The login page's text for `?sso_error=`; an unknown code gets the general one. */
export function ssoErrorText(code: string): string {
  const known = ssoErrorCodes.find((candidate) => candidate === code);
  return known ? ssoErrorTexts[known] : ssoTexts.failed;
}

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
