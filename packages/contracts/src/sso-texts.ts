/**
 * Single sign-on's words and page paths (issue #38 item 4), without zod: the login page shows `?sso_error=` texts
 * before the app's code is loaded (its first paint), so it imports this module alone
 * (`@veriform/contracts/sso-texts`).
 */

export const ssoTexts = {
  noConnection: (domain: string) =>
    `No single sign-on is set up for ${domain}. Sign in with your password instead.`,
  required: 'Your company signs you in through its identity provider. Use "Sign in with SSO".',
  domainNotVerified:
    'Verify the domain in Settings › Company Info › Domains first: only a verified domain can use single sign-on.',
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
