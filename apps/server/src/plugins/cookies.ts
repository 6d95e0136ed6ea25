import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../config.ts';

/**
 * In production the cookies carry the `__Host-` prefix (Secure, Path=/, no Domain: no sibling sub-domain can set
 * or shadow them) and `Secure`. Outside production plain names, so http://localhost works.
 */
export function cookieNames(config: Config) {
  const prefix = config.isProduction ? '__Host-' : '';
  // `mfaLogin`: a sign-in waiting for its second factor (issue #38), with the session cookie's options.
  return { session: `${prefix}vf_session`, csrf: `${prefix}vf_csrf`, mfaLogin: `${prefix}vf_mfa_login` };
}

export function baseCookieOptions(config: Config): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: config.isProduction };
}
